// SPDX-License-Identifier: Apache-2.0
/// \file
/// `MemoryTraffic`: what the memory-hierarchy engine predicts for one kernel launch — where the
/// global (and local) sectors of the whole launch are served from, what reaches DRAM in each
/// direction, and the compulsory bytes (the launch's footprint: a DRAM floor with a cold L2).
/// Every model reads it (emulate per access site, the closed forms as launch totals, the floor
/// invariant as compulsory bytes), so there is one answer to "where is the data served from".
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace foresight {

/// One static memory instruction (an access site) of the kernel, totals over the whole launch.
struct SiteTraffic {
  int block = 0;            ///< KernelIR basic block
  int index = 0;            ///< instruction index in the block
  bool isStore = false;
  double requests = 0;      ///< warp requests (dynamic executions × warps)
  double sectors = 0;       ///< sectors requested (after coalescing)
  double l1Hits = 0;        ///< sectors served by L1 (loads only)
  double l2Hits = 0;        ///< sectors served by L2 (loads), or absorbed by L2 (stores)
  /// Loads: of l1Hits, the sectors whose request still waited for one of its sectors that L1
  /// missed (a warp's load completes with its last sector): they count as hits for bandwidth
  /// and as the request's misses for latency. 0 where unknown (measured hit rates, data-
  /// dependent addresses).
  double l1SplitHits = 0;
  /// Sectors read from DRAM (loads; with a fetch granularity of several sectors, every sector
  /// each miss brings, so more than the L2 misses for scattered accesses) or written back
  /// (stores). The L2 misses are sectors − l1Hits − l2Hits.
  double dramSectors = 0;
  /// Loads: DRAM read sectors per L2-missing sector (the fetch granularity's effect: 2 for a
  /// lone sector of a 64-B fetch, 1 for both halves of one, below 1 when a neighbour fetched
  /// earlier serves the sector; sectors of unknown address count 1); 1 without a fetch
  /// granularity.
  double dramFetchPerMiss = 1;
  /// L1 wavefronts (passes), summed over the requests: a distinct L1 line each, or with a tag
  /// stage, for the share that hits, the slower of its tag and bank wavefronts
  /// (l1LoadWavefronts(), coalescing.h); 0 = unknown.
  double wavefronts = 0;
  /// Stores: sectors written only partly (partialSectors(), coalescing.h), each a read-modify-
  /// write at the L2; 0 for loads and for stores of unknown address.
  double partialSectors = 0;

  [[nodiscard]] double l1HitRate() const { return sectors > 0 ? l1Hits / sectors : 0; }
  /// Share of the L1 misses that hit in L2.
  [[nodiscard]] double l2HitRate() const {
    const double lookups = sectors - l1Hits;
    return lookups > 0 ? l2Hits / lookups : 0;
  }
};

/// Launch totals. Sector counts are in units of `sectorBytes`.
struct MemoryTraffic {
  double sectorBytes = 32;
  double loadRequests = 0, storeRequests = 0;  ///< warp requests
  double loadSectors = 0, storeSectors = 0;     ///< sectors requested
  double l1HitSectors = 0;     ///< load sectors served by L1
  double l2HitSectors = 0;     ///< load sectors served by L2
  double l1SplitHitSectors = 0;  ///< of l1HitSectors, those whose request waited for an L1 miss (SiteTraffic::l1SplitHits)
  double dramReadSectors = 0;  ///< sectors read from DRAM for loads (at the L2's fetch granularity)
  double dramWriteSectors = 0; ///< store sectors written back to DRAM
  /// L1 wavefronts of the load / store requests: each request passes the L1 once per distinct
  /// line it touches (an uncoalesced request of 32 lines takes 32), or with a tag stage a hit
  /// the slower of its tag and bank wavefronts (SiteTraffic::wavefronts); 0 = not computed
  /// (summary inputs without addresses).
  double loadWavefronts = 0, storeWavefronts = 0;
  /// Store sectors written only partly (SiteTraffic::partialSectors, summed): the L2 reads,
  /// merges and writes back each one (the partial-writes floor).
  double partialStoreSectors = 0;
  /// Distinct bytes the launch reads / writes (its footprint): with a cold L2 every one of them
  /// crosses the DRAM interface at least once.
  double compulsoryReadBytes = 0;
  double compulsoryWriteBytes = 0;
  /// Of the footprint, the bytes the L2 holds when the launch starts (Launch::l2Start warm):
  /// their first touches hit in L2, so only the rest must cross the DRAM interface.
  double residentBytes = 0;
  /// Global atomics (RED/ATOM) of the launch's most-updated address, lane operations: they are
  /// applied one after another at the L2 (the atomics floor). 0 = no atomics, or their
  /// addresses are unknown (data-dependent).
  double hotAtomicOps = 0;
  double hotAtomicFloatOps = 0;  ///< of hotAtomicOps, the f32 adds (the rest: every other kind)
  /// Global atomics as the L2's atomic units see them (the GPU's `atomic_unit_op` and
  /// `atomic_interleave`): each warp request splits into sector requests, each counted as the
  /// most lanes on one address of its sector. Summed over the launch, and over the sectors of
  /// the busiest interleave chunk (the atomics one unit serves alone). Addresses data-dependent
  /// in an array of known size count as spread uniformly over it (expectedSectorMaxLanes()).
  double atomicSectorLanes = 0;
  double atomicHotUnitLanes = 0;
  std::vector<SiteTraffic> sites;
  std::vector<std::string> notes;  ///< how the traffic was obtained (sampling, fallbacks)

  [[nodiscard]] double dramBytes() const { return (dramReadSectors + dramWriteSectors) * sectorBytes; }
  [[nodiscard]] double compulsoryBytes() const { return compulsoryReadBytes + compulsoryWriteBytes; }
  /// The footprint's bytes that must cross the DRAM interface: those not resident at the start.
  [[nodiscard]] double coldBytes() const { return std::max(0.0, compulsoryBytes() - residentBytes); }
  [[nodiscard]] double l1HitRate() const { return loadSectors > 0 ? l1HitSectors / loadSectors : 0; }
  /// Share of the load sectors that miss L1 and hit in L2 (lookups: the L1 misses; DRAM read
  /// sectors can exceed the L2 misses when a miss fetches several sectors).
  [[nodiscard]] double l2HitRate() const {
    const double lookups = loadSectors - l1HitSectors;
    return lookups > 0 ? l2HitSectors / lookups : 0;
  }
};

}  // namespace foresight
