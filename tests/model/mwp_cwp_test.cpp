// SPDX-License-Identifier: Apache-2.0
/// \file
/// The MWP-CWP equations against the digests' worked numbers: GROPHECY's MatMul walk-through
/// (grophecy.md §10.3) on FX5600 and C1060, and CGPredict's GEMM and SYRK anchors on Jetson TK1
/// (cgpredict.md §8.4). Inputs are the papers' Table 5 / Table 3 parameters, written here so a
/// change to a preset cannot silently move these anchors.
#include "foresight/model/mwp_cwp.h"

#include <gtest/gtest.h>

namespace foresight {
namespace {

/// GROPHECY Table 5, Quadro FX5600.
MwpCwpInputs fx5600() {
  MwpCwpInputs in;
  in.activeSms = 16;
  in.clockGhz = 1.35;
  in.memLatency = 420;
  in.departureDelayCoal = 4;
  in.departureDelayUncoal = 10;
  in.issueCycles = 4;
  in.memBandwidthGBs = 76.8;
  return in;
}

/// GROPHECY Table 5, Tesla C1060.
MwpCwpInputs c1060() {
  MwpCwpInputs in;
  in.activeSms = 30;
  in.clockGhz = 1.3;
  in.memLatency = 450;
  in.departureDelayCoal = 4;
  in.departureDelayUncoal = 40;
  in.issueCycles = 4;
  in.memBandwidthGBs = 104.2;
  return in;
}

/// Tiled MatMul, literal counts of grophecy.md §10.3: 2500 blocks of 256 threads,
/// Comp = 2281 (incl. 50 barriers), 51 coalesced memory instructions, 128 B per warp request.
void tiledMatmul(MwpCwpInputs& in, double activeBlocks) {
  in.blocks = 2500;
  in.warpsPerBlock = 8;
  in.activeBlocksPerSm = activeBlocks;
  in.workload.compInsts = 2281;
  in.workload.synchInsts = 50;
  in.workload.loadBytesPerWarp = 128;
  in.workload.mem(AccessClass::Coalesced).insts = 51;
}

TEST(HongKim, TiledMatmulOnFx5600MatchesGrophecyWalkthrough) {
  MwpCwpInputs in = fx5600();
  tiledMatmul(in, 3);  // min(24/8, 8, 8, 156.25) = 3
  const MwpCwpResult r = evaluateHongKim(in);
  EXPECT_DOUBLE_EQ(r.n, 24);                  // 3 blocks x 8 warps
  EXPECT_DOUBLE_EQ(r.memL, 420);              // all coalesced: Mem_L = Mem_LD
  EXPECT_DOUBLE_EQ(r.departureDelay, 4);      // Departure_del_coal
  EXPECT_DOUBLE_EQ(r.mwpWithoutBwFull, 105);  // 420 / 4
  EXPECT_NEAR(r.bwPerWarp, 0.411, 0.001);     // 1.35 x 128 / 420 = 0.4114 GB/s
  EXPECT_NEAR(r.mwpPeakBw, 11.67, 0.005);     // digest: 76.8 / (0.4114 x 16) = 11.67
  EXPECT_NEAR(r.mwp, 11.67, 0.005);
  EXPECT_DOUBLE_EQ(r.compCycles, 9328);       // 4 x (2281 + 51)
  EXPECT_DOUBLE_EQ(r.memCycles, 21420);       // 420 x 51
  EXPECT_NEAR(r.cwp, 3.30, 0.005);            // digest: (21420 + 9328) / 9328 = 3.296
  EXPECT_NEAR(r.rep, 52.08, 0.005);           // 2500 / (3 x 16)
  EXPECT_EQ(r.timeCase, MwpCwpResult::Case::ComputeBound);  // MWP > CWP
  EXPECT_NEAR(r.execCycles / 1e6, 11.68, 0.005);  // (420 + 9328 x 24) x 52.08
  EXPECT_NEAR(r.synchCost / 1e6, 0.33, 0.005);    // 4 x 10.67 x 50 x 3 x 52.08
  EXPECT_NEAR(r.seconds * 1e3, 8.9, 0.05);        // digest: time ≈ 8.9 ms
}

TEST(HongKim, TiledMatmulOnC1060MatchesGrophecyWalkthrough) {
  MwpCwpInputs in = c1060();
  tiledMatmul(in, 4);  // min(32/8, 8, 8, 83.3) = 4
  const MwpCwpResult r = evaluateHongKim(in);
  EXPECT_DOUBLE_EQ(r.n, 32);
  EXPECT_NEAR(r.mwpPeakBw, 9.39, 0.005);  // 104.2 / (1.3 x 128 / 450 x 30) = 9.393
  EXPECT_NEAR(r.cwp, 3.46, 0.005);        // (450 x 51 + 9328) / 9328 = 3.460
  EXPECT_EQ(r.timeCase, MwpCwpResult::Case::ComputeBound);
  EXPECT_NEAR(r.seconds * 1e3, 4.9, 0.05);  // digest: ≈ 4.9 ms
}

TEST(HongKim, NaiveMatmulOnFx5600IsMemoryBound) {
  // grophecy.md §10.3 "Naive on FX5600": Coal = 401, Uncoal = 400 with 32 transactions each
  // (CC 1.0 broadcast of A[i][k] is uncoalesced), Comp = 2931, no barriers.
  MwpCwpInputs in = fx5600();
  in.blocks = 2500;
  in.warpsPerBlock = 8;
  in.activeBlocksPerSm = 3;
  in.workload.compInsts = 2931;
  in.workload.loadBytesPerWarp = 128;
  in.workload.mem(AccessClass::Coalesced).insts = 401;
  in.workload.mem(AccessClass::Uncoalesced).insts = 400;
  in.workload.mem(AccessClass::Uncoalesced).transactionsPerInst = 32;
  const MwpCwpResult r = evaluateHongKim(in);
  EXPECT_DOUBLE_EQ(r.memLUncoal, 730);         // 420 + 31 x 10
  EXPECT_NEAR(r.memL, 574.8, 0.05);            // digest: 730 x 400/801 + 420 x 401/801
  EXPECT_NEAR(r.departureDelay, 161.8, 0.05);  // digest: 10 x 32 x 400/801 + 4 x 401/801
  EXPECT_NEAR(r.mwp, 3.55, 0.005);             // digest: 574.8 / 161.8
  EXPECT_DOUBLE_EQ(r.cwp, 24);                 // CWP_full = 31.8, capped at N
  EXPECT_EQ(r.timeCase, MwpCwpResult::Case::MemoryBound);
  EXPECT_NEAR(r.seconds * 1e3, 120, 1.0);      // digest: ≈ 120 ms
  std::string why;
  EXPECT_EQ(mwpCwpBound(r, MwpCwpVariant::Grophecy, &why), (Bound{Resource::Dram, BoundMode::Throughput}));
  EXPECT_EQ(mwpCwpBound(r, MwpCwpVariant::HongKim, &why), (Bound{Resource::Dram, BoundMode::Throughput}));
}

TEST(HongKim, NaiveMatmulOnC1060IsBandwidthBound) {
  // grophecy.md §10.3 "Naive on C1060": the broadcast is one transaction per half-warp, so all
  // 801 accesses coalesce; Comp = 1206 + 125 = 1331 (no index arithmetic for uncoalesced).
  MwpCwpInputs in = c1060();
  in.blocks = 2500;
  in.warpsPerBlock = 8;
  in.activeBlocksPerSm = 4;
  in.workload.compInsts = 1331;
  in.workload.loadBytesPerWarp = 128;
  in.workload.mem(AccessClass::Coalesced).insts = 801;
  const MwpCwpResult r = evaluateHongKim(in);
  EXPECT_NEAR(r.mwp, 9.39, 0.005);  // MWP_peak_BW is the smallest term
  EXPECT_GT(r.cwp, r.mwp);          // memory-bound
  EXPECT_EQ(r.timeCase, MwpCwpResult::Case::MemoryBound);
  // (450 x 801 x 32 / 9.393 + 8528/801 x 8.393) x 2500/120 / 1.3 GHz = 19.68 ms (digest ≈ 19.7)
  EXPECT_NEAR(r.seconds * 1e3, 19.7, 0.1);
}

TEST(HongKim, GrophecyLabelComparesMwpCwpMinus1AndNMinus1) {
  MwpCwpInputs in = fx5600();
  tiledMatmul(in, 3);
  const MwpCwpResult r = evaluateHongKim(in);
  std::string why;
  // MWP 11.67, CWP-1 = 2.30, N-1 = 23: CWP-1 smallest → compute-bound (issue throughput).
  EXPECT_EQ(mwpCwpBound(r, MwpCwpVariant::Grophecy, &why), (Bound{Resource::Issue, BoundMode::Throughput}));
  EXPECT_NE(why.find("CWP-1"), std::string::npos);

  // One block of 64 threads on one SM: N = 2, N-1 = 1 is below MWP (105 / peak) and CWP-1 (2.30).
  in.blocks = 1;
  in.activeSms = 1;
  in.warpsPerBlock = 2;
  in.activeBlocksPerSm = 1;
  const MwpCwpResult small = evaluateHongKim(in);
  EXPECT_EQ(mwpCwpBound(small, MwpCwpVariant::Grophecy, &why),
            (Bound{Resource::Parallelism, BoundMode::Latency}));
  // Hong & Kim's own case: MWP = CWP = N = 2 → not enough warps.
  EXPECT_EQ(small.timeCase, MwpCwpResult::Case::NotEnoughWarps);
  EXPECT_EQ(mwpCwpBound(small, MwpCwpVariant::HongKim, &why),
            (Bound{Resource::Parallelism, BoundMode::Latency}));
}

TEST(HongKim, NoMemoryInstructionsIsIssueBound) {
  MwpCwpInputs in = fx5600();
  in.blocks = 16;
  in.warpsPerBlock = 8;
  in.activeBlocksPerSm = 1;
  in.workload.compInsts = 100;
  const MwpCwpResult r = evaluateHongKim(in);
  EXPECT_EQ(r.timeCase, MwpCwpResult::Case::NoMemory);
  EXPECT_DOUBLE_EQ(r.execCycles, 4 * 100 * 8);  // Issue_cycles x insts x N warps x Rep 1
  EXPECT_EQ(mwpCwpBound(r, MwpCwpVariant::Grophecy, nullptr), (Bound{Resource::Issue, BoundMode::Throughput}));
}

/// CGPredict Table 3, Jetson TK1, with N = 64 (8 blocks of 32x8) and batch = 512 (W = 1024).
MwpCwpInputs tk1Gemm() {
  MwpCwpInputs in;
  in.blocks = 4096;  // 1024 x 1024 threads / 256
  in.warpsPerBlock = 8;
  in.activeBlocksPerSm = 8;
  in.activeSms = 1;
  in.clockGhz = 0.852;
  in.l2Latency = 164;
  in.dramLatency = 332;
  in.l2DepartureDelay = 2;
  in.dramDepartureDelay = 10;
  in.instCycles = 0.5;
  // Per thread: 1024 k-iterations x (1 constant + 1 coalesced load + 4 other instructions).
  in.workload.compInsts = 4096;
  in.workload.mem(AccessClass::Constant) = {1024, 1, 1.0 / 64};  // miss ratio 1/64 (§8.4)
  return in;
}

TEST(CGPredict, GemmAnchorOnTk1) {
  MwpCwpInputs in = tk1Gemm();
  in.workload.mem(AccessClass::Coalesced) = {1024, 2, 0.4};  // 2 L2 transactions, ≤ 0.4 misses
  const MwpCwpResult r = evaluateCGPredict(in);
  EXPECT_DOUBLE_EQ(r.memLCoal, 166);                 // Eq. 1: 164 + (2-1) x 2
  EXPECT_DOUBLE_EQ(r.memLConst, 164 + 332.0 / 64);   // Eq. 4
  EXPECT_NEAR(r.memL, 167.6, 0.05);                  // digest: 167.6
  EXPECT_NEAR(r.departureDelay, 3.078, 0.0005);      // digest: (4 + 2.156) / 2
  EXPECT_NEAR(r.mwp, 54.44, 0.01);                   // digest 54.44, paper 54.45
  EXPECT_DOUBLE_EQ(r.cwp, 64);                       // capped at N
  EXPECT_DOUBLE_EQ(r.rep, 512);                      // batch = 4096 / 8
  EXPECT_EQ(r.timeCase, MwpCwpResult::Case::MemoryBound);
  EXPECT_NEAR(r.seconds * 1e3, 242.53, 0.05);        // paper: 242.53 ms
}

TEST(CGPredict, SyrkAnchorOnTk1) {
  MwpCwpInputs in = tk1Gemm();
  in.workload.mem(AccessClass::Uncoalesced) = {1024, 32, 1};  // 32 L2 transactions, ≤ 1 miss
  const MwpCwpResult r = evaluateCGPredict(in);
  EXPECT_DOUBLE_EQ(r.memLUncoal, 226);           // Eq. 1: 164 + 31 x 2
  EXPECT_NEAR(r.departureDelay, 33.078, 0.0005);  // (max(64, 10) + 2.156) / 2
  EXPECT_NEAR(r.mwp, 5.97, 0.005);               // digest 5.975, paper 5.97
  EXPECT_NEAR(r.seconds * 1e3, 2605.5, 1.5);     // paper 2605.45, digest 2605.6
}

TEST(CGPredict, ManyDramTransactionsAddDramLatency) {
  // Eq. 2: more than one DRAM transaction per instruction pays the DRAM latency plus departure
  // delays: 164 + 332 + (32 - 1) x 10 = 806; Eq. 3: max(32 x 2, 32 x 10) = 320.
  MwpCwpInputs in = tk1Gemm();
  in.workload.mem(AccessClass::Constant) = {};
  in.workload.mem(AccessClass::Uncoalesced) = {1024, 32, 32};
  const MwpCwpResult r = evaluateCGPredict(in);
  EXPECT_DOUBLE_EQ(r.memLUncoal, 806);
  EXPECT_DOUBLE_EQ(r.departureDelay, 320);
  EXPECT_NEAR(r.mwp, 806.0 / 320, 1e-12);
}

TEST(CGPredict, ComputeBoundUsesMemLPlusCompTimesN) {
  // Eq. 17 with one coalesced access and much computation: mem_l 166, dep 4, MWP = 41.5;
  // comp = 0.5 x (100000 + 1) = 50000.5; CWP = (166 + 50000.5) / 50000.5 ≈ 1.003 < MWP.
  MwpCwpInputs in = tk1Gemm();
  in.workload.compInsts = 100000;
  in.workload.mem(AccessClass::Constant) = {};
  in.workload.mem(AccessClass::Coalesced) = {1, 2, 0};
  const MwpCwpResult r = evaluateCGPredict(in);
  EXPECT_EQ(r.timeCase, MwpCwpResult::Case::ComputeBound);
  EXPECT_DOUBLE_EQ(r.execCycles, (166 + 50000.5 * 64) * 512);
}

// cgpredict.md §8.4, shared-memory GEMM at W = 1024 (Table 5: 105.75 ms): per thread
// (W/32) x L = 64 global->shared loads of 506 cycles, W x 2 shared reads of 67 cycles (X = 1),
// 6 cycles of computation per inner iteration (12288 instructions x 0.5), per batch of 512:
// (32384 + 137216 + 6144) x 512 / 852 MHz = 105.6 ms under the paper_fitted rule.
TEST(CGPredict, SharedMemoryGemmPaperFittedRule) {
  MwpCwpInputs in;
  in.blocks = 1024;  // 32x32 blocks of 32x32 threads
  in.warpsPerBlock = 32;
  in.activeBlocksPerSm = 2;
  in.activeSms = 1;
  in.clockGhz = 0.852;
  in.l2Latency = 164;
  in.dramLatency = 332;
  in.l2DepartureDelay = 2;
  in.dramDepartureDelay = 10;
  in.instCycles = 0.5;
  in.smemLatency = 67;
  in.smemLoadLatency = 506;
  in.workload.compInsts = 12288;
  in.workload.smemLoadInsts = 64;
  in.workload.smemConflictWeighted = 2048;
  const MwpCwpResult r = evaluateCGPredict(in);
  EXPECT_DOUBLE_EQ(r.rep, 512);
  EXPECT_DOUBLE_EQ(r.smemLoadCycles, 32384);
  EXPECT_DOUBLE_EQ(r.smemCycles, 137216);
  EXPECT_NEAR(r.seconds * 1e3, 105.6, 0.05);
  // The literal reading (Eq. 22 into Eq. 17, x N) is about 50x slower (cgpredict.md §8.4).
  in.smemRule = SmemRule::PaperLiteral;
  const MwpCwpResult literal = evaluateCGPredict(in);
  EXPECT_GT(literal.seconds / r.seconds, 40);
}

}  // namespace
}  // namespace foresight
