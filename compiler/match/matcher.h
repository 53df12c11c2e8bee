// `kbc match`: which entries explain an error message, or the errors in a whole log.
//
// A Matcher holds one MatchRecord per entry (what matching needs and what a hit shows: id,
// signature, regex, fix rate, the best workaround, the dead ends), read from the checked
// knowledge base or from a published bundle (kb.json), which have the same field names. It
// puts every entry's regex, and its signature as a literal text found ignoring case (8% of the
// regexes of a real knowledge base miss their own signature; the signature is the message
// itself), into one RegexIndex, whose prefilter picks the few patterns worth running on a line.
//
// Text is matched line by line (white space trimmed, lines over kMaxLineBytes in pieces). On
// each line, an entry's hit is the better-ranked (rank.h) of its regex's and its signature's
// leftmost match; an empty match is no hit. Over a text, each entry keeps its best hit (the
// earlier line on a tie) and counts the lines it matched; entries are then ordered by their
// best hit. The order is total and does not depend on how the text was split into blocks or
// threads.
//
// In a log (a text of two or more lines that are not blank), a line that declares a severity
// below an error (declares_low_severity: INFO, DEBUG or TRACE near its start) and has no error
// word (looks_like_error) is not an error line: it is matched only against the entries whose
// own signature is such a line ("INFO: pip is looking at multiple versions..."). Most lines of a
// real log are of this kind, and they would otherwise surface entries on words such as "idle"
// or "503" in ordinary traffic. A line longer than kMaxLineBytes is always matched, as is a text
// of one line (an error message). LogScanOptions::all_lines matches every line.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "match/benign_corpus.h"
#include "match/breadth.h"
#include "match/log_lines.h"
#include "match/match_record.h"
#include "match/near_match.h"
#include "match/rank.h"
#include "match/regex_index.h"

namespace kbc {

struct BestHits;

struct MatchOptions {
  bool signatures = true;  // also match each signature as literal text
  // The benign corpus that a regex's breadth is measured on; nullptr: the built-in one.
  const std::vector<BenignLine>* benign = nullptr;
  // For a matcher of a few texts: the regexes' plans (regex_plans.h), given and completed, so
  // that only the regexes that may match a text are compiled. nullptr: compile them all.
  RegexPlans* plans = nullptr;
};

struct Hit {
  std::size_t record = 0;  // index into Matcher::records()
  Rank rank;
  bool by_signature = false;    // the match is the signature's, not the regex's
  std::size_t line_number = 0;  // 1-based, in the text matched
  std::string line;             // the line, trimmed
  std::size_t begin = 0;        // the match: byte offsets into `line`
  std::size_t end = 0;
  std::size_t lines = 1;            // how many lines of the text this entry matched
  LineKind kind = LineKind::plain;  // what part the line plays in the text (log_lines.h)
  bool near = false;                // a near match (near_match.h): the line holds the entry's words
};

// Lines longer than this are matched in pieces of this size.
constexpr std::size_t kMaxLineBytes = std::size_t{16} * 1024;

class Matcher {
 public:
  explicit Matcher(std::vector<MatchRecord> records, MatchOptions options = {});
  ~Matcher();
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;

  const std::vector<MatchRecord>& records() const { return records_; }
  // Records whose regex RE2 rejects, with RE2's message (such an entry can still match by its
  // signature).
  std::vector<std::pair<std::string, std::string>> regex_errors() const;

  // True when `a` ranks before `b`: rank, larger first, then id; for two hits of the same
  // entry, the earlier line.
  bool before(const Hit& a, const Hit& b) const;

  // Every entry that matches this line, best first (line_number 1).
  std::vector<Hit> match_line(std::string_view line) const;

  // The best hit of each entry over the lines of `text`, best first, at most `top`, of those
  // scoring min_score or more; when there is none, the near matches.
  std::vector<Hit> match_text(std::string_view text, std::size_t top,
                              int min_score = kDefaultMinScore) const;

  // Entry i's breadth (breadth.h), computed when first asked for, and what it takes from the
  // score of its regex's hits.
  Breadth breadth(std::size_t record) const { return breadth_->of(record); }
  int regex_penalty(std::size_t record) const;
  // The near matches of `lines` (line number, text, kind), best first, at most `top`.
  struct NearLine {
    std::size_t line_number = 0;
    std::string text;
    LineKind kind = LineKind::plain;
  };
  std::vector<Hit> near_hits(const std::vector<NearLine>& lines, std::size_t top) const;

 private:
  friend class LogScan;
  struct Scratch {
    RegexIndex::Scratch all;
    RegexIndex::Scratch low;  // for low_index_
  };
  // Matches a piece of a line (at most kMaxLineBytes); returns whether it is a Python frame.
  // With `log` false (a text of one line, or --all-lines), the line is kept for near matches
  // even without an error word.
  bool scan_piece(std::string_view line, std::size_t line_number, bool after_frame, bool log,
                  BestHits& best, const RegexIndex& index, RegexIndex::Scratch& scratch) const;
  // Offers the hits on `line` (normalized) of the `candidates` that `index` just gave for it.
  void offer_hits(std::string_view line, std::size_t line_number, bool after_frame,
                  const std::vector<std::size_t>& candidates, BestHits& best,
                  const RegexIndex& index, RegexIndex::Scratch& scratch) const;
  // With `log`, lines that declare a low severity are matched against low_index_ only;
  // `continued`: the first line of `text` is the rest of a longer one, matched in full;
  // `after_frame`: the line before `text` was a Python frame. Returns whether its last line is.
  bool scan_lines(std::string_view text, std::size_t first_line, bool log, bool continued,
                  bool after_frame, BestHits& best, Scratch& scratch) const;
  const NearIndex& near_index() const;
  const std::vector<std::string>& codes(std::size_t record) const;
  // Whether `line` holds one of record i's error codes as a whole word, ignoring ASCII case.
  bool holds_code(std::size_t record, std::string_view line) const;
  // The specificity of record i's regex for a hit whose text is `span`: that of the most
  // specific top-level alternative matching it in full (rank.h: top_alternatives).
  int hit_specificity(std::size_t record, std::string_view span) const;

  std::vector<MatchRecord> records_;
  MatchOptions options_;
  std::vector<int> regex_specificity_;  // per record
  // Per record: its error codes, lowercase, found when it first hits (codes()).
  struct Codes {
    std::once_flag found;
    std::vector<std::string> words;
  };
  mutable std::vector<Codes> codes_;
  std::vector<int> signature_specificity_;
  std::vector<int> fix_rate_;
  std::unique_ptr<RegexIndex> index_;  // pattern 2i: record i's regex; 2i+1: its signature
  // The same patterns, only of the records whose signature declares a low severity (and has
  // no error word). Both indexes find the error words as markers.
  std::unique_ptr<RegexIndex> low_index_;
  std::unique_ptr<RegexBreadth> breadth_;
  // Per record: its specific_alternatives (rank.h), compiled when it first hits.
  struct Alternatives {
    std::once_flag compiled;
    std::vector<std::pair<int, std::unique_ptr<RE2>>> regexes;
  };
  mutable std::vector<Alternatives> alternatives_;
  mutable std::once_flag near_built_;
  mutable std::unique_ptr<NearIndex> near_;
};

}  // namespace kbc
