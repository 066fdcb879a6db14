// SPDX-License-Identifier: Apache-2.0
// Weighted reuse distances: each expectation is worked out by hand next to it.
#include "foresight/memory/reuse_distance.h"

#include <gtest/gtest.h>

#include <cmath>

namespace foresight {
namespace {

SampledAccess at(long long unit, int cluster = 0, int warp = 0, bool store = false) {
  SampledAccess a;
  a.unit = unit;
  a.cluster = cluster;
  a.warp = warp;
  a.store = store;
  return a;
}

TEST(ReuseDistance, ExhaustiveStreamIsPlainLruStackDistance) {
  // a b c a b: the second a has {b, c} between its accesses (distance 2), the second b {c, a}.
  const std::vector<SampledAccess> s{at(1), at(2), at(3), at(1), at(2)};
  ReuseResult two = analyzeReuse(s, {1, 1}, 2);
  ASSERT_EQ(two.outcomes.size(), 5u);
  EXPECT_DOUBLE_EQ(two.outcomes[3].distance, 2);
  EXPECT_DOUBLE_EQ(two.outcomes[4].distance, 2);
  for (const AccessOutcome& o : two.outcomes) EXPECT_DOUBLE_EQ(o.hit, 0);  // 2 is not < 2
  ReuseResult three = analyzeReuse(s, {1, 1}, 3);
  EXPECT_DOUBLE_EQ(three.outcomes[3].hit, 1);
  EXPECT_DOUBLE_EQ(three.outcomes[4].hit, 1);
  EXPECT_DOUBLE_EQ(three.outcomes[0].hit, 0);  // cold
  EXPECT_DOUBLE_EQ(three.distinctUnits, 3);
}

TEST(ReuseDistance, LongStreamDistancesAreDistinctUnitsInBetween) {
  // 20,000 accesses over 1,500 units from a fixed linear congruential sequence, with runs of
  // one unit (re-touches at distance 0) and units coming back thousands of positions later, so
  // that positions far apart and close together are both counted. The distance of each re-touch
  // is counted directly: the units whose last touch lies strictly between its two touches.
  std::vector<SampledAccess> s;
  unsigned long long x = 12345;
  while (s.size() < 20000) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const long long unit = static_cast<long long>((x >> 33) % 1500);
    const int run = static_cast<int>((x >> 20) % 3) + 1;
    for (int k = 0; k < run; ++k) s.push_back(at(unit));
  }
  const ReuseResult r = analyzeReuse(s, {1, 1}, 700);
  std::vector<long long> last(1500, -1);
  size_t checked = 0, hits = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto u = static_cast<size_t>(s[i].unit);
    if (last[u] < 0) {
      EXPECT_DOUBLE_EQ(r.outcomes[i].distance, -1) << i;
    } else {
      double between = 0;
      for (const long long p : last) between += p > last[u] ? 1 : 0;
      ASSERT_DOUBLE_EQ(r.outcomes[i].distance, between) << i;
      EXPECT_DOUBLE_EQ(r.outcomes[i].hit, between < 700 ? 1 : 0) << i;
      ++checked;
      hits += between < 700 ? 1 : 0;
    }
    last[u] = static_cast<long long>(i);
  }
  EXPECT_GT(checked, 18000u);
  EXPECT_GT(hits, 1000u);            // both outcomes occur
  EXPECT_LT(hits, checked - 1000u);
}

TEST(ReuseDistance, GroupedUnitsSeeNeighboursFetchedTogether) {
  // Sectors 4 5 6 4 -1 -2 in pairs (group 2): pairs 2 2 3 2 -1 -1 (−1 and −2 both round down
  // to pair −1). Sector 5 is cold, but its pair was touched just before (distance 0); sector 4
  // again has {5, 6} between (distance 2), its pair only pair 3 (distance 1); sector −2 is
  // cold, its pair −1 was touched just before. Capacity 4 sectors = 2 pairs.
  const std::vector<SampledAccess> s{at(4), at(5), at(6), at(4), at(-1), at(-2)};
  const auto [sectors, pairs] = analyzeReuseGrouped(s, {1, 1}, 4, 2);
  EXPECT_DOUBLE_EQ(sectors.outcomes[1].distance, -1);
  EXPECT_DOUBLE_EQ(sectors.outcomes[3].distance, 2);
  EXPECT_DOUBLE_EQ(sectors.outcomes[3].hit, 1);
  EXPECT_DOUBLE_EQ(sectors.distinctUnits, 5);
  EXPECT_DOUBLE_EQ(pairs.outcomes[1].distance, 0);
  EXPECT_DOUBLE_EQ(pairs.outcomes[1].hit, 1);
  EXPECT_DOUBLE_EQ(pairs.outcomes[3].distance, 1);
  EXPECT_DOUBLE_EQ(pairs.outcomes[3].hit, 1);  // 1 pair < 2
  EXPECT_DOUBLE_EQ(pairs.outcomes[5].distance, 0);
  EXPECT_DOUBLE_EQ(pairs.distinctUnits, 3);
  // The same as analysing the paired stream on its own at half the capacity.
  const std::vector<SampledAccess> paired{at(2), at(2), at(3), at(2), at(-1), at(-1)};
  const ReuseResult alone = analyzeReuse(paired, {1, 1}, 2);
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_DOUBLE_EQ(pairs.outcomes[i].distance, alone.outcomes[i].distance) << i;
    EXPECT_DOUBLE_EQ(pairs.outcomes[i].hit, alone.outcomes[i].hit) << i;
  }
}

TEST(ReuseDistance, SampledPrivateUnitsWeighOneOverTheSamplingRate) {
  // One of four clusters sampled; every unit is seen by one cluster, so n̂ = 1 and
  // π = 1 − (1 − 1/4)¹ = 1/4: each unit stands for 4. a b a: the second a is 4 units away.
  const std::vector<SampledAccess> s{at(1), at(2), at(1)};
  ReuseResult r = analyzeReuse(s, {1, 4}, 4);
  EXPECT_DOUBLE_EQ(r.outcomes[2].distance, 4);
  EXPECT_DOUBLE_EQ(r.outcomes[2].hit, 0);  // 4 is not < 4
  EXPECT_DOUBLE_EQ(analyzeReuse(s, {1, 4}, 5).outcomes[2].hit, 1);
  EXPECT_DOUBLE_EQ(r.distinctUnits, 8);  // two units × 4
}

TEST(ReuseDistance, WeightedDistancesSumTheWeightsOfTheUnitsInBetween) {
  // K sampled clusters of P = 32. Unit u is touched by the clusters 0 .. (u mod C) − 1 (C
  // distinct cluster counts, so C distinct weights: three take the per-weight counters, eight
  // the weighted tree). A unit touched by t clusters stands for 1/π units, n̂ = 1 + (t − 1)
  // (P − 1)/(K − 1), π = 1 − (1 − K/P)^n̂. Each re-touch's distance is the sum of the weights of
  // the units whose last touch lies strictly between, counted directly.
  for (const int counts : {3, 8}) {
    const double k = 8, p = 32;
    auto weight = [&](int touched) {
      const double n = 1 + (touched - 1) * (p - 1) / (k - 1);
      return 1 / (1 - std::pow(1 - k / p, n));
    };
    constexpr int kUnits = 400;
    std::vector<SampledAccess> s;
    unsigned long long x = 99;
    for (int u = 0; u < kUnits; ++u) {  // each unit's clusters first, in warp order
      for (int c = 0; c <= u % counts; ++c) s.push_back(at(u, c, c));
    }
    while (s.size() < 6000) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      const int u = static_cast<int>((x >> 33) % kUnits);
      s.push_back(at(u, 0, 0));
    }
    const double capacity = 300;
    const ReuseResult r = analyzeReuse(s, {k, p}, capacity);
    std::vector<long long> last(kUnits, -1);
    for (size_t i = 0; i < s.size(); ++i) {
      const auto u = static_cast<size_t>(s[i].unit);
      if (last[u] >= 0) {
        double between = 0;
        for (size_t v = 0; v < last.size(); ++v) between += last[v] > last[u] ? weight(static_cast<int>(v) % counts + 1) : 0;
        ASSERT_NEAR(r.outcomes[i].distance, between, 1e-9 * between) << counts << " counts, access " << i;
        if (std::abs(between - capacity) > 1e-6) {
          EXPECT_DOUBLE_EQ(r.outcomes[i].hit, between < capacity ? 1 : 0);
        }
      }
      last[u] = static_cast<long long>(i);
    }
  }
}

TEST(ReuseDistance, SharedUnitFirstTouchIsRarelyTheFirstOfThePopulation) {
  // Both sampled clusters of 10 touch x: n̂ = 1 + (2−1)(10−1)/(2−1) = 10 clusters touch it.
  // The sample's first touch is the population's first with chance 2/10; otherwise it hits as
  // often as the sample's re-touch by the other warp did (distance 0 → hit): 0.8.
  const std::vector<SampledAccess> s{at(7, 0, 0), at(7, 1, 1)};
  ReuseResult r = analyzeReuse(s, {2, 10}, 100);
  EXPECT_NEAR(r.outcomes[0].hit, 0.8, 1e-12);
  EXPECT_DOUBLE_EQ(r.outcomes[1].hit, 1);
  // π = 1 − (1 − 2/10)^10 = 0.892626; the footprint is 1/π.
  EXPECT_NEAR(r.distinctUnits, 1 / (1 - std::pow(0.8, 10)), 1e-9);
  // Exhaustive (K = P = 2): the first touch is the first, a miss.
  EXPECT_DOUBLE_EQ(analyzeReuse(s, {2, 2}, 100).outcomes[0].hit, 0);
}

TEST(ReuseDistance, StoresWriteBackOncePerResidencyOfADirtyUnit) {
  // store a (cold: 1 write-back), store a (dirty and resident: 0), load b, store a with
  // capacity 1: b is between, distance 1 is not < 1, a was evicted (written back): 1 more.
  const std::vector<SampledAccess> s{at(1, 0, 0, true), at(1, 0, 0, true), at(2), at(1, 0, 0, true)};
  ReuseResult r = analyzeReuse(s, {1, 1}, 1);
  EXPECT_DOUBLE_EQ(r.outcomes[0].writeBack, 1);
  EXPECT_DOUBLE_EQ(r.outcomes[1].writeBack, 0);
  EXPECT_DOUBLE_EQ(r.outcomes[3].writeBack, 1);
  EXPECT_DOUBLE_EQ(r.distinctWrittenUnits, 1);
  EXPECT_DOUBLE_EQ(r.distinctReadUnits, 1);
}

TEST(ReuseDistance, NonAllocatingMissesLeaveTheCacheAlone) {
  // L1 stores (write-through, no allocate): a store miss to a does not bring a in, so the load
  // of a after it is still cold.
  std::vector<SampledAccess> s{at(1, 0, 0, true), at(1)};
  s[0].allocates = false;
  ReuseResult r = analyzeReuse(s, {1, 1}, 10);
  EXPECT_DOUBLE_EQ(r.outcomes[1].hit, 0);
  EXPECT_LT(r.outcomes[1].distance, 0);
}

}  // namespace
}  // namespace foresight
