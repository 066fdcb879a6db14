// SPDX-License-Identifier: Apache-2.0
// WarpScheduler's visiting order, with warps leaving (finished) and joining (their block slot
// freed) the scan: the order is the same as over all warps with those never accepted.
#include "foresight/model/emulate/units/warp_scheduler.h"

#include <gtest/gtest.h>

#include <vector>

namespace foresight::emu {
namespace {

/// The warps select() visits, in order, when none is accepted.
std::vector<int> visits(const WarpScheduler& s) {
  std::vector<int> seen;
  s.select([&](int w) {
    seen.push_back(w);
    return false;
  });
  return seen;
}

TEST(WarpScheduler, GreedyThenOldestOverTheWarpsInTheScan) {
  WarpScheduler s(EmuMachine::Policy::Gto);
  for (int w : {0, 4, 8, 12}) s.addWarp(w);
  s.issued(8, 0, 1);
  EXPECT_EQ(visits(s), (std::vector<int>{8, 0, 4, 12}));  // greedy: the last issued first
  s.removeWarp(8);                                          // it finished: oldest first
  EXPECT_EQ(visits(s), (std::vector<int>{0, 4, 12}));
  s.addWarp(2);  // a warp of a later block starts: placed by age (warp order), not at the end
  EXPECT_EQ(visits(s), (std::vector<int>{0, 2, 4, 12}));
  EXPECT_EQ(s.select([](int w) { return w == 4; }), 4);
}

TEST(WarpScheduler, RoundRobinStartsAfterTheLastIssuedWarpEvenWhenItLeft) {
  WarpScheduler s(EmuMachine::Policy::RoundRobin);
  for (int w : {1, 5, 9, 13}) s.addWarp(w);
  EXPECT_EQ(visits(s), (std::vector<int>{1, 5, 9, 13}));  // nothing issued yet: from the first
  s.issued(5, 0, 1);
  EXPECT_EQ(visits(s), (std::vector<int>{9, 13, 1, 5}));
  s.removeWarp(5);  // finished: the next warp after it still comes first
  EXPECT_EQ(visits(s), (std::vector<int>{9, 13, 1}));
  s.removeWarp(1);
  s.addWarp(7);
  EXPECT_EQ(visits(s), (std::vector<int>{7, 9, 13}));
}

}  // namespace
}  // namespace foresight::emu
