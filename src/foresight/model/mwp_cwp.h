// SPDX-License-Identifier: Apache-2.0
/// \file
/// The MWP-CWP model family: Hong & Kim (ISCA'09) as used by GROPHECY (grophecy.md §6,
/// lai-teg-and-bound.md §2.2), GROPHECY's bottleneck label, and CGPredict's variant
/// (cgpredict.md §4.3, §6). The equations are pure functions of `MwpCwpInputs`, so the tests can
/// feed them the digests' worked numbers directly; `predictMwpCwp` resolves those inputs from a
/// workload, a launch and a GPU.
///
/// Sample (grophecy.md §10.3, tiled MatMul on FX5600):
///   N = 24, Mem_L = 420, Departure_delay = 4, MWP_peak_BW = 11.67, MWP = 11.67,
///   Comp_cycles = 9328, Mem_cycles = 21420, CWP = 3.30, Rep = 52.08 → compute-bound,
///   Exec = 11.68 M cycles + Synch_cost 0.33 M → 8.90 ms.
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/launch.h"
#include "foresight/ir/workload_summary.h"
#include "foresight/memory/memory_traffic.h"
#include "foresight/model/model_options.h"
#include "foresight/model/prediction.h"
#include "foresight/support/error.h"

namespace foresight {

/// Everything the MWP-CWP equations read (Table 2 and Table 5 of GROPHECY; Table 3 of CGPredict).
struct MwpCwpInputs {
  WorkloadSummary workload;       ///< per-thread counts
  double blocks = 0;              ///< #Blocks of the launch
  double warpsPerBlock = 0;
  double activeBlocksPerSm = 0;   ///< Eq. 8, already capped by ceil(Blocks / Active_SMs)
  double activeSms = 0;           ///< min(#SMs, Blocks)
  double clockGhz = 0;            ///< Freq
  double memLatency = 0;          ///< Mem_LD (cycles)
  double departureDelayCoal = 0;
  double departureDelayUncoal = 0;
  double issueCycles = 0;
  double memBandwidthGBs = 0;     ///< Mem_Bandwidth
  // CGPredict's parameters (only its variant reads them).
  double l2Latency = 0;           ///< mem_ld_L2
  double dramLatency = 0;         ///< mem_ld_dram: what DRAM adds beyond the L2 (mem_latency - l2_latency)
  double l2DepartureDelay = 0;    ///< dd_L2
  double dramDepartureDelay = 0;  ///< dd_dram
  double instCycles = 0;          ///< inst_cycle
  bool quantizeWaves = false;     ///< ceil(Rep) instead of fractional (CGPredict always ceils batch)
  // CGPredict's shared-memory parameters (only with smem terms in the workload).
  double smemLatency = 0;         ///< mem_ld_smem (the shared level's latency)
  double smemLoadLatency = 0;     ///< smem_load_const
  SmemRule smemRule = SmemRule::PaperFitted;
  // The modern variant's memory side (per warp; only evaluateModern reads them).
  double loadRequests = 0;      ///< global/local load requests per warp
  double independentLoads = 1;  ///< loads a warp issues before it uses the first result (>= 1)
  double warpIssueCycles = 0;   ///< a lone warp's issue time from SASS stall counts (0 = unknown)
  double loadLatency = 0;       ///< Mem_L: a load request's latency over L1/L2/DRAM hits, cycles
  double serviceCycles = 0;     ///< cycles of one SM's share of the bottleneck level per warp
  double pipeCycles = 0;        ///< SM cycles the busiest pipe spends on one warp's instructions
  double launchCycles = 0;      ///< the GPU's launch overhead, cycles, added to the time
  double blockOverheadCycles = 0;  ///< the GPU's block overhead: a wave lasts at least a warp's path + this
  double longestWarpShare = 1;     ///< a block's longest warp's instructions over its mean warp's (>= 1)
  double blockDispatchCycles = 0;  ///< the GPU's block dispatch: an SM starts a block at most this often
  double atomicCycles = 0;      ///< the L2's serialized time for the launch's atomics (floors.h atomicSeconds())
};

/// The equations' outputs, named as in the papers.
struct MwpCwpResult {
  double n = 0;                  ///< N, active warps per SM
  double rep = 0;                ///< #Rep (HK) or batch (CGPredict)
  double memLUncoal = 0;         ///< Mem_L_Uncoal (HK) or mem_l_uncoal (CGPredict)
  double memLCoal = 0;           ///< Mem_L_Coal or mem_l_coal
  double memLConst = 0;          ///< CGPredict mem_l_const (HK: folded into coalesced)
  double memL = 0;               ///< Mem_L / mem_l
  double departureDelay = 0;
  double mwpWithoutBwFull = 0;   ///< Mem_L / Departure_delay, uncapped
  double bwPerWarp = 0;          ///< GB/s (HK only)
  double mwpPeakBw = 0;          ///< HK only; +inf for CGPredict
  double mwp = 0;                ///< capped by N
  double compCycles = 0;
  double memCycles = 0;
  double cwpFull = 0;
  double cwp = 0;                ///< capped by N
  double execCycles = 0;         ///< Exec_cycles_app (without synchronisation)
  double synchCost = 0;
  double smemLoadCycles = 0;     ///< CGPredict Eq. 19
  double smemCycles = 0;         ///< CGPredict Eq. 20
  double memPeriods = 0;         ///< modern: load groups per warp (load requests / independent loads)
  bool warpIssueBound = false;   ///< modern: a lone warp's issue time set Exec_cycles
  double launchCycles = 0;       ///< modern: launch overhead in Total_cycles
  bool blockBound = false;       ///< modern: a warp's path + the block overhead set Exec_cycles
  bool dispatchBound = false;    ///< modern: the block dispatch of the busiest SM set Exec_cycles
  double turnoverLoss = 0;       ///< modern: cycles per wave the block turnover adds to the bandwidth time
  bool turnoverBound = false;    ///< modern: the bandwidth time plus the turnover loss set Exec_cycles
  double atomicCycles = 0;       ///< modern: the atomics' serialized time
  double atomicAddedCycles = 0;  ///< modern: the part of it added to Exec_cycles (floors.h addedAtomicTime())
  bool atomicBound = false;      ///< modern: the atomics' time exceeds the rest of the time
  double totalCycles = 0;        ///< Exec_cycles_with_synch
  double seconds = 0;
  enum class Case { NotEnoughWarps, MemoryBound, ComputeBound, NoMemory } timeCase = Case::NoMemory;
};

/// Hong & Kim's equations (grophecy.md §6), with the guard for Mem_insts = 0 (compute only).
[[nodiscard]] MwpCwpResult evaluateHongKim(const MwpCwpInputs& in);

/// CGPredict's equations (cgpredict.md Eqs. 1-18 and 23).
[[nodiscard]] MwpCwpResult evaluateCGPredict(const MwpCwpInputs& in);

/// The modern variant (docs/models.md#modern-variant): Hong & Kim's three cases over memory
/// periods (groups of independent loads) with Mem_L = in.loadLatency, Departure_delay = the
/// bottleneck level's service time per period, MWP = min(N, Mem_L / Departure_delay) (Little's
/// law at the achievable bandwidth); stores only take bandwidth. A kernel without loads takes the
/// larger of its issue time and its bandwidth time.
[[nodiscard]] MwpCwpResult evaluateModern(const MwpCwpInputs& in);

/// The loads of one memory period: a group of independent loads of one basic block.
struct LoadGroup {
  std::vector<std::pair<int, int>> loads;  ///< (basic block, instruction index) of each load
  double executions = 0;                   ///< how often a warp runs it (the block's executions)
};

/// A warp's memory periods, from the IR's register dependences: in each block, a group of
/// global/local/texture loads closes at the first instruction that reads a register one of them
/// wrote (or at the block's end); stores join the open group without closing it.
[[nodiscard]] std::vector<LoadGroup> loadGroups(const KernelIR& ir);

/// Loads a warp issues before it first uses a loaded value: the average size of the groups
/// (loadGroups()) weighted by executions per warp; 1 without loads.
[[nodiscard]] double independentLoads(const std::vector<LoadGroup>& groups);

/// Not in the papers: the latency mix of load sectors, shares served by (L1, L2, DRAM) as a
/// request waits for its slowest sector. Of the `l1Hits` sectors, the `l1SplitHits` whose
/// request missed L1 in another sector (SiteTraffic::l1SplitHits) wait for that miss: they take
/// the mix of the missed sectors, L2 and DRAM in their proportion. Without split hits these are
/// the sector shares.
[[nodiscard]] std::array<double, 3> latencyShares(double sectors, double l1Hits, double l1SplitHits, double l2Hits);

/// Not in the papers: the cycles a memory period waits for its slowest load beyond the mean
/// latency of its loads, averaged over the periods as Mem_L averages the loads (by sectors). A
/// load's latency is its site's mix of `latencies` (L1, L2, DRAM: latencyShares() of the site's
/// hit and missed sectors in `traffic`); the loads of one period are taken to hit and miss together
/// (comonotone), so the period's expected latency is that of the pointwise slowest mix:
/// P(period <= level) = min over its loads of P(load <= level). 0 when every period's loads
/// share one mix (one load per period included); loads without a site in `traffic` are left out.
[[nodiscard]] double periodWaitCycles(const std::vector<LoadGroup>& groups, const MemoryTraffic& traffic,
                                      const std::array<double, 3>& latencies);

/// Cycles one warp needs to issue its instructions when it runs alone: over every block, the
/// executions per warp times the block's in-order issue time, each instruction issuing
/// max(1, stall cycles) after the previous one (the stall counts ptxas encodes in SASS control
/// bits for fixed-latency dependences: a chain of dependent FFMAs waits about 4 cycles each) and
/// not before the variable-latency results it reads are ready: shared-memory loads
/// (`sharedLatency` cycles after they issued) and SFU instructions (`sfuLatency`), whose waits
/// ptxas leaves to scoreboards instead of stall counts. A block executed more than once pays
/// its steady state: its second pass, with the first pass's pending results carried over (a
/// loop-carried MUFU chain waits at the top of each iteration), for every execution after the
/// first. With `sharedWavefrontCycles` (the shared array's cycles per bank wavefront, banks x
/// bank width / bandwidth; 0 = not modelled) the warp's shared accesses pass the array in order,
/// each for its bank wavefronts (MemoryAccess::wavefrontsPerInst), and a shared load's result
/// lands `sharedLatency` after its last wavefront began: a 32-way conflicted load 31 wavefronts
/// later than a conflict-free one, and a load queued behind a conflicted store later still
/// (Rodinia nw's diagonal sweep of a tile padded by one word: every access of a diagonal in one
/// bank). Waits on global loads are left to the memory terms. 0 when the IR carries no stall
/// counts (PTX input).
[[nodiscard]] double warpIssueCycles(const KernelIR& ir, double sharedLatency, double sfuLatency = 0,
                                     double sharedWavefrontCycles = 0);

/// The pipe one warp's instructions keep busy longest, and for how many SM cycles.
struct PipeBusy {
  double cycles = 0;                 ///< warp instructions x gap / schedulers per SM
  InstrClass cls = InstrClass::Fp32;
};

/// Not in the papers: the busiest pipe of one warp's instructions, warp instructions x gap /
/// schedulers per SM. Every memory instruction goes to the LD/ST pipe, a shared one once per
/// bank wavefront. The IR form counts wavefronts; the workload form (no wavefronts) adds the
/// global memory instructions to compByClass's LD/ST count.
[[nodiscard]] PipeBusy busiestPipe(const KernelIR& ir, const Gpu& gpu);
[[nodiscard]] PipeBusy busiestPipe(const WorkloadSummary& w, const Gpu& gpu);

/// The bound a variant assigns to a result: Hong & Kim's case selection, or GROPHECY's
/// comparison of MWP, CWP-1 and N-1 (uncapped values; grophecy.md §6, A16).
[[nodiscard]] Bound mwpCwpBound(const MwpCwpResult& r, MwpCwpVariant variant,
                                std::string* explanation);

/// What the modern variant reads beyond the workload: the memory engine's traffic of the launch
/// and a warp's memory periods (independent loads, Period_wait).
struct ModernMemoryInputs {
  MemoryTraffic traffic;
  std::vector<LoadGroup> loadGroups;  ///< loadGroups(ir); none: one load per period
  double warpIssueCycles = 0;  ///< warpIssueCycles(ir): a lone warp's issue time, 0 = unknown
  PipeBusy pipe;               ///< busiestPipe(ir); 0 cycles = derive it from the workload
  double longestWarpShare = 1;  ///< KernelIR::longestWarpShare: the longest warp over the mean
};

/// Resolves inputs from the GPU, launch, per-thread resources and workload; evaluates the
/// variant; fills a Prediction. Errors when the block cannot run, a variant's GPU parameter
/// is missing, or the modern variant gets no `modern` inputs.
[[nodiscard]] Expected<Prediction> predictMwpCwp(const WorkloadSummary& workload,
                                                 const ThreadResources& resources,
                                                 const Launch& launch, const Gpu& gpu,
                                                 const ModelOptions& options,
                                                 const ModernMemoryInputs* modern = nullptr);

}  // namespace foresight
