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
//
// For callers that run the regexes on many texts (kbc match on a log: `many_texts`), one RE2::Set
// is the faster search after all, once its DFA has learnt the kind of text: it holds every
// distinct atom (ignoring case) and every regex that has no atom (FilteredRE2 would run each of
// those on every text), so one pass over a text finds both. Lines of a log repeat, and the same
// atoms let the same regexes through, so `candidates` remembers FilteredRE2's answer per set of
// atoms in a per-thread Scratch.
#pragma once

#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <re2/set.h>

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
  static constexpr int kMinAtomLength = 3;  // atoms_by_prefix_ relies on every atom having 3 bytes

  // `patterns[i]` is entry i's regex, or nullopt when it has none. `many_texts`: see above.
  explicit RegexIndex(const std::vector<std::optional<std::string_view>>& patterns,
                      bool many_texts = false);
  ~RegexIndex();

  // Entry i's compiled regex, or nullptr when it has none or it did not compile.
  const RE2* regex(std::size_t entry) const;
  // RE2's error for entry i's regex; empty when it compiled.
  const std::string& error(std::size_t entry) const { return errors_[entry]; }

  // The entries whose regex matches somewhere in `text`, in increasing order.
  std::vector<std::size_t> matching(std::string_view text) const;
  // Buffers that `candidates` reuses from text to text, and the regexes FilteredRE2 let
  // through for each set of atoms seen: one per thread.
  class Scratch {
   public:
    // False: find the atoms by their prefixes even when there is a text set, which is faster
    // for a few short texts (the set's DFA is built as it meets new text).
    bool use_text_set = true;

   private:
    friend class RegexIndex;
    std::string lower;
    std::vector<int> matched;
    std::vector<std::vector<int>> found;  // per shard
    std::string key;                      // `found`, as a key of `filtered`
    std::unordered_map<std::string, std::vector<std::size_t>> filtered;
    std::vector<std::size_t> out;
  };

  // The entries whose regex may match `text`: those the prefilter lets through, in increasing
  // order (a superset of matching(text)), for callers that run the regexes themselves. The
  // second form returns a reference into `scratch`, valid until its next use.
  std::vector<std::size_t> candidates(std::string_view text) const;
  const std::vector<std::size_t>& candidates(std::string_view text, Scratch& scratch) const;

 private:
  struct Shard {
    re2::FilteredRE2 filter{kMinAtomLength};
    std::vector<std::size_t> entries;  // FilteredRE2 id -> entry
    std::vector<std::string> atoms;
    std::vector<bool> unfiltered;  // per FilteredRE2 id: it has no atoms, every text passes
  };
  struct AtomRef {
    std::uint32_t shard;
    int atom;
  };

  void build_shard(Shard& shard, std::size_t begin, std::size_t end,
                   const std::vector<std::optional<std::string_view>>& patterns);
  void index_atoms();
  void build_text_set();
  // The atoms found in `text`, per shard, sorted, into scratch.found.
  void find_atoms_by_prefix(std::string_view text, Scratch& scratch) const;
  bool find_in_text_set(std::string_view text, Scratch& scratch) const;
  const std::vector<std::size_t>& filtered(Scratch& scratch) const;

  std::vector<std::string> errors_;
  std::vector<std::pair<int, int>> location_;  // entry -> (shard, FilteredRE2 id); (-1, -1) if none
  std::vector<std::unique_ptr<Shard>> shards_;
  std::unordered_map<std::uint32_t, std::vector<AtomRef>> atoms_by_prefix_;
  std::vector<AtomRef> short_atoms_;
  std::vector<std::pair<AtomRef, std::unique_ptr<RE2>>> folded_atoms_;  // not ASCII: see .cc
  std::vector<std::size_t> unfiltered_;  // the entries whose regex has no atoms
  // With many_texts: the distinct atoms, then the regexes of unfiltered_, as one RE2::Set.
  std::unique_ptr<RE2::Set> text_set_;
  std::vector<std::vector<AtomRef>> text_set_atoms_;  // Set index -> the atoms it stands for
};

// RE2 options used for entry regexes everywhere (lint, match, build).
RE2::Options entry_regex_options();

}  // namespace kbc
