// What the prefilter of a RegexIndex needs to know of each regex, kept between runs so that a
// one-shot `kbc match` compiles only the regexes that may match its text.
//
// Compiling the ~2,300 regexes of a large knowledge base is most of what a one-shot match costs
// (90 ms of 150 on two cores). But which regexes may match a text follows from each regex's
// atoms, the literal texts that any match contains (FilteredRE2's, of the regex alone): a regex
// with atoms can match only a text that holds at least one of each of its clauses. The prefilter
// is an AND/OR of the atoms, so it is monotone: a set of atoms is a clause when the prefilter
// fails for the text of all the other atoms (then it fails for every text without one of them).
// A plan is those atoms and some minimal clauses, or that the regex has none, or RE2's error.
// Plans are
// kept in one file of the user's cache, each under its regex's text, so that a knowledge base
// that changes recomputes only its new regexes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace re2 {
class FilteredRE2;
}

namespace kbc {

struct RegexPlan {
  std::vector<std::string> atoms;  // lowercased; empty when unfiltered or broken
  // Sets of atoms (indexes into `atoms`, each sorted, and sorted) of which every text the
  // prefilter lets through holds one each: `CUDA.*out of memory` has two of one atom (both are
  // required), `(oom|killed)` one of two, `K0 .*(DataBinding|symbol)` {`k0 `} and the other two.
  // Each is minimal (no atom of it can go); a required atom is a clause of its own.
  std::vector<std::vector<int>> clauses;
  bool unfiltered = false;  // no atoms: any text may match
  std::string error;        // RE2's error; empty when the regex compiles
};

// Whether a text holds an atom of each of `clauses` (RegexPlan), `holds(atom)` telling whether
// it holds that one.
template <typename Holds>
bool holds_each_clause(const std::vector<std::vector<int>>& clauses, const Holds& holds) {
  return std::all_of(clauses.begin(), clauses.end(), [&](const std::vector<int>& clause) {
    return std::any_of(clause.begin(), clause.end(), holds);
  });
}

// The clause to file a regex under, since a text it matches holds one of its atoms: of the
// `clauses` whose every atom is `usable`, the one whose atoms' `uses` add up to the least;
// nullptr when there is none.
template <typename Uses, typename Usable>
const std::vector<int>* rarest_clause(const std::vector<std::vector<int>>& clauses,
                                      const Uses& uses, const Usable& usable) {
  const std::vector<int>* rarest = nullptr;
  std::size_t fewest = 0;
  for (const std::vector<int>& clause : clauses) {
    if (!std::all_of(clause.begin(), clause.end(), usable)) continue;
    std::size_t sum = 0;
    for (const int atom : clause) sum += uses(atom);
    if (!rarest || sum < fewest) rarest = &clause, fewest = sum;
  }
  return rarest;
}

class RegexPlans {
 public:
  // Plans are kept for at most this many regexes: past it, those not used by this run go.
  static constexpr std::size_t kMostKept = 100000;

  RegexPlans() = default;

  // The plans in the file at `path`; none when it is missing, unreadable or not such a file.
  static RegexPlans read(const std::string& path);
  // Writes the plans (only those used since `read` when there are more than kMostKept) to
  // `path`, through a temporary file renamed over it. False when that fails.
  bool write(const std::string& path) const;

  // Makes sure each of `patterns` has a plan, compiling the new ones (in parallel), and marks
  // them used.
  void add(const std::vector<std::string_view>& patterns);
  // The plan of `pattern`, which `add` has seen; stable while this object lives.
  const RegexPlan& of(std::string_view pattern) const;

  // Whether `add` computed plans that `read` did not give.
  bool changed() const { return changed_; }
  std::size_t size() const { return plans_.size(); }

 private:
  struct Kept {
    RegexPlan plan;
    bool used = false;
  };
  std::unordered_map<std::string, Kept> plans_;
  bool changed_ = false;
};

// The plan of one regex, compiled with entry_regex_options (regex_index.h) into `filter`, which
// must be empty: the regex is its id 0 when it compiles. A pattern longer than
// RegexIndex::kMaxPatternBytes is not compiled (FilteredRE2 takes time quadratic in the length
// of a literal): its plan is an error.
RegexPlan plan_regex(std::string_view pattern, re2::FilteredRE2& filter);
// The same, with a filter of its own.
RegexPlan plan_regex(std::string_view pattern);

// Where kbc keeps plans for this user: $XDG_CACHE_HOME/kbc/regex-plans, else
// $HOME/.cache/kbc/regex-plans; nullopt when neither variable is set to an absolute path.
std::optional<std::string> user_regex_plans_path();

}  // namespace kbc
