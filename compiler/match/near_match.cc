#include "match/near_match.h"

#include <algorithm>
#include <set>

namespace kbc {
namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// floor(log2(n / df)) with integers: how many times df doubles and stays at most n.
int rarity(std::size_t n, std::size_t df) {
  int bits = 0;
  for (std::size_t d = df * 2; d <= n; d *= 2) ++bits;
  return bits;
}

}  // namespace

std::vector<std::string> near_words(std::string_view text) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < text.size();) {
    if (!is_word_char(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    bool digits_only = true;
    while (end < text.size() && is_word_char(text[end])) {
      digits_only = digits_only && text[end] >= '0' && text[end] <= '9';
      ++end;
    }
    if (end - i >= 3 && !digits_only) {
      std::string word(text.substr(i, end - i));
      for (char& c : word) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
      if (seen.insert(word).second) out.push_back(std::move(word));
    }
    i = end;
  }
  return out;
}

bool is_code_word(std::string_view word) {
  if (word.size() < 5) return false;
  const bool underscore = word.find('_') != std::string_view::npos;
  const bool digit =
      std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
  const bool letter =
      std::any_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  return underscore || (digit && letter);
}

NearIndex::NearIndex(const std::vector<NearPhrases>& entries) {
  std::vector<std::size_t> entries_with;  // per word id
  std::vector<std::size_t> last_entry;    // per word id: the last entry counted
  for (std::size_t e = 0; e < entries.size(); ++e) {
    for (const std::string& text : entries[e].phrases) {
      Phrase phrase{e, {}, 0};
      for (std::string& word : near_words(text)) {
        auto [it, added] =
            word_ids_.try_emplace(std::move(word), static_cast<int>(weights_.size()));
        if (added) {
          weights_.push_back(0);
          entries_with.push_back(0);
          last_entry.push_back(SIZE_MAX);
          phrases_of_word_.emplace_back();
        }
        const int id = it->second;
        if (last_entry[id] != e) {
          last_entry[id] = e;
          ++entries_with[id];
        }
        phrase.words.push_back(id);
      }
      if (!phrase.words.empty()) phrases_.push_back(std::move(phrase));
    }
  }
  for (std::size_t w = 0; w < weights_.size(); ++w) {
    weights_[w] = rarity(entries.size(), entries_with[w]);
    unique_.push_back(entries_with[w] == 1);
  }
  for (std::size_t p = 0; p < phrases_.size(); ++p) {
    for (const int w : phrases_[p].words) {
      phrases_[p].total += weights_[w];
      phrases_of_word_[w].push_back(static_cast<int>(p));
    }
  }
}

int NearIndex::weight(const std::string& word) const {
  const auto it = word_ids_.find(word);
  return it == word_ids_.end() ? 0 : weights_[it->second];
}

std::vector<NearHit> NearIndex::match(std::string_view line) const {
  // Per phrase: the weight found, the words that weigh, whether a code word is among them.
  struct Found {
    int weight = 0;
    int words = 0;
    bool code = false;
  };
  std::unordered_map<int, Found> found;
  for (const std::string& word : near_words(line)) {
    const auto it = word_ids_.find(word);
    if (it == word_ids_.end() || weights_[it->second] == 0) continue;
    const int w = weights_[it->second];
    const bool code = (w >= kCodeWeight || unique_[it->second]) && is_code_word(word);
    for (const int p : phrases_of_word_[it->second]) {
      Found& f = found[p];
      f.weight += w;
      ++f.words;
      f.code = f.code || code;
    }
  }
  std::vector<NearHit> hits;
  for (const auto& [p, f] : found) {
    const Phrase& phrase = phrases_[p];
    if (f.words < 2 && !f.code) continue;
    const int score = static_cast<int>(99LL * f.weight / phrase.total);
    if (score < kMinNearScore) continue;
    hits.push_back({phrase.entry, score});
  }
  std::sort(hits.begin(), hits.end(), [](const NearHit& a, const NearHit& b) {
    return a.entry != b.entry ? a.entry < b.entry : a.score > b.score;
  });
  hits.erase(std::unique(hits.begin(), hits.end(),
                         [](const NearHit& a, const NearHit& b) { return a.entry == b.entry; }),
             hits.end());
  return hits;
}

}  // namespace kbc
