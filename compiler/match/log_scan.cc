#include "match/log_scan.h"

#include <malloc.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "base/text.h"
#include "match/best_hits.h"

namespace kbc {
namespace {

// The bytes [0, end) of `text` split after its last newline: complete lines, then the rest.
std::size_t after_last_newline(std::string_view text) {
  const std::size_t newline = text.rfind('\n');
  return newline == std::string_view::npos ? 0 : newline + 1;
}

// The number of lines of `text` that are not blank, counted up to `most`.
std::size_t nonblank_lines(std::string_view text, std::size_t most) {
  std::size_t count = 0;
  while (!text.empty() && count < most) {
    const std::size_t newline = text.find('\n');
    count += is_blank(text.substr(0, newline)) ? 0 : 1;
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
  }
  return count;
}

std::size_t count_lines(std::string_view text) {
  std::size_t lines = 0;
  const char* const end = text.data() + text.size();
  for (const char* at = text.data(); at < end; ++at, ++lines) {
    at = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
    if (!at) break;
  }
  return lines;
}

constexpr std::size_t kParallelMinBytes = 64 << 10;  // below this, one thread is faster
// Parts given to the workers and not yet taken back, per core: enough that a worker always has
// one to take while the caller reads on, few enough to bound memory (on bench/match.sh's log,
// 2 per core made the whole run 12% slower, and 8 was no faster).
constexpr std::size_t kPartsPerCore = 4;

}  // namespace

struct LogScan::Part {
  std::string text;
  bool log = false;
  bool continued = false;
  bool after_frame = false;  // the line before `text` is a Python frame
  BestHits found;            // its hits, its lines numbered from 1
  std::size_t lines = 0;     // newlines in `text`
};

LogScan::LogScan(const Matcher& matcher, LogScanOptions options)
    : matcher_(matcher),
      options_{options.all_lines, std::max<std::size_t>(1, options.block_bytes)},
      best_(std::make_unique<BestHits>()),
      scratches_(std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16)) {}

// The workers stop before the parts they hold are destroyed.
LogScan::~LogScan() { workers_.reset(); }

void LogScan::feed(std::string_view block) {
  buffer_.append(block);
  // Only a new line end, or a line grown past kMaxLineBytes, gives something to match.
  if (buffer_.size() >= options_.block_bytes &&
      (block.find('\n') != std::string_view::npos || buffer_.size() > kMaxLineBytes))
    scan_buffered(false);
}

std::size_t LogScan::low_lines() const { return best_->low_lines; }

std::vector<Hit> LogScan::finish(std::size_t top, int min_score) {
  scan_buffered(true);
  std::vector<Hit> hits = best_->ranked(matcher_, top, min_score);
  if (hits.empty()) hits = matcher_.near_hits(best_->near_lines, top);
  return hits;
}

// Matches the complete lines in the buffer (with `all`, the rest too) and drops them. A partial
// line longer than kMaxLineBytes is matched in whole pieces, so the buffer stays bounded.
//
// Whether the text is a log is known once two lines that are not blank have come. Until then,
// a lone line short enough to be skipped as a log's waits in the buffer: it may be the whole
// text, an error message to match as it is.
void LogScan::scan_buffered(bool all) {
  std::string_view text(buffer_);
  if (!log_) {
    log_ = nonblank_ + nonblank_lines(text, 2) >= 2;
    if (!log_ && !all && text.size() <= kMaxLineBytes) return;
  }
  const bool log = log_ && !options_.all_lines;
  const std::size_t complete = all ? text.size() : after_last_newline(text);
  if (!log_) nonblank_ += nonblank_lines(text.substr(0, complete), 2);
  for (std::string_view rest = text.substr(0, complete); !rest.empty();) {
    const std::size_t newline =
        rest.size() <= options_.block_bytes ? rest.npos : rest.find('\n', options_.block_bytes);
    const std::size_t cut = newline == rest.npos ? rest.size() : newline + 1;
    submit(rest.substr(0, cut), log, open_line_);
    open_line_ = false;
    rest.remove_prefix(cut);
  }
  std::size_t consumed = complete;
  if (!all && buffer_.size() - complete > kMaxLineBytes) {  // a long line still going on
    const std::size_t pieces = (buffer_.size() - complete) / kMaxLineBytes * kMaxLineBytes;
    submit(text.substr(complete, pieces), log, true);
    consumed += pieces;
    open_line_ = true;
  }
  if (all) {
    if (workers_) workers_->finish([this](Part& part) { take(part); });
    workers_.reset();
    if (text.empty() ? open_line_ : text.back() != '\n') ++lines_;  // the last line
  }
  buffer_.erase(0, consumed);
}

void LogScan::submit(std::string_view text, bool log, bool continued) {
  Part part{{}, log, continued, after_frame_, {}, 0};
  if (!spare_texts_.empty()) {
    part.text = std::move(spare_texts_.back());
    spare_texts_.pop_back();
  }
  part.text.assign(text);
  // Whether the last line of `text` is a Python frame, for the part after it (a piece of a
  // longer line is not).
  const std::string_view body = text.substr(0, text.size() - (text.ends_with('\n') ? 1 : 0));
  thread_local std::string buffer;
  after_frame_ =
      !continued || body.find('\n') != std::string_view::npos
          ? is_python_frame(normalized_line(trim(body.substr(body.rfind('\n') + 1)), buffer))
          : false;
  if (!text.ends_with('\n')) after_frame_ = false;
  if (!workers_ && (scratches_.size() == 1 || text.size() < kParallelMinBytes)) {
    match(part, 0);
    take(part);
    return;
  }
  if (!workers_) {
    workers_ = std::make_unique<OrderedTasks<Part>>(
        scratches_.size(), kPartsPerCore * scratches_.size(),
        [this](Part& given, std::size_t worker) { match(given, worker); });
  }
  workers_->submit(std::move(part), [this](Part& done) { take(done); });
}

void LogScan::match(Part& part, std::size_t worker) {
  matcher_.scan_lines(part.text, 1, part.log, part.continued, part.after_frame, part.found,
                      scratches_[worker]);
  part.lines = count_lines(part.text);
}

void LogScan::take(Part& part) {
  part.found.shift(lines_);
  lines_ += part.lines;
  best_->merge(matcher_, std::move(part.found));
  part.text.clear();
  spare_texts_.push_back(std::move(part.text));
}

void prepare_allocator_for_scan() { mallopt(M_PERTURB, 0x55); }

}  // namespace kbc
