// SPDX-License-Identifier: Apache-2.0
/// \file
/// Lai's SGEMM upper bound (seed 004 ch. 4; digest lai-teg-and-bound.md §5.4–5.5) on the
/// thesis' GPUs, with its numbers: the FFMA-share table (Fig. 4.3), 82.5 % on the GTX580 with
/// B_R = 6, T_B = 256, L = 16 and 12 prefetch registers; 54.6 % (LDS.64) and 57.6 % (LDS.128)
/// on the GTX680; then the generalised variant on the H100.
#include "foresight/model/gemm_bound.h"

#include <gtest/gtest.h>

#include "test_support.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "foresight/gpu/presets.h"

namespace foresight {
namespace {

using testing_support::preset;

TEST(GemmBound, FfmaShareTableOfFigure43) {
  // B_R / (B_R + 2·F_I), percent (digest §5.4 table).
  EXPECT_NEAR(100 * gemmFfmaShare(1, 1, 32), 33.3, 0.05);
  EXPECT_NEAR(100 * gemmFfmaShare(6, 6, 32), 75.0, 0.05);
  EXPECT_NEAR(100 * gemmFfmaShare(6, 6, 64), 85.7, 0.05);
  EXPECT_NEAR(100 * gemmFfmaShare(6, 6, 128), 92.3, 0.05);
  EXPECT_NEAR(100 * gemmFfmaShare(8, 8, 128), 94.1, 0.05);
  EXPECT_NEAR(100 * gemmFfmaShare(4, 4, 64), 80.0, 0.05);
  // Overhead instructions per k-step dilute it: 36 / (36 + 6 + 6) = 75 %.
  EXPECT_NEAR(gemmFfmaShare(6, 6, 64, 6), 0.75, 1e-12);
}

TEST(GemmBound, Gtx580ReachesThesis825Percent) {
  const Gpu gpu = preset("gtx580");
  Expected<GemmBound> b = gemmBound(gpu);
  ASSERT_TRUE(b) << b.error().format();
  // P_SMBound = 36/(36 + 6·2·0.5) × 30.8/32 = 0.857 × 0.9625 = 82.5 % of 1581 GFLOPS ≈ 1304.
  EXPECT_EQ(b->tile.tileM, 6);
  EXPECT_EQ(b->tile.ldsBits, 64);
  EXPECT_EQ(b->tile.threadsPerBlock, 256);
  EXPECT_EQ(b->tile.depth, 16);
  EXPECT_EQ(b->blocksPerSm, 2);
  EXPECT_EQ(b->blockTileM, 96);  // B_Sh = √(256·36)
  EXPECT_EQ(b->registers.prefetch, 12);  // 2·96·16/256
  EXPECT_EQ(b->registers.accumulators, 36);
  // Eq. 4.5 with the thesis' 7 address registers: 36 + 12 + 6 + 1 + 7 = 62 ≤ 63. The thesis'
  // allocation lists 63 because LDS.64 fills 2 B registers where Eq. 4.5 counts 1.
  EXPECT_EQ(b->registers.total(), 62);
  EXPECT_EQ(b->sharedBytesPerSm, 24 * 1024);  // 2 blocks × 2 × 96 × 16 × 4 B
  EXPECT_NEAR(b->peakGflops, 1581.1, 0.1);    // 16 × 32 × 2 × 1.544 GHz
  EXPECT_NEAR(100 * b->fractionOfPeak(), 82.5, 0.05);
  EXPECT_NEAR(b->boundGflops, 1304, 1);
  // P_MemBound = 192.4 GB/s × 96/4 ≈ 4618 GFLOPS: SM-bound.
  EXPECT_NEAR(b->memBoundGflops, 4617.6, 0.1);
  EXPECT_EQ(b->binding, "instruction mix");
}

TEST(GemmBound, RegisterBlockingSevenBreaksEq45OnFermi) {
  const Gpu gpu = preset("gtx580");
  GemmBoundOptions o;
  o.tile = GemmTile{256, 7, 7, 16, 64, 1};
  Expected<GemmBound> b = gemmBound(gpu, o);
  ASSERT_FALSE(b);
  // 49 + 2·112·16/256 + 7 + 1 + 7 = 78 > 63.
  EXPECT_NE(b.error().message.find("R_T = 78 registers > R_Max = 63 (Eqs. 4.1, 4.5)"), std::string::npos) << b.error().message;
  o.tile = GemmTile{256, 6, 6, 12, 64, 1};  // 96·12 = 1152 is no multiple of 256
  b = gemmBound(gpu, o);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("Eq. 4.4"), std::string::npos) << b.error().message;
}

TEST(GemmBound, Gtx680ThesisBoundsForLds64AndLds128) {
  const Gpu gpu = preset("gtx680");
  GemmBoundOptions o;
  o.tile = GemmTile{256, 6, 6, 16, 64, 1};
  Expected<GemmBound> lds64 = gemmBound(gpu, o);
  ASSERT_TRUE(lds64) << lds64.error().format();
  EXPECT_NEAR(100 * lds64->fractionOfPeak(), 54.6, 0.05);  // 0.857 × 122.4/192
  o.tile->ldsBits = 128;
  Expected<GemmBound> lds128 = gemmBound(gpu, o);
  ASSERT_TRUE(lds128) << lds128.error().format();
  EXPECT_NEAR(100 * lds128->fractionOfPeak(), 57.6, 0.05);  // 36/39 × 119.9/192
  EXPECT_NEAR(lds128->boundGflops, 1781, 2);                 // of the 3090 GFLOPS peak
  // The search picks LDS.128 with B_R = 6.
  Expected<GemmBound> best = gemmBound(gpu);
  ASSERT_TRUE(best) << best.error().format();
  EXPECT_EQ(best->tile.tileM, 6);
  EXPECT_EQ(best->tile.ldsBits, 128);
  EXPECT_NEAR(100 * best->fractionOfPeak(), 57.6, 0.05);
  // Achieved: 1375 GFLOPS = 77.3 % of the bound (thesis §4.5).
  EXPECT_NEAR(1375 / best->boundGflops, 0.773, 0.002);
}

TEST(GemmBound, LaiNeedsMeasuredMixThroughput) {
  Expected<GemmBound> b = gemmBound(preset("h100"));
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("has no [sgemm_mix]"), std::string::npos) << b.error().message;
}

TEST(GemmBound, GeneralVariantOnH100IsBoundByTheIssueOfLoadsAndFfma) {
  // H100: 4 schedulers issue 1 warp instruction per cycle each = the FP32 rate, so the inner
  // loop's FFMA share is the bound. The largest share within 255 registers: an 8×16 tile
  // with LDS.128 = 128 / (128 + 24/4) = 95.5 %, whose 2 wavefronts per LDS.128 stay below the
  // shared bandwidth (6 LDS.128 = 12 wavefronts per 134 issue cycles).
  const Gpu gpu = preset("h100");
  GemmBoundOptions o;
  o.variant = GemmBoundVariant::General;
  o.m = o.n = o.k = 8192;
  Expected<GemmBound> b = gemmBound(gpu, o);
  ASSERT_TRUE(b) << b.error().format();
  EXPECT_EQ(b->binding, "issue");
  EXPECT_LE(b->registers.total(), 255);
  EXPECT_NEAR(b->peakGflops, 66908, 1);  // 132 × 128 × 2 × 1.98 GHz
  EXPECT_NEAR(b->fractionOfPeak(), b->ffmaShare, 1e-12);
  EXPECT_GT(b->ffmaShare, 0.95);
  EXPECT_NEAR(b->seconds, 2.0 * 8192.0 * 8192.0 * 8192.0 / (b->boundGflops * 1e9), 1e-12);
  // With 20 overhead instructions per k-step the share, and so the bound, falls.
  o.overheadPerKStep = 20;
  Expected<GemmBound> slower = gemmBound(gpu, o);
  ASSERT_TRUE(slower) << slower.error().format();
  EXPECT_LT(slower->boundGflops, b->boundGflops);
}

TEST(GemmBound, GeneralVariantUsesMeasuredMixWhereTheGpuHasIt) {
  // On the GTX580 the measured F_T replaces the rates; a square 6×6 LDS.64 tile gives the
  // thesis' 82.5 %.
  const Gpu gpu = preset("gtx580");
  GemmBoundOptions o;
  o.variant = GemmBoundVariant::General;
  o.fragmentBuffers = 1;
  o.tile = GemmTile{256, 6, 6, 16, 64, 1};
  Expected<GemmBound> b = gemmBound(gpu, o);
  ASSERT_TRUE(b) << b.error().format();
  EXPECT_NEAR(100 * b->fractionOfPeak(), 82.5, 0.05);
  EXPECT_EQ(b->mixSource, "paper:004");
  // The thesis' register allocation (§4.4): 36 C + 12 prefetch + 6 A + 2 B (LDS.64) + 7
  // pointers and loop end = 63, no spilling.
  EXPECT_EQ(b->registers.fragments, 8);
  EXPECT_EQ(b->registers.total(), 63);
}

TEST(GemmBound, GeneralVariantReadsPanelsThroughL2WhereItsBandwidthIsKnown) {
  GemmBoundOptions o;
  o.variant = GemmBoundVariant::General;
  o.tile = GemmTile{256, 8, 8, 8, 128, 1};
  Expected<GemmBound> h = gemmBound(preset("h100"), o);
  ASSERT_TRUE(h) << h.error().format();
  // H100 L2 9800 GB/s × 2·BM·BN / ((BM + BN)·4 B): a 128×128 tile gives 32 flops/B = 313600.
  EXPECT_EQ(h->memLevel, "l2");
  EXPECT_NEAR(h->memBoundGflops,
              9800.0 * 2 * h->blockTileM * h->blockTileN / ((h->blockTileM + h->blockTileN) * 4.0), 1e-6);
  // The GTX580 description has no L2 bandwidth: the thesis' DRAM term.
  o.fragmentBuffers = 1;
  o.tile = GemmTile{256, 6, 6, 16, 64, 1};
  Expected<GemmBound> f = gemmBound(preset("gtx580"), o);
  ASSERT_TRUE(f) << f.error().format();
  EXPECT_EQ(f->memLevel, "dram");
}

TEST(GemmBound, MatrixPipePeaksByHand) {
  GemmBoundOptions o;
  o.variant = GemmBoundVariant::General;
  // H100: 132 SMs × 4 schedulers × 1.98 GHz × 4096 FMAs × 2 / gap 8 = 1070530.56 GFLOPS (FP16).
  o.precision = GemmPrecision::Fp16;
  Expected<GemmBound> h = gemmBound(preset("h100"), o);
  ASSERT_TRUE(h) << h.error().format();
  EXPECT_NEAR(h->boundGflops, 1070530.56, 0.01);
  EXPECT_EQ(h->binding, "tensor pipe");
  EXPECT_FALSE(h->tiled);
  // A100 TF32: 108 × 4 × 1.41 × 8192 / 16 / 2 = 155934.72 GFLOPS.
  o.precision = GemmPrecision::Tf32;
  Expected<GemmBound> a = gemmBound(preset("a100"), o);
  ASSERT_TRUE(a) << a.error().format();
  EXPECT_NEAR(a->boundGflops, 155934.72, 0.01);
  // H100 DMMA: twice the FP64 pipe: 132 × 4 / 2 × 32 × 2 × 1.98 × 2 = 66908.16 GFLOPS.
  o.precision = GemmPrecision::Dmma;
  Expected<GemmBound> d = gemmBound(preset("h100"), o);
  ASSERT_TRUE(d) << d.error().format();
  EXPECT_NEAR(d->boundGflops, 66908.16, 0.01);
}

TEST(GemmBound, CompulsoryDramBindsAThinProblem) {
  // FP16 256×256×65536 on the H100: A and B 2·256·65536·2 B + C 256·256·4 B = 67371008 B for
  // 2·256·256·65536 = 8589934592 flops: 127.50 flops per byte × 3350 GB/s = 427131 GFLOPS.
  GemmBoundOptions o;
  o.variant = GemmBoundVariant::General;
  o.precision = GemmPrecision::Fp16;
  o.m = 256;
  o.n = 256;
  o.k = 65536;
  const Gpu gpu = preset("h100");
  Expected<GemmBound> b = gemmBound(gpu, o);
  ASSERT_TRUE(b) << b.error().format();
  const double bw = gpu.memoryForResource("dram")->bandwidth->value;
  EXPECT_NEAR(b->compulsoryBoundGflops, 8589934592.0 / 67371008.0 * bw, 1e-6);
  EXPECT_EQ(b->binding, "compulsory dram");
  EXPECT_NEAR(b->seconds, 67371008.0 / (bw * 1e9), 1e-15);
}

TEST(GemmBound, PrecisionErrorsNameWhatIsMissing) {
  GemmBoundOptions o;
  o.variant = GemmBoundVariant::General;
  o.precision = GemmPrecision::Tf32;
  Expected<GemmBound> v = gemmBound(preset("v100"), o);
  ASSERT_FALSE(v);
  EXPECT_NE(v.error().message.find("no tf32 tensor cores"), std::string::npos) << v.error().message;
  o.precision = GemmPrecision::Dmma;
  Expected<GemmBound> d = gemmBound(preset("v100"), o);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("no FP64 tensor cores"), std::string::npos) << d.error().message;
  o.variant = GemmBoundVariant::Lai;
  o.precision = GemmPrecision::Fp16;
  Expected<GemmBound> l = gemmBound(preset("gtx580"), o);
  ASSERT_FALSE(l);
  EXPECT_NE(l.error().message.find("needs --variant general"), std::string::npos) << l.error().message;
  EXPECT_FALSE(parseGemmPrecision("fp17"));
  EXPECT_EQ(*parseGemmPrecision("bf16"), GemmPrecision::Bf16);
}

TEST(PublishedThroughputs, SitBelowTheBound) {
  // validation/public/gemm-bound/throughputs.csv: measured cuBLAS throughputs, each citing its
  // source. Every one must sit below the bound of its GPU, precision and size; the tightness
  // (measured / bound) is printed for docs/bound.md.
  std::ifstream in(std::string(FORESIGHT_SOURCE_DIR) + "/validation/public/gemm-bound/throughputs.csv");
  ASSERT_TRUE(in) << "throughputs.csv missing";
  std::string line;
  std::getline(in, line);  // header
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string cell;
    for (int i = 0; i < 8 && std::getline(ss, cell, ','); ++i) f.push_back(cell);
    ASSERT_EQ(f.size(), 8u) << line;
    GemmBoundOptions o;
    o.variant = GemmBoundVariant::General;
    Expected<GemmPrecision> p = parseGemmPrecision(f[2]);
    ASSERT_TRUE(p) << line;
    o.precision = *p;
    o.m = std::stoll(f[3]);
    o.n = std::stoll(f[4]);
    o.k = std::stoll(f[5]);
    Expected<GemmBound> b = gemmBound(preset(f[0]), o);
    ASSERT_TRUE(b) << line << ": " << b.error().format();
    const double measured = std::stod(f[6]) * 1000;  // GFLOPS
    EXPECT_LT(measured, b->boundGflops) << line;
    std::cout << "[ bound    ] " << f[0] << " " << f[2] << " " << f[3] << "x" << f[4] << "x" << f[5] << ": measured "
              << measured << " GFLOPS = " << 100 * measured / b->boundGflops << " % of the bound " << b->boundGflops
              << " (" << b->binding << ")\n";
    ++rows;
  }
  EXPECT_GE(rows, 15);
}

}  // namespace
}  // namespace foresight
