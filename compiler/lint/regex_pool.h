// The entries' regexes for a lint after an edit (lint.cc): the changed entries' compiled up
// front, each on its own with its atoms; the unchanged ones compiled only when a text holds
// their atoms, as the last lint learnt them (lint/last_lint.h).
#pragma once

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/last_lint.h"
#include "match/atom_finder.h"
#include "match/regex_index.h"
#include "model/knowledge_base.h"

namespace kbc {

// The entry's regex, when it has one that is text.
std::optional<std::string_view> regex_of(const Entry& entry);

// One entry's regex compiled on its own, with the atoms FilteredRE2 requires of a text it may
// match: one of each of its `clauses` (RegexPlan; none when any text may match).
struct LoneRegex {
  re2::FilteredRE2 filter{RegexIndex::kMinAtomLength};
  std::vector<std::string> atoms;
  std::vector<std::vector<int>> clauses;
  std::string error;
  bool compiled = false;

  explicit LoneRegex(std::optional<std::string_view> pattern);
  const RE2* regex() const { return compiled ? &filter.GetRE2(0) : nullptr; }
};

class RegexPool {
 public:
  // `facts[i]` is what the last lint learnt of entry i, or nullptr when it changed since.
  RegexPool(const KnowledgeBase& kb, const std::vector<const LastLint::EntryFacts*>& facts);

  // Entry i's regex compiled on its own, when entry i changed; else nullptr.
  const LoneRegex* changed(std::size_t entry) const { return lone_[entry].get(); }
  // Frees the unchanged entries' regexes compiled on demand (with their DFAs: about a gigabyte
  // at 100,000 entries); `matching` compiles them again if asked.
  void drop_compiled_on_demand();

  // The entries whose regex matches somewhere in `text`, in increasing order. Not from several
  // threads at once.
  std::vector<std::size_t> matching(std::string_view text);

 private:
  // Files each unchanged regex under the atoms of one of its clauses (by_atom_): the one the
  // fewest clauses share, among those the finder can look for; or in always_ when it has none
  // (any text may match) or no such clause. The changed regexes go in always_.
  void index_atoms();
  // False when the folded text holds no atom of one of the regex's clauses (atoms beyond ASCII
  // count as present: the text is folded for ASCII only).
  bool may_match(const LastLint::EntryFacts& facts) const;

  const KnowledgeBase& kb_;
  const std::vector<const LastLint::EntryFacts*>& facts_;
  std::vector<std::unique_ptr<LoneRegex>> lone_;  // the changed entries'
  std::vector<std::unique_ptr<RE2>> lazy_;        // the others', once needed
  std::string folded_;
  // Made at the first `matching`: one pass over a text finds every atom it holds, where testing
  // each regex's atoms in turn took 6 s for the signature winners after one edit at 100,000.
  std::vector<std::string> atoms_;
  std::optional<AtomFinder> finder_;
  std::vector<std::vector<std::size_t>> by_atom_;  // atoms_[a] -> the entries with that atom
  std::vector<std::size_t> always_;                // candidates for any text
  std::vector<int> found_;
};

}  // namespace kbc
