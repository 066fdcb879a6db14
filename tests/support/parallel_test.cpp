// SPDX-License-Identifier: Apache-2.0
// parallelFor and parallelInOrder: every index once; results consumed in index order, batch by
// batch, and no batch produced after the consumer stops.
#include "foresight/support/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace foresight {
namespace {

TEST(Parallel, ForRunsEveryIndexOnce) {
  std::vector<std::atomic<int>> seen(100);
  parallelFor(seen.size(), [&](std::size_t i) { ++seen[i]; });
  for (const std::atomic<int>& s : seen) EXPECT_EQ(s.load(), 1);
}

TEST(Parallel, NestedCallsRunEveryIndexOnceWithAnyThreadCount) {
  // A job that calls parallelFor itself (the memory engine's views inside explore's variants):
  // 6 outer x 50 inner indices, outer on 1, 2 and 8 threads, inner on 2 and on every core.
  for (const unsigned outer : {1u, 2u, 8u}) {
    std::vector<std::atomic<int>> seen(6 * 50);
    parallelFor(
        6,
        [&](std::size_t i) {
          parallelFor(50, [&](std::size_t j) { ++seen[i * 50 + j]; }, i % 2 == 0 ? 2u : 0u);
        },
        outer);
    for (const std::atomic<int>& s : seen) EXPECT_EQ(s.load(), 1);
  }
}

TEST(Parallel, ForReturnsOnlyWhenEveryIndexHasRun) {
  // The caller runs out of untaken indices while a worker is still busy with one: parallelFor
  // waits for it (the results are read right after the call).
  for (int round = 0; round < 20; ++round) {
    std::vector<int> done(4, 0);
    parallelFor(4, [&](std::size_t i) {
      if (i == 1) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      done[i] = 1;
    }, 4);
    EXPECT_EQ(done, (std::vector<int>{1, 1, 1, 1}));
  }
}

TEST(Parallel, InOrderConsumesInIndexOrderAndStopsBetweenBatches) {
  // 10 results in batches of 4: the consumer stops after index 5, so batches {0–3} and {4–7}
  // are produced (8 productions) and batch {8, 9} is not.
  std::atomic<int> produced{0};
  std::vector<std::size_t> consumed;
  parallelInOrder(
      10, 4,
      [&](std::size_t i) {
        ++produced;
        return 10 * static_cast<int>(i);
      },
      [&](std::size_t i, int& value) {
        EXPECT_EQ(value, 10 * static_cast<int>(i));
        consumed.push_back(i);
        return i < 5;
      });
  EXPECT_EQ(consumed, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(produced.load(), 8);
}

}  // namespace
}  // namespace foresight
