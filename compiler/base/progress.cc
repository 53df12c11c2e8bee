#include "base/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace kbc {
namespace {

using Clock = std::chrono::steady_clock;

// A bar appears only after this long, so that runs that are over sooner never show one.
constexpr auto kDelay = std::chrono::milliseconds(300);
constexpr auto kInterval = std::chrono::milliseconds(100);

std::int64_t nanoseconds(Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
}

std::size_t terminal_width() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 20) return size.ws_col;
  return 80;
}

}  // namespace

bool Progress::wanted() {
  if (!isatty(STDERR_FILENO)) return false;
  if (const char* ci = std::getenv("CI"); ci && *ci) return false;
  const char* term = std::getenv("TERM");
  return !(term && std::strcmp(term, "dumb") == 0);
}

Progress::Progress(bool enabled)
    : enabled_(enabled),
      created_(Clock::now()),
      next_draw_ns_(nanoseconds(created_.time_since_epoch() + kDelay)) {}

Progress::~Progress() { clear(); }

void Progress::start(std::string_view phase, std::size_t total) {
  if (!enabled_) return;
  {
    const std::lock_guard lock(draw_mutex_);
    phase_ = phase;
    done_ = 0;
    total_ = total;
  }
  draw(false);
}

void Progress::advance(std::size_t steps) {
  if (!enabled_) return;
  done_ += steps;
  draw(false);
}

void Progress::draw(bool force) {
  const std::int64_t now = nanoseconds(Clock::now().time_since_epoch());
  std::int64_t next = next_draw_ns_.load(std::memory_order_relaxed);
  if (!force && now < next) return;
  // One thread draws; the others go on with their work.
  std::unique_lock lock(draw_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  next_draw_ns_ = now + nanoseconds(kInterval);
  const std::string line = "\r" + progress_line(phase_, done_, total_, terminal_width() - 1);
  shown_ = true;
  (void)!write(STDERR_FILENO, line.data(), line.size());
}

void Progress::clear() {
  if (!enabled_) return;
  const std::lock_guard lock(draw_mutex_);
  if (!shown_) return;
  shown_ = false;
  static constexpr char kErase[] = "\r\033[K";
  (void)!write(STDERR_FILENO, kErase, sizeof kErase - 1);
}

std::string progress_line(std::string_view phase, std::size_t done, std::size_t total,
                          std::size_t width) {
  done = std::min(done, total);
  std::string label(phase);
  label.resize(std::max<std::size_t>(label.size(), 8), ' ');
  const std::string count = " " + std::to_string(done) + "/" + std::to_string(total);
  const std::size_t fixed = label.size() + 3 + count.size();  // "label [" + "]" + count
  const std::size_t bar = width > fixed + 10 ? width - fixed : 10;
  const std::size_t filled = total == 0 ? bar : bar * done / total;
  std::string out = label + " [";
  out.append(filled, '=');
  if (filled < bar) {
    out += '>';
    out.append(bar - filled - 1, ' ');
  }
  return out + "]" + count;
}

}  // namespace kbc
