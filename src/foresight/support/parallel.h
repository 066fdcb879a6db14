// SPDX-License-Identifier: Apache-2.0
/// \file
/// `parallelFor`: runs independent jobs on the machine's cores (sensitivity runs, what-if
/// runs). Each job writes only its own result slot, so the outcome does not depend on the
/// number of threads or their timing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

namespace foresight {

namespace detail {
/// Runs `call(context, i)` for every i in [0, count) on the calling thread and up to
/// `helpers` of the process's worker threads (started once, on first use, and reused: a thread
/// costs a clone and a fresh stack, a measurable share of a prediction's time). The caller
/// takes indices too and returns when every index has run. Nested calls (a job that calls
/// parallelFor) cannot deadlock: a caller only ever waits for indices already running.
void runParallel(std::size_t count, unsigned helpers, void (*call)(void*, std::size_t), void* context);
}  // namespace detail

/// Calls `job(i)` for every i in [0, count), spread over up to `maxThreads` threads (0 = the
/// hardware's concurrency), the calling thread one of them. `job` must be safe to run
/// concurrently for different i and must not throw.
template <class Job>
void parallelFor(std::size_t count, Job&& job, unsigned maxThreads = 0) {
  unsigned threads = maxThreads ? maxThreads : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, count));
  if (threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) job(i);
    return;
  }
  using J = std::remove_reference_t<Job>;
  detail::runParallel(
      count, threads - 1, [](void* j, std::size_t i) { (*static_cast<J*>(j))(i); },
      const_cast<void*>(static_cast<const void*>(std::addressof(job))));
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
