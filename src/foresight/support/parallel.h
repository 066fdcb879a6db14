// SPDX-License-Identifier: Apache-2.0
/// \file
/// `parallelFor`: runs independent jobs on the machine's cores (sensitivity runs, what-if
/// runs). Each job writes only its own result slot, so the outcome does not depend on the
/// number of threads or their timing.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <optional>
#include <thread>
#include <vector>

namespace foresight {

/// Calls `job(i)` for every i in [0, count), spread over up to `maxThreads` threads (0 = the
/// hardware's concurrency). `job` must be safe to run concurrently for different i.
template <class Job>
void parallelFor(std::size_t count, Job&& job, unsigned maxThreads = 0) {
  unsigned threads = maxThreads ? maxThreads : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, count));
  if (threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) job(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  auto worker = [&]() {
    for (std::size_t i = next++; i < count; i = next++) job(i);
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
}

/// Computes `produce(i)` for i in [0, count) side by side, `batch` at a time (at most that many
/// results held), and hands each to `consume(i, result)` in index order until it returns false;
/// the rest of that batch is discarded unread and no later batch is produced. The consumer sees
/// what a loop over i would, so a result that depends on order does not depend on the threads.
template <class Produce, class Consume>
void parallelInOrder(std::size_t count, std::size_t batch, Produce&& produce, Consume&& consume) {
  batch = std::max<std::size_t>(1, batch);
  std::vector<std::optional<decltype(produce(std::size_t{}))>> held;
  for (std::size_t i = 0; i < count; ++i) {
    if (i % batch == 0) {
      held.clear();
      held.resize(std::min(batch, count - i));
      parallelFor(held.size(), [&](std::size_t j) { held[j].emplace(produce(i + j)); });
    }
    if (!consume(i, *held[i % batch])) return;
  }
}

}  // namespace foresight
