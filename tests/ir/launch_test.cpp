// SPDX-License-Identifier: Apache-2.0
/// \file
/// CUDA's universal launch limits (launch.h), checked for every launch of every input.
#include "foresight/ir/launch.h"

#include <gtest/gtest.h>

namespace foresight {
namespace {

Launch make(Dim3 grid, Dim3 block) {
  Launch l;
  l.grid = grid;
  l.block = block;
  return l;
}

TEST(LaunchLimits, WithinLimits) {
  EXPECT_TRUE(checkLaunchLimits(make({2147483647, 65535, 65535}, {1024, 1, 1})));
  EXPECT_TRUE(checkLaunchLimits(make({1, 1, 1}, {1, 1024, 1})));
  EXPECT_TRUE(checkLaunchLimits(make({1, 1, 1}, {1, 1, 64})));
}

TEST(LaunchLimits, EachLimitIsNamed) {
  Expected<void> z = checkLaunchLimits(make({1, 1, 1}, {1, 1, 65}));
  ASSERT_FALSE(z);
  EXPECT_EQ(z.error().message, "block 1,1,65 exceeds CUDA's block limits (x and y up to 1024, z up to 64)");
  // A summary's grid of 4.6e18 blocks: y and z are limited to 65535 like --grid's.
  Expected<void> g = checkLaunchLimits(make({2147483647, 2147483647, 1}, {32, 1, 1}));
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().message,
            "grid 2147483647,2147483647,1 exceeds CUDA's grid limits (x up to 2147483647, y and z up to 65535)");
  Expected<void> zero = checkLaunchLimits(make({0, 1, 1}, {32, 1, 1}));
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().message, "grid 0,1,1 has an extent below 1");
  Launch negative = make({1, 1, 1}, {32, 1, 1});
  negative.dynamicSharedBytes = -4;
  EXPECT_FALSE(checkLaunchLimits(negative));
}

TEST(LaunchTiming, NamesRoundTripAndOthersAreErrors) {
  for (LaunchTiming t : {LaunchTiming::Stream, LaunchTiming::Alone}) {
    Expected<LaunchTiming> parsed = parseLaunchTiming(launchTimingName(t), "--timing");
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, t);
  }
  EXPECT_EQ(Launch{}.timing, LaunchTiming::Stream);
  Expected<LaunchTiming> bad = parseLaunchTiming("single", "--timing");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("--timing 'single': expected stream"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace foresight
