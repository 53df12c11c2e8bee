#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>

#include "base/memory.h"
#include "base/parallel.h"
#include "base/text.h"
#include "base/timings.h"
#include "lint/last_lint.h"
#include "lint/regex_pool.h"
#include "lint/rule.h"
#include "match/breadth.h"

namespace kbc {

void Reporter::at_value(const Entry& entry, std::string_view pointer, std::string message) {
  out_.push_back({entry.path, entry.value_at(pointer), rule_.severity, std::move(message),
                  std::string(rule_.id), "", std::string(pointer)});
}

void Reporter::at_key(const Entry& entry, std::string_view pointer, std::string message) {
  out_.push_back({entry.path, entry.key_at(pointer), rule_.severity, std::move(message),
                  std::string(rule_.id), "", std::string(pointer)});
}

std::vector<std::string> own_text_pointers(const Entry& entry) {
  std::vector<std::string> pointers;
  if (entry.find("/signature") && entry.find("/signature")->is_string())
    pointers.push_back("/signature");
  const auto& samples = entry.list("/samples");
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (samples[i].is_string()) pointers.push_back("/samples/" + std::to_string(i));
  }
  return pointers;
}

OwnTexts own_texts(const KnowledgeBase& kb) {
  OwnTexts texts;
  for (std::size_t owner = 0; owner < kb.entries.size(); ++owner) {
    for (std::string& pointer : own_text_pointers(kb.entries[owner])) {
      texts.owner.push_back(owner);
      texts.text.push_back(kb.entries[owner].text(pointer));
      texts.pointer.push_back(std::move(pointer));
    }
  }
  return texts;
}

std::vector<std::vector<RegexHit>> cross_entry_hits(const KnowledgeBase& kb,
                                                    const RegexIndex& regexes) {
  return cross_entry_hits(kb, regexes, own_texts(kb));
}

std::vector<std::vector<RegexHit>> cross_entry_hits(const KnowledgeBase& kb,
                                                    const RegexIndex& regexes,
                                                    const OwnTexts& texts) {
  const std::vector<std::vector<std::size_t>> matching = regexes.matching_each(texts.text);
  std::vector<std::vector<RegexHit>> hits(kb.entries.size());
  for (std::size_t t = 0; t < matching.size(); ++t) {  // in entry order
    for (const std::size_t matcher : matching[t]) {
      if (matcher != texts.owner[t]) hits[matcher].push_back({texts.owner[t], texts.pointer[t]});
    }
  }
  return hits;
}

namespace {

// The rules over the entries of [first, last) that `check` accepts, into one list. The workers
// check blocks of them (of the range, so that a chunk's entries are spread over the cores), and
// each sorts its block's findings: the blocks follow the entries, which are in path order, so the
// list comes out sorted, or nearly, for the caller's sort_diagnostics (a single sort of 115,000
// findings, each block's one rule after another, was 0.2 s on one core at 100,000 entries). The
// order in which blocks finish does not show in the output.
template <typename Check>
Diagnostics run_rules(const LintContext& context, Check check, std::size_t first = 0,
                      std::size_t last = std::numeric_limits<std::size_t>::max()) {
  const KnowledgeBase& kb = context.kb;
  last = std::min(last, kb.entries.size());
  std::vector<Diagnostics> per_slice(std::max<std::size_t>(1, last - first));
  parallel_blocks(last - first, [&](std::size_t begin, std::size_t end) {
    Diagnostics& found = per_slice[begin];
    begin += first;
    end += first;
    for (const Rule& rule : all_rules()) {
      if (!rule.checks_entries()) continue;
      Reporter reporter(rule, found);
      for (std::size_t i = begin; i < end; ++i) {
        if (!check(rule, i)) continue;
        if (rule.local)
          rule.local(kb.entries[i], context.entry(i), reporter);
        else
          rule.cross_entry(kb.entries[i], context, reporter);
      }
    }
    std::stable_sort(found.begin(), found.end(), comes_before);
  });
  Diagnostics out;
  std::size_t total = 0;
  for (const Diagnostics& found : per_slice) total += found.size();
  out.reserve(total);
  for (Diagnostics& found : per_slice) {
    out.insert(out.end(), std::make_move_iterator(found.begin()),
               std::make_move_iterator(found.end()));
  }
  return out;
}

// Each entry's id and signature, as RegexBreadth reads them, and, for a lint that measures
// every regex (a chunk at a time), the texts prepared once.
struct BreadthInputs {
  std::vector<std::string> id_texts;  // Entry::id() makes a string
  std::vector<std::string_view> ids, signatures;
  std::optional<BreadthTexts> texts;

  explicit BreadthInputs(const KnowledgeBase& kb) {
    for (const Entry& entry : kb.entries) id_texts.push_back(entry.id());
    for (std::size_t i = 0; i < kb.entries.size(); ++i) {
      const Entry& entry = kb.entries[i];
      ids.push_back(id_texts[i]);
      const auto* signature = entry.find("/signature");
      signatures.push_back(signature && signature->is_string() ? entry.text("/signature") : "");
    }
  }
};

// The breadth on the benign corpus of the regexes in `regexes` (entry i's as its pattern i) of
// the entries of [first, last) that `wanted` accepts, on every core. The first `direct` are
// searched directly (RegexBreadth).
template <typename Wanted>
std::vector<Breadth> benign_breadth(const KnowledgeBase& kb, const BreadthInputs& inputs,
                                    const RegexIndex& regexes,
                                    const std::vector<BenignLine>& benign, Wanted wanted,
                                    std::size_t direct, std::size_t first = 0,
                                    std::size_t last = std::numeric_limits<std::size_t>::max()) {
  const auto pattern_of = [](std::size_t i) { return i; };
  const RegexBreadth breadth =
      inputs.texts
          ? RegexBreadth(regexes, pattern_of, inputs.ids, *inputs.texts, direct)
          : RegexBreadth(regexes, pattern_of, inputs.ids, inputs.signatures, benign, direct);
  std::vector<Breadth> out(kb.entries.size());
  last = std::min(last, kb.entries.size());
  parallel_blocks(last - first, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = first + begin; i < first + end; ++i) {
      if (wanted(i) && regexes.regex(i)) out[i] = breadth.of(i);
    }
  });
  return out;
}

// What the last lint's facts say of a regex alone (LoneRegex or LastLint::EntryFacts): whether it
// compiled, and its atoms.
template <typename Regex>
LastLint::EntryFacts regex_facts(const Regex& regex) {
  LastLint::EntryFacts facts;
  facts.compiled = regex.compiled;
  facts.atoms = regex.atoms;
  facts.clauses = regex.clauses;
  return facts;
}

// How the last lint's facts are kept for the next one, with `regex` those of its regex
// (regex_facts) and its digests.
void learn(const KnowledgeBase& kb, const std::vector<std::vector<RegexHit>>& hits,
           std::size_t entry, LastLint::EntryFacts regex, const Breadth& breadth,
           const WinnerChoice& choice, LastLint& next) {
  LastLint::EntryFacts& facts = next.entries[kb.entries[entry].path];
  facts = std::move(regex);
  for (const std::size_t candidate : choice.candidates)
    facts.winner_candidates.push_back(kb.entries[candidate].path);
  if (choice.winner != kNoEntry) facts.winner = kb.entries[choice.winner].path;
  facts.digest = kb.entries[entry].digest;
  facts.benign_lines = breadth.benign_lines;
  facts.some_benign = breadth.some_benign;
  for (const RegexHit& hit : hits[entry])
    facts.hits.emplace_back(kb.entries[hit.entry].path, hit.pointer);
}

// What the regexes match and what the local rules find, computed a chunk of regexes at a time:
// each chunk's regexes are compiled, run over every text and the benign corpus, handed to the
// local rules of their entries, and freed before the next chunk. A compiled regex, with the DFA
// states RE2 keeps as it matches, holds tens of kilobytes: a lint of 100,000 regexes at once
// needed 10 GB. Each chunk meets every text, so a chunk costs one AtomFinder pass over them.
struct ChunkedFacts {
  std::vector<std::vector<RegexHit>> hits;
  std::map<std::string_view, std::vector<std::size_t>> winner_matches;  // per query of winners
  std::vector<Breadth> breadth;
  std::vector<std::string> errors;
  std::vector<bool> compiled;
  Diagnostics local;  // the local rules' findings

  explicit ChunkedFacts(std::size_t n) : hits(n), breadth(n), errors(n), compiled(n) {}
};

void run_chunk(const KnowledgeBase& kb,
               const std::vector<std::optional<std::string_view>>& patterns, const OwnTexts& texts,
               const BreadthInputs& breadth_inputs, const std::vector<BenignLine>& benign,
               const std::vector<std::string_view>& winner_queries, std::size_t begin,
               std::size_t end, ChunkedFacts& facts) {
  std::vector<std::optional<std::string_view>> chunk(patterns.size());
  for (std::size_t i = begin; i < end; ++i) chunk[i] = patterns[i];
  std::optional<Phase> phase("regex index");
  const RegexIndex regexes(chunk, RegexIndex::DistinctTexts{});
  phase.emplace("cross-entry matches");
  auto hits = cross_entry_hits(kb, regexes, texts);
  for (std::size_t i = begin; i < end; ++i) facts.hits[i] = std::move(hits[i]);
  const auto winner_matches = regexes.matching_each(winner_queries);
  for (std::size_t q = 0; q < winner_queries.size(); ++q) {
    auto& matches = facts.winner_matches[winner_queries[q]];
    matches.insert(matches.end(), winner_matches[q].begin(), winner_matches[q].end());
  }
  phase.emplace("benign corpus");
  // Prefiltered: a chunk asks for thousands of regexes' breadth (see RegexBreadth).
  const std::vector<Breadth> breadth = benign_breadth(
      kb, breadth_inputs, regexes, benign, [&](std::size_t i) { return chunk[i].has_value(); }, 0,
      begin, end);
  for (std::size_t i = begin; i < end; ++i) facts.breadth[i] = breadth[i];
  phase.emplace("rules");
  std::vector<const RE2*> compiled(kb.entries.size());
  for (std::size_t i = begin; i < end; ++i) {
    compiled[i] = regexes.regex(i);
    facts.compiled[i] = compiled[i] != nullptr;
    facts.errors[i] = regexes.error(i);
  }
  const std::vector<std::size_t> no_winners;
  const LintContext context{kb,         compiled, facts.errors, facts.hits,
                            no_winners, benign,   facts.breadth};
  Diagnostics found = run_rules(
      context,
      [&](const Rule& rule, std::size_t i) {
        return (rule.local || rule.with_regex_chunk) && chunk[i];
      },
      begin, end);
  std::move(found.begin(), found.end(), std::back_inserter(facts.local));
}

// The whole lint, from scratch.
Diagnostics lint_everything(const KnowledgeBase& kb, const std::set<std::string>& only,
                            LastLint* next, std::size_t regex_chunk = kRegexChunk) {
  const auto checked = [&](const Entry& entry) { return only.empty() || only.count(entry.path); };
  const std::size_t n = kb.entries.size();
  std::vector<std::optional<std::string_view>> patterns;
  for (const Entry& entry : kb.entries)
    patterns.push_back(checked(entry) ? regex_of(entry) : std::nullopt);
  const std::vector<BenignLine> benign = benign_lines_with(kb.benign);
  const std::vector<std::string_view> queries = signature_winner_queries(kb);
  const OwnTexts texts = own_texts(kb);
  BreadthInputs breadth_inputs(kb);
  breadth_inputs.texts.emplace(breadth_inputs.signatures, benign);
  ChunkedFacts facts(n);
  regex_chunk = std::max<std::size_t>(1, regex_chunk);
  for (std::size_t begin = 0; begin < n; begin += regex_chunk) {
    run_chunk(kb, patterns, texts, breadth_inputs, benign, queries, begin,
              std::min(n, begin + regex_chunk), facts);
    return_free_memory();  // the chunk's regexes and their DFAs
  }
  // The cross-entry rules, and the local rules of entries without a regex (run_chunk ran those
  // with one, and the rules that run with their regex chunk).
  std::optional<Phase> phase("rules");
  const std::vector<const RE2*> none(n);
  std::vector<WinnerChoice> choices;
  std::vector<std::size_t> winners = signature_winners(
      kb, [&](std::string_view text) { return facts.winner_matches.at(text); }, &choices);
  const LintContext context{kb, none, facts.errors, facts.hits, winners, benign, facts.breadth};
  Diagnostics out = run_rules(context, [&](const Rule& rule, std::size_t i) {
    return checked(kb.entries[i]) && (rule.cross_entry || !patterns[i]) &&
           !(rule.with_regex_chunk && patterns[i]);
  });
  std::move(facts.local.begin(), facts.local.end(), std::back_inserter(out));
  if (next) {
    phase.emplace("facts for the next lint");
    // The atoms of each regex alone: FilteredRE2 gives no regex's own atoms once they share one.
    std::vector<LastLint::EntryFacts> regexes(n);
    parallel_blocks(n, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        if (facts.compiled[i]) regexes[i] = regex_facts(LoneRegex(patterns[i]));
        regexes[i].compiled = facts.compiled[i];
        regexes[i].regex = LastLint::regex_digest(kb.entries[i]);
        regexes[i].texts = LastLint::texts_digest(kb.entries[i]);
      }
    });
    for (std::size_t i = 0; i < n; ++i)
      learn(kb, facts.hits, i, std::move(regexes[i]), facts.breadth[i], choices[i], *next);
  }
  return out;
}

// Where `pointer` comes in own_text_pointers: the signature, then the samples in order.
std::size_t text_rank(const std::string& pointer) {
  constexpr std::string_view kSamples = "/samples/";
  return pointer.starts_with(kSamples) ? 1 + std::stoul(pointer.substr(kSamples.size())) : 0;
}

// The cross-entry hits of every regex, as cross_entry_hits finds them, from the last lint's
// where neither the regex nor the text changed (in an edited file too): a changed regex runs
// over every unchanged text, and every changed text runs through the pool's prefilter.
std::vector<std::vector<RegexHit>> incremental_hits(
    const KnowledgeBase& kb, const SinceLast& since, RegexPool& pool,
    const std::map<std::string_view, std::size_t>& by_path) {
  const std::size_t n = kb.entries.size();
  std::vector<std::vector<RegexHit>> hits(n);
  for (std::size_t matcher = 0; matcher < n; ++matcher) {
    if (!since.same_regex[matcher]) {  // its regex, over every other text
      const LoneRegex* lone = pool.changed(matcher);
      if (!lone->regex()) continue;
      for (std::size_t owner = 0; owner < n; ++owner) {  // a changed text comes below
        if (owner == matcher || !since.same_texts[owner]) continue;
        for (const std::string& pointer : own_text_pointers(kb.entries[owner])) {
          if (RE2::PartialMatch(kb.entries[owner].text(pointer), *lone->regex()))
            hits[matcher].push_back({owner, pointer});
        }
      }
    } else {  // what it matched last time, among the texts that did not change
      for (const auto& [path, pointer] : since.before[matcher]->hits) {
        const auto owner = by_path.find(path);
        if (owner != by_path.end() && since.same_texts[owner->second])
          hits[matcher].push_back({owner->second, pointer});
      }
    }
  }
  for (std::size_t owner = 0; owner < n; ++owner) {  // the changed texts, through every regex
    if (since.same_texts[owner]) continue;
    for (const std::string& pointer : own_text_pointers(kb.entries[owner])) {
      for (std::size_t matcher : pool.matching(kb.entries[owner].text(pointer))) {
        if (matcher != owner) hits[matcher].push_back({owner, pointer});
      }
    }
  }
  for (auto& list : hits) {  // in entry order, as cross_entry_hits gives them
    std::sort(list.begin(), list.end(), [](const RegexHit& a, const RegexHit& b) {
      return a.entry != b.entry ? a.entry < b.entry : text_rank(a.pointer) < text_rank(b.pointer);
    });
  }
  return hits;
}

// Adds to `findings` (the rules' new findings) what the local rules found in the files that did
// not change (`unchanged`: their runs of `last`), moved from `last`: a local rule reads only its
// entry (EntryContext), so its findings there are still true. The new ones are sorted, and merged
// with the reused ones (sorted when stored) as std::inplace_merge would: each of 527,000 findings
// (100,000 files) is moved once and comes out in order, and a file's path is compared once, not
// each finding's (their texts lie all over the heap).
void reuse_local_findings(Diagnostics& last, const LastFindings& unchanged, Diagnostics& findings) {
  sort_diagnostics(findings);
  std::set<std::string_view> local_rules;
  for (const Rule& rule : all_rules()) {
    if (rule.local) local_rules.insert(rule.id);
  }
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // [begin, end) in `last`, in its order
  for (const auto& file : unchanged) {
    if (!file || file->empty()) continue;
    const auto begin = static_cast<std::size_t>(file->data() - last.data());
    runs.emplace_back(begin, begin + file->size());
  }
  std::sort(runs.begin(), runs.end());
  // Room for all of them at once: grown by doubling, the old and new vectors of 500,000 findings
  // were the peak of a lint after an edit at 100,000 entries.
  Diagnostics merged;
  merged.reserve(findings.size() + last.size());
  auto next = findings.begin();
  std::string path, rule;  // copies: the findings they come from are moved
  bool local = false;      // whether `rule`, the rule of the finding before, is local
  for (const auto& [begin, end] : runs) {
    path = last[begin].path;
    for (; next != findings.end() && next->path < path; ++next) merged.push_back(std::move(*next));
    for (std::size_t k = begin; k < end; ++k) {
      Diagnostic& finding = last[k];
      if (finding.rule != rule) local = local_rules.count(rule = finding.rule) != 0;
      if (!local) continue;
      for (; next != findings.end() && next->path == path && !comes_before(finding, *next); ++next)
        merged.push_back(std::move(*next));
      merged.push_back(std::move(finding));
    }
  }
  std::move(next, findings.end(), std::back_inserter(merged));
  findings = std::move(merged);
  Diagnostics().swap(last);  // what is left of them, moved from
}

// Whether an unchanged entry's regex matches the same texts as in the last lint, all of them in
// unchanged files: then what a rule found from those texts (with their lines) still holds.
bool hits_as_before(const KnowledgeBase& kb, const std::vector<const LastLint::EntryFacts*>& facts,
                    const std::vector<RegexHit>& now,
                    const std::vector<std::pair<std::string, std::string>>& before) {
  if (now.size() != before.size()) return false;
  for (std::size_t h = 0; h < now.size(); ++h) {
    if (!facts[now[h].entry] || kb.entries[now[h].entry].path != before[h].first ||
        now[h].pointer != before[h].second)
      return false;
  }
  return true;
}

// The last lint's facts of each entry whose file it read byte for byte as it is now; nullptr
// for the others (all, without a last lint).
std::vector<const LastLint::EntryFacts*> facts_of_unchanged(const KnowledgeBase& kb,
                                                            const LastLint* last) {
  std::vector<const LastLint::EntryFacts*> facts(kb.entries.size());
  for (std::size_t i = 0; last && i < kb.entries.size(); ++i) {
    const auto it = last->entries.find(kb.entries[i].path);
    if (it != last->entries.end() && it->second.digest == kb.entries[i].digest)
      facts[i] = &it->second;
  }
  return facts;
}

// For LintContext: the last findings in each unchanged file (`last` sorted, so that a file's are
// one run of it), and where the hits are as before.
void unchanged_files(const KnowledgeBase& kb, const std::vector<const LastLint::EntryFacts*>& facts,
                     const std::vector<std::vector<RegexHit>>& hits, Diagnostics& last,
                     const std::map<std::string_view, std::size_t>& by_path,
                     LastFindings& unchanged, std::vector<bool>& same_hits) {
  unchanged.assign(kb.entries.size(), std::nullopt);
  for (std::size_t i = 0; i < kb.entries.size(); ++i) {
    if (!facts[i]) continue;
    unchanged[i].emplace();
    same_hits[i] = hits_as_before(kb, facts, hits[i], facts[i]->hits);
  }
  sort_diagnostics(last);  // as stored: then this only checks that it is
  for (std::size_t begin = 0, end = 0; begin < last.size(); begin = end) {
    while (end < last.size() && last[end].path == last[begin].path) ++end;
    const auto entry = by_path.find(last[begin].path);
    if (entry != by_path.end() && unchanged[entry->second])
      unchanged[entry->second].emplace(last.data() + begin, end - begin);
  }
}

// The breadth of every regex on the benign corpus: the changed regexes run over it, the others'
// is the last lint's.
std::vector<Breadth> incremental_breadth(const KnowledgeBase& kb, const SinceLast& since,
                                         const RegexPool& pool,
                                         const std::vector<BenignLine>& benign) {
  const std::size_t n = kb.entries.size();
  std::vector<std::optional<std::string_view>> changed_patterns(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!since.same_regex[i] && pool.changed(i)->regex())
      changed_patterns[i] = regex_of(kb.entries[i]);
  }
  std::vector<Breadth> breadth(n);  // without a changed regex, no texts to count it on
  if (std::find(since.same_regex.begin(), since.same_regex.end(), false) != since.same_regex.end())
    breadth = benign_breadth(
        kb, BreadthInputs(kb), RegexIndex(changed_patterns), benign,
        [&](std::size_t i) { return !since.same_regex[i]; }, RegexBreadth::kDirectEntries);
  for (std::size_t i = 0; i < n; ++i) {
    if (!since.same_regex[i]) continue;
    breadth[i].benign_lines = since.before[i]->benign_lines;
    breadth[i].some_benign = since.before[i]->some_benign;
  }
  return breadth;
}

// The last lint's winner choices, for an entry and candidates that did not change (a changed
// entry that now joins a choice is signature_winners' to see, through `changed_matching`).
KnownChoices known_choices(const KnowledgeBase& kb,
                           const std::vector<const LastLint::EntryFacts*>& facts,
                           const RegexPool& pool,
                           const std::map<std::string_view, std::size_t>& by_path) {
  KnownChoices known;
  for (std::size_t i = 0; i < kb.entries.size(); ++i)
    if (!facts[i]) known.changed.push_back(i);
  known.changed_matching = [&pool, changed = known.changed](std::string_view text) {
    std::vector<std::size_t> out;
    for (const std::size_t i : changed) {
      const RE2* regex = pool.changed(i)->regex();
      if (regex && RE2::PartialMatch(text, *regex)) out.push_back(i);
    }
    return out;
  };
  known.choice = [&facts, &by_path](std::size_t entry) -> std::optional<WinnerChoice> {
    const LastLint::EntryFacts* last = facts[entry];
    if (!last || last->winner_candidates.empty()) return std::nullopt;
    WinnerChoice choice;
    const auto unchanged = [&](const std::string& path) {
      const auto it = by_path.find(path);
      return it != by_path.end() && facts[it->second] ? it->second : kNoEntry;
    };
    for (const std::string& path : last->winner_candidates) {
      choice.candidates.push_back(unchanged(path));
      if (choice.candidates.back() == kNoEntry) return std::nullopt;
    }
    if (!last->winner.empty() && (choice.winner = unchanged(last->winner)) == kNoEntry)
      return std::nullopt;
    return choice;
  };
  return known;
}

// Only the cross-entry rules of a lint after an edit read slim entries (lint_unchanged_files),
// and only in the files that did not change. A slim entry elsewhere was loaded for such a lint
// while more files changed.
void check_slim_entries(const KnowledgeBase& kb,
                        const std::vector<const LastLint::EntryFacts*>& facts, bool whole) {
  for (std::size_t i = 0; i < kb.entries.size(); ++i) {
    if (kb.entries[i].slim && (whole || !facts[i]))
      throw ToolError(kb.entries[i].path + " changed while kbc was reading it: run kbc again");
  }
}

}  // namespace

Diagnostics run_lint(const KnowledgeBase& kb, const std::set<std::string>& only,
                     std::size_t regex_chunk) {
  return lint_everything(kb, only, nullptr, regex_chunk);
}

void run_lint(const KnowledgeBase& kb, LastLint* last, LastLint& next) {
  next = LastLint{};
  next.digest = kb.digest;
  next.benign = benign_digest(kb.benign);
  const std::size_t n = kb.entries.size();
  const std::vector<const LastLint::EntryFacts*> facts = facts_of_unchanged(kb, last);
  const auto changed = static_cast<std::size_t>(std::count(facts.begin(), facts.end(), nullptr));
  const bool whole = !last || changed > kMaxChangedEntries || last->benign != next.benign;
  check_slim_entries(kb, facts, whole);
  if (whole) {
    next.findings = lint_everything(kb, {}, &next);
    return;
  }

  std::optional<Phase> phase("regexes of the changed entries");
  RegexPool pool(kb, facts);
  const SinceLast since(kb, *last, facts);
  phase.emplace("cross-entry matches");
  std::map<std::string_view, std::size_t> by_path;
  for (std::size_t i = 0; i < n; ++i) by_path[kb.entries[i].path] = i;
  const auto hits = incremental_hits(kb, since, pool, by_path);
  phase.emplace("signature winners");
  std::vector<WinnerChoice> choices;
  const KnownChoices known = known_choices(kb, facts, pool, by_path);
  const auto winners = signature_winners(
      kb, [&](std::string_view text) { return pool.matching(text); }, &choices, &known);
  pool.drop_compiled_on_demand();  // the rules read only the changed entries' regexes
  return_free_memory();

  phase.emplace("benign corpus");
  const std::vector<BenignLine> benign = benign_lines_with(kb.benign);
  const std::vector<Breadth> breadth = incremental_breadth(kb, since, pool, benign);

  phase.emplace("rules");
  std::vector<const RE2*> compiled(n);
  std::vector<std::string> errors(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (const LoneRegex* lone = pool.changed(i)) {
      compiled[i] = lone->regex();
      errors[i] = lone->error;
    }
  }
  LastFindings unchanged;
  std::vector<bool> same_hits(n);
  unchanged_files(kb, facts, hits, last->findings, by_path, unchanged, same_hits);
  const LintContext context{kb,     compiled, errors,     hits,      winners,
                            benign, breadth,  &unchanged, &same_hits};
  // The rules that read only their own entry find in an unchanged file what they found before.
  next.findings = run_rules(context, [&](const Rule& rule, std::size_t i) {
    return rule.cross_entry != nullptr || !facts[i];
  });
  reuse_local_findings(last->findings, unchanged, next.findings);
  for (std::size_t i = 0; i < n; ++i) {
    const LoneRegex* lone = pool.changed(i);
    LastLint::EntryFacts regex = lone ? regex_facts(*lone) : regex_facts(*facts[i]);
    regex.regex = since.regex[i];
    regex.texts = since.texts[i];
    learn(kb, hits, i, std::move(regex), breadth[i], choices[i], next);
  }
}

}  // namespace kbc
