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

#include <nlohmann/json.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/parallel.h"
#include "match/benign_corpus.h"
#include "match/breadth.h"
#include "match/log_lines.h"
#include "match/near_match.h"
#include "match/rank.h"
#include "match/regex_index.h"
#include "model/knowledge_base.h"

namespace kbc {

// A workaround or a dead end, as a hit shows it.
struct MatchAction {
  std::string action;
  std::string how;        // workarounds only
  std::string condition;  // when it applies (workarounds only)
  double rate = 0;        // success_rate of a workaround, fail_rate of a dead end
};

struct MatchRecord {
  std::string id;
  std::string signature;
  std::string regex;
  double fix_success_rate = 0;
  std::optional<MatchAction> best_workaround;  // the highest success_rate; the first on a tie
  std::optional<MatchAction> next_workaround;  // the next, as a reader's second choice
  std::vector<MatchAction> dead_ends;          // in the entry's order
  std::vector<std::string> aliases;            // other texts of the error (near matches)
  std::string error_code;
  std::vector<std::string> tags;
};

// The record of an entry, or of a published record: both are JSON objects with the same keys.
// Missing or mistyped fields are left empty.
MatchRecord match_record(const nlohmann::json& object);

// The schema-valid entries of a knowledge base, in id order.
std::vector<MatchRecord> match_records(const KnowledgeBase& kb);

// The records of a bundle (a JSON array of records). Throws ToolError when it is not an array of
// objects each with a text `id` and `regex`, naming the first record at fault.
std::vector<MatchRecord> match_records_from_bundle(const nlohmann::json& bundle);

// The same, from the bundle's JSON text, read with nlohmann's SAX parser into the fields that a
// MatchRecord reads (the rest, such as the text in each language, is lexed but never stored): no
// document is built, and `kbc match` loads the corpus's 8 MB bundle in 0.07-0.11 s instead of
// 0.13-0.15 s. Throws nlohmann::json::parse_error (or out_of_range, for a number too large) when
// the text is not JSON, as nlohmann::json::parse does, and before any record at fault.
std::vector<MatchRecord> match_records_from_bundle_text(std::string_view json);

// Where a bundle's text may be cut in two for two threads to read: a comma between two elements
// of its top-level array, the first at or after the middle of the text, found by following its
// strings and nesting. It is not a parser: each half is then parsed, and on any fault the whole
// text is read again on one thread. nullopt when there is none, or the text is no array.
std::optional<std::size_t> bundle_middle_cut(std::string_view json);

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
constexpr std::size_t kMaxLineBytes = 16 * 1024;
// LogScan cuts what it has buffered into parts of about this much, matched on every core (on
// bench/match.sh's log, parts of 128 KB to 1 MB did alike, and of 4 MB 5% slower).
constexpr std::size_t kLogBlockBytes = 128 << 10;

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
  struct Best;
  struct Scratch {
    RegexIndex::Scratch all;
    RegexIndex::Scratch low;  // for low_index_
  };
  // Matches a piece of a line (at most kMaxLineBytes); returns whether it is a Python frame.
  // With `log` false (a text of one line, or --all-lines), the line is kept for near matches
  // even without an error word.
  bool scan_piece(std::string_view line, std::size_t line_number, bool after_frame, bool log,
                  Best& best, const RegexIndex& index, RegexIndex::Scratch& scratch) const;
  // Offers the hits on `line` (normalized) of the `candidates` that `index` just gave for it.
  void offer_hits(std::string_view line, std::size_t line_number, bool after_frame,
                  const std::vector<std::size_t>& candidates, Best& best, const RegexIndex& index,
                  RegexIndex::Scratch& scratch) const;
  // With `log`, lines that declare a low severity are matched against low_index_ only;
  // `continued`: the first line of `text` is the rest of a longer one, matched in full;
  // `after_frame`: the line before `text` was a Python frame. Returns whether its last line is.
  bool scan_lines(std::string_view text, std::size_t first_line, bool log, bool continued,
                  bool after_frame, Best& best, Scratch& scratch) const;
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

struct LogScanOptions {
  bool all_lines = false;  // also match the lines of a log that declare a low severity
  std::size_t block_bytes = kLogBlockBytes;  // match once this much is buffered (and at the end)
};

// Matches a text given in blocks, such as a log read from a pipe, with bounded memory: complete
// lines are cut into parts of about block_bytes as they arrive. Once a part large enough for
// threads to pay comes, parts are matched on every core (OrderedTasks) while the caller reads on,
// and their hits are taken in order; small texts (an error message) are matched on the caller's
// thread, with no thread started.
class LogScan {
 public:
  explicit LogScan(const Matcher& matcher, LogScanOptions options = {});
  ~LogScan();

  void feed(std::string_view block);  // any split: a line may continue in the next block
  // Matches what is left and returns the best hit of each entry, best first, at most `top`, of
  // those scoring min_score or more; when there is none, the near matches.
  std::vector<Hit> finish(std::size_t top, int min_score = kDefaultMinScore);
  std::size_t lines() const { return lines_; }  // lines matched so far (all, after finish)
  // Lines that declare a low severity, matched only against the entries of such lines so far.
  std::size_t low_lines() const;

 private:
  struct Part;
  void scan_buffered(bool all);
  // Matches `text` (complete lines, or with `continued` the rest of a longer line first), now
  // or on the workers, and takes its hits after those of the text before it.
  void submit(std::string_view text, bool log, bool continued);
  void match(Part& part, std::size_t worker);  // on any thread, with the worker's scratch
  void take(Part& part);                       // a part's hits, after those of the parts before it

  const Matcher& matcher_;
  const LogScanOptions options_;
  std::string buffer_;
  std::size_t lines_ = 0;     // newlines matched
  bool open_line_ = false;    // a line without its newline yet was partly matched (in pieces)
  std::size_t nonblank_ = 0;  // lines not blank among those matched, counted until `log_`
  bool log_ = false;          // the text has two lines or more that are not blank
  bool after_frame_ = false;  // the last line submitted is a Python frame
  std::unique_ptr<Matcher::Best> best_;
  std::vector<Matcher::Scratch> scratches_;      // one per worker thread, kept from part to part
  std::vector<std::string> spare_texts_;         // the texts of parts taken, reused (no allocation)
  std::unique_ptr<OrderedTasks<Part>> workers_;  // started by the first large part
};

// Sets the process's allocator up for the scan of a log, once the Matcher is built. Each
// regex's DFA reads memory before it writes it (RE2's sparse sets). In pages never touched, the
// read maps the kernel's shared zero page and the write then faults to copy it, which with two
// threads interrupts the other core to flush its TLB. glibc's M_PERTURB fills each block as it
// is allocated, so pages are written first: on bench/match.sh's 100 MB log the scan's system
// time falls from 0.7 s to 0.25 s and its wall time by about 8%. It costs every allocation after
// it a fill, so a long-running server (kbc mcp) does without it.
void prepare_allocator_for_scan();

// A hit for tools: id, signature, line, match, rank, the best workaround and the dead ends.
nlohmann::ordered_json hit_json(const Matcher& matcher, const Hit& hit, std::size_t position);
// What `kbc match --json` prints and `kbc mcp`'s lookup_error answers: the hits of a text of
// `lines` lines, matched with the threshold `min_score`.
nlohmann::ordered_json hits_json(const Matcher& matcher, const std::vector<Hit>& hits,
                                 std::size_t lines, int min_score);

}  // namespace kbc
