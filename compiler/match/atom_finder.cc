#include "match/atom_finder.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace kbc {
namespace {

// 2^18 bits (32 KB, the size of a core's L1 cache): ~10,000 anchors set 4% of them.
constexpr int kFilterBits = 18;
constexpr std::size_t kLongBytes = 4;  // the anchor of an atom of kLongBytes or more
// Up to this many pairs of bytes of the anchors (of 65,536), testing the pairs first saves
// time; with more, text passes the test too often for the branch to pay (measured: no gain for
// the 10,000 atoms of a large knowledge base, twice as fast for the few atoms of the entries
// whose signature is an INFO line).
constexpr std::size_t kSparsePairs = 256;

std::uint64_t byte_at(const char* bytes, int i) {
  return static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << 8 * i;
}

// The four bytes from `bytes`, as one key.
std::uint64_t window_key(const char* bytes) {
  return byte_at(bytes, 0) | byte_at(bytes, 1) | byte_at(bytes, 2) | byte_at(bytes, 3);
}

// The key of the first three bytes of a window: bit 32 keeps it apart from every window_key.
std::uint64_t short_key(std::uint64_t window) {
  return (window & 0xFFFFFF) | std::uint64_t{1} << 32;
}

std::uint64_t short_key(const char* bytes) {
  return short_key(byte_at(bytes, 0) | byte_at(bytes, 1) | byte_at(bytes, 2));
}

// The key of the window of an atom at `at` (see AtomFinder: 3 bytes for an atom of 3 bytes).
std::uint64_t anchor_key(const std::string& atom, std::size_t at) {
  return atom.size() < kLongBytes ? short_key(atom.data() + at) : window_key(atom.data() + at);
}

std::size_t anchor_bytes(const std::string& atom) { return std::min(kLongBytes, atom.size()); }

// Up to 8 bytes of `text` from `at`, as one word (zeros past its end).
std::uint64_t head_word(std::string_view text, std::size_t at) {
  std::uint64_t word = 0;
  if (text.size() - at >= 8) {
    std::memcpy(&word, text.data() + at, 8);
  } else {
    std::memcpy(&word, text.data() + at, text.size() - at);
  }
  return word;
}

// The bytes of a head_word that belong to a string of `size` bytes.
std::uint64_t head_mask(std::size_t size) {
  return size >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << 8 * size) - 1;
}

// Fibonacci hashing: the top `bits` bits of the product.
std::uint32_t hash(std::uint64_t key, int bits) {
  return static_cast<std::uint32_t>((key * 0x9E3779B97F4A7C15u) >> (64 - bits));
}

// How often each window occurs in the atoms, and how many atoms chose it as their anchor, in an
// open-addressing table kept at most half full: with std::unordered_map, building the finder of
// the ~10,000 strings of a large knowledge base (220,000 windows, 30,000 distinct) took 15-25
// ms, which every `kbc match` pays.
class WindowCounts {
 public:
  struct Counts {
    int frequency = 0;
    int uses = 0;
  };

  // The counts of `key`, zero when it is new.
  Counts& operator[](std::uint64_t key) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    Slot& slot = find(slots_, bits_, key);
    if (!slot.used) {
      slot.used = true;
      slot.key = key;
      ++size_;
    }
    return slot.counts;
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    Counts counts;
    bool used = false;
  };

  // The slot of `key` in `slots`, or the empty one where it goes.
  static Slot& find(std::vector<Slot>& slots, int bits, std::uint64_t key) {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t at = hash(key, bits);; at = (at + 1) & mask) {
      if (!slots[at].used || slots[at].key == key) return slots[at];
    }
  }

  void grow() {
    std::vector<Slot> larger(std::max<std::size_t>(2 * slots_.size(), 1024));
    const int bits = std::countr_zero(larger.size());
    for (const Slot& slot : slots_) {
      if (slot.used) find(larger, bits, slot.key) = slot;
    }
    slots_ = std::move(larger);
    bits_ = bits;
  }

  std::vector<Slot> slots_;
  int bits_ = 0;
  std::size_t size_ = 0;
};

}  // namespace

AtomFinder::AtomFinder(const std::vector<std::string_view>& atoms)
    : atoms_(atoms.begin(), atoms.end()),
      filter_((std::size_t{1} << kFilterBits) / 64),
      pairs_((std::size_t{1} << 16) / 64) {
  choose_anchors();
  build_table();
}

// Each atom's anchor is its window that occurs least often in all the atoms (a stand-in for how
// often it occurs in text), and of those the one that the fewest atoms before it chose.
void AtomFinder::choose_anchors() {
  WindowCounts counts;
  for (const std::string& text : atoms_) {
    for (std::size_t at = 0; at + anchor_bytes(text) <= text.size(); ++at)
      ++counts[anchor_key(text, at)].frequency;
  }
  for (int atom = 0; atom < static_cast<int>(atoms_.size()); ++atom) {
    const std::string& text = atoms_[atom];
    std::pair<int, int> best_score{-1, -1};
    std::size_t best = 0;
    for (std::size_t at = 0; at + anchor_bytes(text) <= text.size(); ++at) {
      const WindowCounts::Counts& count = counts[anchor_key(text, at)];
      const std::pair<int, int> score{count.frequency, count.uses};
      if (best_score.first < 0 || score < best_score) {
        best = at;
        best_score = score;
      }
    }
    const std::uint64_t key = anchor_key(text, best);
    ++counts[key].uses;
    anchors_.push_back({key, head_word(text, 0), atom, static_cast<std::uint32_t>(best),
                        static_cast<std::uint32_t>(text.size())});
  }
  std::sort(anchors_.begin(), anchors_.end(), [](const Anchor& a, const Anchor& b) {
    return a.key != b.key ? a.key < b.key : a.atom < b.atom;
  });
}

void AtomFinder::build_table() {
  slots_.resize(std::bit_ceil(std::max<std::size_t>(2 * anchors_.size(), 16)));
  slot_bits_ = std::countr_zero(slots_.size());
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = 0; i < anchors_.size();) {
    std::size_t end = i;
    while (end < anchors_.size() && anchors_[end].key == anchors_[i].key) ++end;
    std::size_t at = hash(anchors_[i].key, slot_bits_);
    while (slots_[at].begin != slots_[at].end) at = (at + 1) & mask;
    slots_[at] = {anchors_[i].key, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(end)};
    const std::uint32_t bit = hash(anchors_[i].key, kFilterBits);
    filter_[bit / 64] |= std::uint64_t{1} << (bit % 64);
    for (const std::uint32_t pair : {anchors_[i].key & 0xFFFF, anchors_[i].key >> 8 & 0xFFFF})
      pairs_[pair / 64] |= std::uint64_t{1} << (pair % 64);  // the key's bytes 0-1 and 1-2
    i = end;
  }
  std::size_t pairs = 0;
  for (const std::uint64_t word : pairs_) pairs += static_cast<std::size_t>(std::popcount(word));
  sparse_pairs_ = pairs <= kSparsePairs;
}

bool AtomFinder::may_have(std::uint64_t key) const {
  const std::uint32_t bit = hash(key, kFilterBits);
  return filter_[bit / 64] >> (bit % 64) & 1;
}

const AtomFinder::Slot* AtomFinder::slot(std::uint64_t key) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = hash(key, slot_bits_);; at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.begin == slot.end) return nullptr;
    if (slot.key == key) return &slot;
  }
}

// The atoms anchored at `key` that occur in `text` around its window at `at`.
void AtomFinder::find_at(std::uint64_t key, std::string_view text, std::size_t at,
                         std::vector<int>& found) const {
  const Slot* slot = this->slot(key);
  if (!slot) return;
  for (std::uint32_t a = slot->begin; a < slot->end; ++a) {
    const Anchor& anchor = anchors_[a];
    const std::size_t offset = static_cast<std::size_t>(anchor.offset);
    if (at < offset) continue;
    const std::size_t start = at - offset;
    if (text.size() - start < anchor.size ||
        (head_word(text, start) & head_mask(anchor.size)) != anchor.head)
      continue;
    if (anchor.size <= 8 ||
        std::memcmp(text.data() + start + 8, atoms_[anchor.atom].data() + 8, anchor.size - 8) == 0)
      found.push_back(anchor.atom);
  }
}

// The atoms anchored at `at`: its window of four bytes and of three, those that fit in `text`.
void AtomFinder::find_anchored_at(std::string_view text, std::size_t at,
                                  std::vector<int>& found) const {
  if (at + kLongBytes <= text.size()) {
    const std::uint64_t key = window_key(text.data() + at);
    if (may_have(key)) find_at(key, text, at, found);
  }
  if (at + kMinAtomBytes <= text.size()) {
    const std::uint64_t key = short_key(text.data() + at);
    if (may_have(key)) find_at(key, text, at, found);
  }
}

void AtomFinder::find(std::string_view text, std::vector<int>& found) const {
  if (anchors_.empty() || text.size() < kMinAtomBytes) return;
  if (sparse_pairs_) {
    // An anchor at p has its bytes 0-1 at p and its bytes 1-2 at p + 1, one of them even: the
    // pairs at even positions tell which positions may hold an anchor.
    for (std::size_t at = 0; at + 1 < text.size(); at += 2) {
      const auto pair =
          static_cast<std::uint32_t>(byte_at(text.data() + at, 0) | byte_at(text.data() + at, 1));
      if (!(pairs_[pair / 64] >> (pair % 64) & 1)) continue;
      if (at > 0) find_anchored_at(text, at - 1, found);
      find_anchored_at(text, at, found);
    }
    return;
  }
  // find_anchored_at at every position, with the three-byte key taken from the four-byte one
  // and one bound per position: 8-12% faster on log lines than calling it.
  std::size_t at = 0;
  for (; at + kLongBytes <= text.size(); ++at) {
    const std::uint64_t key = window_key(text.data() + at);
    if (may_have(key)) find_at(key, text, at, found);
    if (may_have(short_key(key))) find_at(short_key(key), text, at, found);
  }
  const std::uint64_t last = short_key(text.data() + at);  // the last three bytes
  if (may_have(last)) find_at(last, text, at, found);
}

std::size_t AtomFinder::anchor_offset(int atom) const {
  const auto it = std::find_if(anchors_.begin(), anchors_.end(),
                               [&](const Anchor& anchor) { return anchor.atom == atom; });
  return static_cast<std::size_t>(it->offset);
}

std::size_t AtomFinder::bitmap_hits(std::string_view text) const {
  std::size_t hits = 0;
  for (std::size_t at = 0; at + kMinAtomBytes <= text.size(); ++at) {
    const std::uint64_t short_window = short_key(text.data() + at);
    hits += may_have(short_window);
    if (at + kLongBytes <= text.size()) hits += may_have(window_key(text.data() + at));
  }
  return hits;
}

}  // namespace kbc
