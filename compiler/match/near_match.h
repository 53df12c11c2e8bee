// Near matches: when no entry's pattern explains a text well enough, the entries whose words
// it holds. A reworded message, a newer wording of an old error or an error code pasted alone
// ("CUDNN_STATUS_BAD_PARAM") matches no regex, yet its words point at the entry.
//
// Each entry has phrases: its signature, each alias, its error code and its tags (as one
// phrase). A word is a run of ASCII letters, digits and `_` of three characters or more, not all
// digits, lowercased. A word's weight is how rare it is among the entries: floor(log2(N / n))
// for N entries of which n have it, computed with integers so the site's JavaScript gives the
// same; a word in half the entries or more weighs nothing. A phrase's share is the weight of its
// words found in a line over the weight of all its words; an entry's near score on a line is
// floor(99 * share) of its best phrase, so 99 at most, below every pattern's hit. It counts only
// when the line holds two of the phrase's words that weigh, or one that looks like an error
// code (a word with `_` or with both letters and digits, of five characters or more, that
// weighs kCodeWeight or more or that one entry alone has), and the score is kMinNearScore or
// more.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kbc {

constexpr int kMinNearScore = 60;
constexpr int kCodeWeight = 4;
// At most this many lines of a text are kept for near matches (those with an error word; the
// line of a text of one line).
constexpr std::size_t kNearLines = 64;

// The words of a text, as above, in order of first appearance, each once.
std::vector<std::string> near_words(std::string_view text);
// Whether a word looks like an error code.
bool is_code_word(std::string_view word);

struct NearPhrases {
  std::vector<std::string> phrases;  // signature, aliases, error code, tags joined by spaces
};

struct NearHit {
  std::size_t entry = 0;
  int score = 0;
};

class NearIndex {
 public:
  explicit NearIndex(const std::vector<NearPhrases>& entries);

  // The entries whose near score on `line` reaches kMinNearScore, in entry order.
  std::vector<NearHit> match(std::string_view line) const;
  // A word's weight (0 when no entry has it).
  int weight(const std::string& word) const;

 private:
  struct Phrase {
    std::size_t entry;
    std::vector<int> words;  // indexes into weights_
    int total = 0;
  };
  std::unordered_map<std::string, int> word_ids_;
  std::vector<int> weights_;
  std::vector<bool> unique_;  // per word id: one entry alone has it
  std::vector<Phrase> phrases_;
  std::vector<std::vector<int>> phrases_of_word_;  // word id -> phrases that hold it
};

}  // namespace kbc
