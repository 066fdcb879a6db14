// SPDX-License-Identifier: Apache-2.0
/// \file
/// The modern MWP-CWP variant (docs/models.md#modern-variant): independent loads from register
/// dependences, and an occupancy sweep of a streaming kernel whose predicted bandwidth rises with
/// the resident warps (Little's law) and saturates at the achievable DRAM read bandwidth.
///
/// GPU: the h100 preset with every number the variant reads set here (a preset update must not
/// move the hand numbers): 100 SMs at 1.5 GHz, Issue_cycles 0.25; L1 30 cycles, 19.2 TB/s
/// (= 128 B/cycle/SM); L2 300 cycles, no far partition, 10 TB/s read; DRAM 600 cycles, 3 TB/s
/// achievable read (3.35 TB/s peak).
///
/// Kernel: a read-only stream unrolled by 4. Per warp, 250 iterations of
///   LDG r1..r4 (coalesced 4-B lanes: 4 sectors each), 4 FADD accumulating r1..r4, IADD, BRA:
///   1000 load requests, 4 independent loads (the first FADD reads r1), 2500 instructions;
///   128,000 B read per warp, all from DRAM (read once: the provisional and the real engine agree).
///
/// Hand numbers (per warp, one SM):
///   Mem_L = 600 (f_DRAM = 1): the 4 sectors of a coalesced request lie in one 128-B line, one
///   L1 pass, no serialization
///   periods = 1000 / 4 = 250; issue 0.25 x 2500 = 625 cycles, but the LD/ST pipe takes
///   1000 loads x gap 4 / 4 schedulers = 1000: Comp_cycles = 1000; Comp_p = 4
///   DRAM service = 128,000 B / (3000 / 1.5 / 100 = 20 B/cycle) = 6400 cycles (L2: 1920, L1: 1000)
///   Departure_delay = 6400 / 250 = 25.6; MWP_peak_BW = 600 / 25.6 = 23.4375 warps
///   CWP_full = (600 x 250 + 1000) / 1000 = 151
/// N = 8 warps/SM (grid 400 x 64 threads, 4 blocks/SM, Rep 1): MWP = CWP = N = 8:
///   Exec = 150,000 + 1000 + 4 x 7 = 151,028 cycles = 100.6853 us;
///   800 warps x 128,000 B = 102.4 MB -> 1017.0 GB/s (Little: 8 x 4 x 128 B per 600 cycles)
/// N = 64 (grid 3200 x 64 threads, 32 blocks/SM, Rep 1): MWP = 23.4375 < CWP = 64: memory-bound:
///   Exec = 64 x 6400 + 4 x 22.4375 = 409,689.75 cycles = 273.1265 us;
///   6400 warps x 128,000 B = 819.2 MB -> 2999.3 GB/s, the achievable 3000 GB/s.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "foresight/gpu/presets.h"
#include "foresight/model/mwp_cwp.h"
#include "foresight/model/predict.h"

namespace foresight {
namespace {

Gpu sweepGpu() {
  Expected<Gpu> g = loadPreset("h100");
  EXPECT_TRUE(g.ok());
  Gpu gpu = *g;
  gpu.smCount.value = 100;
  gpu.clockGhz.value = 1.5;
  gpu.mwpCwp.issueCycles.value = 0.25;
  gpu.launchOverheadUs.reset();     // the launch test below sets its own
  gpu.blockOverheadCycles.reset();  // so does the block-overhead test
  gpu.blockDispatchCycles.reset();  // and the block-dispatch test
  for (MemoryLevel& m : gpu.memory) {
    m.readBandwidth.reset();
    m.writeBandwidth.reset();
    m.mixedBandwidth.reset();
    m.farLatency.reset();
    m.partitions.reset();
    if (m.resource == "l1") {
      m.latency.value = 30;
      m.bandwidth = Param<double>{19200};
    } else if (m.resource == "l2") {
      m.latency.value = 300;
      m.bandwidth = Param<double>{12000};
      m.readBandwidth = Param<double>{10000};
    } else if (m.resource == "dram") {
      m.latency.value = 600;
      m.bandwidth = Param<double>{3350};
      m.readBandwidth = Param<double>{3000};
    }
  }
  return gpu;
}

Instruction inst(InstrClass c, const char* name, std::vector<int> dst, std::vector<int> src) {
  Instruction in;
  in.opcode = name;
  in.cls = c;
  in.dst = std::move(dst);
  in.src = std::move(src);
  return in;
}

KernelInput streamKernel() {
  KernelInput k;
  k.ir.name = "read_stream_x4";
  BasicBlock b;
  b.label = "loop";
  b.executionsPerWarp = 250;
  for (int r = 1; r <= 4; ++r) {
    Instruction ld = inst(InstrClass::Ldst, "LDG.E", {r}, {10});
    MemoryAccess m;
    m.pattern = AccessClass::Coalesced;
    m.transactionsPerInst = 4;
    ld.memory = m;
    b.instructions.push_back(ld);
  }
  for (int r = 1; r <= 4; ++r) b.instructions.push_back(inst(InstrClass::Fp32, "FADD", {5}, {5, r}));
  b.instructions.push_back(inst(InstrClass::Int, "IADD3", {10}, {10}));
  b.instructions.push_back(inst(InstrClass::Control, "BRA", {}, {}));
  k.ir.blocks.push_back(b);
  return k;
}

/// streamKernel() with a block barrier before its loop's branch.
KernelInput barrierStreamKernel() {
  KernelInput k = streamKernel();
  Instruction bar = inst(InstrClass::Control, "BAR.SYNC", {}, {});
  bar.barrier = true;
  k.ir.blocks[0].instructions.insert(k.ir.blocks[0].instructions.end() - 1, bar);
  return k;
}

/// A lone dependent chain: 4096 FFMAs, each waiting 4 cycles for the previous one (SASS stall
/// count 4), then one EXIT without a stall count.
KernelInput fmaChainKernel() {
  KernelInput k;
  k.ir.name = "fma_chain";
  BasicBlock loop;
  loop.executionsPerWarp = 4096;
  Instruction ffma = inst(InstrClass::Fp32, "FFMA", {1}, {1});
  ffma.stallCycles = 4;
  ffma.flops = 2;
  loop.instructions.push_back(ffma);
  BasicBlock tail;
  tail.executionsPerWarp = 1;
  tail.instructions.push_back(inst(InstrClass::Control, "EXIT", {}, {}));
  k.ir.blocks = {loop, tail};
  return k;
}

ModelOptions modern() {
  ModelOptions o;
  o.model = ModelKind::MwpCwp;
  o.variant = MwpCwpVariant::Modern;
  return o;
}

/// Warps per SM w: blocks of 64 threads (2 warps), w / 2 of them per SM on 100 SMs (1 warp: one
/// block of 32). Returns {seconds, bytes read}.
std::pair<double, double> runSweepPoint(int w, const Gpu& gpu, Prediction* out = nullptr) {
  Launch l;
  l.block.x = w == 1 ? 32 : 64;
  l.grid.x = w == 1 ? 100 : 100LL * (w / 2);
  Expected<Prediction> p = predict(streamKernel(), l, gpu, modern());
  EXPECT_TRUE(p.ok()) << p.error().format();
  if (!p) return {0, 0};
  if (out) *out = *p;
  const double warps = static_cast<double>(l.grid.x) * (l.block.x / 32);
  return {p->seconds, warps * 128000.0};
}

TEST(MwpCwpModern, IndependentLoadsFromRegisterDependences) {
  EXPECT_DOUBLE_EQ(independentLoads(loadGroups(streamKernel().ir)), 4.0);
  // A pointer chase: each load's address is the previous load's result.
  KernelIR chase;
  BasicBlock b;
  b.executionsPerWarp = 10;
  for (int i = 0; i < 3; ++i) {
    Instruction ld = inst(InstrClass::Ldst, "LDG.E", {i + 1}, {i});
    ld.memory = MemoryAccess{};
    ld.memory->pattern = AccessClass::Uncoalesced;
    b.instructions.push_back(ld);
  }
  chase.blocks.push_back(b);
  EXPECT_DOUBLE_EQ(independentLoads(loadGroups(chase)), 1.0);
  EXPECT_DOUBLE_EQ(independentLoads(loadGroups(KernelIR{})), 1.0);
}

/// One load site of a period test: `sectors`, of which `l1` and `l2` hit.
SiteTraffic loadSite(int block, int index, double sectors, double l1, double l2) {
  SiteTraffic st;
  st.block = block;
  st.index = index;
  st.sectors = sectors;
  st.l1Hits = l1;
  st.l2Hits = l2;
  return st;
}

TEST(MwpCwpModern, LatencyMixMovesSplitHitsToTheMissesTheyWaitFor) {
  // No split hits: the sector shares. 100 sectors, 60 L1, 30 L2, 10 DRAM.
  const std::array<double, 3> plain = latencyShares(100, 60, 0, 30);
  EXPECT_NEAR(plain[0], 0.6, 1e-12);
  EXPECT_NEAR(plain[1], 0.3, 1e-12);
  EXPECT_NEAR(plain[2], 0.1, 1e-12);
  // 20 of the L1 hits wait for a miss: they split 3 : 1 as the misses (30 L2, 10 DRAM):
  // L1 0.4, L2 0.3 + 0.2 × 0.75 = 0.45, DRAM 0.1 + 0.2 × 0.25 = 0.15.
  const std::array<double, 3> split = latencyShares(100, 60, 20, 30);
  EXPECT_NEAR(split[0], 0.4, 1e-12);
  EXPECT_NEAR(split[1], 0.45, 1e-12);
  EXPECT_NEAR(split[2], 0.15, 1e-12);
  // A pointer chase's request: 31 of 32 sectors hit L1, the new one comes from DRAM: the whole
  // request waits DRAM's latency.
  const std::array<double, 3> chase = latencyShares(32, 31, 31, 0);
  EXPECT_NEAR(chase[0], 0, 1e-12);
  EXPECT_NEAR(chase[2], 1, 1e-12);
  // Everything hits: nothing to wait for, whatever the split count says.
  EXPECT_NEAR(latencyShares(32, 32, 5, 0)[0], 1, 1e-12);
}

TEST(MwpCwpModern, PeriodWaitsForItsSlowestLoad) {
  // PolyBench correlation's std_kernel: per iteration a warp loads data[i][j] (4 sectors, DRAM)
  // and mean[j] (4 sectors, L1 hits) before it uses either: one period of two loads.
  KernelIR ir;
  BasicBlock b;
  b.executionsPerWarp = 2048;
  for (int i = 0; i < 2; ++i) {
    Instruction ld = inst(InstrClass::Ldst, "LDG.E", {10 + i}, {i});
    ld.memory = MemoryAccess{};
    b.instructions.push_back(ld);
  }
  b.instructions.push_back(inst(InstrClass::Fp32, "FADD", {12}, {10, 11}));
  ir.blocks.push_back(b);
  const std::vector<LoadGroup> groups = loadGroups(ir);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].loads, (std::vector<std::pair<int, int>>{{0, 0}, {0, 1}}));
  EXPECT_DOUBLE_EQ(groups[0].executions, 2048);
  const std::array<double, 3> lat{34, 350, 834};  // L1, L2, DRAM
  MemoryTraffic tr;
  tr.sites = {loadSite(0, 0, 4, 0, 0), loadSite(0, 1, 4, 4, 0)};
  // The mean of the two loads is (834 + 34) / 2 = 434; the period waits for the DRAM load: 834.
  EXPECT_DOUBLE_EQ(periodWaitCycles(groups, tr, lat), 400);
  // Mixes: load A 50 % L1 / 50 % DRAM, load B all L2, 8 and 24 sectors. Comonotone: P(period <=
  // L1) = min(0.5, 0) = 0, P(<= L2) = min(0.5, 1) = 0.5, so the period is 0.5 x 350 + 0.5 x 834
  // = 592; the loads' sector-weighted mean (8 x 434 + 24 x 350) / 32 = 371; wait 592 - 371 = 221.
  tr.sites = {loadSite(0, 0, 8, 4, 0), loadSite(0, 1, 24, 0, 24)};
  EXPECT_NEAR(periodWaitCycles(groups, tr, lat), 221, 1e-9);
  // Both loads with the same mix: the period is the mix, nothing to wait beyond it.
  tr.sites = {loadSite(0, 0, 8, 4, 2), loadSite(0, 1, 16, 8, 4)};
  EXPECT_NEAR(periodWaitCycles(groups, tr, lat), 0, 1e-9);
  // A store site at the same place, or no site, is left out: one load, nothing to wait.
  tr.sites = {loadSite(0, 0, 4, 0, 0)};
  EXPECT_DOUBLE_EQ(periodWaitCycles(groups, tr, lat), 0);
  // Two periods of one load each (the second load reads the first's result): no wait.
  ir.blocks[0].instructions[1].src = {10};
  tr.sites = {loadSite(0, 0, 4, 0, 0), loadSite(0, 1, 4, 4, 0)};
  EXPECT_EQ(loadGroups(ir).size(), 2u);
  EXPECT_DOUBLE_EQ(periodWaitCycles(loadGroups(ir), tr, lat), 0);
}

TEST(MwpCwpModern, HandNumbersAtEightAndSixtyFourWarps) {
  const Gpu gpu = sweepGpu();
  Prediction p8, p64;
  const auto [t8, b8] = runSweepPoint(8, gpu, &p8);
  EXPECT_NEAR(p8.value("Mem_L")->value, 600.0, 1e-9);
  EXPECT_NEAR(p8.value("L1_wavefronts")->value, 1.0, 1e-12);
  EXPECT_NEAR(p8.value("Departure_delay")->value, 25.6, 1e-9);
  EXPECT_NEAR(p8.value("MWP_peak_BW")->value, 23.4375, 1e-9);
  EXPECT_NEAR(p8.value("MWP")->value, 8.0, 1e-12);
  EXPECT_NEAR(p8.value("Comp_cycles")->value, 1000.0, 1e-9);
  EXPECT_NEAR(t8 * 1e6, 100.6853, 1e-3);
  EXPECT_NEAR(b8 / t8 / 1e9, 1017.0, 0.1);
  const auto [t64, b64] = runSweepPoint(64, gpu, &p64);
  EXPECT_NEAR(p64.value("MWP")->value, 23.4375, 1e-9);
  EXPECT_NEAR(t64 * 1e6, 273.1265, 1e-3);
  EXPECT_NEAR(b64 / t64 / 1e9, 2999.3, 0.1);
  EXPECT_EQ(p64.bound.resource, Resource::Dram);
  EXPECT_EQ(p64.bound.mode, BoundMode::Throughput);
}

TEST(MwpCwpModern, StreamingBandwidthRisesWithOccupancyAndSaturatesAtTheAchievable) {
  const Gpu gpu = sweepGpu();
  double previous = 0;
  double last = 0;
  for (int w : {1, 2, 4, 8, 12, 16, 20, 24, 32, 48, 64}) {
    const auto [t, bytes] = runSweepPoint(w, gpu);
    const double gbs = bytes / t / 1e9;
    EXPECT_GE(gbs, previous * (1 - 1e-12)) << w << " warps/SM";
    EXPECT_LE(gbs, 3000.0 * (1 + 1e-9)) << w << " warps/SM";
    previous = last = gbs;
  }
  // Saturated from MWP_peak_BW = 23.5 warps on: within 0.1 % of the achievable read bandwidth.
  EXPECT_GT(last, 0.999 * 3000.0);
  // Below saturation the bandwidth is Little's law: 1 warp moves 4 x 128 B per ~600 cycles.
  const auto [t1, b1] = runSweepPoint(1, gpu);
  EXPECT_NEAR(b1 / t1 / 1e9, 127.2, 0.1);  // 12.8 MB / (151,000 cycles / 1.5 GHz)
}

/// A lone dependent chain: one block of one warp per SM, 4096 FFMAs each waiting 4 cycles for
/// the previous one (SASS stall count 4), plus 1 exit instruction without a stall count.
///   warpIssueCycles = 4096 x 4 + 1 = 16,385 cycles.
/// Hong & Kim's issue term alone gives Comp_cycles x N = 0.25 x 4097 x 1 = 1024.25 cycles: the
/// chain itself is 16x longer, so it sets the time: 16,385 / 1.5 GHz = 10.923 us.
TEST(MwpCwpModern, ALoneDependentChainTakesItsStallCycles) {
  KernelInput k = fmaChainKernel();
  EXPECT_DOUBLE_EQ(warpIssueCycles(k.ir, 30), 16385.0);
  Launch l;
  l.grid.x = 100;
  l.block.x = 32;
  Expected<Prediction> p = predict(k, l, sweepGpu(), modern());
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_NEAR(p->seconds * 1e6, 10.9233, 1e-3);
  EXPECT_DOUBLE_EQ(p->value("Warp_issue_cycles")->value, 16385.0);
  // Without stall counts (PTX input) nothing is known and nothing changes: 1024.25 cycles.
  k.ir.blocks[0].instructions[0].stallCycles = 0;
  EXPECT_DOUBLE_EQ(warpIssueCycles(k.ir, 30), 0.0);
  Expected<Prediction> q = predict(k, l, sweepGpu(), modern());
  ASSERT_TRUE(q.ok());
  EXPECT_NEAR(q->cycles, 1024.25, 1e-9);
}

/// A register-bank conflict feeds the FP32 pipe at half rate (Lai, Table 4.1): 4096 FFMAs per
/// warp, 8 warps per scheduler (32 per SM), FP32 gap 1, 4 schedulers: the pipe is busy
/// 4096 x 1 / 4 = 1024 cycles per warp, 2048 with every FFMA 2-way conflicted.
TEST(MwpCwpModern, ABankConflictDoublesTheFp32PipeCycles) {
  KernelInput k = fmaChainKernel();
  const Gpu gpu = sweepGpu();
  EXPECT_DOUBLE_EQ(busiestPipe(k.ir, gpu).cycles, 1024.0);
  k.ir.blocks[0].instructions[0].bankConflictDegree = 2;
  const PipeBusy pipe = busiestPipe(k.ir, gpu);
  EXPECT_DOUBLE_EQ(pipe.cycles, 2048.0);
  EXPECT_EQ(pipe.cls, InstrClass::Fp32);
  Launch l;
  l.grid.x = 100;
  l.block.x = 1024;
  Expected<Prediction> conflicted = predict(k, l, gpu, modern());
  k.ir.blocks[0].instructions[0].bankConflictDegree = 1;
  Expected<Prediction> free = predict(k, l, gpu, modern());
  ASSERT_TRUE(conflicted.ok() && free.ok());
  EXPECT_GT(conflicted->cycles, 1.9 * free->cycles);
}

/// A shared-memory chase: LDS r1 <- [r0], LDS r2 <- [r1], FADD r3 <- r2, r2, each with stall
/// count 1, shared latency 30: the second LDS waits for the first (issues at 30), the FADD for
/// the second (issues at 60): 61 cycles per execution, x 100 executions = 6100. A global load
/// in the same place adds no wait (its latency belongs to the memory terms): 3 cycles.
TEST(MwpCwpModern, WarpIssueWaitsForSharedLoads) {
  KernelIR ir;
  BasicBlock b;
  b.executionsPerWarp = 100;
  auto load = [](int dst, int src, MemorySpace space) {
    Instruction in = inst(InstrClass::Ldst, "LDS", {dst}, {src});
    in.memory = MemoryAccess{};
    in.memory->space = space;
    in.stallCycles = 1;
    return in;
  };
  Instruction add = inst(InstrClass::Fp32, "FADD", {3}, {2, 2});
  add.stallCycles = 1;
  b.instructions = {load(1, 0, MemorySpace::Shared), load(2, 1, MemorySpace::Shared), add};
  ir.blocks.push_back(b);
  EXPECT_DOUBLE_EQ(warpIssueCycles(ir, 30), 6100.0);
  ir.blocks[0].instructions[0].memory->space = MemorySpace::Global;
  ir.blocks[0].instructions[1].memory->space = MemorySpace::Global;
  EXPECT_DOUBLE_EQ(warpIssueCycles(ir, 30), 300.0);
}

/// Bank wavefronts on the lone warp's path (shared latency 30, one cycle per wavefront):
///  - LDS r1 <- [r0] with 32 wavefronts (a 32-way conflict), then FADD r2 <- r1, stall 1 each,
///    100 executions. The load's data lands 30 cycles after its last wavefront began: 30 + 31 =
///    61 after it issued, so the FADD issues at 61 and the first pass takes 62; the second pass
///    starts at 62, after the array is free (32), so every pass takes 62: 62 x 100 = 6200 cycles.
///    Without wavefronts (cycles per wavefront 0): 31 x 100 = 3100.
///  - A conflicted store before a conflict-free, independent load: STS (32 wavefronts) at 0, LDS
///    issued at 1 waits for the array until 32, its data lands at 32 + 30 = 62, the FADD issues
///    then: 63 cycles for one execution; without wavefronts the LDS lands at 31, 32 cycles.
TEST(MwpCwpModern, WarpIssueWaitsForBankWavefronts) {
  auto shared = [](const char* op, std::vector<int> dst, std::vector<int> src, bool store, double wavefronts) {
    Instruction in = inst(InstrClass::Ldst, op, std::move(dst), std::move(src));
    in.memory = MemoryAccess{};
    in.memory->space = MemorySpace::Shared;
    in.memory->isStore = store;
    in.memory->wavefrontsPerInst = wavefronts;
    in.stallCycles = 1;
    return in;
  };
  Instruction add = inst(InstrClass::Fp32, "FADD", {2}, {1, 1});
  add.stallCycles = 1;
  KernelIR conflicted;
  BasicBlock b;
  b.executionsPerWarp = 100;
  b.instructions = {shared("LDS", {1}, {0}, false, 32), add};
  conflicted.blocks.push_back(b);
  EXPECT_DOUBLE_EQ(warpIssueCycles(conflicted, 30, 0, 1), 6200.0);
  EXPECT_DOUBLE_EQ(warpIssueCycles(conflicted, 30, 0, 0), 3100.0);
  KernelIR queued;
  b.executionsPerWarp = 1;
  b.instructions = {shared("STS", {}, {0, 5}, true, 32), shared("LDS", {1}, {3}, false, 1), add};
  queued.blocks.push_back(b);
  EXPECT_DOUBLE_EQ(warpIssueCycles(queued, 30, 0, 1), 63.0);
  EXPECT_DOUBLE_EQ(warpIssueCycles(queued, 30, 0, 0), 32.0);
}

/// Barriers: the stream kernel with a BAR in its loop (11 instructions per iteration, 250
/// barriers and 250 memory periods per warp), N = 8 warps/SM in 4 blocks of 2 warps:
///   Comp_cycles = max(issue 0.25 x 2750 = 687.5, LD/ST 1000) = 1000; Comp_p = 4;
///   MWP = CWP = N = 8 (not enough warps): Exec = 150,000 + 1000 + 4 x 7 = 151,028 cycles
///   Synch = Departure_delay x (MWP - 1) x min(#synch 250, Mem_periods 250) x Rep
///         = 25.6 x 7 x 250 x 1 = 44,800 cycles (Hong & Kim's x Active_blocks_per_SM 4 would
///           charge 179,200: each block's drain again, though MWP already spans the blocks)
///   (151,028 + 44,800) / 1.5 GHz = 130.552 us
TEST(MwpCwpModern, ABarrierDrainsTheSmsMemoryPeriodOnce) {
  KernelInput k = barrierStreamKernel();
  Launch l;
  l.grid.x = 400;
  l.block.x = 64;
  Expected<Prediction> p = predict(k, l, sweepGpu(), modern());
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_NEAR(p->value("Synch_cost")->value, 44800.0, 1e-6);
  EXPECT_NEAR(p->value("Exec_cycles")->value, 151028.0, 1e-6);
  EXPECT_NEAR(p->seconds * 1e6, 130.552, 1e-3);
}

/// The same kernel at N = 64 warps/SM (32 blocks of 2 warps, 3200 blocks on 100 SMs: Rep 1):
/// MWP = Mem_L / Departure_delay = 600 / 25.6 = 23.4375 < N, memory-bound:
///   Exec = 150,000 x 64 / 23.4375 + 4 x 22.4375 = 409,689.75 cycles (as without the barrier).
/// The level is saturated by more warps than it needs, so while one block drains at its barrier
/// the other 31 keep it busy: the SM loses 1/32 of a drain per barrier,
///   Synch = 25.6 x 22.4375 x 250 x 1 / 32 = 4,487.5 cycles (a whole drain: 143,600),
///   (409,689.75 + 4,487.5) / 1.5 GHz = 276.1182 us.
/// At N = 8 (above) the level is not saturated and each barrier pays the whole drain.
TEST(MwpCwpModern, ABarrierDrainHidesBehindTheOtherBlocksAtSaturation) {
  KernelInput k = barrierStreamKernel();
  Launch l;
  l.grid.x = 3200;
  l.block.x = 64;
  Expected<Prediction> p = predict(k, l, sweepGpu(), modern());
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_NEAR(p->value("MWP")->value, 23.4375, 1e-9);
  EXPECT_NEAR(p->value("Active_blocks_per_SM")->value, 32.0, 1e-12);
  EXPECT_NEAR(p->value("Exec_cycles")->value, 409689.75, 1e-6);
  EXPECT_NEAR(p->value("Synch_cost")->value, 4487.5, 1e-6);
  EXPECT_NEAR(p->seconds * 1e6, 276.1182, 1e-3);
}

/// A column walk: the stream kernel with every load uncoalesced, 32 sectors in 32 lines (one
/// lane each). Each request passes the L1 once per line: L1_wavefronts = 32; the last sector
/// leaves 31 passes x 128 B / (128 B/cycle/SM) = 31 cycles after the first:
///   Mem_L = 600 + 31 = 631 cycles.
/// L1 service per warp: 1000 requests x 32 passes x 128 B / 128 B/cycle = 32,000 cycles (the
/// sectors alone, 1000 x 32 x 32 B, would take 8000). DRAM reads all 1,024,000 B per warp at
/// 20 B/cycle: 51,200 cycles, still the bottleneck.
TEST(MwpCwpModern, AnUncoalescedRequestPassesTheL1OncePerLine) {
  KernelInput k = streamKernel();
  for (Instruction& in : k.ir.blocks[0].instructions) {
    if (!in.memory) continue;
    in.memory->pattern = AccessClass::Uncoalesced;
    in.memory->transactionsPerInst = 32;
  }
  Launch l;
  l.grid.x = 400;
  l.block.x = 64;
  Expected<Prediction> p = predict(k, l, sweepGpu(), modern());
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_NEAR(p->value("L1_wavefronts")->value, 32.0, 1e-9);
  EXPECT_NEAR(p->value("Sector_serialization")->value, 31.0, 1e-9);
  EXPECT_NEAR(p->value("Mem_L")->value, 631.0, 1e-9);
  EXPECT_NEAR(p->value("L1_service")->value, 32000.0, 1e-6);
  EXPECT_NEAR(p->value("DRAM_service")->value, 51200.0, 1e-6);
}

/// The block overhead: a wave lasts at least a warp's path plus the overhead. The stream kernel
/// with a 500-cycle block overhead:
///   N = 8 (not enough warps): path = Mem_cycles 150,000 + Comp_cycles 1000 = 151,000; the floor
///   151,500 x Rep 1 exceeds Hong & Kim's 151,028: Exec = 151,500 cycles = 101.0 us.
///   N = 64 (memory-bound): the floor is the same 151,500, below the bandwidth-bound 409,689.75:
///   unchanged, 273.1265 us.
TEST(MwpCwpModern, TheBlockOverheadBoundsAWaveWithFewWarps) {
  Gpu gpu = sweepGpu();
  gpu.blockOverheadCycles = Param<double>{500};
  Prediction p8, p64;
  const auto [t8, b8] = runSweepPoint(8, gpu, &p8);
  EXPECT_NEAR(p8.value("Exec_cycles")->value, 151500.0, 1e-6);
  EXPECT_NEAR(t8 * 1e6, 101.0, 1e-6);
  EXPECT_EQ(p8.bound.resource, Resource::Parallelism);
  EXPECT_EQ(p8.bound.mode, BoundMode::Latency);
  const auto [t64, b64] = runSweepPoint(64, gpu, &p64);
  EXPECT_NEAR(t64 * 1e6, 273.1265, 1e-3);
  EXPECT_EQ(p64.bound.resource, Resource::Dram);
}

/// The block's longest warp: the stream kernel above (N = 8, 500-cycle block overhead) whose
/// longest warp runs 1.25x the mean warp's instructions (KernelIR::longestWarpShare). The slot
/// is busy for that warp's path: 151,000 x 1.25 + 500 = 189,250 cycles x Rep 1 = 126.1667 us
/// at 1.5 GHz (the mean warp's gave 151,500). At N = 64 the floor, 189,250, stays below the
/// bandwidth-bound 409,689.75: 273.1265 us as before.
TEST(MwpCwpModern, TheBlockFloorWaitsForTheLongestWarp) {
  Gpu gpu = sweepGpu();
  gpu.blockOverheadCycles = Param<double>{500};
  KernelInput k = streamKernel();
  k.ir.longestWarpShare = 1.25;
  for (const auto& [w, exec, us] : {std::tuple{8, 189250.0, 126.1667}, std::tuple{64, -1.0, 273.1265}}) {
    Launch l;
    l.block.x = 64;
    l.grid.x = 100LL * (w / 2);
    Expected<Prediction> p = predict(k, l, gpu, modern());
    ASSERT_TRUE(p.ok()) << p.error().format();
    if (exec > 0) {
      EXPECT_NEAR(p->value("Exec_cycles")->value, exec, 1e-6);
      EXPECT_NEAR(p->value("Longest_warp_share")->value, 1.25, 1e-12);
      EXPECT_EQ(p->bound.resource, Resource::Parallelism);
    }
    EXPECT_NEAR(p->seconds * 1e6, us, 1e-3) << w;
  }
}

/// Block turnover: the stream kernel above (Departure_delay 25.6 cycles, Mem_L 600, Comp_p 4,
/// 250 memory periods, 6400 cycles of DRAM service per warp) with a 500-cycle block overhead, in
/// four waves of 64 warps per SM on 100 SMs.
///   1024-thread blocks, 2 per SM: a block needs S = 32 x 25.6 = 819.2 cycles of the SM's DRAM
///   share per period and is away Z = 600 + 4 + 500 = 1104. Mean-value analysis of two blocks:
///   one block alone responds in S; the second finds S / (S + Z) queued, less half of the busy
///   share, so responds in S (1 + S / (2 (S + Z))), and the two pass in S + Z + S^2 / (2 (S + Z))
///   = 1923.2 + 174.4719 = 2097.6719 cycles against 64 x 25.6 = 1638.4 of bandwidth: a loss of
///   459.2719 per turnover. Exec = 64 x 6400 x 4 + 3 x 459.2719 = 1,639,777.816 cycles (above
///   Hong & Kim's 4 x 409,689.75 = 1,638,759) = 1093.1852 us at 1.5 GHz.
///   256-thread blocks, 8 per SM: the recursion gives 1603.80 cycles, below the 1638.4 of
///   bandwidth (the queue never empties): no loss, Hong & Kim's 1,638,759 cycles.
TEST(MwpCwpModern, BlockTurnoverChargesLargeBlocksOfAStream) {
  Gpu gpu = sweepGpu();
  gpu.blockOverheadCycles = Param<double>{500};
  Launch big;
  big.block.x = 1024;
  big.grid.x = 800;
  Expected<Prediction> p = predict(streamKernel(), big, gpu, modern());
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_NEAR(p->value("Rep")->value, 4.0, 1e-12);
  EXPECT_NEAR(p->value("Turnover_loss")->value, 459.27188, 1e-4);
  EXPECT_NEAR(p->value("Exec_cycles")->value, 1639777.816, 1e-2);
  EXPECT_NEAR(p->seconds * 1e6, 1093.1852, 1e-3);
  EXPECT_EQ(p->bound.resource, Resource::Dram);
  EXPECT_EQ(p->bound.mode, BoundMode::Throughput);
  EXPECT_NE(p->boundExplanation.find("block turnover"), std::string::npos) << p->boundExplanation;
  Launch small;
  small.block.x = 256;
  small.grid.x = 3200;
  Expected<Prediction> q = predict(streamKernel(), small, gpu, modern());
  ASSERT_TRUE(q.ok()) << q.error().format();
  EXPECT_NEAR(q->value("Turnover_loss")->value, 0.0, 1e-12);
  EXPECT_NEAR(q->value("Exec_cycles")->value, 1638759.0, 1e-2);
  // One wave (Rep 1): the blocks start together, nothing turns over.
  big.grid.x = 200;
  Expected<Prediction> one = predict(streamKernel(), big, gpu, modern());
  ASSERT_TRUE(one.ok()) << one.error().format();
  EXPECT_NEAR(one->value("Turnover_loss")->value, 0.0, 1e-12);
}

/// The block dispatch: 10,000 blocks of one warp, each one FFMA and an EXIT, on 100 SMs with a
/// 200-cycle dispatch: the busiest SM gets ceil(10,000 / 100) = 100 blocks, so Exec = 100 x 200
/// = 20,000 cycles (the warps' own issue: 2 cycles x 100 blocks, far less) = 13.3333 us at
/// 1.5 GHz, bound by parallelism (throughput). Without the key the time is the issue time.
TEST(MwpCwpModern, TheBlockDispatchBoundsManyShortBlocks) {
  KernelInput k;
  k.ir.name = "tiny";
  BasicBlock b;
  b.executionsPerWarp = 1;
  b.instructions = {inst(InstrClass::Fp32, "FFMA", {1}, {1}), inst(InstrClass::Control, "EXIT", {}, {})};
  k.ir.blocks = {b};
  Gpu gpu = sweepGpu();
  gpu.blockDispatchCycles = Param<double>{200};
  Launch l;
  l.grid.x = 10000;
  l.block.x = 32;
  Expected<Prediction> p = predict(k, l, gpu, modern());
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_NEAR(p->value("Exec_cycles")->value, 20000.0, 1e-9);
  EXPECT_NEAR(p->value("Block_dispatch")->value, 200.0, 1e-9);
  EXPECT_NEAR(p->seconds * 1e6, 13.3333, 1e-4);
  EXPECT_EQ(p->bound.resource, Resource::Parallelism);
  EXPECT_EQ(p->bound.mode, BoundMode::Throughput);
  gpu.blockDispatchCycles.reset();
  Expected<Prediction> q = predict(k, l, gpu, modern());
  ASSERT_TRUE(q.ok()) << q.error().format();
  EXPECT_LT(q->value("Exec_cycles")->value, 1000.0);
}

/// The launch overhead is added once to the time: the lone FFMA chain above (16,385 cycles)
/// with a 2 us launch at 1.5 GHz: 16,385 + 3000 = 19,385 cycles = 12.9233 us. The paper
/// variants add none.
TEST(MwpCwpModern, TheLaunchOverheadIsAddedOnce) {
  const KernelInput k = fmaChainKernel();
  Gpu gpu = sweepGpu();
  gpu.launchOverheadUs = Param<double>{2.0};
  Launch l;
  l.grid.x = 100;
  l.block.x = 32;
  Expected<Prediction> p = predict(k, l, gpu, modern());
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_NEAR(p->value("Launch_overhead")->value, 3000.0, 1e-9);
  EXPECT_NEAR(p->cycles, 19385.0, 1e-9);
  EXPECT_NEAR(p->seconds * 1e6, 12.9233, 1e-3);
  ModelOptions hk;
  hk.model = ModelKind::MwpCwp;
  hk.variant = MwpCwpVariant::HongKim;
  Expected<Prediction> q = predict(k, l, gpu, hk);
  ASSERT_TRUE(q.ok()) << q.error().format();
  EXPECT_FALSE(q->value("Launch_overhead"));
}

/// The paper variants ignore the memory engine: the same kernel predicts the same time as before
/// with hong-kim whether or not the modern inputs exist (they are not passed).
TEST(MwpCwpModern, PaperVariantsDoNotReadTheMemoryEngine) {
  const Gpu gpu = sweepGpu();
  WorkloadSummary s;
  s.compInsts = 1500;
  s.mem(AccessClass::Coalesced).insts = 1000;
  s.mem(AccessClass::Coalesced).transactionsPerInst = 4;
  Launch l;
  l.grid.x = 400;
  l.block.x = 64;
  ModelOptions o;
  o.model = ModelKind::MwpCwp;
  o.variant = MwpCwpVariant::HongKim;
  Expected<Prediction> a = predictMwpCwp(s, {}, l, gpu, o);
  ModernMemoryInputs mm;
  mm.traffic.loadRequests = 1;
  Expected<Prediction> b = predictMwpCwp(s, {}, l, gpu, o, &mm);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->seconds, b->seconds);
  o.variant = MwpCwpVariant::Modern;
  EXPECT_FALSE(predictMwpCwp(s, {}, l, gpu, o).ok());  // the modern variant needs the engine's traffic
}

/// Atomics to one address are applied one after another: 10,000 f32 adds to the hottest address
/// at 2 ns each on the L2 take 20 us = 30,000 cycles at 1.5 GHz. Above the rest of the time they
/// add in full and bound the launch (L2, throughput); below it, Atomic_cycles x Atomic_cycles /
/// the rest (floors.h addedAtomicTime()). Integer atomics take their own time (here 1 ns).
TEST(MwpCwpModern, AtomicsToOneAddressAddToTheWork) {
  Gpu gpu = sweepGpu();
  for (MemoryLevel& m : gpu.memory) {
    if (m.resource != "l2") continue;
    m.sameAddressAtomicUs = Param<double>{0.002};
    m.sameAddressAtomicIntUs = Param<double>{0.001};
    m.atomicUnitOpUs.reset();
    m.sectorRmwUs.reset();
  }
  WorkloadSummary s;
  s.compInsts = 1500;
  Launch l;
  l.grid.x = 400;
  l.block.x = 64;
  const ModelOptions o = modern();
  ModernMemoryInputs mm;
  Expected<Prediction> none = predictMwpCwp(s, {}, l, gpu, o, &mm);
  ASSERT_TRUE(none.ok()) << none.error().format();
  EXPECT_FALSE(none->value("Atomic_cycles"));
  const double exec = none->value("Exec_cycles")->value;
  mm.traffic.hotAtomicOps = 10000;
  mm.traffic.hotAtomicFloatOps = 10000;
  Expected<Prediction> f32 = predictMwpCwp(s, {}, l, gpu, o, &mm);
  ASSERT_TRUE(f32.ok()) << f32.error().format();
  EXPECT_NEAR(f32->value("Atomic_cycles")->value, 30000.0, 1e-6);
  EXPECT_NEAR(f32->value("Atomic_added")->value, 30000.0, 1e-6);
  EXPECT_NEAR(f32->value("Exec_cycles")->value, exec + 30000.0, 1e-6);
  EXPECT_NEAR(f32->cycles - none->cycles, 30000.0, 1e-6);
  ASSERT_LT(exec, 30000.0);
  EXPECT_EQ(f32->bound.resource, Resource::L2);
  EXPECT_EQ(f32->bound.mode, BoundMode::Throughput);
  mm.traffic.hotAtomicFloatOps = 0;  // the same count of integer atomics: 15,000 cycles
  Expected<Prediction> ints = predictMwpCwp(s, {}, l, gpu, o, &mm);
  ASSERT_TRUE(ints.ok()) << ints.error().format();
  EXPECT_NEAR(ints->value("Atomic_cycles")->value, 15000.0, 1e-6);
  EXPECT_NEAR(ints->value("Exec_cycles")->value, exec + 15000.0 * std::min(1.0, 15000.0 / exec), 1e-6);
  // A tenth as many: 1,500 cycles, a small share of the rest, add 1,500 x 1,500 / exec.
  mm.traffic.hotAtomicOps = 1000;
  Expected<Prediction> few = predictMwpCwp(s, {}, l, gpu, o, &mm);
  ASSERT_TRUE(few.ok()) << few.error().format();
  ASSERT_GT(exec, 1500.0);
  EXPECT_NEAR(few->value("Atomic_added")->value, 1500.0 * 1500.0 / exec, 1e-6);
  EXPECT_NEAR(few->value("Exec_cycles")->value, exec + 1500.0 * 1500.0 / exec, 1e-6);
  EXPECT_NE(few->bound.resource, Resource::L2);
}

}  // namespace
}  // namespace foresight
