// Which of a fixed set of strings (FilteredRE2's atoms: ASCII, at least three bytes) occur in a
// text: the prefilter's multi-literal search (regex_index.h).
//
// Each string is filed under one three-byte window of it, its anchor, chosen so that few strings
// share one; a text is read once, and each of its three-byte windows costs a bit test in a
// small bitmap, which rejects most of them, and else one probe of an open-addressing table.
// An RE2::Set of the same strings gives the same answer, but the DFA of ten thousand strings is
// large: it is built lazily, text by text, and even once built it costs several times as much
// per log line in cache misses (bench/match.sh).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kbc {

class AtomFinder {
 public:
  static constexpr std::size_t kAnchorBytes = 3;

  // `atoms[i]` is found as i; each has at least kAnchorBytes bytes.
  explicit AtomFinder(const std::vector<std::string_view>& atoms);

  // Appends the index of each atom that occurs in `text` (once per occurrence, unsorted).
  void find(std::string_view text, std::vector<int>& found) const;

 private:
  struct Anchor {
    std::uint32_t key;  // the window's bytes
    int atom;
    int offset;          // where the window starts in the atom
    std::uint64_t head;  // the atom's first 8 bytes, as head_word reads them
    std::uint64_t mask;  // the bytes of `head` that belong to the atom
  };
  struct Slot {
    std::uint32_t key = 0;
    std::uint32_t begin = 0;  // anchors_[begin, end); empty slot when begin == end
    std::uint32_t end = 0;
  };

  void choose_anchors();
  void build_table();
  const Slot* slot(std::uint32_t key) const;

  std::vector<std::string> atoms_;
  std::vector<Anchor> anchors_;  // sorted by key
  std::vector<Slot> slots_;      // 2^slot_bits_ of them
  int slot_bits_ = 0;
  std::vector<std::uint64_t> filter_;  // bit hash(key): some anchor may have this key
};

}  // namespace kbc
