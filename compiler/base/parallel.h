// Splits independent work over the machine's cores. Results are written by index, or handed back
// in the order the work was given, so output does not depend on scheduling.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kbc {

// Calls `work(begin, end, worker)` on contiguous slices of [0, count), one per worker thread;
// a slice is not worth a thread below `grain` items. An exception thrown by the work on a slice
// is thrown to the caller once every slice is done (that of the first slice that threw).
template <typename Work>
void parallel_slices(std::size_t count, Work work, std::size_t grain = 64) {
  const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                                      std::max<std::size_t>(1, count / grain));
  if (workers <= 1) {
    work(std::size_t{0}, count, std::size_t{0});
    return;
  }
  std::vector<std::exception_ptr> failures(workers);
  const auto guarded = [&](std::size_t begin, std::size_t end, std::size_t worker) {
    try {
      work(begin, end, worker);
    } catch (...) {
      failures[worker] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  const std::size_t slice = (count + workers - 1) / workers;
  for (std::size_t w = 1; w < workers; ++w) {
    threads.emplace_back(guarded, std::min(count, w * slice), std::min(count, (w + 1) * slice), w);
  }
  guarded(std::size_t{0}, std::min(count, slice), std::size_t{0});
  for (std::thread& thread : threads) thread.join();
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

// Sorts `items` as std::sort would (the same order where no two items are equivalent): a slice
// per core, then the sorted slices merged.
template <typename T, typename Less>
void parallel_sort(std::vector<T>& items, Less less) {
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  std::mutex mutex;
  const auto at = [&items](std::size_t k) {
    return items.begin() + static_cast<std::ptrdiff_t>(k);
  };
  parallel_slices(
      items.size(),
      [&](std::size_t begin, std::size_t end, std::size_t) {
        std::sort(at(begin), at(end), less);
        const std::lock_guard lock(mutex);
        runs.emplace_back(begin, end);
      },
      std::size_t{1} << 14);
  std::sort(runs.begin(), runs.end());
  for (std::size_t k = 1; k < runs.size(); ++k)
    std::inplace_merge(at(0), at(runs[k].first), at(runs[k].second), less);
}

// Calls `work(begin, end)` on the blocks [k * block, (k + 1) * block) of [0, count), each worker
// thread taking the next block as soon as it is free, so that a slice of costly items does not
// leave the other cores waiting (`parallel_slices` gives each worker one slice, which a worker
// that needs its own state, such as a shard, wants). A block's results must be written by
// index. Exceptions as for parallel_slices.
template <typename Work>
void parallel_blocks(std::size_t count, Work work, std::size_t block = 128) {
  block = std::max<std::size_t>(1, block);
  const std::size_t workers =
      std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                              std::max<std::size_t>(1, (count + block - 1) / block));
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> failures(workers);
  const auto run = [&](std::size_t worker) {
    try {
      for (std::size_t begin = next.fetch_add(block); begin < count; begin = next.fetch_add(block))
        work(begin, std::min(count, begin + block));
    } catch (...) {
      failures[worker] = std::current_exception();
      next = count;  // the others stop after their current block
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(run, w);
  run(0);
  for (std::thread& thread : threads) thread.join();
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

// Tasks given one at a time, worked on by `workers` threads while the caller goes on (reading
// the next input, say), and handed back to the caller done, in the order it gave them: results
// that must be combined in order (the lines of a log) come out as if one thread had worked.
// There are no rounds: a worker takes the next task as soon as it is free, so neither the
// caller's own work nor a slow task leaves a core waiting. At most `most` tasks are given and
// not yet handed back, which bounds memory: `submit` waits for the oldest. An exception thrown
// by the work on a task is thrown to the caller when that task's turn to be handed back comes.
template <typename Task>
class OrderedTasks {
 public:
  // `work(task, worker)` runs on the worker threads, worker in [0, workers).
  template <typename Work>
  OrderedTasks(std::size_t workers, std::size_t most, Work work)
      : most_(std::max<std::size_t>(1, most)) {
    for (std::size_t w = 0; w < std::max<std::size_t>(1, workers); ++w)
      threads_.emplace_back([this, w, work]() mutable { run(w, work); });
  }
  // Stops the workers once their current tasks are done; tasks not yet taken are dropped.
  ~OrderedTasks() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    ready_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }
  OrderedTasks(const OrderedTasks&) = delete;
  OrderedTasks& operator=(const OrderedTasks&) = delete;

  // Hands the tasks done to `done(task)`, oldest first, until fewer than `most` are out, then
  // gives `task` to the workers.
  template <typename Done>
  void submit(Task task, Done done) {
    hand_back(most_ - 1, done);
    {
      const std::lock_guard lock(mutex_);
      queue_.push_back({std::move(task), false, nullptr});
    }
    ready_.notify_one();
  }

  // Waits for every task and hands each to `done(task)`, oldest first.
  template <typename Done>
  void finish(Done done) {
    hand_back(0, done);
  }

 private:
  struct Slot {
    Task task;
    bool done;
    std::exception_ptr error;  // what the work threw
  };

  template <typename Work>
  void run(std::size_t worker, Work& work) {
    std::unique_lock lock(mutex_);
    for (;;) {
      ready_.wait(lock, [&] { return stop_ || taken_ < queue_.size(); });
      if (stop_) return;
      // A deque keeps its elements in place as others are added at the back or taken from the
      // front, and only done slots are taken from the front.
      Slot& slot = queue_[taken_++];
      lock.unlock();
      std::exception_ptr error;
      try {
        work(slot.task, worker);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      slot.error = error;
      slot.done = true;
      done_.notify_one();  // only the caller waits for it
    }
  }

  template <typename Done>
  void hand_back(std::size_t most, Done& done) {
    std::unique_lock lock(mutex_);
    for (;;) {
      while (!queue_.empty() && queue_.front().done) {
        Task task = std::move(queue_.front().task);
        const std::exception_ptr error = queue_.front().error;
        queue_.pop_front();
        --taken_;
        if (error) std::rethrow_exception(error);
        lock.unlock();
        done(task);
        lock.lock();
      }
      if (queue_.size() <= most) return;
      done_.wait(lock);
    }
  }

  const std::size_t most_;
  std::mutex mutex_;
  std::condition_variable ready_;  // a task to take, or stop
  std::condition_variable done_;   // a task done
  std::deque<Slot> queue_;         // given and not handed back, oldest first
  std::size_t taken_ = 0;          // the first `taken_` of queue_ are taken by a worker
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace kbc
