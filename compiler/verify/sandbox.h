// Runs one command in bubblewrap's sandbox, as kbc verify runs a recipe.
//
// Why bubblewrap (Debian's `bubblewrap`, the sandbox of Flatpak) rather than namespaces set up
// here: it is a small setuid-free program that many people audit, it sets up the user, mount,
// PID, network, IPC and UTS namespaces, a fresh /proc and /dev, tmpfs folders with a size and
// `--die-with-parent` correctly, and a few hundred lines of namespace code of our own would be
// one more place for a sandbox escape. kbc adds what bubblewrap leaves out: resource limits
// (setrlimit before it starts bubblewrap), the wall-clock limit, the output limit, and, when kbc
// runs as root, the switch to the user nobody, without which RLIMIT_NPROC does not apply.
//
// The sandbox sees the system's folders (/usr, /etc, /opt, ...) read-only and nothing of /home,
// /root, /work or the knowledge base; its working folder (/work) and /tmp are empty tmpfs
// folders of a bounded size, thrown away with it; it has no network (a network namespace with
// no interface but a loopback that is down), no nested user namespaces, and for a GPU recipe
// the /dev/nvidia* devices and a read-only /sys.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbc {

struct SandboxLimits {
  int timeout_s = 60;                         // wall clock; CPU time too (RLIMIT_CPU)
  std::uint64_t memory_bytes = 4ULL << 30;    // address space (RLIMIT_AS); 0: none
  std::uint64_t output_bytes = 16ULL << 20;   // stdout and stderr together
  std::uint64_t folder_bytes = 256ULL << 20;  // each of /work and /tmp
  std::uint64_t processes = 256;              // processes and threads (RLIMIT_NPROC)
  // The memory of all its processes together (their proportional set size, read from /proc
  // every 100 ms): RLIMIT_AS bounds one process, not many.
  std::uint64_t total_memory_bytes = 4ULL << 30;
};

struct SandboxRequest {
  std::string bwrap;                 // the bubblewrap program
  std::vector<std::string> command;  // run inside, found on PATH: {"python3", "/recipe/x.py"}
  std::string script;                // the text of the file at script_path inside
  std::string script_path;           // "/recipe/recipe.py"
  bool gpu = false;                  // binds the NVIDIA devices and /sys
  std::string path_variable;         // PATH inside (the caller's)
  SandboxLimits limits;
  // Each line of the output (stdout and stderr as they interleave), without its line ending.
  std::function<void(std::string_view line)> on_line;
};

struct SandboxResult {
  enum class Ending { kExited, kSignalled, kTimedOut, kOutputLimit, kMemoryLimit, kNotStarted };
  Ending ending = Ending::kNotStarted;
  int code = 0;  // the exit status, or the signal
  std::uint64_t output_bytes = 0;
  double seconds = 0;
  std::string error;  // kNotStarted: why (bubblewrap's own message)
};

// What happened, in words: "exited with status 1", "stopped after 60 s (time limit)".
std::string describe(const SandboxResult& result, const SandboxLimits& limits);

// Runs the request and waits for it (and everything it started) to end.
SandboxResult run_in_sandbox(const SandboxRequest& request);

// The program `name` on PATH, or "" when there is none.
std::string find_program(const std::string& name);

// Runs `argv` outside the sandbox (a probe such as dpkg-query or nvidia-smi) with no shell and
// returns its standard output, or nullopt when it cannot run or exits with a non-zero status.
// Bounded: at most 64 KiB of output, 20 s.
std::optional<std::string> probe_output(const std::vector<std::string>& argv);

}  // namespace kbc
