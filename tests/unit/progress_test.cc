#include <catch2/catch.hpp>

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

TEST_CASE("a disabled progress bar ignores every call") {
  Progress progress(false);
  progress.start("loading", 10);
  progress.advance(3);
  progress.clear();
  SUCCEED("no output, no crash");
}
