// Splits independent work over the machine's cores. Results are written by index, so output
// does not depend on scheduling.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace kbc {

// Calls `work(begin, end, worker)` on contiguous slices of [0, count), one per worker thread;
// a slice is not worth a thread below `grain` items.
template <typename Work>
void parallel_slices(std::size_t count, Work work, std::size_t grain = 64) {
  const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                                      std::max<std::size_t>(1, count / grain));
  if (workers <= 1) {
    work(std::size_t{0}, count, std::size_t{0});
    return;
  }
  std::vector<std::thread> threads;
  const std::size_t slice = (count + workers - 1) / workers;
  for (std::size_t w = 1; w < workers; ++w) {
    threads.emplace_back(work, std::min(count, w * slice), std::min(count, (w + 1) * slice), w);
  }
  work(std::size_t{0}, std::min(count, slice), std::size_t{0});
  for (std::thread& thread : threads) thread.join();
}

// Calls `work(task, worker)` for each task of [0, count) on the machine's cores, each worker
// taking the next task not yet taken: for tasks of uneven cost, which contiguous slices would
// leave one core waiting for the other. The caller writes results by task.
template <typename Work>
void parallel_tasks(std::size_t count, Work work) {
  const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                                      std::max<std::size_t>(1, count));
  std::atomic<std::size_t> next{0};
  const auto take = [&](std::size_t worker) {
    for (std::size_t task; (task = next.fetch_add(1)) < count;) work(task, worker);
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(take, w);
  take(0);
  for (std::thread& thread : threads) thread.join();
}

}  // namespace kbc
