// Every entry's regex, compiled once, and a prefilter to match a text against all of them.
//
// Testing each of N texts against each of N regexes is quadratic (seconds at 2,522 entries),
// and an RE2::Set of that many regexes exceeds RE2's memory budget. RE2's FilteredRE2 instead
// reduces each regex to literal "atoms" that any match must contain; only the regexes whose
// atoms occur in a text are run. The regexes are split into FilteredRE2 shards, one per core
// and group (below), each core compiling its own.
//
// Finding the atoms in a text is a multi-literal search. An AtomFinder does it over the text
// lowercased (0.5 us for a typical log line), with a small RE2::Set for the atoms beyond ASCII
// that have case (é, ß, Cyrillic: RE2 matches them ignoring case for all of Unicode, and the
// text is lowercased for ASCII only), run only on texts beyond ASCII; those without case, such
// as Chinese, are found by the AtomFinder. Another Set holds the regexes that have no atoms, which
// would otherwise run on every text (a Set costs about 0.4 us a line however small it is). One
// RE2::Set of all the atoms was slower, even on a log once its DFA had learnt the kind of text
// (1.2 us a line, and seconds to learn a few thousand varied texts).
//
// Lines of a log repeat their atoms (timestamps, words of the same messages), and the same atoms
// let the same regexes through, so `candidates` remembers FilteredRE2's answer per set of atoms
// in a per-thread Scratch. A new set costs FilteredRE2 tens of microseconds. Numbers make many
// new sets: a line with "connection pool at 41% (409/512)" holds the atoms "409" and "512" of
// regexes such as `409.*Conflict`, and the next such line others. So the patterns with three
// digits in a row, whose atoms may be numbers, are compiled into a group of shards of their own
// with its own answers: the numbers of a line then make new sets only for that small group.
// (The split is only for speed: the matches are the same for any split. The extra candidates
// are not quite: when an atom feeds more than 8 AND nodes of a shard that each have other
// inputs, FilteredRE2 stops counting it for them, so the split, over the groups and the cores,
// changes which regexes that do not match are run.)
#pragma once

#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <re2/set.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "match/atom_finder.h"
#include "match/regex_plans.h"

namespace kbc {

class RegexIndex {
 public:
  static constexpr int kMinAtomLength = 3;
  // A longer pattern is not compiled, its error too_long_pattern_error(): FilteredRE2 takes time
  // quadratic in the length of a literal (a regex of 200,000 letters takes seconds). The schema
  // allows 1,000 characters, of up to four bytes each.
  static constexpr std::size_t kMaxPatternBytes = 4000;
  // Groups of shards, each with its own remembered answers (see above).
  static constexpr std::size_t kGroups = 2;

  // `patterns[i]` is entry i's regex, or nullopt when it has none. With `literal[i]` (when
  // given), it is a text instead, which matches where it occurs, ignoring case as RE2 does for
  // the text quoted after "(?i)": a text of ASCII (nearly all signatures) is then found with the
  // atoms, and never compiled (half the compiling time of `kbc match`, and on a log each RE2
  // regex also compiles a reverse program and a DFA the first time it matches).
  //
  // `markers` are texts (ASCII, lowercase, AtomFinder::kMinAtomBytes or more) that `candidates`
  // looks for with the atoms, in the same pass, and reports in Scratch::marked: the matcher's
  // error words, which it needs on every line of a log.
  //
  // With `plans`, the index is for a few texts (a one-shot `kbc match`): instead of compiling
  // every regex into FilteredRE2's shards, it takes each regex's atoms from its plan (computing
  // those `plans` lacks) and compiles a regex the first time it is a candidate. Its candidates
  // are then every regex one of whose atoms occurs in the text, more than FilteredRE2 lets
  // through, which evaluates each regex's AND/OR of atoms: the matches are the same, but a log
  // of thousands of lines runs many more regexes.
  explicit RegexIndex(const std::vector<std::optional<std::string_view>>& patterns,
                      const std::vector<bool>& literal = {},
                      const std::vector<std::string_view>& markers = {},
                      RegexPlans* plans = nullptr);
  // The form for many distinct texts, each met once (a lint's own texts), rather than a log:
  // one group of shards (the groups serve only the answers a Scratch remembers for lines that
  // repeat their atoms), and each shard's answer for every single atom computed up front. A text
  // from another part of the knowledge base most often holds one atom of a shard, and each
  // FilteredRE2 evaluation takes arrays the size of its shard from the heap: at 100,000
  // entries, whose heap is gigabytes, 9.7 million of a lint's 18.8 million evaluations were of
  // one atom, and that allocation was most of its matching time.
  struct DistinctTexts {};
  RegexIndex(const std::vector<std::optional<std::string_view>>& patterns, DistinctTexts);
  ~RegexIndex();

  // Entry i's compiled regex, or nullptr when it has none, it did not compile, or it is a
  // literal text found without RE2.
  const RE2* regex(std::size_t entry) const;
  // RE2's error for entry i's regex; empty when it compiled.
  const std::string& error(std::size_t entry) const { return errors_[entry]; }

  // The entries whose pattern matches somewhere in `text`, in increasing order.
  std::vector<std::size_t> matching(std::string_view text) const;
  // matching(text) of each of `texts`, on every core.
  std::vector<std::vector<std::size_t>> matching_each(
      std::span<const std::string_view> texts) const;
  // Buffers that `candidates` reuses from text to text, and the regexes FilteredRE2 let
  // through for each set of atoms seen: one per thread.
  class Scratch {
   public:
    // `remember`: keep FilteredRE2's answer for each set of atoms seen, for texts that repeat
    // their atoms (the lines of a log). Distinct texts (a knowledge base's own) rarely do, and
    // remembering tens of thousands of answers only costs memory and time.
    explicit Scratch(bool remember = true) : remember_(remember) {}
    // Whether the text of the last `candidates` holds a marker, where fold_for_atoms holds it.
    bool marked() const { return marked_; }

   private:
    friend class RegexIndex;
    std::string lower;
    std::vector<int> matched;
    std::vector<int> found;                 // distinct atoms (indexes into atoms_), sorted
    std::vector<std::vector<int>> sharded;  // `found` as each shard numbers its atoms
    struct Passed {
      std::vector<int> atoms;  // the `found` it was computed for
      std::vector<std::size_t> entries;
    };
    std::vector<int> key;  // `found`, the atoms of one group
    std::array<std::unordered_map<std::uint64_t, Passed>, kGroups> filtered;  // by hash of key
    std::array<std::vector<std::size_t>, kGroups> passed;  // the answer, when not remembered
    bool remember_ = true;
    std::vector<std::size_t> out;
    const std::vector<std::size_t> none{};  // the answer for no atoms
    std::vector<std::size_t> literals;      // the literal entries found in the text
    std::string folded;                     // for `match` of a literal
    bool marked_ = false;
  };

  // Entry i's leftmost match in `text` (possibly empty), or nullopt when it does not match.
  std::optional<std::string_view> match(std::size_t entry, std::string_view text,
                                        Scratch& scratch) const;
  // Whether entry i's pattern matches somewhere in `text` (`match` has a value), without where:
  // RE2 finds where a match starts with a reverse program that it compiles the first time it is
  // asked, about as costly as the regex's own.
  bool matches(std::size_t entry, std::string_view text, Scratch& scratch) const;
  // Whether entry i's leftmost match in `text` is not empty, asking RE2 where only of a regex
  // that may match the empty text (may_match_empty).
  bool finds(std::size_t entry, std::string_view text, Scratch& scratch) const;

  // The entries whose pattern may match `text`: the regexes the prefilter lets through and the
  // literals found, in increasing order (a superset of matching(text)), for callers that then
  // call `match` on each. The second form returns a reference into `scratch`, valid until its
  // next use by `candidates` (`match` leaves it alone).
  std::vector<std::size_t> candidates(std::string_view text) const;
  const std::vector<std::size_t>& candidates(std::string_view text, Scratch& scratch) const;

 private:
  struct Shard {
    std::size_t group = 0;
    re2::FilteredRE2 filter{kMinAtomLength};
    std::vector<std::size_t> entries;  // FilteredRE2 id -> entry
    std::vector<std::string> atoms;
    std::vector<bool> unfiltered;  // per FilteredRE2 id: it has no atoms, every text passes
    // DistinctTexts: per atom, the ids that it alone lets through, less the unfiltered.
    std::vector<std::vector<int>> single;
  };
  struct AtomRef {
    std::uint32_t shard;
    int atom;
  };

  // The shards of groups_ groups per core, and their atoms.
  void build_shards(const std::vector<std::optional<std::string_view>>& patterns);
  void build_shard(Shard& shard, std::span<const std::size_t> given_at,
                   const std::vector<std::optional<std::string_view>>& patterns);
  // The shards' atoms into atoms_ and atom_refs_, or the plans' into atoms_ and atom_entries_.
  void collect_shard_atoms();
  void collect_plan_atoms(const std::vector<std::optional<std::string_view>>& patterns,
                          RegexPlans& plans);
  // Each planned regex into atom_entries_ under the atoms of its clause that the fewest clauses
  // share: a text it may match holds one of them.
  void file_under_clauses();
  void index_atoms(const std::vector<std::string_view>& markers);
  void build_sets();
  // The distinct atoms found in `text` into scratch.found, sorted.
  void find_atoms(std::string_view text, Scratch& scratch) const;
  // The regexes without atoms that match `text` (all of them when the set fails) into `out`.
  void add_unfiltered(std::string_view text, Scratch& scratch) const;
  // scratch.key, as each shard of `group` numbers its atoms, into scratch.sharded.
  void shard_found(std::size_t group, Scratch& scratch) const;
  const std::vector<std::size_t>& filtered(std::size_t group, Scratch& scratch) const;

  std::size_t groups_ = kGroups;  // of shards: 1 for DistinctTexts
  std::vector<std::string> errors_;
  std::vector<std::pair<int, int>> location_;  // entry -> (shard, FilteredRE2 id); (-1, -1) if none
  std::vector<std::unique_ptr<Shard>> shards_;
  std::vector<std::string> atoms_;               // distinct, over all shards
  std::vector<std::vector<AtomRef>> atom_refs_;  // atoms_ index -> the shards' atoms
  std::vector<std::uint8_t> atom_groups_;        // atoms_ index -> bit g: in a shard of group g
  std::unique_ptr<AtomFinder> finder_;  // the ASCII atoms of AtomFinder::kMinAtomBytes or more
  std::vector<int> finder_atoms_;       // finder_'s atom index -> atoms_ index, or -1
  std::vector<std::uint32_t> finder_literals_;  // finder_'s atom f -> its literal entries, which
  std::vector<std::size_t> literal_entries_;    // are [finder_literals_[f], [f + 1]) of these
  std::vector<bool> finder_markers_;            // finder_'s atom f -> it is a marker
  std::vector<std::string> literals_;  // entry -> its literal text lowercased, if found by finder_
  std::vector<int> short_atoms_;       // FilteredRE2 prunes these; kept correct if not
  std::vector<int> folded_atoms_;      // not ASCII: matched by folded_set_
  bool folded_match_ascii_ = false;    // some folded atom may match ASCII text
  std::vector<std::size_t> unfiltered_;       // the entries whose regex has no atoms, sorted
  std::unique_ptr<RE2::Set> folded_set_;      // folded_atoms_, ignoring case
  std::unique_ptr<RE2::Set> unfiltered_set_;  // the regexes of unfiltered_

  // Built from plans (the second form of the constructor): no shards.
  bool planned_ = false;
  std::vector<std::string> pattern_texts_;              // entry -> its regex, if it compiles
  std::vector<std::vector<std::size_t>> atom_entries_;  // atoms_ index -> entries, sorted
  // entry -> its RegexPlan::clauses, of atoms_ indexes
  std::vector<std::vector<std::vector<int>>> clauses_;
  mutable std::vector<std::unique_ptr<RE2>> compiled_;  // entry -> its regex, once compiled
  std::unique_ptr<std::once_flag[]> compiled_once_;
  // Entry -> 0 not known yet, 1 its regex may match the empty text, 2 it may not (for `finds`).
  std::unique_ptr<std::atomic<std::uint8_t>[]> may_be_empty_;
};

// Whether `regex` may match the empty text somewhere: it matches "", or it holds `\b`. An empty
// match is a path of assertions alone, and in "" every assertion holds (`^`, `$`, `\A`, `\z`,
// `\B`, in any mode) except `\b`. A regex that may not, matches only where its match is not empty.
bool may_match_empty(const RE2& regex);
// Whether `regex`'s leftmost match in `text` is not empty, given may_match_empty(regex): RE2 is
// asked where the match is only when it may be empty.
bool finds_not_empty(const RE2& regex, std::string_view text, bool may_be_empty);

// The error of a pattern longer than RegexIndex::kMaxPatternBytes.
std::string too_long_pattern_error();

// RE2 options used for entry regexes everywhere (lint, match, build).
RE2::Options entry_regex_options();

// `text` as atoms are searched in it, into `out`: ASCII lowercased, and ſ and K replaced by the
// letters RE2 takes them for. Only which atoms occur may be read from it, never an offset.
// Returns whether `text` is ASCII.
bool fold_for_atoms(std::string_view text, std::string& out);

}  // namespace kbc
