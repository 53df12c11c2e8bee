#include "match/atom_finder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <unordered_map>

namespace kbc {
namespace {

constexpr int kFilterBits = 16;

std::uint32_t window_key(const char* bytes) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[0])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[2])) << 16;
}

// Up to 8 bytes of `text` from `at`, as one word (zeros past its end).
std::uint64_t head_word(std::string_view text, std::size_t at) {
  std::uint64_t word = 0;
  std::memcpy(&word, text.data() + at, std::min<std::size_t>(8, text.size() - at));
  return word;
}

// Fibonacci hashing: the top `bits` bits of the product.
std::uint32_t hash(std::uint32_t key, int bits) { return (key * 0x9E3779B1u) >> (32 - bits); }

}  // namespace

AtomFinder::AtomFinder(const std::vector<std::string_view>& atoms)
    : atoms_(atoms.begin(), atoms.end()), filter_((std::size_t{1} << kFilterBits) / 64) {
  choose_anchors();
  build_table();
}

// Each atom's anchor is the window that the fewest atoms before it chose (the first such).
void AtomFinder::choose_anchors() {
  std::unordered_map<std::uint32_t, int> uses;
  for (int atom = 0; atom < static_cast<int>(atoms_.size()); ++atom) {
    const std::string& text = atoms_[atom];
    int best = 0, best_uses = -1;
    for (std::size_t at = 0; at + kAnchorBytes <= text.size(); ++at) {
      const auto it = uses.find(window_key(text.data() + at));
      const int count = it == uses.end() ? 0 : it->second;
      if (best_uses < 0 || count < best_uses) {
        best = static_cast<int>(at);
        best_uses = count;
      }
    }
    const std::uint32_t key = window_key(text.data() + best);
    ++uses[key];
    const std::size_t head = std::min<std::size_t>(8, text.size());
    const std::uint64_t mask = head == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << 8 * head) - 1;
    anchors_.push_back({key, atom, best, head_word(text, 0), mask});
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
    i = end;
  }
}

const AtomFinder::Slot* AtomFinder::slot(std::uint32_t key) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = hash(key, slot_bits_);; at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.begin == slot.end) return nullptr;
    if (slot.key == key) return &slot;
  }
}

void AtomFinder::find(std::string_view text, std::vector<int>& found) const {
  if (anchors_.empty()) return;
  for (std::size_t i = 0; i + kAnchorBytes <= text.size(); ++i) {
    const std::uint32_t key = window_key(text.data() + i);
    const std::uint32_t bit = hash(key, kFilterBits);
    if (!(filter_[bit / 64] >> (bit % 64) & 1)) continue;
    const Slot* slot = this->slot(key);
    if (!slot) continue;
    for (std::uint32_t a = slot->begin; a < slot->end; ++a) {
      const Anchor& anchor = anchors_[a];
      const std::size_t offset = static_cast<std::size_t>(anchor.offset);
      if (i < offset || (head_word(text, i - offset) & anchor.mask) != anchor.head) continue;
      const std::string& atom = atoms_[anchor.atom];
      if (atom.size() <= 8 ||
          (text.size() - (i - offset) >= atom.size() &&
           std::memcmp(text.data() + i - offset + 8, atom.data() + 8, atom.size() - 8) == 0))
        found.push_back(anchor.atom);
    }
  }
}

}  // namespace kbc
