// Every entry's regex, compiled once, and a prefilter to match a text against all of them.
//
// Testing each of N texts against each of N regexes is quadratic (seconds at 2,522 entries),
// and an RE2::Set of that many regexes exceeds RE2's memory budget. RE2's FilteredRE2 instead
// reduces each regex to literal "atoms" that any match must contain; only the regexes whose
// atoms occur in a text are run (regexes with no usable atom always are). The regexes are
// split into one FilteredRE2 shard per core, compiled in parallel.
//
// Finding the atoms in a text is a multi-literal search. An RE2::Set of the ~8,000 atoms does it
// but builds a huge DFA lazily, text by text (half a second over the corpus); the atoms are
// instead indexed by their first three bytes, which every atom has (kMinAtomLength), so each
// text position costs one hash lookup.
#pragma once

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kbc {

class RegexIndex {
 public:
  // `patterns[i]` is entry i's regex, or nullopt when it has none.
  explicit RegexIndex(const std::vector<std::optional<std::string_view>>& patterns);
  ~RegexIndex();

  // Entry i's compiled regex, or nullptr when it has none or it did not compile.
  const RE2* regex(std::size_t entry) const;
  // RE2's error for entry i's regex; empty when it compiled.
  const std::string& error(std::size_t entry) const { return errors_[entry]; }

  // The entries whose regex matches somewhere in `text`, in increasing order.
  std::vector<std::size_t> matching(std::string_view text) const;

 private:
  struct Shard {
    re2::FilteredRE2 filter;
    std::vector<std::size_t> entries;  // FilteredRE2 id -> entry
    std::vector<std::string> atoms;
  };
  struct AtomRef {
    std::uint32_t shard;
    int atom;
  };

  void build_shard(Shard& shard, std::size_t begin, std::size_t end,
                   const std::vector<std::optional<std::string_view>>& patterns);
  void index_atoms();

  std::vector<std::string> errors_;
  std::vector<std::pair<int, int>> location_;  // entry -> (shard, FilteredRE2 id); (-1, -1) if none
  std::vector<std::unique_ptr<Shard>> shards_;
  std::unordered_map<std::uint32_t, std::vector<AtomRef>> atoms_by_prefix_;
  std::vector<AtomRef> short_atoms_;
};

// RE2 options used for entry regexes everywhere (lint, match, build).
RE2::Options entry_regex_options();

}  // namespace kbc
