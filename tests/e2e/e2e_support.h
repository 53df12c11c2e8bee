// What the end-to-end tests share: running the real kbc binary, and reading and writing files.
#pragma once

#include <stdlib.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kbc_e2e {

namespace fs = std::filesystem;

struct Run {
  int status;
  std::string output;  // stdout, and stderr unless it was left out
};

// `command` through the shell; the exit status, or 128 + the signal that ended it.
inline Run shell(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), output};
}

// `kbc <args>` through the shell.
inline Run kbc(const std::string& args, bool with_stderr = true) {
  return shell(std::string(KBC_BINARY) + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

inline std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// Checks that no staging folder of a build (".<out>.kbc-stage") or temporary file is left in
// `dir`.
inline void check_no_staging_left(const fs::path& dir) {
  for (const auto& item : fs::directory_iterator(dir)) {
    INFO(item.path());
    CHECK(item.path().filename().string().find(".tmp") == std::string::npos);
    CHECK(item.path().filename().string().find(".kbc-stage") == std::string::npos);
  }
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// How many times `part` occurs in `text` (overlapping ones too).
inline std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// A temporary knowledge base (kbc writes its parse cache under the root, so tests never run on
// the repository's own): a copy of `source` as `root / into`, by default of the shipped entries/.
struct TempKb {
  fs::path root;
  explicit TempKb(const fs::path& source = fs::path(KBC_SOURCE_DIR) / "entries",
                  const fs::path& into = "entries") {
    std::string pattern = (fs::temp_directory_path() / "kbc-e2e-XXXXXX").string();
    root = mkdtemp(pattern.data());
    fs::copy(source, root / into, fs::copy_options::recursive);
    // The shipped knowledge base is its entries and kbc verify's evidence of them.
    const fs::path shipped = fs::path(KBC_SOURCE_DIR);
    if (source == shipped / "entries" && into == "entries" && fs::exists(shipped / "verify.lock"))
      fs::copy(shipped / "verify.lock", root / "verify.lock");
  }
  ~TempKb() { fs::remove_all(root); }
  TempKb(const TempKb&) = delete;
  TempKb& operator=(const TempKb&) = delete;
  std::string arg() const { return "--root " + root.string(); }
};

// `kbc lint` on `kb` (and `files`), twice with the parse cache (the second run of a whole lint
// reuses the findings the first stored); checks that both report exactly what a run without the
// cache reports.
inline Run lint_same_as_uncached(const TempKb& kb, const std::string& files = "") {
  const Run cached = kbc("lint " + kb.arg() + files);
  const Run again = kbc("lint " + kb.arg() + files);  // the stored findings of a whole lint
  const Run uncached = kbc("lint --no-cache " + kb.arg() + files);
  INFO(cached.output);
  CHECK(cached.status == uncached.status);
  CHECK(cached.output == uncached.output);
  CHECK(again.status == uncached.status);
  CHECK(again.output == uncached.output);
  return cached;
}

}  // namespace kbc_e2e
