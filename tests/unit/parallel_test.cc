// base/parallel.h: the work is split over the cores, and every item is done exactly once.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "base/parallel.h"

using namespace kbc;

TEST_CASE("parallel_tasks does each task once and names a worker below the core count") {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  for (const std::size_t count : {0, 1, 2, 7, 1000}) {
    INFO("count " << count);
    std::vector<std::atomic<int>> done(count);
    std::atomic<bool> workers_in_range{true};
    parallel_tasks(count, [&](std::size_t task, std::size_t worker) {
      ++done[task];
      if (worker >= std::max<std::size_t>(1, std::min(cores, count))) workers_in_range = false;
    });
    for (std::size_t task = 0; task < count; ++task) CHECK(done[task] == 1);
    CHECK(workers_in_range);
  }
}

TEST_CASE("parallel_slices covers each item once in contiguous slices") {
  for (const std::size_t count : {0, 1, 63, 64, 1000}) {
    INFO("count " << count);
    std::vector<std::atomic<int>> done(count);
    parallel_slices(count, [&](std::size_t begin, std::size_t end, std::size_t) {
      for (std::size_t i = begin; i < end; ++i) ++done[i];
    });
    for (std::size_t i = 0; i < count; ++i) CHECK(done[i] == 1);
  }
}
