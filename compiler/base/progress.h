// A progress bar on stderr for long lints and builds. It is drawn only on a terminal, never in
// a pipe or a CI log (CI set), and only once a run has lasted long enough to need one, so
// short runs and every captured output stay exactly as they were.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace kbc {

class Progress {
 public:
  // Whether a bar belongs on this process's stderr: a terminal, not CI, not TERM=dumb.
  static bool wanted();

  // A disabled Progress ignores every call.
  explicit Progress(bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // A new phase of `total` steps, named as the bar shows it ("loading", "writing").
  void start(std::string_view phase, std::size_t total);
  // `steps` more done; any thread may call it. Redraws at most ten times a second.
  void advance(std::size_t steps = 1);
  // Erases the bar (before the run prints its results).
  void clear();

 private:
  void draw(bool force);

  const bool enabled_;
  const std::chrono::steady_clock::time_point created_;
  std::atomic<std::size_t> done_{0};
  std::atomic<std::size_t> total_{0};
  std::atomic<std::int64_t> next_draw_ns_{0};
  std::mutex draw_mutex_;
  std::string phase_;   // guarded by draw_mutex_
  bool shown_ = false;  // guarded by draw_mutex_
};

// The bar line for `done` of `total` steps of `phase`, `width` columns wide in all.
std::string progress_line(std::string_view phase, std::size_t done, std::size_t total,
                          std::size_t width);

}  // namespace kbc
