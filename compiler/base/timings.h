// Where a run's time goes, for `--timings` (like ninja's `-d stats` or a compiler's
// -ftime-report): the wall time of each phase, the CPU time of the whole process (every
// thread, user and system) during it and the process's peak memory when it ended, in the order the
// phases began, nested phases indented under the phase that holds them; a phase that begins again
// under the same parent adds to its row. Off unless enable_timings() is called, and then only the
// thread that enabled it records, so workers inside a phase cost nothing.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace kbc {

void enable_timings();

// Times the phase `name` from construction to destruction.
class Phase {
 public:
  explicit Phase(std::string_view name);
  ~Phase();
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;

 private:
  std::size_t slot_;  // its row in the report, or npos when not recorded
  std::chrono::steady_clock::time_point start_;
  double start_cpu_ = 0;
};

// The report: one line per phase, "<wall seconds>  <cpu seconds>  <peak MB>  <name>", and the
// total; "" when not enabled.
std::string timings_report();

}  // namespace kbc
