// What the last whole lint of a knowledge base found and learnt, kept in the parse cache so that
// the next whole lint does only the work that the files changed since can make necessary.
//
// The rules that read only their own entry (most of them) find the same in an unchanged file, so
// their findings are taken as they are. The expensive part of the others is the cross-entry
// regex matching: which regexes match which other entries' texts. For that the last lint keeps,
// per entry, the texts its regex matched and the atoms of its regex (the literals any match must
// contain, from RE2's FilteredRE2 on that regex alone). After an edit, only the changed entries'
// regexes are compiled and run over every text; their texts are run through the unchanged
// regexes that have an atom in them, compiled on demand. Everything else is reused, so a lint
// after editing one entry compiles a few hundred regexes instead of 2,500 (see lint.cc).
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/diagnostic.h"
#include "model/entry.h"
#include "model/knowledge_base.h"

namespace kbc {

struct LastLint {
  using Half = std::array<std::uint8_t, 16>;
  struct EntryFacts {
    std::string digest;  // Entry::digest of the file that was checked
    // Whether its regex compiled; one that did not (or none) matches nothing.
    bool compiled = false;
    // The atoms of its regex, lowercased, and its clauses (RegexPlan): a text it matches holds
    // one atom of each clause (no atoms: any text may match).
    std::vector<std::string> atoms;
    std::vector<std::vector<int>> clauses;
    // The other entries' texts its regex matched: (path, JSON pointer), in entry order.
    std::vector<std::pair<std::string, std::string>> hits;
    // How many lines of the benign corpus its regex matched, and the first few (indexes).
    int benign_lines = 0;
    std::vector<std::uint32_t> some_benign;
    // For an entry whose signature competes with regexes (WinnerChoice in lint/rule.h): the
    // paths of the candidates its winner was chosen among (none for any other entry), and the
    // winner's path ("" for none).
    std::vector<std::string> winner_candidates;
    std::string winner;
    // Digests of its regex's pattern and of its own texts (own_text_pointers, with the texts):
    // an edit that keeps one keeps what it matched, or what matched it. Half a SHA-256 each,
    // held in place (as strings they were 50 MB of a lint after an edit at 100,000 entries).
    Half regex{}, texts{};
  };
  // Those two digests of an entry.
  static Half regex_digest(const Entry& entry);
  static Half texts_digest(const Entry& entry);

  std::string digest;    // KnowledgeBase::digest of the files it checked
  std::string benign;    // benign_digest of the benign corpus it matched the regexes against
  Diagnostics findings;  // what the rules found, before kbc.yaml settings and suppressions
  std::map<std::string, EntryFacts> entries;  // by path
  bool has_facts = false;                     // add_facts added them

  // Stored as two parts, so that a lint of unchanged files reads only the first: the digests
  // and the findings, and the facts of the entries (most of the bytes: 36 MB of 100,000
  // entries' atoms and hits). Each part is its magic line, its digests and a count, then a
  // finding or an entry at a time as bytes (base/byte_io.h), written to `out` a megabyte at a
  // time and read back without a document (the findings are 97 MB at 100,000 entries, and took
  // 530 MB as a JSON document). False when `out` failed.
  bool write_findings(std::ostream& out) const;
  bool write_facts(std::ostream& out) const;
  // The digests and findings of `bytes`, as write_findings wrote them (the facts left empty);
  // nullopt for anything else.
  static std::optional<LastLint> from_bytes(std::string_view bytes);
  // Adds the facts of `bytes`, as write_facts wrote them for the same knowledge base; false (and
  // none added) for anything else.
  bool add_facts(std::string_view bytes);
};

// The last lint's facts are used when at most this many files changed since; beyond that, the
// changed regexes run over every text without a prefilter, and the index is faster.
inline constexpr std::size_t kMaxChangedEntries = 32;

// What identifies the benign corpus: kbc's own is part of the program (which the cache's folder
// names), a knowledge base's files are not.
std::string benign_digest(const std::vector<BenignFile>& benign);

// What the last lint knew of each entry (`before`): its facts when its file is unchanged, else
// those of the file at its path; the digests of its regex and own texts now, and whether they
// are still what they were.
struct SinceLast {
  std::vector<const LastLint::EntryFacts*> before;
  std::vector<LastLint::Half> regex, texts;
  std::vector<bool> same_regex, same_texts;

  // `facts`: the last lint's facts of each entry whose file is unchanged, else nullptr.
  SinceLast(const KnowledgeBase& kb, const LastLint& last,
            const std::vector<const LastLint::EntryFacts*>& facts);
};

}  // namespace kbc
