// SPDX-License-Identifier: Apache-2.0
/// \file
/// Weighted reuse (stack) distances over a sampled, time-ordered access stream.
///
/// The stream holds the accesses of *sampled* warps only. Each distinct unit (a cache line or
/// sector) seen in the sample stands for 1/π units of the whole population (Horvitz–Thompson),
/// π being the chance that a unit touched by that many warps shows up in the sample. The reuse
/// distance of an access is then the estimated number of distinct units the whole population
/// touched since the previous access to the same unit: the sum of the weights of the distinct
/// units accessed in between (Bennett–Kruskal with a Fenwick tree over time). Under LRU with
/// capacity C, an access hits iff its distance is below C (full associativity).
///
/// Sampling is by clusters (neighbouring blocks, every warp of each): a unit touched by k of the
/// K sampled clusters is estimated to be touched by n = 1 + (k−1)(P−1)/(K−1) of the P clusters
/// of the population (the hypergeometric estimate, exact when K = P and 1 when k = 1), and is
/// in the sample with probability π = 1 − (1 − K/P)^n.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace foresight {

/// One access of the sampled stream, in time order.
struct SampledAccess {
  long long unit = 0;  ///< line or sector number
  int cluster = 0;     ///< sampled cluster (0..K-1) of the warp
  int warp = 0;        ///< sampled warp (unique over the sample)
  int site = 0;        ///< caller's access-site id (for per-site totals)
  bool store = false;
  bool allocates = true;  ///< a miss brings the unit in (false: stores into a no-allocate L1)
  bool counted = true;    ///< its outcome is wanted (false: it only touches the cache)
};

/// Outcome of one access: the chance it hit and whether it wrote back a dirty unit.
struct AccessOutcome {
  double hit = 0;         ///< probability the access hit (fractional for cold accesses)
  double writeBack = 0;   ///< stores: chance this store adds a DRAM write-back of its unit
  double distance = -1;   ///< estimated distinct units since the previous access; -1 = cold
};

/// Population of the sample.
struct SamplePopulation {
  double sampledClusters = 1;  ///< K
  double clusters = 1;         ///< P (≥ K)
};

/// The unit of `per` consecutive units (sectors) that `unit` lies in: floor(unit / per), rounding
/// down for negative units too.
[[nodiscard]] inline long long unitOf(long long unit, long long per) {
  return unit >= 0 ? unit / per : -((-unit + per - 1) / per);
}

/// Result of analyzeReuse().
struct ReuseResult {
  std::vector<AccessOutcome> outcomes;  ///< one per access, in stream order
  double distinctUnits = 0;        ///< estimated distinct units of the population (footprint)
  double distinctReadUnits = 0;    ///< of which never stored to
  double distinctWrittenUnits = 0; ///< of which stored to
};

/// Reuse distances and LRU outcomes of `stream` (fewer than 2^31 accesses: the views' samples
/// hold a few hundred thousand) for a cache of `capacityUnits` units shared by the whole
/// population. Write-back: a store to a unit that is dirty and resident adds no
/// DRAM write; any other store adds one (written back when evicted or at the end).
[[nodiscard]] ReuseResult analyzeReuse(const std::vector<SampledAccess>& stream,
                                       const SamplePopulation& population, double capacityUnits);

/// analyzeReuse() of `stream` as it is and of the same stream with each unit replaced by the run
/// of `group` consecutive units it lies in (floor(unit / group)), at `capacityUnits / group`:
/// e.g. which accesses find their sector already fetched with a neighbour. One sort serves both;
/// the two passes run side by side.
[[nodiscard]] std::pair<ReuseResult, ReuseResult> analyzeReuseGrouped(const std::vector<SampledAccess>& stream,
                                                                      const SamplePopulation& population,
                                                                      double capacityUnits, long long group);

}  // namespace foresight
