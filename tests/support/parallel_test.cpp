// SPDX-License-Identifier: Apache-2.0
// parallelFor and parallelInOrder: every index once; results consumed in index order, batch by
// batch, and no batch produced after the consumer stops.
#include "foresight/support/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace foresight {
namespace {

TEST(Parallel, ForRunsEveryIndexOnce) {
  std::vector<std::atomic<int>> seen(100);
  parallelFor(seen.size(), [&](std::size_t i) { ++seen[i]; });
  for (const std::atomic<int>& s : seen) EXPECT_EQ(s.load(), 1);
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
