// How broad each regex of a knowledge base is: how many lines of the benign corpus it matches
// (benign_corpus.h), and how many other errors' signatures. A regex that fires on ordinary
// output, or on the messages of other errors, says little when it fires: `kbc match` weighs its
// hits down by rank.h's breadth_penalty, and `kbc lint` reports it (regex-too-broad).
//
// The texts (the benign lines, normalized as the matcher reads a line, and each entry's
// signature) are run once through the RegexIndex's prefilter, on first use, which gives every
// regex the few texts it may match; a regex's breadth is then computed when first asked for, by
// running it on those texts only. `kbc match` asks only for the entries that hit, so a query
// costs the prefilter pass (about 20 ms for 25,000 texts) and a few regex runs.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "match/benign_corpus.h"
#include "match/regex_index.h"

namespace kbc {

struct Breadth {
  int benign_lines = 0;  // lines of the benign corpus the regex matches
  int other_errors =
      0;  // other errors (entries of another `domain/name`) whose signature it matches
  std::optional<std::size_t> first_benign;  // the first benign line it matches (index into lines)
};

// The error an entry id names: its id without the last segment when it has three or more
// ("python/keyboardinterrupt/py311-linux" -> "python/keyboardinterrupt"), else the id.
std::string_view error_of(std::string_view id);

class RegexBreadth {
 public:
  // `index` holds entry i's regex as pattern `pattern_of(i)`; `ids` and `signatures` are per
  // entry. All must outlive this object.
  RegexBreadth(const RegexIndex& index, std::size_t (*pattern_of)(std::size_t),
               std::vector<std::string_view> ids, std::vector<std::string_view> signatures,
               const std::vector<BenignLine>& benign);
  ~RegexBreadth();

  // Entry i's breadth (zero when it has no regex). Safe to call from several threads.
  Breadth of(std::size_t entry) const;
  const std::vector<BenignLine>& benign() const { return benign_; }

 private:
  void prefilter() const;

  const RegexIndex& index_;
  std::size_t (*pattern_of_)(std::size_t);
  std::vector<std::string_view> ids_;
  std::vector<std::string> signatures_;  // first line, normalized
  const std::vector<BenignLine>& benign_;
  mutable std::once_flag prefiltered_;
  mutable std::vector<std::string> benign_texts_;  // normalized
  // Per entry, the texts its regex may match: benign lines first (their index), then
  // signatures (benign_.size() + entry).
  mutable std::vector<std::vector<std::uint32_t>> candidates_;
  mutable std::mutex mutex_;
  mutable std::vector<std::optional<Breadth>> known_;
};

}  // namespace kbc
