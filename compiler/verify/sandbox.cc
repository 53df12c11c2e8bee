#include "verify/sandbox.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <stop_token>
#include <thread>
#include <utility>

#include "base/file_system.h"
#include "base/text.h"

namespace kbc {

namespace {

constexpr uid_t kNobody = 65534;
constexpr std::size_t kLongestLine =
    std::size_t{64} * 1024;  // longer lines are cut into pieces of this size

using Clock = std::chrono::steady_clock;

class Descriptor {
 public:
  Descriptor() = default;
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  Descriptor(Descriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Descriptor& operator=(Descriptor&& other) noexcept {
    reset(std::exchange(other.fd_, -1));
    return *this;
  }
  ~Descriptor() { reset(); }
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// The threads (tasks) that `uid` runs now: RLIMIT_NPROC counts them all, so the sandbox's limit
// is this plus its own allowance.
std::uint64_t tasks_of(uid_t uid) {
  std::uint64_t count = 0;
  std::error_code error;
  for (const auto& process : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = process.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    struct stat info {};
    if (::stat(process.path().c_str(), &info) != 0 || info.st_uid != uid) continue;
    std::error_code ignored;
    for (auto it = std::filesystem::directory_iterator(process.path() / "task", ignored);
         it != std::filesystem::directory_iterator(); it.increment(ignored)) {
      if (ignored) break;
      ++count;
    }
  }
  return count;
}

std::vector<std::string> bwrap_arguments(const SandboxRequest& request, int script_fd,
                                         int info_fd) {
  std::vector<std::string> args = {request.bwrap,      "--unshare-all",     "--unshare-user",
                                   "--disable-userns", "--die-with-parent", "--new-session"};
  namespace fs = std::filesystem;
  for (const char* dir :
       {"/usr", "/etc", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    std::error_code error;
    const auto status = fs::symlink_status(dir, error);
    if (error || !fs::exists(status)) continue;
    if (fs::is_symlink(status)) {
      args.insert(args.end(), {"--symlink", fs::read_symlink(dir, error).string(), dir});
    } else if (fs::is_directory(status)) {
      args.insert(args.end(), {"--ro-bind", dir, dir});
    }
  }
  args.insert(args.end(), {"--proc", "/proc", "--dev", "/dev"});
  const std::string size = std::to_string(request.limits.folder_bytes);
  for (const char* folder : {"/tmp", "/work", "/dev/shm"})
    args.insert(args.end(), {"--size", size, "--tmpfs", folder});
  args.insert(args.end(), {"--file", std::to_string(script_fd), request.script_path});
  if (request.gpu) {
    std::error_code error;
    std::vector<std::string> devices;
    for (const auto& device : fs::directory_iterator("/dev", error)) {
      const std::string name = device.path().filename().string();
      if (name.starts_with("nvidia")) devices.push_back(device.path().string());
    }
    std::sort(devices.begin(), devices.end());
    for (const auto& device : devices) args.insert(args.end(), {"--dev-bind", device, device});
    args.insert(args.end(), {"--ro-bind", "/sys", "/sys"});
  }
  args.insert(args.end(), {"--chdir", "/work", "--info-fd", std::to_string(info_fd), "--"});
  args.insert(args.end(), request.command.begin(), request.command.end());
  return args;
}

std::vector<std::string> sandbox_environment(const SandboxRequest& request) {
  std::vector<std::string> env = {"PATH=" + request.path_variable,
                                  "HOME=/work",
                                  "TMPDIR=/tmp",
                                  "LANG=C.UTF-8",
                                  "LC_ALL=C.UTF-8",
                                  "PYTHONUNBUFFERED=1",
                                  "PYTHONDONTWRITEBYTECODE=1",
                                  "TERM=dumb"};
  if (const char* libraries = std::getenv("LD_LIBRARY_PATH"))
    env.push_back(std::string("LD_LIBRARY_PATH=") + libraries);
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

void set_limit(int resource, rlim_t value) {
  const rlimit limit{value, value};
  ::setrlimit(resource, &limit);
}

// Splits the output into lines for `on_line`, cutting lines longer than kLongestLine.
class LineSplitter {
 public:
  explicit LineSplitter(const std::function<void(std::string_view)>& on_line) : on_line_(on_line) {}
  void add(std::string_view bytes) {
    for (char c : bytes) {
      if (c == '\n') {
        emit();
      } else {
        partial_ += c;
        if (partial_.size() >= kLongestLine) emit();
      }
    }
  }
  void finish() {
    if (!partial_.empty()) emit();
  }

 private:
  void emit() {
    if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
    if (on_line_) on_line_(partial_);
    partial_.clear();
  }
  const std::function<void(std::string_view)>& on_line_;
  std::string partial_;
};

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 60000));
}

}  // namespace

std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const auto colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    if (!dir.empty()) {
      std::string candidate = dir + "/" + name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    if (colon == std::string_view::npos) return {};
    rest.remove_prefix(colon + 1);
  }
}

std::string describe(const SandboxResult& result, const SandboxLimits& limits) {
  using Ending = SandboxResult::Ending;
  switch (result.ending) {
    case Ending::kExited: {
      std::string text = "exited with status " + std::to_string(result.code);
      if (result.code > 128 && result.code < 128 + 65) {
        const int signal = result.code - 128;
        text += std::string(" (killed by ") + ::sigabbrev_np(signal) + ")";
        if (signal == SIGXCPU)
          text += ": it used its " + std::to_string(limits.timeout_s) + " s of CPU time";
      }
      return text;
    }
    case Ending::kSignalled:
      return std::string("killed by signal ") + ::sigabbrev_np(result.code);
    case Ending::kTimedOut:
      return "stopped after " + std::to_string(limits.timeout_s) + " s (its time limit)";
    case Ending::kMemoryLimit:
      return "stopped when its processes used more than " +
             std::to_string(limits.total_memory_bytes >> 20) + " MiB of memory together";
    case Ending::kOutputLimit:
      return "stopped after printing more than " + std::to_string(limits.output_bytes >> 20) +
             " MiB (the output limit)";
    case Ending::kNotStarted:
      return "the sandbox did not start: " + result.error;
  }
  return {};
}

namespace {

// A started bubblewrap: its process (group) and the read ends of its output and of --info-fd.
struct Started {
  pid_t pid = -1;
  Descriptor output;
  Descriptor info;
  std::string error;  // when pid < 0
};

// A memfd holding `text`, for bubblewrap's --file (no file on the host's disk).
int script_descriptor(const std::string& text) {
  const int fd = ::memfd_create("kbc-recipe", 0);
  for (std::size_t done = 0; fd >= 0 && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) {
      ::close(fd);
      return -1;
    }
    done += static_cast<std::size_t>(n);
  }
  if (fd >= 0) ::lseek(fd, 0, SEEK_SET);
  return fd;
}

[[noreturn]] void fail_in_child(const char* message) {
  [[maybe_unused]] const auto ignored = ::write(2, message, std::strlen(message));
  ::_exit(127);
}

Started start_bwrap(const SandboxRequest& request) {
  Started started;
  Descriptor script(script_descriptor(request.script));
  int out_pipe[2], info_pipe[2];
  if (script.get() < 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0) {
    started.error = std::strerror(errno);
    return started;
  }
  started.output.reset(out_pipe[0]);
  Descriptor out_write(out_pipe[1]);
  if (::pipe(info_pipe) != 0) {  // the write end without O_CLOEXEC: bubblewrap inherits it
    started.error = std::strerror(errno);
    return started;
  }
  started.info.reset(info_pipe[0]);
  Descriptor info_write(info_pipe[1]);
  ::fcntl(started.info.get(), F_SETFD, FD_CLOEXEC);
  Descriptor null_input(::open("/dev/null", O_RDONLY | O_CLOEXEC));

  // Everything the child needs is made before fork: after it, only async-signal-safe calls.
  std::vector<std::string> args = bwrap_arguments(request, script.get(), info_write.get());
  std::vector<std::string> env = sandbox_environment(request);
  std::vector<char*> argv = c_strings(args), envp = c_strings(env);
  const bool root = ::geteuid() == 0;
  const rlim_t processes =
      static_cast<rlim_t>(tasks_of(root ? kNobody : ::getuid()) + request.limits.processes);
  const SandboxLimits& limits = request.limits;
  started.pid = ::fork();
  if (started.pid < 0) {
    started.error = std::strerror(errno);
    return started;
  }
  if (started.pid == 0) {
    ::setpgid(0, 0);
    ::dup2(null_input.get(), 0);
    ::dup2(out_write.get(), 1);
    ::dup2(out_write.get(), 2);
    set_limit(RLIMIT_CPU, static_cast<rlim_t>(limits.timeout_s) + 1);
    if (limits.memory_bytes) set_limit(RLIMIT_AS, limits.memory_bytes);
    set_limit(RLIMIT_NPROC, processes);
    set_limit(RLIMIT_FSIZE, limits.folder_bytes);
    set_limit(RLIMIT_CORE, 0);
    // As root, RLIMIT_NPROC does not apply: the sandbox runs as nobody.
    if (root && (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0))
      fail_in_child("kbc: cannot switch to the user nobody\n");
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // after setuid, which clears it
    ::execve(argv[0], argv.data(), envp.data());
    fail_in_child("kbc: cannot run bubblewrap\n");
  }
  return started;
}

// The memory of the sandbox's processes together: those of its PID namespace, which bubblewrap
// names through --info-fd ({"child-pid": N}) once it has started them. A thread of its own reads
// it every 100 ms, so that the time limit never waits for a scan: under a fork bomb, one read of
// /proc can wait seconds for a process that forks (it holds its memory map's lock) and for the CPU.
class MemoryWatch {
 public:
  MemoryWatch(int info_fd, std::uint64_t limit) : info_fd_(info_fd), limit_(limit) {
    ::fcntl(info_fd_, F_SETFL, ::fcntl(info_fd_, F_GETFL) | O_NONBLOCK);
    if (limit_) thread_ = std::jthread([this](const std::stop_token& stop) { watch(stop); });
  }
  MemoryWatch(const MemoryWatch&) = delete;
  MemoryWatch& operator=(const MemoryWatch&) = delete;
  ~MemoryWatch() { stop(); }

  // True once the processes used more than the limit.
  bool over() const { return over_.load(std::memory_order_relaxed); }
  // Ends the thread; a read it waits on ends when the sandbox's processes are killed.
  void stop() {
    if (!thread_.joinable()) return;
    thread_.request_stop();  // wakes its wait
    thread_.join();
  }
  // True when bubblewrap said that it started the command; only after stop().
  bool began() {
    read_info();
    return !info_.empty();
  }

 private:
  void watch(const std::stop_token& stop) {
    std::mutex mutex;  // the wait's alone: the stop is what wakes it
    std::unique_lock lock(mutex);
    while (!wake_.wait_for(lock, stop, std::chrono::milliseconds(100),
                           [&stop] { return stop.stop_requested(); })) {
      if (namespace_.empty() && began()) namespace_ = pid_namespace();
      if (!namespace_.empty() && proportional_set(stop) > limit_) {
        over_.store(true, std::memory_order_relaxed);
        return;
      }
    }
  }
  void read_info() {
    char buffer[256];
    for (ssize_t n; (n = ::read(info_fd_, buffer, sizeof buffer)) > 0;)
      info_.append(buffer, static_cast<std::size_t>(n));
  }
  std::string pid_namespace() const {
    const auto at = info_.find("\"child-pid\":");
    if (at == std::string::npos) return {};
    const long pid = std::strtol(info_.c_str() + at + 12, nullptr, 10);
    std::error_code error;
    const auto link =
        std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/ns/pid", error);
    return error ? std::string() : link.string();
  }
  // The sum of Pss over the namespace's processes (shared pages counted once in all).
  std::uint64_t proportional_set(const std::stop_token& stop) const {
    std::uint64_t total = 0;
    std::error_code error;
    for (const auto& process : std::filesystem::directory_iterator("/proc", error)) {
      if (stop.stop_requested()) break;
      std::error_code ignored;
      if (std::filesystem::read_symlink(process.path() / "ns/pid", ignored).string() != namespace_)
        continue;
      const auto rollup = read_whole_file((process.path() / "smaps_rollup").string());
      const auto at = rollup ? rollup->find("\nPss:") : std::string::npos;
      if (at != std::string::npos)
        total += std::strtoull(rollup->c_str() + at + 5, nullptr, 10) * 1024;
    }
    return total;
  }

  int info_fd_;
  std::uint64_t limit_;
  std::string info_;       // the thread's until stop()
  std::string namespace_;  // the thread's
  std::atomic<bool> over_ = false;
  std::condition_variable_any wake_;
  std::jthread thread_;  // last: it ends before the members it reads
};

// Reads the output until it ends, the time is up, it is too long or the processes use too much
// memory; true when it ended.
bool read_output(int fd, Clock::time_point deadline, const SandboxLimits& limits,
                 MemoryWatch& memory, LineSplitter& lines, std::string& tail,
                 SandboxResult& result) {
  std::string buffer(std::size_t{64} * 1024, '\0');
  while (true) {
    pollfd wait{fd, POLLIN, 0};
    const int ready = ::poll(&wait, 1, std::min(remaining_ms(deadline), 100));
    if (ready < 0 && errno == EINTR) continue;
    if (Clock::now() >= deadline) {
      result.ending = SandboxResult::Ending::kTimedOut;
      return false;
    }
    if (memory.over()) {
      result.ending = SandboxResult::Ending::kMemoryLimit;
      return false;
    }
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    const std::string_view bytes(buffer.data(), static_cast<std::size_t>(n));
    result.output_bytes += bytes.size();
    if (result.output_bytes > limits.output_bytes) {
      result.ending = SandboxResult::Ending::kOutputLimit;
      return false;
    }
    lines.add(bytes);
    tail.append(bytes);
    if (tail.size() > 8192) tail.erase(0, tail.size() - 4096);
  }
}

}  // namespace

SandboxResult run_in_sandbox(const SandboxRequest& request) {
  SandboxResult result;
  const auto began = Clock::now();
  Started started = start_bwrap(request);
  if (started.pid < 0) {
    result.error = started.error;
    return result;
  }
  const auto deadline = began + std::chrono::seconds(request.limits.timeout_s);
  LineSplitter lines(request.on_line);
  std::string tail;  // the last bytes, for a sandbox that did not start
  MemoryWatch memory(started.info.get(), request.limits.total_memory_bytes);
  bool ended =
      read_output(started.output.get(), deadline, request.limits, memory, lines, tail, result);
  int status = 0;
  if (ended) {
    lines.finish();
    // The output is closed: wait for bubblewrap to exit, within the time that is left.
    while (ended && ::waitpid(started.pid, &status, WNOHANG) == 0) {
      if (Clock::now() >= deadline) {
        result.ending = SandboxResult::Ending::kTimedOut;
        ended = false;
      } else if (memory.over()) {
        result.ending = SandboxResult::Ending::kMemoryLimit;
        ended = false;
      }
      ::usleep(5000);
    }
  }
  if (!ended) {
    // bubblewrap's child is PID 1 of the sandbox's PID namespace and dies with bubblewrap
    // (--die-with-parent), which ends every process of the namespace.
    ::kill(-started.pid, SIGKILL);
    ::kill(started.pid, SIGKILL);
    while (::waitpid(started.pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - began).count();
    return result;
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - began).count();
  memory.stop();
  if (!memory.began()) {
    result.ending = SandboxResult::Ending::kNotStarted;
    const auto first = tail.find_first_not_of('\n');
    result.error = first == std::string::npos ? "bubblewrap exited with no message"
                                              : std::string(trim(tail.substr(first)));
  } else if (WIFEXITED(status)) {
    result.ending = SandboxResult::Ending::kExited;
    result.code = WEXITSTATUS(status);
  } else {
    result.ending = SandboxResult::Ending::kSignalled;
    result.code = WTERMSIG(status);
  }
  return result;
}

std::optional<std::string> probe_output(const std::vector<std::string>& command) {
  std::string program = command.empty() ? std::string() : find_program(command[0]);
  if (program.empty()) return std::nullopt;
  int out_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return std::nullopt;
  Descriptor out_read(out_pipe[0]), out_write(out_pipe[1]);
  Descriptor null_io(::open("/dev/null", O_RDWR | O_CLOEXEC));
  std::vector<std::string> args = command;
  args[0] = program;
  std::vector<char*> argv = c_strings(args);
  const pid_t pid = ::fork();
  if (pid < 0) return std::nullopt;
  if (pid == 0) {
    ::setpgid(0, 0);
    ::dup2(null_io.get(), 0);
    ::dup2(out_write.get(), 1);
    ::dup2(null_io.get(), 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  out_write.reset();
  const auto deadline = Clock::now() + std::chrono::seconds(20);
  std::string out;
  char buffer[4096];
  bool killed = false;
  while (true) {
    pollfd wait{out_read.get(), POLLIN, 0};
    const int ready = ::poll(&wait, 1, remaining_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0 || out.size() > std::size_t{64} * 1024) {
      ::kill(-pid, SIGKILL);
      killed = true;
      break;
    }
    const ssize_t n = ::read(out_read.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buffer, static_cast<std::size_t>(n));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (killed || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

}  // namespace kbc
