#include "base/timings.h"

#include <sys/resource.h>

#include <cstdio>
#include <thread>
#include <vector>

namespace kbc {
namespace {

using Clock = std::chrono::steady_clock;

struct Row {
  std::string name;
  int depth = 0;
  double seconds = 0;
  double cpu_seconds = 0;
  long peak_mb = 0;  // the process's peak resident memory when the phase last ended
};

// The CPU time of the process so far: every thread, user and system.
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// The process's peak resident memory so far, in MB.
long peak_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;  // kilobytes on Linux
}

struct Recorder {
  std::thread::id owner;
  Clock::time_point enabled_at;
  std::vector<Row> rows;
  int depth = 0;
};

// Set once, by enable_timings() on the main thread, before any phase of interest.
Recorder* recorder = nullptr;

bool recording() { return recorder && recorder->owner == std::this_thread::get_id(); }

}  // namespace

void enable_timings() {
  if (!recorder) recorder = new Recorder{std::this_thread::get_id(), Clock::now(), {}, 0};
}

Phase::Phase(std::string_view name) : slot_(std::string::npos), start_(Clock::now()) {
  if (!recording()) return;
  // A phase that begins again under the same parent (a pass done in chunks) adds to its row.
  for (std::size_t i = recorder->rows.size();
       i-- > 0 && recorder->rows[i].depth >= recorder->depth;) {
    if (recorder->rows[i].depth == recorder->depth && recorder->rows[i].name == name) slot_ = i;
  }
  if (slot_ == std::string::npos) {
    slot_ = recorder->rows.size();
    recorder->rows.push_back({std::string(name), recorder->depth, 0, 0, 0});
  }
  ++recorder->depth;
  start_cpu_ = cpu_seconds();
}

Phase::~Phase() {
  if (slot_ == std::string::npos) return;
  Row& row = recorder->rows[slot_];
  row.seconds += std::chrono::duration<double>(Clock::now() - start_).count();
  row.cpu_seconds += cpu_seconds() - start_cpu_;
  row.peak_mb = peak_mb();
  --recorder->depth;
}

std::string timings_report() {
  if (!recorder) return "";
  std::string out =
      "timings (seconds; the peak memory so far at the phase's end):\n"
      "    wall     cpu  peak MB\n";
  char figures[64];
  for (const Row& row : recorder->rows) {
    std::snprintf(figures, sizeof figures, "%8.3f%8.3f%9ld  ", row.seconds, row.cpu_seconds,
                  row.peak_mb);
    out += figures + std::string(std::size_t{2} * row.depth, ' ') + row.name + "\n";
  }
  const double total = std::chrono::duration<double>(Clock::now() - recorder->enabled_at).count();
  std::snprintf(figures, sizeof figures, "%8.3f%8.3f%9ld  ", total, cpu_seconds(), peak_mb());
  return out + figures + "total\n";
}

}  // namespace kbc
