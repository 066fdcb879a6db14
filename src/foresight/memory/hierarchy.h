// SPDX-License-Identifier: Apache-2.0
/// \file
/// The memory-hierarchy engine: one answer, for every model, to "where is each global sector of
/// this launch served from" (docs/models.md#memory-hierarchy-engine).
///
/// It samples warps of the blocks that run together (all SMs' resident blocks, in launch
/// order), orders their accesses by estimated time, and computes reuse (stack) distances per
/// access site: L1 per SM (capacity = what the shared-memory carveout leaves), L2 chip-wide
/// (capacity in sectors), with cache operators (`.cg`/`.cv` bypass L1, stores write through L1
/// without allocating, L2 is write-back) and compulsory misses. Measured hit rates, when given,
/// replace the prediction.
#pragma once

#include <optional>

#include "foresight/gpu/gpu.h"
#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/launch.h"
#include "foresight/ir/workload_summary.h"
#include "foresight/memory/coalescing.h"
#include "foresight/memory/memory_traffic.h"
#include "foresight/support/error.h"

namespace foresight {

/// Options of analyzeMemory().
struct MemoryAnalysisOptions {
  /// Measured hit rates (e.g. from Nsight Compute): replace the predicted ones when set.
  std::optional<double> l1HitRate;
  std::optional<double> l2HitRate;
  /// Warps sampled over the grid for the chip-wide (L2) reuse analysis.
  int sampledWarps = 512;
  /// Sectors analysed per sampled warp at most (longer streams are sampled evenly).
  long long maxAccessesPerWarp = 1 << 16;
};

/// Predicts the memory traffic of one launch. `summary` is used when the IR has neither blocks
/// nor streams (summary inputs). Errors for a launch that cannot run (occupancy).
[[nodiscard]] Expected<MemoryTraffic> analyzeMemory(const KernelIR& ir, const WorkloadSummary* summary,
                                                    const Launch& launch, const Gpu& gpu,
                                                    const MemoryAnalysisOptions& options = {});

/// Where accesses with data-dependent addresses are served from when all that is known is the
/// array they fall in: each lane's address uniform over `footprint` sectors, independently
/// (`x[cols[j]]`). Under LRU a uniform access hits a cache of C sectors with probability
/// min(1, C / footprint) in steady state, and no fewer than the distinct sectors touched,
/// D(N) = footprint · (1 − e^(−N / footprint)), miss at any level: misses(N) =
/// max(D(N), N · (1 − C / footprint)). Per request the k lanes touch footprint · (1 − (1 −
/// 1/footprint)^k) distinct sectors. The L1 (per SM, `l1Sectors` each, 0 = bypassed) of each
/// of the `sms` SMs that run blocks sees its share; the L2 (`l2Sectors`, chip-wide) the L1
/// misses. `cached` is the footprint competing for the caches (every array of the launch
/// accessed this way, ≥ footprint).
struct SpreadTraffic {
  double sectors = 0;      ///< sector requests (distinct per warp request)
  double l1Hits = 0;
  double l2Hits = 0;
  double dramSectors = 0;  ///< L2 misses (loads) or write-backs (stores)
  double distinct = 0;     ///< distinct sectors touched: compulsory traffic
};
[[nodiscard]] SpreadTraffic spreadAccesses(double requests, double lanes, double footprint, double cached,
                                           double l1Sectors, int sms, double l2Sectors, bool isStore);

/// One atomic warp request of `lanes` active lanes whose addresses are drawn uniformly from
/// `addresses` words, `perSector` of them to a sector: the expected sum, over the sectors it
/// touches, of the most lanes on one address of the sector (the lane operations its sector
/// requests keep the L2's atomic units busy, MemoryTraffic::atomicSectorLanes). `lanes` may be
/// fractional (an average over executions): the result is interpolated between its neighbours.
[[nodiscard]] double expectedSectorMaxLanes(double lanes, long long addresses, int perSector);

/// Sectors of `sectorBytes` per L1 line (the GPU's `[memory.l1] line`; 4 without one): a
/// request passes the L1 once per distinct line it touches (a wavefront).
[[nodiscard]] double sectorsPerL1Line(const Gpu& gpu, double sectorBytes);

/// The tag stage of the GPU's L1 (L1TagStage), where `[memory.l1]` gives
/// `tag_lines_per_wavefront` with `banks` and `bank_width` (its data stage); none otherwise: a
/// request takes a wavefront per distinct line.
[[nodiscard]] std::optional<L1TagStage> l1TagStage(const Gpu& gpu);

/// The instruction of `ir` an access site of its traffic is, or null when the site names none.
[[nodiscard]] const Instruction* siteInstruction(const KernelIR& ir, const SiteTraffic& site);

/// The fewest sectors a full warp (32 lanes) of `widthBytes` per lane can fill: 4 for 4-B words
/// in 32-B sectors, 16 for 16-B ones; at least 1. What a perfectly coalesced request takes.
[[nodiscard]] double idealSectorsPerRequest(double widthBytes, double sectorBytes);

/// One wavefront of the GPU's shared memory (the level of resource "shared"): the bytes it
/// serves, `banks x bank width` (128 B where the GPU does not give its banks: `banksKnown`
/// false), and the SM cycles it takes, those bytes over one SM's bytes per cycle (the level's
/// bandwidth / (SMs x GHz); 0 without a bandwidth or a shared level).
struct SharedWavefront {
  double bytes = 128;
  bool banksKnown = false;
  double cycles = 0;
};
[[nodiscard]] SharedWavefront sharedWavefront(const Gpu& gpu);

/// The wavefronts a full warp's shared access of `widthBytes` per lane needs without bank
/// conflicts: one per sharedWavefront() bytes: 1 for 4-B words on 32 x 4-B banks, 4 for 16-B
/// ones; at least 1.
[[nodiscard]] double conflictFreeSharedWavefronts(const Gpu& gpu, double widthBytes);

/// The achievable bandwidth (GB/s, whole GPU) of a level for a stream whose bytes are a share
/// `readShare` reads and the rest writes: the calibrated read-only, write-only and mixed
/// (copy-like) bandwidths, time per byte interpolated linearly in the read share between the
/// pure ends and the mixed point at 1/2 (`read_bandwidth`, `write_bandwidth`,
/// `mixed_bandwidth`; a missing one falls back to `bandwidth`, the peak). 0 when the level has
/// no bandwidth at all.
[[nodiscard]] double achievableBandwidth(const MemoryLevel& level, double readShare);

/// The share of a footprint of `bytes` that `level` still holds when the same launch ran just
/// before it (a warm start, Launch::l2Start): 1 up to `warm_full`, 0 from `warm_none` on,
/// linear between (MemoryLevel::warmFull, warmNone); without them LRU at the level's size: 1
/// when the footprint fits, else 0.
[[nodiscard]] double warmShare(const MemoryLevel& level, double bytes);

/// The unloaded hit latency of a (partitioned) level averaged over where lines are homed: with
/// P partitions and lines spread evenly, 1/P of the hits are near (`latency`) and the rest far
/// (`far_latency`). Without partitions: `latency`.
[[nodiscard]] double averageHitLatency(const MemoryLevel& level);

}  // namespace foresight
