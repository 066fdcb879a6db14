// SPDX-License-Identifier: Apache-2.0
/// \file
/// The worker threads behind parallelFor: started on first use, kept for the process's life.
#include "foresight/support/parallel.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>

namespace foresight::detail {
namespace {

/// One parallelFor call: its indices are taken one at a time by whoever runs it. Shared, so
/// that a worker which picks up a ticket after the call returned finds it finished, not freed.
struct Batch {
  std::size_t count = 0;
  void (*call)(void*, std::size_t) = nullptr;
  void* context = nullptr;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> finished{0};
  std::mutex mutex;  ///< with `done`: the last index to finish wakes the caller (C++17: no atomic wait)
  std::condition_variable done;
};

/// Runs indices of `b` until none is left untaken.
void work(Batch& b) {
  for (std::size_t i = b.next.fetch_add(1, std::memory_order_relaxed); i < b.count;
       i = b.next.fetch_add(1, std::memory_order_relaxed)) {
    b.call(b.context, i);
    if (b.finished.fetch_add(1, std::memory_order_acq_rel) + 1 == b.count) {
      const std::lock_guard<std::mutex> lock(b.mutex);
      b.done.notify_all();
    }
  }
}

/// Threads waiting for tickets: a ticket asks one of them to help with a batch.
class Pool {
 public:
  static Pool& instance() {
    static Pool pool;
    return pool;
  }

  void post(const std::shared_ptr<Batch>& batch, unsigned helpers) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      // One thread per helper asked for at once, at most kMaxThreads: parallelFor's caller is
      // one more, and a call that asks for more than the machine has cores still gets them (an
      // explicit --jobs).
      const size_t wanted = std::min<size_t>(helpers, kMaxThreads);
      while (threads_.size() < wanted) threads_.emplace_back([this] { serve(); });
      for (unsigned h = 0; h < helpers; ++h) tickets_.push_back(batch);
    }
    if (helpers == 1) {
      ready_.notify_one();
    } else {
      ready_.notify_all();
    }
  }

  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  static constexpr size_t kMaxThreads = 256;
  Pool() = default;

  void serve() {
    for (;;) {
      std::shared_ptr<Batch> batch;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return stopping_ || !tickets_.empty(); });
        if (tickets_.empty()) return;  // stopping
        batch = std::move(tickets_.front());
        tickets_.pop_front();
      }
      work(*batch);
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::shared_ptr<Batch>> tickets_;
  std::vector<std::thread> threads_;
  bool stopping_ = false;
};

}  // namespace

void runParallel(std::size_t count, unsigned helpers, void (*call)(void*, std::size_t), void* context) {
  auto batch = std::make_shared<Batch>();
  batch->count = count;
  batch->call = call;
  batch->context = context;
  Pool::instance().post(batch, helpers);
  work(*batch);
  // Indices taken by workers may still be running: wait for them (never for an untaken one).
  if (batch->finished.load(std::memory_order_acquire) == count) return;
  std::unique_lock<std::mutex> lock(batch->mutex);
  batch->done.wait(lock, [&] { return batch->finished.load(std::memory_order_acquire) == count; });
}

}  // namespace foresight::detail
