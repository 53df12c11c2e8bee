#include "base/timings.h"

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
};

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
  slot_ = recorder->rows.size();
  recorder->rows.push_back({std::string(name), recorder->depth++, 0});
}

Phase::~Phase() {
  if (slot_ == std::string::npos) return;
  recorder->rows[slot_].seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  --recorder->depth;
}

std::string timings_report() {
  if (!recorder) return "";
  std::string out = "timings (wall seconds):\n";
  char figure[32];
  for (const Row& row : recorder->rows) {
    std::snprintf(figure, sizeof figure, "%8.3f  ", row.seconds);
    out += figure + std::string(2 * row.depth, ' ') + row.name + "\n";
  }
  const double total = std::chrono::duration<double>(Clock::now() - recorder->enabled_at).count();
  std::snprintf(figure, sizeof figure, "%8.3f  ", total);
  return out + figure + "total\n";
}

}  // namespace kbc
