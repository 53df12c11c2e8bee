// Where each of many distinct keys is, in a table that finds one in a probe or two: for keys
// held in a sorted vector that is also merged in order (a cache pack's index), looked up in no
// order. A binary search over those made a lookup some twenty string comparisons, each a cache
// miss on a key of its own: at 100,000 entries, 3% of a build's CPU after one edit went to the
// lookups of the cache packs (180,000 keys, digests). Where the lookups come in the keys'
// order (the output's manifest, looked up by path as the pages are made), a binary search
// keeps its last steps in the cache, and is faster than this.
//
// The table holds positions only (open addressing, linear probing, at most half full); the
// keys stay where they are, and `key_of(i)` reads the ith.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace kbc {

class KeyIndex {
 public:
  // Indexes the keys key_of(0) ... key_of(count - 1), which are distinct. A table of more than
  // 2^31 keys is not made: find() then finds nothing.
  template <typename KeyOf>
  void build(std::size_t count, const KeyOf& key_of) {
    slots_.clear();
    if (count == 0 || count > (std::size_t{1} << 31)) return;
    std::size_t size = 2;
    while (size < 2 * count) size *= 2;
    slots_.assign(size, kEmpty);
    for (std::size_t i = 0; i < count; ++i) {
      std::size_t slot = hash(key_of(i)) & (size - 1);
      while (slots_[slot] != kEmpty) slot = (slot + 1) & (size - 1);
      slots_[slot] = static_cast<std::uint32_t>(i);
    }
  }

  // The position of `key`, if build() indexed it.
  template <typename KeyOf>
  std::optional<std::size_t> find(std::string_view key, const KeyOf& key_of) const {
    if (slots_.empty()) return std::nullopt;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t slot = hash(key) & mask;; slot = (slot + 1) & mask) {
      const std::uint32_t i = slots_[slot];
      if (i == kEmpty) return std::nullopt;
      if (key_of(i) == key) return i;
    }
  }

  void clear() { std::vector<std::uint32_t>().swap(slots_); }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  static std::size_t hash(std::string_view key) { return std::hash<std::string_view>()(key); }
  std::vector<std::uint32_t> slots_;
};

}  // namespace kbc
