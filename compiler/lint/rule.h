// Lint: the rules that read the model and report what an author must fix.
//
// A rule is a small unit: an id, a severity, a one-line summary and a check function, listed
// once in rule_list.cc (no self-registration). Rules without a check are reported by an
// earlier stage (the YAML loader, the schema validator, kbc.yaml's reader) and are listed so
// that `kbc lint --list-rules` and the README show every id a diagnostic can carry.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "base/text.h"
#include "match/benign_corpus.h"
#include "model/knowledge_base.h"

namespace re2 {
class RE2;
}
using re2::RE2;  // as <re2/re2.h> has it

namespace kbc {

class RegexIndex;  // match/regex_index.h: a rule that runs regexes includes it
struct Breadth;    // match/breadth.h

// A text of one entry (its signature or a sample) that another entry's regex matches.
struct RegexHit {
  std::size_t entry;    // the entry the text belongs to
  std::string pointer;  // "/signature" or "/samples/2"
};

// The texts an entry's regex is meant to recognise, as JSON pointers: "/signature" and each of
// "/samples/<i>" that is a string.
std::vector<std::string> own_text_pointers(const Entry& entry);

// Every entry's own texts (own_text_pointers), in entry order: what cross_entry_hits matches,
// looked up once for all the chunks of regexes that a lint runs over them.
struct OwnTexts {
  std::vector<std::size_t> owner;
  std::vector<std::string> pointer;
  std::vector<std::string_view> text;
};
OwnTexts own_texts(const KnowledgeBase& kb);

// For every entry, the texts (signature, samples) of other entries that its regex in `regexes`
// matches, in entry order. Lint's regex-overlap and kbc stats read them.
std::vector<std::vector<RegexHit>> cross_entry_hits(const KnowledgeBase& kb,
                                                    const RegexIndex& regexes);
std::vector<std::vector<RegexHit>> cross_entry_hits(const KnowledgeBase& kb,
                                                    const RegexIndex& regexes,
                                                    const OwnTexts& texts);

// No entry: the entry's signature is not checked (its shape is wrong).
inline constexpr std::size_t kNoEntry = static_cast<std::size_t>(-1);

// The entries whose regex matches somewhere in a text, in increasing order.
using RegexesMatching = std::function<std::vector<std::size_t>(std::string_view text)>;

// For every entry, the entry that `kbc match` ranks first when given the entry's own signature
// (the entry itself when it is reachable), or kNoEntry for an entry whose shape is wrong. See
// signature_winners.cc for why this needs no matcher over the whole knowledge base.
//
// An entry whose signature is not one plain line competes with the regexes that match a line of
// it: its winner is chosen among those `candidates` (with the entry itself and the signatures
// found in it), which `choices`, when given, receives for each such entry.
struct WinnerChoice {
  std::vector<std::size_t> candidates;  // in increasing order
  std::size_t winner = kNoEntry;
};
// What a lint after an edit brings: the last lint's choice for an unchanged entry whose
// candidates are all unchanged (else nullopt), the changed entries, and which of the changed
// entries' regexes match a text. A known choice stands unless a changed entry joins it.
struct KnownChoices {
  std::function<std::optional<WinnerChoice>(std::size_t entry)> choice;
  std::vector<std::size_t> changed;
  RegexesMatching changed_matching;
};
std::vector<std::size_t> signature_winners(const KnowledgeBase& kb, const RegexesMatching& matching,
                                           std::vector<WinnerChoice>* choices = nullptr,
                                           const KnownChoices* known = nullptr);
// The texts signature_winners gives `matching`, so that they can be matched beforehand.
std::vector<std::string_view> signature_winner_queries(const KnowledgeBase& kb);

class Reporter;

// What a local rule may look at besides its entry: the entry's own regex, compiled, and the
// knowledge base's languages; nothing of the other entries. What a local rule found in a file is
// therefore still true while the file is unchanged, and incremental lint reuses it.
struct EntryContext {
  const RE2* regex;                // nullptr when there is none or it did not compile
  const std::string& regex_error;  // RE2's error for one that did not compile
  const std::vector<Language>& languages;
};

// The last lint's findings in each file, indexed like kb.entries: a run of its sorted findings
// for a file that did not change, nullopt for one that did.
using LastFindings = std::vector<std::optional<std::span<const Diagnostic>>>;

// What a cross-entry rule may look at: the whole knowledge base and what lint computed over it.
// Computed once per lint run.
struct LintContext {
  const KnowledgeBase& kb;
  // Indexed like kb.entries, and filled in for the entries being checked: the compiled regex
  // (nullptr when there is none or it did not compile) and RE2's error for one that did not.
  const std::vector<const RE2*>& regex;
  const std::vector<std::string>& regex_error;
  const std::vector<std::vector<RegexHit>>& hits;  // hits[i]: other entries' texts regex i matches
  const std::vector<std::size_t>& winners;         // signature_winners
  // The benign corpus (kbc's and kbc.yaml's), and the breadth of each checked entry's regex on
  // it (breadth.h; other_errors is not filled in: regex-overlap reads `hits`).
  const std::vector<BenignLine>& benign;
  const std::vector<Breadth>& breadth;
  // In a lint after an edit, the last lint's findings in each file that did not change, indexed
  // like kb.entries (nullopt for a file that changed; the benign corpus did not change either:
  // else the lint is whole); nullptr in a whole lint. What a cross-entry rule found there from
  // the entry and the benign corpus alone still holds.
  const LastFindings* unchanged = nullptr;
  // Indexed like kb.entries, in a lint after an edit: true where the file did not change and its
  // regex matches the same texts of other unchanged files as before (`hits` are as they were).
  const std::vector<bool>* same_hits = nullptr;

  // The last lint's findings in `entry`'s file when it did not change, else nullptr.
  const std::span<const Diagnostic>* previous(const Entry& entry) const {
    if (!unchanged) return nullptr;
    const auto& found = (*unchanged)[index_of(entry)];
    return found ? &*found : nullptr;
  }
  // Whether entry i's hits are those of the last lint, in files that did not change.
  bool hits_as_before(std::size_t i) const { return same_hits && (*same_hits)[i]; }

  std::size_t index_of(const Entry& entry) const {
    return static_cast<std::size_t>(&entry - kb.entries.data());
  }
  // What a local rule sees of entry i.
  EntryContext entry(std::size_t i) const { return {regex[i], regex_error[i], kb.languages}; }
  // The ids the entries' paths give (kb.file_ids), for did-you-mean: made when first asked for,
  // by any thread.
  const TypoCandidates& file_id_candidates() const {
    std::call_once(file_ids_made, [this] { file_ids.emplace(kb.file_ids); });
    return *file_ids;
  }

  mutable std::once_flag file_ids_made = {};
  mutable std::optional<TypoCandidates> file_ids = {};
};

// A rule, as clang-tidy has checks: an id, a severity, a one-line summary and a check, which
// takes an EntryContext (a local rule) or a LintContext (a cross-entry rule), so that a rule
// cannot read other entries without being known to. Each is defined in its own file under
// rules/ with designated initializers. A rule with no check is reported by an earlier stage.
struct Rule {
  std::string_view id;
  Severity severity;
  std::string_view summary;
  void (*local)(const Entry& entry, const EntryContext& context, Reporter& report) = nullptr;
  void (*cross_entry)(const Entry& entry, const LintContext& context, Reporter& report) = nullptr;
  // A cross-entry rule that reads of the other entries only what its entry's regex matches
  // (`hits`, `breadth`): a whole lint, which compiles the regexes a chunk at a time, runs it
  // with its entry's chunk, where the regex is compiled and its hits are known.
  bool with_regex_chunk = false;
  // True when the build cannot do without the rule: ignoring its errors would leave entries out
  // silently or write wrong output. kbc.yaml cannot turn it off or down, and no kbc-disable
  // comment or exclusion can suppress it.
  bool required = false;

  bool checks_entries() const { return local || cross_entry; }
};

// Collects one rule's findings with that rule's id and severity.
class Reporter {
 public:
  Reporter(const Rule& rule, Diagnostics& out) : rule_(rule), out_(out) {}
  // At the value of the node at `pointer` (or its nearest existing ancestor).
  void at_value(const Entry& entry, std::string_view pointer, std::string message);
  // At the key of the node: for problems with the key's presence rather than its value.
  void at_key(const Entry& entry, std::string_view pointer, std::string message);
  // A finding of this rule from the last lint, again.
  void again(const Diagnostic& finding) { out_.push_back(finding); }

 private:
  const Rule& rule_;
  Diagnostics& out_;
};

// Every rule, in the order --list-rules prints them.
const std::vector<Rule>& all_rules();

// Runs every rule over every entry, or over the entries whose path is in `only` when it is not
// empty (their regexes are then the only ones compiled: the cross-entry rules report on the
// entry whose regex matches, so the others' regexes are not needed).
// Regexes are compiled `regex_chunk` at a time (lint.cc): the memory that compiled regexes hold
// stays bounded whatever the size of the knowledge base.
inline constexpr std::size_t kRegexChunk = 4096;
Diagnostics run_lint(const KnowledgeBase& kb, const std::set<std::string>& only = {},
                     std::size_t regex_chunk = kRegexChunk);

struct LastLint;

// A lint of the whole knowledge base that reuses what `last` (the last whole lint, if any) found
// and learnt where the files it read are unchanged (last_lint.h), and stores into `next` what the
// next one can reuse, its findings (exactly what run_lint(kb) finds) included. The findings it
// reuses are moved out of `last` (a copy was 250 MB at 100,000 entries).
void run_lint(const KnowledgeBase& kb, LastLint* last, LastLint& next);

class ParseCache;

// The findings part of the last whole lint through `cache` (its digests and findings), if any.
// Reads no entry: a caller can read it while the files are being listed and loaded.
std::optional<LastLint> read_last_lint(const ParseCache& cache);
// A whole lint through `cache`, given read_last_lint's `last`: what the last whole lint found
// when the files are those it saw, byte for byte; otherwise the incremental run_lint above,
// whose facts are stored for the next.
Diagnostics run_lint_cached(const KnowledgeBase& kb, ParseCache& cache,
                            std::optional<LastLint> last);
// Adds the facts part of the last whole lint through `cache` to `last` (its findings part):
// false when there is none for those findings.
bool add_last_lint_facts(const ParseCache& cache, LastLint& last);
// For each listed file, whether the lint after `last` (with its facts) reuses what `last` found
// and learnt of it: true where the file is the one `last` checked, byte for byte, when the lint
// is one after an edit (few files changed, the same benign corpus). Those files' entries may be
// loaded slim (Entry::slim): that lint runs only the cross-entry rules on them, which read
// only their slim keys. Empty when the lint is to be whole.
std::vector<bool> lint_unchanged_files(const LastLint& last, const EntryListing& listing,
                                       const std::vector<BenignFile>& benign);
// The findings of `last` (moved out of it) when it checked these files (kb.digest).
std::optional<Diagnostics> last_lint_findings(const KnowledgeBase& kb,
                                              std::optional<LastLint>& last);

}  // namespace kbc
