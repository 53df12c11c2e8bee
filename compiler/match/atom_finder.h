// Which of a fixed set of strings (FilteredRE2's atoms: ASCII, at least three bytes) occur in a
// text: the prefilter's multi-literal search (regex_index.h).
//
// Each string is filed under one window of it, its anchor: four bytes long, or three for the
// strings of three bytes. A text is read once; at each position its four-byte window and its
// three-byte one each cost a bit test in a bitmap, which rejects most of them, and else a probe
// of an open-addressing table and a comparison of the string's first eight bytes. What makes
// the bitmap reject most windows of real text is the choice of anchor: the window that occurs
// least often in all the strings, whose words (error messages, signatures) are those of the
// texts searched. Three-byte windows of English and log text are few, and ten thousand strings
// would cover most of them; their rarest four-byte windows are rare in text too. When the
// strings are few, a table of the pairs of bytes an anchor starts with, or has after its first
// byte, read without hashing at every other position of the text, passes over nearly all of it.
//
// An RE2::Set of the same strings gives the same answer, but the DFA of ten thousand strings is
// large: it is built lazily, text by text, and even once built it costs more per log line in
// cache misses (bench/match.sh).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kbc {

class AtomFinder {
 public:
  static constexpr std::size_t kMinAtomBytes = 3;

  // `atoms[i]` is found as i; each has at least kMinAtomBytes bytes.
  explicit AtomFinder(const std::vector<std::string_view>& atoms);

  // Appends the index of each atom that occurs in `text` (once per occurrence, unsorted).
  void find(std::string_view text, std::vector<int>& found) const;

  // Where atom i's anchor starts in it (for tests and measurements).
  std::size_t anchor_offset(int atom) const;
  // How many windows of `text` pass the bitmap (for measurements: the fewer, the faster).
  std::size_t bitmap_hits(std::string_view text) const;

 private:
  // What find_at reads of an atom: the atom itself only past its first 8 bytes.
  struct Anchor {
    std::uint64_t key;   // window_key or short_key of the window
    std::uint64_t head;  // the atom's first 8 bytes, as head_word reads them
    int atom;
    std::uint32_t offset;  // where the window starts in the atom
    std::uint32_t size;    // the atom's length
  };
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t begin = 0;  // anchors_[begin, end); empty slot when begin == end
    std::uint32_t end = 0;
  };

  void choose_anchors();
  void build_table();
  bool may_have(std::uint64_t key) const;
  const Slot* slot(std::uint64_t key) const;
  void find_at(std::uint64_t key, std::string_view text, std::size_t at,
               std::vector<int>& found) const;
  void find_anchored_at(std::string_view text, std::size_t at, std::vector<int>& found) const;

  std::vector<std::string> atoms_;
  std::vector<Anchor> anchors_;  // sorted by key
  std::vector<Slot> slots_;      // 2^slot_bits_ of them
  int slot_bits_ = 0;
  std::vector<std::uint64_t> filter_;  // bit hash(key): some anchor may have this key
  std::vector<std::uint64_t> pairs_;   // bit (b0 | b1 << 8): some anchor has b0 b1 at 0 or at 1
  bool sparse_pairs_ = false;          // few pairs: pairs_, at every other position, comes first
};

}  // namespace kbc
