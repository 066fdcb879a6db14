// SPDX-License-Identifier: Apache-2.0
/// \file
/// The MWP-CWP equations. Each line follows the digest's equation of the same name; ambiguity
/// resolutions are marked with the digest's label (A5, A16, ...).
#include "foresight/model/mwp_cwp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

#include "foresight/memory/hierarchy.h"
#include "foresight/model/floors.h"

namespace foresight {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double waves(double x, bool quantize) { return quantize ? std::ceil(x) : x; }

/// Achievable bandwidth of a level for a read/write byte mix, GB/s: the time per byte is
/// interpolated linearly between the read-only stream (all reads), the mixed stream (half the
/// bytes read, as a copy) and the write-only stream (all writes); a missing direction falls back
/// to the peak `bandwidth`. 0 when the level gives no bandwidth.
double achievableBandwidth(const MemoryLevel& m, double readBytes, double writeBytes) {
  const double peak = m.bandwidth ? m.bandwidth->value : 0;
  const double rd = m.readBandwidth ? m.readBandwidth->value : peak;
  const double wr = m.writeBandwidth ? m.writeBandwidth->value : peak;
  const double mx = m.mixedBandwidth ? m.mixedBandwidth->value : peak;
  if (rd <= 0 || wr <= 0 || mx <= 0) return 0;
  const double total = readBytes + writeBytes;
  const double x = total > 0 ? readBytes / total : 1.0;
  const double perByte = x >= 0.5 ? (1 - (x - 0.5) * 2) / mx + (x - 0.5) * 2 / rd
                                   : (1 - x * 2) / wr + x * 2 / mx;
  return 1 / perByte;
}

/// The modern variant's memory terms, resolved from the memory engine's traffic and the GPU.
struct ModernTerms {
  double loadRequests = 0, independentLoads = 1;   // per warp
  double l1Latency = 0, l2Latency = 0, dramLatency = 0;
  double fL1 = 0, fL2 = 0, fDram = 0;               // shares of load sectors
  double l1Split = 0;                               // L1_split: of fL1, sectors whose request waited for an L1 miss
  std::array<double, 3> latencyMix{};               // the shares by the level a sector's request waits for
  double sectorsPerRequest = 0, sectorSerialization = 0;
  double wavefrontsPerRequest = 0;                  // L1 passes (wavefronts) per load request
  double periodWait = 0;                            // Period_wait: the slowest load's extra wait
  double loadLatency = 0;                           // Mem_L
  double dramBw = 0, l2Bw = 0, l1Bw = 0;            // achievable GB/s for the launch's mix
  double dramService = 0, l2Service = 0, l1Service = 0;  // cycles per warp on one SM
  double serviceCycles = 0;
  Resource bottleneck = Resource::Dram;
};

ModernTerms resolveModern(const ModernMemoryInputs& mm, const Gpu& gpu, double totalWarps, double activeSms) {
  ModernTerms t;
  const MemoryTraffic& tr = mm.traffic;
  const double sb = tr.sectorBytes;
  const MemoryLevel* l1 = gpu.memoryForResource("l1");
  const MemoryLevel* l2 = gpu.memoryForResource("l2");
  const MemoryLevel* dram = gpu.memoryForResource("dram");
  // Latencies: DRAM end to end (mwp_cwp.mem_latency without a DRAM level); a partitioned L2's
  // near and far hits are equally likely; a missing level takes the next one's latency.
  t.dramLatency = dram ? dram->latency.value : gpu.mwpCwp.memLatency.value;
  t.l2Latency = l2 ? (l2->farLatency ? (l2->latency.value + l2->farLatency->value) / 2 : l2->latency.value)
                   : t.dramLatency;
  t.l1Latency = l1 ? l1->latency.value : t.l2Latency;
  t.loadRequests = totalWarps > 0 ? tr.loadRequests / totalWarps : 0;
  t.independentLoads = independentLoads(mm.loadGroups);
  const double clock = gpu.clockGhz.value;
  // Bytes per cycle one SM gets from a level of `gbs` GB/s shared by the active SMs.
  const auto perSm = [&](double gbs) { return gbs / clock / activeSms; };
  if (tr.loadSectors > 0) {
    t.fL1 = tr.l1HitSectors / tr.loadSectors;
    t.fL2 = tr.l2HitSectors / tr.loadSectors;
    // The latency mix: the sectors that miss both caches (DRAM read sectors can be more: a miss
    // may fetch several sectors; that counts for bandwidth below, not for latency).
    t.fDram = std::max(0.0, 1.0 - t.fL1 - t.fL2);
    t.l1Split = std::clamp(tr.l1SplitHitSectors / tr.loadSectors, 0.0, t.fL1);
    t.latencyMix = latencyShares(tr.loadSectors, tr.l1HitSectors, tr.l1SplitHitSectors, tr.l2HitSectors);
    t.sectorsPerRequest = tr.loadRequests > 0 ? tr.loadSectors / tr.loadRequests : 1;
  }
  // A request passes the L1 once per wavefront (a line of data per pass at the per-SM
  // bandwidth: one per distinct line, or with a tag stage the slower of its tag and bank
  // wavefronts where it hits, l1LoadWavefronts()); its passes after the first delay its last sector.
  const double lineBytes = l1 && l1->line ? l1->line->value : 128;
  const auto wavefrontsOf = [&](double wavefronts, double requests, double sectors) {
    if (requests <= 0) return 0.0;
    return wavefronts > 0 ? wavefronts : std::max(requests, sectors * sb / lineBytes);
  };
  const double loadWavefronts = wavefrontsOf(tr.loadWavefronts, tr.loadRequests, tr.loadSectors);
  const double storeWavefronts = wavefrontsOf(tr.storeWavefronts, tr.storeRequests, tr.storeSectors);
  t.wavefrontsPerRequest = tr.loadRequests > 0 ? loadWavefronts / tr.loadRequests : 0;
  if (l1 && l1->bandwidth && l1->bandwidth->value > 0) {
    const double l1PerSmPerCycle = l1->bandwidth->value / clock / gpu.smCount.value;
    t.sectorSerialization = std::max(0.0, t.wavefrontsPerRequest - 1) * lineBytes / l1PerSmPerCycle;
  }
  t.periodWait = periodWaitCycles(mm.loadGroups, tr, {t.l1Latency, t.l2Latency, t.dramLatency});
  t.loadLatency = t.latencyMix[0] * t.l1Latency + t.latencyMix[1] * t.l2Latency + t.latencyMix[2] * t.dramLatency +
                  t.sectorSerialization + t.periodWait;
  if (totalWarps <= 0) return t;
  const double dramRead = tr.dramReadSectors * sb / totalWarps, dramWrite = tr.dramWriteSectors * sb / totalWarps;
  const double l2Read = (tr.loadSectors - tr.l1HitSectors) * sb / totalWarps, l2Write = tr.storeSectors * sb / totalWarps;
  // L1 bytes: the sectors, or a line per wavefront where the wavefronts carry less. With a tag
  // stage the sectors that hit are read in the requests' bank wavefronts, so only the filled
  // ones (misses) and the stores count as sectors.
  const bool tagStage = l1TagStage(gpu).has_value();
  const double l1SectorBytes = (tr.loadSectors - (tagStage ? tr.l1HitSectors : 0.0) + tr.storeSectors) * sb;
  const double l1Bytes = std::max(l1SectorBytes, (loadWavefronts + storeWavefronts) * lineBytes) / totalWarps;
  if (dram) t.dramBw = achievableBandwidth(*dram, dramRead, dramWrite);
  if (l2) t.l2Bw = achievableBandwidth(*l2, l2Read, l2Write);
  if (l1) t.l1Bw = achievableBandwidth(*l1, l1Bytes, 0);
  if (t.dramBw > 0) t.dramService = (dramRead + dramWrite) / perSm(t.dramBw);
  if (t.l2Bw > 0) t.l2Service = (l2Read + l2Write) / perSm(t.l2Bw);
  if (t.l1Bw > 0) t.l1Service = l1Bytes / (t.l1Bw / clock / gpu.smCount.value);
  t.serviceCycles = t.dramService;
  if (t.l2Service > t.serviceCycles) {
    t.serviceCycles = t.l2Service;
    t.bottleneck = Resource::L2;
  }
  if (t.l1Service > t.serviceCycles) {
    t.serviceCycles = t.l1Service;
    t.bottleneck = Resource::L1;
  }
  return t;
}

/// Which of Hong & Kim's three cases (grophecy.md §6) a result with MWP, CWP, N and the memory
/// and computation cycles set falls in.
MwpCwpResult::Case hongKimCase(const MwpCwpResult& r) {
  if (r.mwp == r.n && r.cwp == r.n) return MwpCwpResult::Case::NotEnoughWarps;
  if (r.cwp >= r.mwp || r.compCycles > r.memCycles) return MwpCwpResult::Case::MemoryBound;
  return MwpCwpResult::Case::ComputeBound;
}

/// Hong & Kim's three cases (grophecy.md §6), the barrier cost and the time, once MWP, CWP,
/// N, the memory and computation cycles and the computation per memory period (`compP`) are
/// known; shared by the paper variants (periods = memory instructions) and `modern` (periods =
/// groups of independent loads). Synch_cost = Departure_delay × (MWP − 1) × `synchInsts` ×
/// `drainingBlocks` × Rep: Hong & Kim charge every resident block (Active_blocks_per_SM).
MwpCwpResult finishHongKim(MwpCwpResult r, double compP, double synchInsts, double drainingBlocks,
                           const MwpCwpInputs& in) {
  r.timeCase = hongKimCase(r);
  if (r.timeCase == MwpCwpResult::Case::NotEnoughWarps) {
    r.execCycles = (r.memCycles + r.compCycles + compP * (r.mwp - 1)) * r.rep;
  } else if (r.timeCase == MwpCwpResult::Case::MemoryBound) {
    r.execCycles = (r.memCycles * r.n / r.mwp + compP * (r.mwp - 1)) * r.rep;
  } else {
    r.execCycles = (r.memL + r.compCycles * r.n) * r.rep;
  }
  r.synchCost = r.departureDelay * (r.mwp - 1) * synchInsts * drainingBlocks * r.rep;
  r.totalCycles = r.execCycles + r.synchCost;
  r.seconds = r.totalCycles / (in.clockGhz * 1e9);
  return r;
}

}  // namespace

MwpCwpResult evaluateHongKim(const MwpCwpInputs& in) {
  MwpCwpResult r;
  const WorkloadSummary& w = in.workload;
  r.n = in.activeBlocksPerSm * in.warpsPerBlock;
  r.rep = waves(in.blocks / (in.activeBlocksPerSm * in.activeSms), in.quantizeWaves);

  // Hong & Kim know coalesced and uncoalesced only; constant (broadcast) accesses are one
  // transaction per warp and are charged as coalesced.
  const double uncoalInsts = w.mem(AccessClass::Uncoalesced).insts;
  const double coalInsts = w.mem(AccessClass::Coalesced).insts + w.mem(AccessClass::Constant).insts;
  const double memInsts = uncoalInsts + coalInsts;
  const double uncoalPerMw = w.mem(AccessClass::Uncoalesced).transactionsPerInst;

  r.compCycles = in.issueCycles * w.totalInsts();
  if (memInsts <= 0) {
    // Not in the paper [C]: without memory instructions the warps' issue serialises.
    r.timeCase = MwpCwpResult::Case::NoMemory;
    r.mwp = r.mwpWithoutBwFull = r.mwpPeakBw = kInf;
    r.cwpFull = 1;
    r.cwp = 1;
    r.execCycles = r.compCycles * r.n * r.rep;
    r.totalCycles = r.execCycles;
    r.seconds = r.totalCycles / (in.clockGhz * 1e9);
    return r;
  }

  const double weightUncoal = uncoalInsts / memInsts;
  const double weightCoal = coalInsts / memInsts;
  r.memLUncoal = in.memLatency + (uncoalPerMw - 1) * in.departureDelayUncoal;
  r.memLCoal = in.memLatency;
  r.memL = r.memLUncoal * weightUncoal + r.memLCoal * weightCoal;
  r.departureDelay = in.departureDelayUncoal * uncoalPerMw * weightUncoal +
                     in.departureDelayCoal * weightCoal;
  r.mwpWithoutBwFull = r.memL / r.departureDelay;
  const double mwpWithoutBw = std::min(r.mwpWithoutBwFull, r.n);
  r.bwPerWarp = in.clockGhz * w.loadBytesPerWarp / r.memL;
  r.mwpPeakBw = in.memBandwidthGBs / (r.bwPerWarp * in.activeSms);
  r.mwp = std::min({mwpWithoutBw, r.mwpPeakBw, r.n});

  r.memCycles = r.memLUncoal * uncoalInsts + r.memLCoal * coalInsts;
  r.cwpFull = (r.memCycles + r.compCycles) / r.compCycles;
  r.cwp = std::min(r.cwpFull, r.n);
  const double compP = r.compCycles / memInsts;

  return finishHongKim(r, compP, w.synchInsts, in.activeBlocksPerSm, in);
}

namespace {

/// Sets Exec_cycles, and the total and the time that follow from it.
void setExec(MwpCwpResult& r, double exec, const MwpCwpInputs& in) {
  r.execCycles = exec;
  r.totalCycles = r.execCycles + r.synchCost;
  r.seconds = r.totalCycles / (in.clockGhz * 1e9);
}

/// Raises Exec_cycles (and the time) to `floor` when it is below; true when it did.
bool raiseExec(MwpCwpResult& r, double floor, const MwpCwpInputs& in) {
  if (!(floor > r.execCycles)) return false;
  setExec(r, floor, in);
  return true;
}

/// Not in the papers: a warp cannot finish before it has issued its own instructions at the
/// pace its fixed-latency dependences allow (SASS stall counts), however few warps share the SM.
/// Hong & Kim's issue term (Comp_cycles x N) counts issue slots only, so a lone dependent chain
/// came out up to 4x faster than the chain itself.
MwpCwpResult applyWarpIssueFloor(MwpCwpResult r, const MwpCwpInputs& in) {
  if (raiseExec(r, in.warpIssueCycles * r.rep, in)) r.warpIssueBound = true;
  return r;
}

/// Not in the papers: a block's slot on the SM is busy for its warps' path (their memory periods
/// and computation, or their issue chain) plus the GPU's block overhead (dispatch and
/// retirement), so no wave of blocks ends sooner. It binds where few warps per slot run short
/// blocks: gpu-benches' gpu-stream at 2 blocks of 64 threads per SM stores 590 GB/s on an H200.
/// The path is the block's longest warp's: the mean warp's scaled by Longest_warp_share (the
/// slot is free only when its last warp ends; PolyBench corr's triangular loop runs its first
/// warp 1023 outer iterations, the mean of its block's first and last warps 975 at 128 threads).
MwpCwpResult applyBlockFloor(MwpCwpResult r, const MwpCwpInputs& in) {
  if (in.blockOverheadCycles <= 0) return r;
  const double path = std::max(r.memCycles + r.compCycles, in.warpIssueCycles) * in.longestWarpShare;
  if (raiseExec(r, (path + in.blockOverheadCycles) * r.rep, in)) {
    r.blockBound = true;
    r.warpIssueBound = false;
  }
  return r;
}

/// One period of `blocks` resident blocks cycling through the SM's share of the bottleneck level
/// (a deterministic service of `service` cycles per block) and a delay of `delay` cycles away
/// from it: mean-value analysis of that closed queue (the arrival theorem: a block arriving at
/// the queue finds it as it is with one block fewer in the system; the one in service has half a
/// service left, as a deterministic service leaves). Returns the cycles for all `blocks` to pass
/// once: about blocks x service (the bandwidth) where the queue stays busy (the half-service
/// residual can put it a little below), service + delay (one block's own cycle) for one block.
double blockTurnoverCycles(int blocks, double service, double delay) {
  double queued = 0, throughput = 0;
  for (int k = 1; k <= blocks; ++k) {
    const double response = service * (1 + queued - throughput * service / 2);
    throughput = k / (response + delay);
    queued = throughput * response;
  }
  return throughput > 0 ? blocks / throughput : 0;
}

/// Not in the papers: block turnover. A block's slot frees only when its last warp's requests
/// have returned (a fork-join), and the next block's requests then queue behind the other
/// resident blocks'. Per memory period a block needs Warps_per_block x Departure_delay of the
/// SM's share of the bottleneck level and spends Mem_L + Comp_p + block_overhead away from it;
/// blockTurnoverCycles() of the resident blocks gives a period's cycle, and what exceeds their
/// bandwidth time (N x Departure_delay) is the turnover loss, paid at each block turnover after
/// the first wave: Exec >= N x service x Rep + Turnover_loss x (Rep - 1). It grows with the warps
/// per block (fewer, larger fork-joins per slot) and shrinks with the memory periods per warp
/// (one loss per block lifetime). Our stream_copy, one float per thread on the H100: 1024-thread
/// blocks are measured 16 % slower than 256-thread ones, and the model had them equal.
MwpCwpResult applyTurnoverFloor(MwpCwpResult r, const MwpCwpInputs& in) {
  if (in.serviceCycles <= 0 || r.rep <= 1 || in.activeBlocksPerSm < 1) return r;
  const double periods = std::max(1.0, r.memPeriods);
  const double departure = in.serviceCycles / periods;
  const double cycle = blockTurnoverCycles(static_cast<int>(std::lround(in.activeBlocksPerSm)), in.warpsPerBlock * departure,
                                           r.memL + r.compCycles / periods + in.blockOverheadCycles);
  r.turnoverLoss = std::max(0.0, cycle - r.n * departure);
  if (raiseExec(r, r.n * in.serviceCycles * r.rep + r.turnoverLoss * (r.rep - 1), in)) {
    r.turnoverBound = true;
    r.blockBound = r.warpIssueBound = false;
  }
  return r;
}

/// Not in the papers: an SM starts a new block at most every Block_dispatch cycles, so a launch
/// of many short blocks lasts at least the busiest SM's blocks, ceil(Blocks / Active_SMs), times
/// that (gpu-benches' gpu-small-kernels: a one-warp SCALE block per 157 cycles per SM on an H200,
/// whatever the size, docs/gpu-presets.md). It binds where blocks are shorter than that per slot.
MwpCwpResult applyDispatchFloor(MwpCwpResult r, const MwpCwpInputs& in) {
  if (in.blockDispatchCycles <= 0 || in.activeSms <= 0) return r;
  if (raiseExec(r, std::ceil(in.blocks / in.activeSms) * in.blockDispatchCycles, in)) {
    r.dispatchBound = true;
    r.blockBound = r.warpIssueBound = r.turnoverBound = false;
  }
  return r;
}

/// Not in the papers: a measured kernel time includes its launch (the GPU's launch overhead,
/// as the emulator adds it); it dominates kernels of a few microseconds.
MwpCwpResult addLaunch(MwpCwpResult r, const MwpCwpInputs& in) {
  r.launchCycles = in.launchCycles;
  r.totalCycles += r.launchCycles;
  r.seconds = r.totalCycles / (in.clockGhz * 1e9);
  return r;
}

/// Not in the papers: atomics to one address (or one atomic unit) are applied by the L2 one
/// after another. When they keep the unit busy at least as long as the rest of the kernel they
/// do not hide behind it: our reduce_shuffle (H100 and H200, one f32 atomicAdd per warp to one
/// result after a grid-stride sum of 64 MB) takes 88 and 255 us at 4,224 and 16,384 blocks,
/// where the atomics alone take 58 and 225 us — the two add up. A unit busy a small share of the
/// kernel hides behind it (simveit's reductions, one atomicAdd per block): floors.h
/// addedAtomicTime(), docs/models.md#modern-variant.
MwpCwpResult addAtomics(MwpCwpResult r, const MwpCwpInputs& in) {
  if (in.atomicCycles <= 0) return r;
  r.atomicCycles = in.atomicCycles;
  r.atomicBound = in.atomicCycles > r.totalCycles;
  r.atomicAddedCycles = addedAtomicTime(in.atomicCycles, r.totalCycles);
  setExec(r, r.execCycles + r.atomicAddedCycles, in);
  return r;
}

/// What the modern variant adds to Hong & Kim's execution time, in order: the lone warp's issue
/// chain, the block slots' path, their turnover, the block dispatch, the atomics, then the launch.
MwpCwpResult finishModern(MwpCwpResult r, const MwpCwpInputs& in) {
  return addLaunch(addAtomics(applyDispatchFloor(applyTurnoverFloor(applyBlockFloor(applyWarpIssueFloor(std::move(r), in), in), in), in), in), in);
}

}  // namespace

MwpCwpResult evaluateModern(const MwpCwpInputs& in) {
  MwpCwpResult r;
  const WorkloadSummary& w = in.workload;
  r.n = in.activeBlocksPerSm * in.warpsPerBlock;
  r.rep = waves(in.blocks / (in.activeBlocksPerSm * in.activeSms), in.quantizeWaves);
  // Not in the papers: a warp's computation occupies the SM for its issue slots or for the
  // busiest pipe's share of them, whichever is longer (a load-heavy loop is bound by the LD/ST
  // unit, one warp request per cycle per SM, not by issue).
  r.compCycles = std::max(in.issueCycles * w.totalInsts(), in.pipeCycles);
  // A memory period: the independent loads a warp has in flight before it waits for one.
  const double k = std::max(1.0, std::min(in.independentLoads, std::max(1.0, in.loadRequests)));
  r.memPeriods = in.loadRequests / k;
  if (r.memPeriods <= 0) {
    // No loads: nothing to wait for; stores still take the bottleneck level's bandwidth.
    r.mwp = r.mwpWithoutBwFull = r.mwpPeakBw = kInf;
    r.cwpFull = r.cwp = 1;
    const double issue = r.compCycles * r.n, bandwidth = in.serviceCycles * r.n;
    r.timeCase = bandwidth > issue ? MwpCwpResult::Case::MemoryBound : MwpCwpResult::Case::NoMemory;
    r.execCycles = std::max(issue, bandwidth) * r.rep;
    r.totalCycles = r.execCycles;
    r.seconds = r.totalCycles / (in.clockGhz * 1e9);
    return finishModern(r, in);
  }
  r.memL = r.memLCoal = in.loadLatency;
  // Little's law: a level serving one SM's share of its achievable bandwidth completes one
  // period's traffic every Departure_delay cycles; Mem_L / Departure_delay periods in flight
  // saturate it.
  r.departureDelay = in.serviceCycles / r.memPeriods;
  r.mwpWithoutBwFull = r.departureDelay > 0 ? r.memL / r.departureDelay : kInf;
  r.mwpPeakBw = r.mwpWithoutBwFull;
  r.mwp = std::min(r.mwpWithoutBwFull, r.n);
  r.memCycles = r.memL * r.memPeriods;
  r.cwpFull = r.compCycles > 0 ? (r.memCycles + r.compCycles) / r.compCycles : kInf;
  r.cwp = std::min(r.cwpFull, r.n);
  const double compP = r.compCycles / r.memPeriods;
  // Hong & Kim's three cases (grophecy.md §6) over memory periods instead of memory instructions.
  // Barriers (not in the papers; docs/models.md#modern-variant): Hong & Kim charge every barrier
  // of every resident block Departure_delay x (MWP - 1). Here MWP already counts the warps of all
  // resident blocks, so a drain of MWP - 1 departures is the SM's, paid once per wave and not once
  // per block; and a barrier waits for a drain only after a memory period, so at most
  // Mem_periods of a warp's barriers pay one.
  // A drain costs the SM its whole period only where the other resident blocks cannot keep
  // the bottleneck level busy meanwhile. With more warps than saturate the level (N > MWP, the
  // memory-bound case) and B > 1 resident blocks out of step, the others' requests fill it
  // while one block drains at its barrier: the SM loses that block's share, 1 / B of a drain
  // (our reduce_sequential b256i4, one load period then a shared tree at 8 blocks per SM: 1.30 →
  // 1.11 of its measured time on the H100; a tiled product whose one block per SM waits for
  // each tile keeps the whole drain).
  const bool saturated = r.mwpWithoutBwFull < r.n && hongKimCase(r) == MwpCwpResult::Case::MemoryBound;
  const double draining = saturated && in.activeBlocksPerSm > 1 ? 1 / in.activeBlocksPerSm : 1;
  return finishModern(finishHongKim(r, compP, std::min(w.synchInsts, r.memPeriods), draining, in), in);
}

double warpIssueCycles(const KernelIR& ir, double sharedLatency, double sfuLatency, double sharedWavefrontCycles) {
  double cycles = 0;
  bool known = false;
  for (const BasicBlock& b : ir.blocks) {
    // One warp issuing the block in order: an instruction waits for its stall count after the
    // previous one, and for the variable-latency results it reads.
    std::unordered_map<int, double> ready;  // register -> cycle its variable-latency result lands
    double t = 0;
    double sharedFree = 0;  // cycle the shared array has passed the warp's earlier wavefronts
    const auto pass = [&] {
      for (const Instruction& in : b.instructions) {
        known = known || in.stallCycles > 0;
        double start = t;
        for (int reg : in.src) {
          const auto it = ready.find(reg);
          if (it != ready.end()) start = std::max(start, it->second);
        }
        const bool shared = in.memory && in.memory->space == MemorySpace::Shared;
        const bool sharedLoad = shared && !in.memory->isStore;
        double latency = sharedLoad ? sharedLatency : !in.memory && in.cls == InstrClass::Sfu ? sfuLatency : 0;
        if (shared && sharedWavefrontCycles > 0) {
          // The array serves a warp's accesses in order, one bank wavefront after another: a
          // load's data is complete `latency` after its last wavefront began.
          const double passes = std::max(1.0, in.memory->wavefrontsPerInst) * sharedWavefrontCycles;
          const double begin = std::max(start, sharedFree);
          sharedFree = begin + passes;
          if (sharedLoad) latency += sharedFree - sharedWavefrontCycles - start;
        }
        for (int reg : in.dst) {
          if (latency > 0) {
            ready[reg] = start + latency;
          } else {
            ready.erase(reg);
          }
        }
        t = start + std::max(1, in.stallCycles);
      }
    };
    pass();
    const double first = t;
    if (b.executionsPerWarp > 1) {
      pass();
      cycles += first + (t - first) * (b.executionsPerWarp - 1);
    } else {
      cycles += first * b.executionsPerWarp;
    }
  }
  return known ? cycles : 0;
}

namespace {

/// The pipe the instructions of `counts` (warp instructions per warp, by class) keep busy
/// longest: count x gap (cycles per warp instruction on one scheduler) / schedulers.
PipeBusy busiestOf(const std::array<double, kNumInstrClasses>& counts, const Gpu& gpu) {
  const double schedulers = std::max(1, gpu.schedulersPerSm.value);
  PipeBusy busiest;
  for (int c = 0; c < kNumInstrClasses; ++c) {
    const Pipeline* pipe = gpu.pipeline(static_cast<InstrClass>(c));
    const double cycles = pipe ? counts[static_cast<size_t>(c)] * pipe->gap.value / schedulers : 0;
    if (cycles > busiest.cycles) busiest = {cycles, static_cast<InstrClass>(c)};
  }
  return busiest;
}

}  // namespace

PipeBusy busiestPipe(const WorkloadSummary& w, const Gpu& gpu) {
  std::array<double, kNumInstrClasses> counts = w.compByClass;
  counts[static_cast<size_t>(InstrClass::Ldst)] += w.memInsts();  // global memory, counted apart
  return busiestOf(counts, gpu);
}

PipeBusy busiestPipe(const KernelIR& ir, const Gpu& gpu) {
  std::array<double, kNumInstrClasses> counts{};
  for (const BasicBlock& b : ir.blocks) {
    for (const Instruction& in : b.instructions) {
      double n = b.executionsPerWarp;
      // A shared access holds the LD/ST path for each of its bank wavefronts.
      if (in.memory && in.memory->space == MemorySpace::Shared) n *= std::max(1.0, in.memory->wavefrontsPerInst);
      // A register-bank conflict reads the operands over that many cycles, feeding the pipe
      // no faster (Lai, thesis Table 4.1: two sources in a bank halve FFMA throughput).
      if (!in.memory) n *= std::max(1, in.bankConflictDegree) * in.pipeWork;
      counts[static_cast<size_t>(in.memory ? InstrClass::Ldst : in.cls)] += n;
    }
  }
  return busiestOf(counts, gpu);
}

std::vector<LoadGroup> loadGroups(const KernelIR& ir) {
  std::vector<LoadGroup> groups;
  for (size_t bi = 0; bi < ir.blocks.size(); ++bi) {
    const BasicBlock& b = ir.blocks[bi];
    std::vector<int> pending;  // registers written by the open group's loads
    LoadGroup open;
    open.executions = b.executionsPerWarp;
    auto close = [&] {
      if (!open.loads.empty()) groups.push_back(open);
      open.loads.clear();
      pending.clear();
    };
    for (size_t ii = 0; ii < b.instructions.size(); ++ii) {
      const Instruction& in = b.instructions[ii];
      const bool reads = std::any_of(in.src.begin(), in.src.end(), [&](int reg) {
        return std::find(pending.begin(), pending.end(), reg) != pending.end();
      });
      if (reads) close();
      if (!in.memory) continue;
      const MemorySpace sp = in.memory->space;
      if (sp != MemorySpace::Global && sp != MemorySpace::Local && sp != MemorySpace::Texture) continue;
      if (in.memory->isStore) continue;
      open.loads.emplace_back(static_cast<int>(bi), static_cast<int>(ii));
      pending.insert(pending.end(), in.dst.begin(), in.dst.end());
    }
    close();
  }
  return groups;
}

double independentLoads(const std::vector<LoadGroup>& groups) {
  double loads = 0, periods = 0;
  for (const LoadGroup& g : groups) {
    loads += static_cast<double>(g.loads.size()) * g.executions;
    periods += g.executions;
  }
  return periods > 0 ? std::max(1.0, loads / periods) : 1.0;
}

std::array<double, 3> latencyShares(double sectors, double l1Hits, double l1SplitHits, double l2Hits) {
  if (!(sectors > 0)) return {0, 0, 0};
  const double l1 = std::clamp(l1Hits / sectors, 0.0, 1.0);
  const double l2 = std::clamp(l2Hits / sectors, 0.0, 1.0 - l1);
  const double dram = 1.0 - l1 - l2;
  const double split = std::clamp(l1SplitHits / sectors, 0.0, l1);
  if (l2 + dram <= 0) return {l1, l2, dram};  // no miss to wait for
  return {l1 - split, l2 + split * l2 / (l2 + dram), dram + split * dram / (l2 + dram)};
}

double periodWaitCycles(const std::vector<LoadGroup>& groups, const MemoryTraffic& traffic,
                        const std::array<double, 3>& latencies) {
  std::map<std::pair<int, int>, const SiteTraffic*> siteAt;
  for (const SiteTraffic& st : traffic.sites) {
    if (!st.isStore && st.sectors > 0) siteAt[{st.block, st.index}] = &st;
  }
  // The levels from the fastest: a load's CDF at level j is its share served by levels 0..j.
  std::array<int, 3> order{0, 1, 2};
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return latencies[a] < latencies[b]; });
  double excess = 0, weight = 0;
  for (const LoadGroup& g : groups) {
    std::array<double, 3> slowest{1, 1, 1};  // min over the loads of P(load <= level j), j sorted
    double sectors = 0, meanSum = 0;
    for (const std::pair<int, int>& at : g.loads) {
      const auto it = siteAt.find(at);
      if (it == siteAt.end()) continue;
      const SiteTraffic& st = *it->second;
      const std::array<double, 3> share = latencyShares(st.sectors, st.l1Hits, st.l1SplitHits, st.l2Hits);
      double cdf = 0, mean = 0;
      for (size_t j = 0; j < 3; ++j) {
        cdf += share[order[j]];
        slowest[j] = std::min(slowest[j], j + 1 == 3 ? 1.0 : cdf);
        mean += share[order[j]] * latencies[order[j]];
      }
      sectors += st.sectors;
      meanSum += st.sectors * mean;
    }
    if (sectors <= 0) continue;
    double period = 0, below = 0;
    for (size_t j = 0; j < 3; ++j) {
      period += (slowest[j] - below) * latencies[order[j]];
      below = slowest[j];
    }
    excess += sectors * period - meanSum;
    weight += sectors;
  }
  return weight > 0 ? std::max(0.0, excess / weight) : 0.0;
}

MwpCwpResult evaluateCGPredict(const MwpCwpInputs& in) {
  MwpCwpResult r;
  const WorkloadSummary& w = in.workload;
  r.n = in.activeBlocksPerSm * in.warpsPerBlock;
  // Eq. 15: batch = no_blocks / B on CGPredict's one-SM GPU; generalised to several SMs by
  // dividing by the active SMs as Hong & Kim's #Rep does. Ceil as chosen in cgpredict.md §6.2.
  r.rep = std::ceil(in.blocks / (in.activeBlocksPerSm * in.activeSms));
  r.mwpPeakBw = kInf;

  const auto dramTransactions = [](const MemoryClassStats& s) {
    return s.dramTransactionsPerInst < 0 ? s.transactionsPerInst : s.dramTransactionsPerInst;
  };
  // Eqs. 1-3 for coalesced and uncoalesced classes.
  const auto latencyAndDelay = [&](const MemoryClassStats& s, double* latency, double* delay) {
    const double d = dramTransactions(s);
    if (d <= 1) {
      *latency = in.l2Latency + (s.transactionsPerInst - 1) * in.l2DepartureDelay;
    } else {
      *latency = in.l2Latency + in.dramLatency + (d - 1) * in.dramDepartureDelay;
    }
    *delay = std::max(s.transactionsPerInst * in.l2DepartureDelay, d * in.dramDepartureDelay);
  };
  const MemoryClassStats& coal = w.mem(AccessClass::Coalesced);
  const MemoryClassStats& uncoal = w.mem(AccessClass::Uncoalesced);
  const MemoryClassStats& cnst = w.mem(AccessClass::Constant);
  double depCoal = 0, depUncoal = 0;
  latencyAndDelay(coal, &r.memLCoal, &depCoal);
  latencyAndDelay(uncoal, &r.memLUncoal, &depUncoal);
  // Eqs. 4-5 for the constant class.
  const double dConst = dramTransactions(cnst);
  r.memLConst = in.l2Latency + dConst * in.dramLatency;
  const double depConst = cnst.transactionsPerInst * in.l2DepartureDelay + dConst * in.dramDepartureDelay;

  const double memInsts = w.memInsts();
  r.compCycles = in.instCycles * w.totalInsts();  // Eq. 12
  // Eqs. 19-22: global→shared loads cost smem_load_const each and count as memory time; shared
  // accesses cost mem_ld_smem x X each and count as computation.
  r.smemLoadCycles = w.smemLoadInsts * in.smemLoadLatency;
  r.smemCycles = in.smemLatency * w.smemConflictWeighted;
  const bool usesSmem = r.smemLoadCycles > 0 || r.smemCycles > 0;
  r.compCycles += r.smemCycles;
  if (usesSmem && in.smemRule == SmemRule::PaperFitted) {
    // cgpredict.md §8.4: the published shared-memory estimates equal, per batch, every thread's
    // memory and computation cycles, with the shared latencies paid once per thread (not x N).
    double globalMemCycles = 0;
    r.mwp = r.mwpWithoutBwFull = r.n;
    if (memInsts > 0) {
      globalMemCycles = r.memLCoal * coal.insts + r.memLUncoal * uncoal.insts + r.memLConst * cnst.insts;
      r.memL = globalMemCycles / memInsts;
      r.departureDelay = (depCoal * coal.insts + depUncoal * uncoal.insts + depConst * cnst.insts) / memInsts;
      r.mwpWithoutBwFull = r.memL / r.departureDelay;
      r.mwp = std::min(r.mwpWithoutBwFull, r.n);
    }
    r.memCycles = globalMemCycles + r.smemLoadCycles;
    r.cwpFull = (r.memCycles + r.compCycles) / r.compCycles;
    r.cwp = std::min(r.cwpFull, r.n);
    r.timeCase = MwpCwpResult::Case::ComputeBound;
    r.execCycles = (r.memCycles + r.compCycles) * r.rep;
    r.totalCycles = r.execCycles;
    r.seconds = r.totalCycles / (in.clockGhz * 1e9);
    return r;
  }
  if (memInsts <= 0) {
    r.timeCase = MwpCwpResult::Case::NoMemory;
    r.mwp = r.mwpWithoutBwFull = kInf;
    r.cwpFull = r.cwp = 1;
    r.execCycles = r.compCycles * r.n * r.rep;
    r.totalCycles = r.execCycles;
    r.seconds = r.totalCycles / (in.clockGhz * 1e9);
    return r;
  }
  // Eqs. 6-8 (and Eq. 21).
  r.memCycles = r.memLCoal * coal.insts + r.memLUncoal * uncoal.insts + r.memLConst * cnst.insts + r.smemLoadCycles;
  r.memL = r.memCycles / memInsts;
  r.departureDelay = (depCoal * coal.insts + depUncoal * uncoal.insts + depConst * cnst.insts) / memInsts;
  // Eqs. 13-14.
  r.mwpWithoutBwFull = r.memL / r.departureDelay;
  r.mwp = std::min(r.mwpWithoutBwFull, r.n);
  r.cwpFull = (r.memCycles + r.compCycles) / r.compCycles;
  r.cwp = std::min(r.cwpFull, r.n);
  // Eqs. 16-17 (× MWP, not × (MWP−1); no separate MWP = CWP = N case).
  if (r.cwp >= r.mwp) {
    r.timeCase = MwpCwpResult::Case::MemoryBound;
    r.execCycles = (r.memCycles * r.n / r.mwp + (r.compCycles / memInsts) * r.mwp) * r.rep;
  } else {
    r.timeCase = MwpCwpResult::Case::ComputeBound;
    r.execCycles = (r.memL + r.compCycles * r.n) * r.rep;
  }
  // Eq. 23: barriers cost (MWP−1) departure delays each, per active block and batch.
  r.synchCost = r.departureDelay * (r.mwp - 1) * w.synchInsts * in.activeBlocksPerSm * r.rep;
  r.totalCycles = r.execCycles + r.synchCost;
  r.seconds = r.totalCycles / (in.clockGhz * 1e9);
  return r;
}

Bound mwpCwpBound(const MwpCwpResult& r, MwpCwpVariant variant, std::string* explanation) {
  auto say = [&](const char* text) {
    if (explanation) *explanation = text;
  };
  if (r.timeCase == MwpCwpResult::Case::NoMemory) {
    say("no global memory instructions: instruction issue alone sets the time");
    return {Resource::Issue, BoundMode::Throughput};
  }
  // The memory side is bandwidth-limited when the peak-bandwidth term is the smallest MWP bound,
  // otherwise limited by the departure delay between requests; both are memory throughput.
  const double mwpUncapped = std::min(r.mwpWithoutBwFull, r.mwpPeakBw);
  if (variant == MwpCwpVariant::Grophecy) {
    // GROPHECY (grophecy.md §6, A16): the smallest of MWP, CWP−1 and N−1, uncapped.
    const double cwpMinus1 = r.cwpFull - 1;
    const double nMinus1 = r.n - 1;
    if (nMinus1 < mwpUncapped && nMinus1 < cwpMinus1) {
      say("N-1 is the smallest of MWP, CWP-1 and N-1: too few active warps (parallelism-bound)");
      return {Resource::Parallelism, BoundMode::Latency};
    }
    if (mwpUncapped <= cwpMinus1) {
      say("MWP is the smallest of MWP, CWP-1 and N-1: memory-bound");
      return {Resource::Dram, BoundMode::Throughput};
    }
    say("CWP-1 is the smallest of MWP, CWP-1 and N-1: compute-bound");
    return {Resource::Issue, BoundMode::Throughput};
  }
  switch (r.timeCase) {
    case MwpCwpResult::Case::NotEnoughWarps:
      say("MWP = CWP = N: not enough warps to hide memory or computation (parallelism-bound)");
      return {Resource::Parallelism, BoundMode::Latency};
    case MwpCwpResult::Case::MemoryBound:
      say(variant == MwpCwpVariant::CGPredict ? "CWP >= MWP: memory-bound"
                                              : "CWP >= MWP (or computation exceeds memory time): memory-bound");
      return {Resource::Dram, BoundMode::Throughput};
    case MwpCwpResult::Case::ComputeBound:
    case MwpCwpResult::Case::NoMemory:
      break;
  }
  say("MWP > CWP: compute-bound, memory latency hidden by other warps' computation");
  return {Resource::Issue, BoundMode::Throughput};
}

Expected<Prediction> predictMwpCwp(const WorkloadSummary& workload, const ThreadResources& resources,
                                   const Launch& launch, const Gpu& gpu,
                                   const ModelOptions& options, const ModernMemoryInputs* modern) {
  if (Expected<void> ok = checkLaunchLimits(launch); !ok) return std::move(ok).takeError();
  Expected<Occupancy> occupancy = computeOccupancy(gpu, blockResources(resources, launch));
  if (!occupancy) return std::move(occupancy).takeError();

  MwpCwpInputs in;
  in.workload = workload;
  in.blocks = static_cast<double>(launch.blocks());
  in.warpsPerBlock = occupancy->warpsPerBlock;
  // A5: Active_SMs_eff = min(#SMs, Blocks); the last term of Eq. 8 is ceil(Blocks / Active_SMs).
  in.activeSms = std::min<double>(gpu.smCount.value, in.blocks);
  in.activeBlocksPerSm = std::min<double>(occupancy->blocksPerSm, std::ceil(in.blocks / in.activeSms));
  in.clockGhz = gpu.clockGhz.value;
  in.memLatency = gpu.mwpCwp.memLatency.value;
  in.departureDelayCoal = gpu.mwpCwp.departureDelayCoal.value;
  in.departureDelayUncoal = gpu.mwpCwp.departureDelayUncoal.value;
  in.issueCycles = gpu.mwpCwp.issueCycles.value;
  in.memBandwidthGBs = gpu.mwpCwp.memBandwidth.value;
  in.quantizeWaves = options.quantizeWaves;

  Prediction p;
  p.model = "mwp-cwp";
  p.variant = mwpCwpVariantName(options.variant);
  MwpCwpResult r;
  ModernTerms terms;
  PipeBusy pipe;
  const bool md = options.variant == MwpCwpVariant::Modern;
  if (options.variant == MwpCwpVariant::CGPredict) {
    const MwpCwpParams& m = gpu.mwpCwp;
    const std::pair<const char*, const std::optional<Param<double>>*> needed[] = {
        {"l2_latency", &m.l2Latency},
        {"l2_departure_delay", &m.l2DepartureDelay},
        {"dram_departure_delay", &m.dramDepartureDelay},
        {"inst_cycles", &m.instCycles}};
    for (const auto& [key, param] : needed) {
      if (!param->has_value()) {
        return makeError(std::string("the cgpredict variant needs mwp_cwp.") + key +
                             ", which GPU '" + gpu.name + "' does not give",
                         gpu.sourceFile, 0);
      }
    }
    // mwp_cwp.mem_latency is end-to-end (Hong & Kim's Mem_LD); CGPredict's mem_ld_dram is what a
    // DRAM access adds beyond the L2 (Eq. 2 adds both), so it is the difference.
    in.l2Latency = m.l2Latency->value;
    in.dramLatency = m.memLatency.value - m.l2Latency->value;
    if (in.dramLatency < 0) {
      return makeError("mwp_cwp.mem_latency (" + std::to_string(m.memLatency.value) +
                           ") is below mwp_cwp.l2_latency (" + std::to_string(m.l2Latency->value) + ")",
                       gpu.sourceFile, 0);
    }
    in.l2DepartureDelay = m.l2DepartureDelay->value;
    in.dramDepartureDelay = m.dramDepartureDelay->value;
    in.instCycles = m.instCycles->value;
    if (const MemoryLevel* smem = gpu.memoryLevel("shared")) in.smemLatency = smem->latency.value;
    // smem_load_const (Table 3: 506 cycles on the TK1) is not a GPU key: it equals a DRAM access
    // through the L2 plus one DRAM departure delay, 164 + 332 + 10 [inferred].
    in.smemLoadLatency = m.memLatency.value + m.dramDepartureDelay->value;
    in.smemRule = options.smemRule;
    r = evaluateCGPredict(in);
  } else if (options.variant == MwpCwpVariant::Modern) {
    if (!modern) return makeError("the modern mwp-cwp variant needs the memory engine's traffic");
    terms = resolveModern(*modern, gpu, in.blocks * in.warpsPerBlock, in.activeSms);
    in.loadRequests = terms.loadRequests;
    in.independentLoads = terms.independentLoads;
    in.loadLatency = terms.loadLatency;
    in.serviceCycles = terms.serviceCycles;
    in.warpIssueCycles = modern->warpIssueCycles;
    pipe = modern->pipe.cycles > 0 ? modern->pipe : busiestPipe(workload, gpu);
    in.pipeCycles = pipe.cycles;
    if (gpu.launchOverheadUs) in.launchCycles = gpu.launchOverheadUs->value * 1e3 * gpu.clockGhz.value;
    if (gpu.blockOverheadCycles) in.blockOverheadCycles = gpu.blockOverheadCycles->value;
    in.longestWarpShare = std::max(1.0, modern->longestWarpShare);
    if (gpu.blockDispatchCycles) in.blockDispatchCycles = gpu.blockDispatchCycles->value;
    in.atomicCycles = atomicSeconds(modern->traffic, gpu).longest() * gpu.clockGhz.value * 1e9;
    r = evaluateModern(in);
  } else {
    r = evaluateHongKim(in);
  }

  p.cycles = r.totalCycles;
  p.seconds = r.seconds;
  p.occupancy = *occupancy;
  p.bound = mwpCwpBound(r, options.variant, &p.boundExplanation);
  if (md && p.bound.resource == Resource::Dram) {
    p.bound.resource = terms.bottleneck;  // the level whose achievable bandwidth sets Departure_delay
    if (r.memPeriods <= 0) p.boundExplanation = "no loads: the stores' bandwidth exceeds the issue time";
  }
  if (md && r.atomicBound) {
    p.bound = {Resource::L2, BoundMode::Throughput};
    p.boundExplanation = "atomics: the L2 applies the launch's atomics to its most-updated address (or busiest atomic "
                         "unit) one after another, after the other work (fewer atomics to one address, e.g. a per-block "
                         "reduction first, remove it)";
  } else if (md && r.dispatchBound) {
    p.bound = {Resource::Parallelism, BoundMode::Throughput};
    p.boundExplanation = "block dispatch: an SM starts a new block at most every Block_dispatch cycles, and these "
                         "blocks take less than that per slot (fewer, larger blocks or more work per thread amortize it)";
  } else if (md && r.blockBound) {
    p.bound = {Resource::Parallelism, BoundMode::Latency};
    p.boundExplanation = "each wave of blocks lasts its warps' latency path plus the GPU's block overhead "
                         "(dispatch and retirement): too few warps per block slot to cover it";
  } else if (md && r.turnoverBound) {
    p.bound = {terms.bottleneck, BoundMode::Throughput};
    p.boundExplanation = "memory bandwidth plus block turnover: a block's slot frees only when its last warp's requests "
                         "return, and the next block's requests queue behind the other blocks' (smaller blocks, or more "
                         "memory periods per warp, pay it less often)";
  } else if (md && r.warpIssueBound) {
    p.bound = {Resource::Parallelism, BoundMode::Latency};
    p.boundExplanation = "a lone warp's dependent chain (stall counts, shared-memory and SFU waits) outlasts what "
                         "the resident warps overlap: too few warps";
  } else if (md && p.bound.resource == Resource::Issue && pipe.cycles > in.issueCycles * workload.totalInsts()) {
    p.bound = {resourceOfPipe(pipe.cls), BoundMode::Throughput};
    p.boundExplanation = std::string("computation-bound on the ") + instrClassName(pipe.cls) +
                         " pipe: its warp instructions x gap exceed the issue slots";
  }

  const bool cg = options.variant == MwpCwpVariant::CGPredict;
  auto add = [&](const char* name, double value, const char* note) {
    p.values.push_back({name, value, note});
  };
  add("N", r.n, "active warps per SM");
  add("Active_blocks_per_SM", in.activeBlocksPerSm, "resident blocks per SM (Eq. 8)");
  add("Active_SMs", in.activeSms, "SMs with work");
  add(cg ? "batch" : "Rep", r.rep, "waves of blocks per SM");
  if (md) {
    add("Load_requests", terms.loadRequests, "global load requests per warp (memory engine)");
    add("Independent_loads", terms.independentLoads, "loads issued before the first use (IR dependences)");
    add("Mem_periods", r.memPeriods, "Load_requests / Independent_loads");
    add("Warp_issue_cycles", in.warpIssueCycles,
        r.warpIssueBound ? "a lone warp's issue time (SASS stall counts): bounds the time"
                         : "a lone warp's issue time (SASS stall counts)");
    add("L1_latency", terms.l1Latency, "cycles");
    add("L2_latency", terms.l2Latency, "cycles (mean of near and far partitions)");
    add("DRAM_latency", terms.dramLatency, "cycles");
    add("f_L1", terms.fL1, "share of load sectors served by L1");
    add("f_L2", terms.fL2, "share of load sectors served by L2");
    add("f_DRAM", terms.fDram, "share of load sectors read from DRAM");
    if (terms.l1Split > 0) add("L1_split", terms.l1Split, "share of load sectors L1 served whose request waited for a sector it missed");
    add("L1_wavefronts", terms.wavefrontsPerRequest, "L1 passes per load request (memory engine)");
    add("Sector_serialization", terms.sectorSerialization, "cycles for a request's extra L1 passes");
    add("Period_wait", terms.periodWait, "cycles a memory period waits for its slowest load beyond the mean");
    add("DRAM_BW", terms.dramBw, "achievable GB/s for the launch's read/write mix");
    add("L2_BW", terms.l2Bw, "achievable GB/s for the launch's read/write mix");
    add("DRAM_service", terms.dramService, "cycles per warp on one SM's share of DRAM");
    add("L2_service", terms.l2Service, "cycles per warp on one SM's share of L2");
    add("L1_service", terms.l1Service, "cycles per warp on one SM's L1");
  }
  add("Mem_L", r.memL, "average memory latency, cycles");
  add("Departure_delay", r.departureDelay, "cycles between two memory requests");
  add("MWP_Without_BW_full", r.mwpWithoutBwFull, "Mem_L / Departure_delay");
  if (!cg && !md) {
    add("BW_per_warp", r.bwPerWarp, "GB/s one warp draws");
    add("MWP_peak_BW", r.mwpPeakBw, "warps the DRAM bandwidth sustains");
  }
  if (md) add("MWP_peak_BW", r.mwpPeakBw, "Mem_L / Departure_delay: warps that saturate the bottleneck level");
  add("MWP", r.mwp, "memory warp parallelism");
  add("Comp_cycles", r.compCycles, "computation cycles per warp");
  add("Mem_cycles", r.memCycles, "memory waiting cycles per warp");
  add("CWP_full", r.cwpFull, "(Mem_cycles + Comp_cycles) / Comp_cycles");
  add("CWP", r.cwp, "computation warp parallelism");
  add("Exec_cycles", r.execCycles, "cycles without synchronisation");
  add("Synch_cost", r.synchCost, "cycles of barrier cost");
  if (md) add("Launch_overhead", r.launchCycles, "cycles of the GPU's launch overhead, added to the time");
  if (md) {
    add("Block_overhead", in.blockOverheadCycles,
        r.blockBound ? "cycles per wave of block dispatch and retirement: with the warps' path, bounds the time"
                     : "cycles per wave of block dispatch and retirement");
    if (in.longestWarpShare > 1) {
      add("Longest_warp_share", in.longestWarpShare, "the longest executed warp's instructions over the mean warp's: scales the path of the block floor");
    }
    add("Turnover_loss", r.turnoverLoss,
        r.turnoverBound ? "cycles per wave the block turnover adds to the bandwidth time: with it, bounds the time"
                        : "cycles per wave the block turnover adds to the bandwidth time");
    add("Block_dispatch", in.blockDispatchCycles,
        r.dispatchBound ? "cycles between two block starts on an SM: the busiest SM's blocks x this bound the time"
                        : "cycles between two block starts on an SM");
    if (r.atomicCycles > 0) {
      add("Atomic_cycles", r.atomicCycles,
          r.atomicBound ? "cycles the L2 applies the atomics one after another: more than the rest of the time"
                        : "cycles the L2 applies the atomics one after another");
      add("Atomic_added", r.atomicAddedCycles,
          "cycles the atomics add to Exec_cycles: Atomic_cycles x min(1, Atomic_cycles / the rest)");
    }
  }
  if (cg && (r.smemLoadCycles > 0 || r.smemCycles > 0)) {
    add("smem_load_cycles", r.smemLoadCycles, "global->shared load cycles per thread (Eq. 19)");
    add("smem_cycles", r.smemCycles, "shared access cycles per thread, X-weighted (Eq. 20)");
  }

  // Busy time of the two resources the model knows: issue slots and DRAM bandwidth.
  const double totalWarps = in.blocks * in.warpsPerBlock;
  const double issueBusy = r.compCycles * totalWarps / in.activeSms;
  // DRAM bytes per warp: where a class states its DRAM transactions (L2 misses), those times the
  // DRAM transaction size; otherwise Hong & Kim's Load_bytes_per_warp per memory instruction.
  const MemoryLevel* dram = gpu.memoryForResource("dram");
  const double transactionBytes = dram && dram->sector ? static_cast<double>(dram->sector->value)
                                  : dram && dram->line ? static_cast<double>(dram->line->value)
                                                       : 32.0;
  double dramBytesPerWarp = 0;
  for (const MemoryClassStats& c : workload.memory) {
    dramBytesPerWarp += c.insts * (c.dramTransactionsPerInst >= 0 ? c.dramTransactionsPerInst * transactionBytes
                                                                  : workload.loadBytesPerWarp);
  }
  const double dramBytes = dramBytesPerWarp * totalWarps;
  const double dramBytesPerCycle = in.memBandwidthGBs / in.clockGhz;
  double dramBusy = dramBytes / dramBytesPerCycle;
  if (md) dramBusy = terms.dramService * totalWarps / in.activeSms;  // achievable bandwidth, engine's bytes
  const double denom = p.cycles > 0 ? p.cycles : 1;
  p.resources.push_back({Resource::Issue, issueBusy, issueBusy / denom});
  p.resources.push_back({Resource::Dram, dramBusy, dramBusy / denom});
  if (md) {
    const double l2Busy = terms.l2Service * totalWarps / in.activeSms;
    p.resources.push_back({Resource::L2, l2Busy, l2Busy / denom});
  }

  if (workload.mem(AccessClass::Constant).insts > 0 && !cg) {
    p.warnings.push_back("Hong & Kim have no constant class: constant accesses are charged as coalesced");
  }
  const bool missingMissEstimate = std::any_of(
      workload.memory.begin(), workload.memory.end(),
      [](const MemoryClassStats& c) { return c.insts > 0 && c.dramTransactionsPerInst < 0; });
  if (cg && missingMissEstimate) {
    p.warnings.push_back("no L2 miss estimate given: every transaction is assumed to reach DRAM");
  }
  if (issueBusy > p.cycles * 1.001) {
    p.warnings.push_back(
        "the predicted time is below what instruction issue alone needs (" +
        std::to_string(static_cast<long long>(issueBusy)) +
        " cycles): the model's memory-bound case underestimates this compute-heavy kernel");
  }
  if (resources.registers == 0) {
    p.warnings.push_back("registers per thread unknown: occupancy ignores the register limit");
  }
  return p;
}

const char* mwpCwpVariantName(MwpCwpVariant v) {
  switch (v) {
    case MwpCwpVariant::HongKim: return "hong-kim";
    case MwpCwpVariant::Grophecy: return "grophecy";
    case MwpCwpVariant::CGPredict: return "cgpredict";
    case MwpCwpVariant::Modern: return "modern";
  }
  return "grophecy";
}

const char* smemRuleName(SmemRule r) {
  return r == SmemRule::PaperLiteral ? "paper_literal" : "paper_fitted";
}

std::optional<SmemRule> parseSmemRule(const std::string& name) {
  if (name == "paper_fitted") return SmemRule::PaperFitted;
  if (name == "paper_literal") return SmemRule::PaperLiteral;
  return std::nullopt;
}

std::optional<MwpCwpVariant> parseMwpCwpVariant(const std::string& name) {
  if (name == "hong-kim") return MwpCwpVariant::HongKim;
  if (name == "grophecy") return MwpCwpVariant::Grophecy;
  if (name == "cgpredict") return MwpCwpVariant::CGPredict;
  if (name == "modern") return MwpCwpVariant::Modern;
  return std::nullopt;
}

}  // namespace foresight
