#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>

#include "base/progress.h"

using namespace kbc;

TEST_CASE("the progress line fills in proportion and fits its width") {
  CHECK(progress_line("loading", 0, 4, 30) == "loading  [>              ] 0/4");
  CHECK(progress_line("loading", 2, 4, 30) == "loading  [=======>       ] 2/4");
  CHECK(progress_line("loading", 4, 4, 30) == "loading  [===============] 4/4");
  CHECK(progress_line("writing", 9, 4, 30) == "writing  [===============] 4/4");  // never past full
  CHECK(progress_line("x", 0, 0, 30).ends_with("] 0/0"));
  for (const std::size_t width : {40u, 80u, 200u}) {
    CHECK(progress_line("rendering", 1234, 5044, width).size() == width);
  }
}

namespace {

// What `run` writes to stderr (file descriptor 2, where the bar is drawn).
std::string stderr_of(const std::function<void()>& run) {
  std::fflush(stderr);
  std::FILE* capture = std::tmpfile();
  REQUIRE(capture);
  const int saved = dup(STDERR_FILENO);
  dup2(fileno(capture), STDERR_FILENO);
  run();
  dup2(saved, STDERR_FILENO);
  close(saved);
  std::string text;
  std::rewind(capture);
  for (int c; (c = std::fgetc(capture)) != EOF;) text += static_cast<char>(c);
  std::fclose(capture);
  return text;
}

void wait_past_the_delay() { std::this_thread::sleep_for(std::chrono::milliseconds(350)); }

}  // namespace

TEST_CASE("a disabled progress bar draws nothing, even after the delay") {
  CHECK(stderr_of([] {
          Progress progress(false);
          progress.start("loading", 10);
          wait_past_the_delay();
          progress.advance(3);
          progress.clear();
        }) == "");
}

TEST_CASE("a progress bar appears only once a run has lasted 300 ms, and is erased") {
  // Over sooner: no bar at all, and nothing to erase.
  CHECK(stderr_of([] {
          Progress progress(true);
          progress.start("loading", 4);
          progress.advance(4);
          progress.clear();
        }) == "");
  // Longer: the bar, redrawn from the line's start, then erased.
  const std::string drawn = stderr_of([] {
    Progress progress(true);
    progress.start("loading", 4);
    wait_past_the_delay();
    progress.advance(2);
    progress.clear();
  });
  CHECK(drawn.starts_with("\rloading  [="));
  CHECK(drawn.find("] 2/4") != std::string::npos);
  CHECK(drawn.ends_with("\r\033[K"));
}
