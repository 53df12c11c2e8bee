// base/parallel.h: the work is split over the cores, every item is done exactly once, and
// OrderedTasks hands tasks back in the order given.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "base/parallel.h"

using namespace kbc;

TEST_CASE("OrderedTasks does each task once and hands them back in the order given") {
  for (const std::size_t workers : {1, 2, 3}) {
    for (const std::size_t count : {0, 1, 2, 7, 1000}) {
      INFO("workers " << workers << ", count " << count);
      const std::size_t most = 4;
      std::vector<std::atomic<int>> done(count);
      std::atomic<std::size_t> given{0}, handed{0};
      std::atomic<bool> in_bounds{true};
      std::vector<std::size_t> order;
      {
        OrderedTasks<std::size_t> tasks(workers, most, [&](std::size_t& task, std::size_t worker) {
          ++done[task];
          if (worker >= workers || given - handed > most) in_bounds = false;
          task *= 10;
        });
        const auto take = [&](std::size_t& task) {
          order.push_back(task);
          ++handed;
        };
        for (std::size_t task = 0; task < count; ++task) {
          tasks.submit(task, take);
          ++given;
        }
        tasks.finish(take);
      }
      for (std::size_t task = 0; task < count; ++task) CHECK(done[task] == 1);
      REQUIRE(order.size() == count);
      for (std::size_t task = 0; task < count; ++task) CHECK(order[task] == 10 * task);
      CHECK(in_bounds);
    }
  }
}

TEST_CASE("OrderedTasks works on the next task while one is slow") {
  std::atomic<bool> second_done{false};
  std::vector<int> order;
  OrderedTasks<int> tasks(2, 4, [&](int& task, std::size_t) {
    if (task == 0) {
      while (!second_done) std::this_thread::yield();  // ends only once task 1 is done
    } else {
      second_done = true;
    }
  });
  const auto take = [&](int& task) { order.push_back(task); };
  tasks.submit(0, take);
  tasks.submit(1, take);
  tasks.finish(take);
  CHECK(order == std::vector<int>{0, 1});
}

TEST_CASE("OrderedTasks throws a task's exception to the caller in that task's turn") {
  std::vector<int> order;
  std::atomic<bool> all_given{false};
  OrderedTasks<int> tasks(2, 8, [&](int& task, std::size_t) {
    while (task == 0 && !all_given) std::this_thread::yield();  // nothing is handed back early
    if (task == 2) throw std::runtime_error("task 2");
  });
  const auto take = [&](int& task) { order.push_back(task); };
  for (int task = 0; task < 5; ++task) tasks.submit(task, take);
  all_given = true;
  CHECK_THROWS_WITH(tasks.finish(take), "task 2");
  CHECK(order == std::vector<int>{0, 1});  // the tasks before it were handed back
  tasks.finish(take);                      // and the ones after it still are
  CHECK(order == std::vector<int>{0, 1, 3, 4});
}

TEST_CASE("OrderedTasks drops the tasks not taken when destroyed before finish") {
  std::atomic<int> worked{0};
  {
    OrderedTasks<int> tasks(1, 100, [&](int&, std::size_t) {
      ++worked;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    });
    for (int task = 0; task < 50; ++task) tasks.submit(task, [](int&) {});
  }
  CHECK(worked < 50);
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

TEST_CASE("parallel_slices throws a slice's exception to the caller once all slices are done") {
  for (const std::size_t failing : {std::size_t{0}, std::size_t{999}}) {
    std::atomic<std::size_t> done{0};
    const auto run = [&] {
      kbc::parallel_slices(
          1000,
          [&](std::size_t begin, std::size_t end, std::size_t) {
            for (std::size_t i = begin; i < end; ++i) {
              if (i == failing) throw std::runtime_error("item " + std::to_string(i));
              ++done;
            }
          },
          /*grain=*/1);
    };
    CHECK_THROWS_WITH(run(), "item " + std::to_string(failing));
    CHECK(done < 1000);
  }
}

TEST_CASE("parallel_blocks covers each item once, a block at a time") {
  for (const std::size_t count : {0, 1, 127, 128, 129, 1000}) {
    for (const std::size_t block : {1, 7, 128}) {
      INFO("count " << count << " block " << block);
      std::vector<std::atomic<int>> done(count);
      std::atomic<bool> aligned{true};
      parallel_blocks(
          count,
          [&](std::size_t begin, std::size_t end) {
            if (begin % block != 0 || end - begin > block || (end != count && end - begin != block))
              aligned = false;
            for (std::size_t i = begin; i < end; ++i) ++done[i];
          },
          block);
      CHECK(aligned);
      for (std::size_t i = 0; i < count; ++i) CHECK(done[i] == 1);
    }
  }
}

TEST_CASE("parallel_blocks throws a block's exception to the caller and stops handing out blocks") {
  std::atomic<std::size_t> done{0};
  const auto run = [&] {
    parallel_blocks(
        100000,
        [&](std::size_t begin, std::size_t end) {
          if (begin == 0) throw std::runtime_error("block 0");
          std::this_thread::sleep_for(std::chrono::microseconds(50));
          done += end - begin;
        },
        10);
  };
  CHECK_THROWS_WITH(run(), "block 0");
  CHECK(done < 100000 / 2);  // all the others would take 10,000 x 50 us
}

TEST_CASE("parallel_sort gives std::sort's order, whatever the number of slices") {
  for (const std::size_t count : {0, 1, 1000, 100000}) {
    std::vector<std::uint64_t> items(count);
    std::uint64_t x = 88172645463325252u;  // xorshift: the same items on every run
    for (std::uint64_t& item : items) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      item = x % 50000;  // with repeats
    }
    std::vector<std::uint64_t> expected = items;
    std::sort(expected.begin(), expected.end());
    kbc::parallel_sort(items, std::less<>());
    CHECK(items == expected);
  }
  // Descending, by a comparison of the caller's.
  std::vector<std::string> words = {"b", "a", "d", "c"};
  kbc::parallel_sort(words, std::greater<>());
  CHECK(words == std::vector<std::string>{"d", "c", "b", "a"});
}
