// How broad each regex of a knowledge base is: how many lines of the benign corpus it matches
// (benign_corpus.h), and how many other errors' signatures. A regex that fires on ordinary
// output, or on the messages of other errors, says little when it fires: `kbc match` weighs its
// hits down by rank.h's breadth_penalty, and `kbc lint` reports it (regex-too-broad).
//
// A regex's breadth is computed when first asked for. `kbc match` asks only for the entries that
// may be shown, a handful for an error message: each of those regexes searches all the texts
// (the benign lines, normalized as the matcher reads a line, and each entry's signature) joined
// into one text, in multi-line mode, and each line where it finds something is then matched on
// its own, so the count is exactly that of matching line by line (1-3 ms a regex on 25,000
// texts). Past kDirectEntries entries (a log that brings up many), the texts are run once
// through the RegexIndex's prefilter instead, which gives every regex the few texts it may
// match (about 0.1 s), and each regex runs on those only. Both ways count the same, so which
// entries are searched directly (the first asked for) never shows in a figure: a regex that
// anchors to the whole text (`\A`, `\z`, `(?-m)`), which the joined texts cannot keep, is
// always counted from the prefilter's candidates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
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
  // The first kKeptBenign benign lines it matches (indexes into the lines), the first first.
  std::vector<std::uint32_t> some_benign;
};
constexpr std::size_t kKeptBenign = 16;

// The error an entry id names: its id without the last segment when it has three or more
// ("python/keyboardinterrupt/py311-linux" -> "python/keyboardinterrupt"), else the id.
std::string_view error_of(std::string_view id);

// The texts a regex's breadth is counted on, normalized as the matcher reads a line: each
// distinct benign line once, then each entry's signature (its first line). They depend on the
// knowledge base alone, so a lint that measures its regexes a chunk at a time prepares them once.
struct BreadthTexts {
  BreadthTexts(const std::vector<std::string_view>& signatures,
               const std::vector<BenignLine>& benign);

  std::vector<std::string> signatures;  // first line, normalized
  // The distinct benign lines, normalized; for each, its first line and how many lines it is.
  std::vector<std::string_view> benign_texts;
  std::deque<std::string> copies;  // the normalized lines that are not views
  std::vector<std::size_t> first_line;
  std::vector<std::size_t> lines_of;
  // The benign texts and then the signatures, each followed by '\n', and where each starts.
  std::string joined_text;
  std::vector<std::size_t> starts;

  // Text `id`: a distinct benign line, or then a signature.
  std::string_view text(std::size_t id) const {
    return id < benign_texts.size() ? benign_texts[id]
                                    : std::string_view(signatures[id - benign_texts.size()]);
  }
};

class RegexBreadth {
 public:
  static constexpr std::size_t kDirectEntries = 24;

  // `index` holds entry i's regex as pattern `pattern_of(i)`; `ids` and `signatures` are per
  // entry. All must outlive this object. The first `direct_entries` entries asked for are
  // searched directly: `kbc lint` asks for thousands at a time and passes 0, as each search
  // reads all the texts.
  RegexBreadth(const RegexIndex& index, std::size_t (*pattern_of)(std::size_t),
               std::vector<std::string_view> ids, std::vector<std::string_view> signatures,
               const std::vector<BenignLine>& benign, std::size_t direct_entries = kDirectEntries);
  // With the texts prepared: `texts` must be those of these entries' signatures.
  RegexBreadth(const RegexIndex& index, std::size_t (*pattern_of)(std::size_t),
               std::vector<std::string_view> ids, const BreadthTexts& texts,
               std::size_t direct_entries);
  ~RegexBreadth();

  // Entry i's breadth (zero when it has no regex). Safe to call from several threads.
  Breadth of(std::size_t entry) const;

 private:
  void prefilter() const;
  const BreadthTexts& texts() const;
  // Entry i's breadth by searching the joined texts.
  Breadth search(std::size_t entry) const;
  // Entry i's breadth from the prefilter's candidates.
  Breadth from_candidates(std::size_t entry) const;
  // Whether the regex of entry i matches `text` (one line), as the matcher would.
  bool matches(std::size_t entry, std::string_view text) const;
  // Counts the text `id` of the joined texts (a distinct benign line or a signature) into
  // `breadth` and `others` when entry's regex matches it.
  void count_text(std::size_t entry, std::size_t id, std::string_view text, Breadth& breadth,
                  std::set<std::string_view>& others) const;

  const RegexIndex& index_;
  std::size_t (*pattern_of_)(std::size_t);
  std::vector<std::string_view> ids_;
  std::vector<std::string_view> raw_signatures_;
  const std::vector<BenignLine>* benign_ = nullptr;
  const BreadthTexts* given_texts_ = nullptr;
  mutable std::unique_ptr<BreadthTexts> own_texts_;  // prepared when first needed
  mutable std::once_flag prefiltered_;
  mutable std::once_flag prepared_;
  std::size_t direct_entries_;
  mutable std::size_t searched_ = 0;  // entries computed by `search`
  // Per entry, the texts its regex may match: the distinct benign texts first (their index),
  // then the signatures (benign_texts.size() + entry).
  mutable std::vector<std::vector<std::uint32_t>> candidates_;
  mutable std::mutex mutex_;
  mutable std::vector<std::optional<Breadth>> known_;
};

}  // namespace kbc
