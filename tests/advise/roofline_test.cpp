// SPDX-License-Identifier: Apache-2.0
/// \file
/// The roofline and the occupancy curve of explain, by hand on the H100 preset.
#include "foresight/advise/roofline.h"

#include <gtest/gtest.h>

#include "foresight/frontend/input.h"
#include "test_support.h"

namespace foresight {
namespace {

TEST(Roofline, PointPerLevelAndPeaksByHand) {
  const Gpu h100 = testing_support::preset("h100");
  // vecadd over 2^26 floats (grid 262144 x 256): one FADD per thread -> 2^26 flops.
  Expected<LoadedInput> in = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/vecadd-h100.toml");
  ASSERT_TRUE(in.ok()) << in.error().format();
  KernelInput k = in->kernels[0];
  k.summary->flopsPerThread = 1;
  MemoryTraffic m;
  m.sectorBytes = 32;
  m.loadSectors = 100;
  m.storeSectors = 50;
  m.l1HitSectors = 40;
  m.dramReadSectors = 30;
  m.dramWriteSectors = 50;
  Expected<Roofline> r = roofline(k, *in->launch, h100, &m, 1e-3);
  ASSERT_TRUE(r.ok()) << r.error().format();
  EXPECT_DOUBLE_EQ(r->flops, 67108864.0);
  EXPECT_DOUBLE_EQ(r->gflops(), 67.108864);  // / 1 ms
  ASSERT_EQ(r->levels.size(), 3u);
  EXPECT_EQ(r->levels[0].name, "l1");
  EXPECT_DOUBLE_EQ(r->levels[0].bytes, 150 * 32.0);               // every sector requested
  EXPECT_DOUBLE_EQ(r->levels[1].bytes, (100 - 40 + 50) * 32.0);   // L1 misses and stores
  EXPECT_DOUBLE_EQ(r->levels[2].bytes, 80 * 32.0);                // DRAM reads and writes
  EXPECT_DOUBLE_EQ(r->levels[2].intensity(r->flops), 67108864.0 / 2560);
  // Peaks: 132 SMs x 4 schedulers x 32 lanes x 2 flops x 1.98 GHz / gap (fp32 1, fp64 2).
  ASSERT_EQ(r->peaks.size(), 2u);
  EXPECT_EQ(r->peaks[0].name, "fp32");
  EXPECT_NEAR(r->peaks[0].gflops, 66908.16, 1e-6);
  EXPECT_NEAR(r->peaks[1].gflops, 33454.08, 1e-6);
  // Without the engine's traffic: DRAM only, with the compulsory bytes.
  Expected<Roofline> bare = roofline(k, *in->launch, h100, nullptr, 1e-3);
  ASSERT_TRUE(bare.ok());
  ASSERT_EQ(bare->levels.size(), 1u);
  EXPECT_EQ(bare->levels[0].name, "dram");
}

TEST(Roofline, OccupancyByBlockSizeByHand) {
  const Gpu h100 = testing_support::preset("h100");
  KernelInput k;
  k.ir.resources.registers = 64;  // 64 x 32 = 2048 registers per warp; 65536 per SM -> 32 warps
  Launch launch{{1, 1, 1}, {256, 1, 1}};
  const std::vector<OccupancyPoint> curve = occupancyByBlockSize(k, launch, h100);
  ASSERT_EQ(curve.size(), 32u);  // 32, 64, ..., 1024 threads
  EXPECT_EQ(curve.front().threads, 32);
  EXPECT_EQ(curve.back().threads, 1024);
  const OccupancyPoint& p256 = curve[7];
  EXPECT_EQ(p256.threads, 256);
  EXPECT_EQ(p256.blocksPerSm, 4);  // 65536 / (64 x 256)
  EXPECT_EQ(p256.warpsPerSm, 32);
  EXPECT_DOUBLE_EQ(p256.fraction, 0.5);  // of 64 warps
  EXPECT_EQ(p256.limiter, OccupancyLimiter::Registers);
  const OccupancyPoint& p96 = curve[2];  // 3 warps: 6144 registers a block -> 10 blocks, 30 warps
  EXPECT_EQ(p96.blocksPerSm, 10);
  EXPECT_DOUBLE_EQ(p96.fraction, 30.0 / 64);
}

}  // namespace
}  // namespace foresight
