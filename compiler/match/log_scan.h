// Matching a whole log, given in blocks, on every core with bounded memory.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/parallel.h"
#include "match/matcher.h"

namespace kbc {

struct BestHits;

// LogScan cuts what it has buffered into parts of about this much, matched on every core (on
// bench/match.sh's log, parts of 128 KB to 1 MB did alike, and of 4 MB 5% slower).
constexpr std::size_t kLogBlockBytes = 128 << 10;

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
  std::unique_ptr<BestHits> best_;
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

}  // namespace kbc
