// SPDX-License-Identifier: Apache-2.0
/// \file
/// Tests of the occupancy calculator: hand-computed cases for CC 1.0, 1.3, 3.5, 7.0, 8.0 and 9.0,
/// with the arithmetic next to each assertion, and cross-checks against published examples.
#include "foresight/gpu/occupancy.h"

#include <gtest/gtest.h>

#include <climits>
#include <string>

namespace foresight {
namespace {

/// The occupancy-relevant numbers of one architecture.
struct ArchLimits {
  int threadsPerSm, warpsPerSm, blocksPerSm, threadsPerBlock;
  int registersPerSm, registersPerThread, registersPerBlock, registerAllocUnit;
  RegisterGranularity granularity;
  int warpAllocGranularity, registerFilePartitions;
  long long sharedPerSm, sharedPerBlock, sharedAllocUnit, sharedReservedPerBlock;
};

template <class T>
Param<T> datasheet(T value) {
  return Param<T>{value, Provenance{Provenance::Kind::Datasheet, {}}, ""};
}

Gpu makeGpu(const std::string& name, int ccMajor, int ccMinor, const ArchLimits& a) {
  Gpu gpu;
  gpu.name = name;
  gpu.ccMajor = ccMajor;
  gpu.ccMinor = ccMinor;
  gpu.warpSize = datasheet(32);
  GpuLimits& l = gpu.limits;
  l.threadsPerSm = datasheet(a.threadsPerSm);
  l.warpsPerSm = datasheet(a.warpsPerSm);
  l.blocksPerSm = datasheet(a.blocksPerSm);
  l.threadsPerBlock = datasheet(a.threadsPerBlock);
  l.registersPerSm = datasheet(a.registersPerSm);
  l.registersPerThread = datasheet(a.registersPerThread);
  l.registersPerBlock = datasheet(a.registersPerBlock);
  l.registerAllocUnit = datasheet(a.registerAllocUnit);
  l.registerGranularity = a.granularity;
  l.warpAllocGranularity = datasheet(a.warpAllocGranularity);
  l.registerFilePartitions = datasheet(a.registerFilePartitions);
  l.sharedPerSm = datasheet(a.sharedPerSm);
  l.sharedPerBlock = datasheet(a.sharedPerBlock);
  l.sharedAllocUnit = datasheet(a.sharedAllocUnit);
  l.sharedReservedPerBlock = datasheet(a.sharedReservedPerBlock);
  return gpu;
}

constexpr auto kBlock = RegisterGranularity::Block;
constexpr auto kWarp = RegisterGranularity::Warp;

/// CC 1.0 G80 (Quadro FX 5600), as in gpus/fx5600.toml.
Gpu g80() {
  return makeGpu("g80", 1, 0,
                 {768, 24, 8, 512, 8192, 124, 8192, 256, kBlock, 2, 1, 16384, 16384, 512, 0});
}
/// CC 1.3 GT200: registers per block rounded to 512, warps to a multiple of 2.
Gpu gt200() {
  return makeGpu("gt200", 1, 3,
                 {1024, 32, 8, 512, 16384, 124, 16384, 512, kBlock, 2, 1, 16384, 16384, 512, 0});
}
/// CC 3.5 Kepler (GK110): 256-register units per warp, 4 register-file partitions, 48 KiB shared.
Gpu kepler() {
  return makeGpu("gk110", 3, 5,
                 {2048, 64, 16, 1024, 65536, 255, 65536, 256, kWarp, 4, 4, 49152, 49152, 256, 0});
}
/// CC 7.0 Volta (V100): the architecture of the Best Practices Guide example.
Gpu volta() {
  return makeGpu("v100", 7, 0,
                 {2048, 64, 32, 1024, 65536, 255, 65536, 256, kWarp, 4, 4, 98304, 98304, 256, 0});
}
/// CC 8.0 A100: 164 KiB shared per SM, 163 KiB per block (opt-in), 1 KiB reserved per block.
Gpu a100() {
  return makeGpu(
      "a100", 8, 0,
      {2048, 64, 32, 1024, 65536, 255, 65536, 256, kWarp, 4, 4, 167936, 166912, 128, 1024});
}
/// CC 9.0 H100: 228 KiB shared per SM, 227 KiB per block (opt-in), 1 KiB reserved per block.
Gpu h100() {
  return makeGpu(
      "h100", 9, 0,
      {2048, 64, 32, 1024, 65536, 255, 65536, 256, kWarp, 4, 4, 233472, 232448, 128, 1024});
}

/// Runs the calculator and fails the test (with the message) on an error.
Occupancy run(const Gpu& gpu, int threads, int regs, long long shared) {
  auto occ = computeOccupancy(gpu, BlockResources{threads, regs, shared});
  EXPECT_TRUE(occ.ok()) << (occ.ok() ? "" : occ.error().message);
  return occ.ok() ? *occ : Occupancy{};
}

/// The error message of a calculation that must fail ("" and a test failure when it succeeds).
std::string errorOf(const Gpu& gpu, int threads, int regs, long long shared) {
  auto occ = computeOccupancy(gpu, BlockResources{threads, regs, shared});
  EXPECT_FALSE(occ.ok()) << "expected an error, got " << (occ.ok() ? occ->blocksPerSm : 0)
                         << " blocks";
  return occ.ok() ? "" : occ.error().message;
}

// ---- CC 1.0 (G80): per-block register allocation ----------------------------------------------

// Kirk & Hwu, "Programming Massively Parallel Processors" (1st ed., 2010), §5.3: on G80, 256-thread
// blocks at 10 registers per thread give 3 blocks (768 threads); at 11 registers only 2 (512).
TEST(OccupancyG80, KirkHwuTenRegistersFillsTheSm) {
  const Occupancy occ = run(g80(), 256, 10, 0);
  EXPECT_EQ(occ.warpsPerBlock, 8);                  // 256 / 32
  EXPECT_EQ(occ.registersAllocatedPerBlock, 2560);  // 8 warps * 32 * 10 = 2560, a multiple of 256
  EXPECT_EQ(occ.registersAllocatedPerWarp, 0);      // block granularity: no per-warp allocation
  EXPECT_EQ(occ.limitByRegisters, 3);               // 8192 / 2560 = 3.2
  EXPECT_EQ(occ.limitByWarps, 3);                   // 24 / 8
  EXPECT_EQ(occ.limitByThreads, 3);                 // 768 / 256
  EXPECT_EQ(occ.limitByBlocks, 8);
  EXPECT_EQ(occ.limitBySharedMemory, INT_MAX);  // 0 B shared and no reservation
  EXPECT_EQ(occ.blocksPerSm, 3);
  EXPECT_EQ(occ.warpsPerSm, 24);                    // 3 * 8 = 768 threads
  EXPECT_DOUBLE_EQ(occ.fraction, 1.0);              // 24 / 24
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Warps);  // warps and registers tie at 3: enum order
}

TEST(OccupancyG80, KirkHwuElevenRegistersLimitedByRegisters) {
  const Occupancy occ = run(g80(), 256, 11, 0);
  EXPECT_EQ(occ.registersAllocatedPerBlock, 2816);  // 8 * 32 * 11 = 2816 = 11 * 256
  EXPECT_EQ(occ.limitByRegisters, 2);               // 8192 / 2816 = 2.9
  EXPECT_EQ(occ.blocksPerSm, 2);
  EXPECT_EQ(occ.warpsPerSm, 16);  // 2 * 8 warps = 512 threads, as in the book
  EXPECT_DOUBLE_EQ(occ.fraction, 16.0 / 24.0);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Registers);
}

TEST(OccupancyG80, WarpAllocationGranularityRoundsWarpsToTwo) {
  // 96 threads = 3 warps, rounded up to 4 for register allocation: 4 * 32 * 10 = 1280 registers.
  // (Without the warp rounding it would be 3 * 32 * 10 = 960 -> 1024 and 8 blocks.)
  const Occupancy occ = run(g80(), 96, 10, 0);
  EXPECT_EQ(occ.warpsPerBlock, 3);
  EXPECT_EQ(occ.registersAllocatedPerBlock, 1280);
  EXPECT_EQ(occ.limitByRegisters, 6);  // 8192 / 1280 = 6.4
  EXPECT_EQ(occ.limitByWarps, 8);      // 24 / 3
  EXPECT_EQ(occ.blocksPerSm, 6);
  EXPECT_EQ(occ.warpsPerSm, 18);  // 6 * 3
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Registers);
}

// Kirk & Hwu §5.3 again: G80 has 16 KB of shared memory per SM; blocks of 5 KB fit only 3 times.
TEST(OccupancyG80, KirkHwuFiveKilobytesSharedLimitsToThreeBlocks) {
  const Occupancy occ = run(g80(), 64, 0, 5120);
  EXPECT_EQ(occ.sharedAllocatedPerBlock, 5120);  // 5120 is a multiple of the 512 B unit
  EXPECT_EQ(occ.limitBySharedMemory, 3);         // 16384 / 5120 = 3.2
  EXPECT_EQ(occ.limitByRegisters, INT_MAX);      // 0 registers = unknown, no limit
  EXPECT_EQ(occ.limitByWarps, 12);               // 24 / 2
  EXPECT_EQ(occ.blocksPerSm, 3);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::SharedMemory);
}

TEST(OccupancyG80, SmallBlocksLimitedByBlockSlots) {
  const Occupancy occ = run(g80(), 32, 8, 0);
  EXPECT_EQ(occ.limitByWarps, 24);      // 24 / 1
  EXPECT_EQ(occ.limitByRegisters, 16);  // 2 warps (granularity) * 32 * 8 = 512; 8192 / 512
  EXPECT_EQ(occ.limitByThreads, 24);    // 768 / 32
  EXPECT_EQ(occ.limitByBlocks, 8);
  EXPECT_EQ(occ.blocksPerSm, 8);
  EXPECT_EQ(occ.warpsPerSm, 8);
  EXPECT_DOUBLE_EQ(occ.fraction, 8.0 / 24.0);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Blocks);
}

TEST(OccupancyG80, ErrorsNameTheLimitAndBothNumbers) {
  std::string msg = errorOf(g80(), 513, 0, 0);
  EXPECT_NE(msg.find("threads per block"), std::string::npos) << msg;
  EXPECT_NE(msg.find("513"), std::string::npos) << msg;
  EXPECT_NE(msg.find("512"), std::string::npos) << msg;

  msg = errorOf(g80(), 64, 125, 0);  // G80 allows 124 registers per thread
  EXPECT_NE(msg.find("registers per thread"), std::string::npos) << msg;
  EXPECT_NE(msg.find("125"), std::string::npos) << msg;
  EXPECT_NE(msg.find("124"), std::string::npos) << msg;

  msg = errorOf(g80(), 512, 17, 0);  // 16 warps * 32 * 17 = 8704 > 8192
  EXPECT_NE(msg.find("registers per block"), std::string::npos) << msg;
  EXPECT_NE(msg.find("8704"), std::string::npos) << msg;
  EXPECT_NE(msg.find("8192"), std::string::npos) << msg;

  msg = errorOf(g80(), 64, 0, 16385);
  EXPECT_NE(msg.find("shared memory per block"), std::string::npos) << msg;
  EXPECT_NE(msg.find("16385"), std::string::npos) << msg;
  EXPECT_NE(msg.find("16384"), std::string::npos) << msg;
}

TEST(OccupancyG80, LargestLegalBlockStillFits) {
  // 512 threads * 16 registers = 16 * 32 * 16 = 8192 = the whole register file: exactly 1 block.
  const Occupancy occ = run(g80(), 512, 16, 16384);
  EXPECT_EQ(occ.limitByWarps, 1);  // 24 / 16
  EXPECT_EQ(occ.limitByRegisters, 1);
  EXPECT_EQ(occ.limitBySharedMemory, 1);  // 16384 / 16384
  EXPECT_EQ(occ.limitByThreads, 1);       // 768 / 512
  EXPECT_EQ(occ.blocksPerSm, 1);
  EXPECT_EQ(occ.warpsPerSm, 16);
  EXPECT_EQ(occ.limiter,
            OccupancyLimiter::Warps);  // four factors tie at 1: the first in enum order
}

// ---- CC 1.3 (GT200): 512-register allocation unit --------------------------------------------

TEST(OccupancyGt200, RegisterUnitOf512) {
  // 128 threads = 4 warps; 4 * 32 * 18 = 2304 -> rounded up to 2560 (5 * 512).
  // (With a 256 unit it would stay 2304, and 16384 / 2304 = 7 blocks.)
  const Occupancy occ = run(gt200(), 128, 18, 0);
  EXPECT_EQ(occ.registersAllocatedPerBlock, 2560);
  EXPECT_EQ(occ.limitByRegisters, 6);  // 16384 / 2560 = 6.4
  EXPECT_EQ(occ.limitByWarps, 8);      // 32 / 4
  EXPECT_EQ(occ.blocksPerSm, 6);
  EXPECT_EQ(occ.warpsPerSm, 24);
  EXPECT_DOUBLE_EQ(occ.fraction, 0.75);  // 24 / 32
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Registers);
}

TEST(OccupancyGt200, WarpsLimitFullOccupancy) {
  // 256 threads = 8 warps at 16 registers: 8 * 32 * 16 = 4096 -> 16384 / 4096 = 4; warps 32 / 8
  // = 4.
  const Occupancy occ = run(gt200(), 256, 16, 0);
  EXPECT_EQ(occ.limitByWarps, 4);
  EXPECT_EQ(occ.limitByRegisters, 4);
  EXPECT_EQ(occ.limitByThreads, 4);  // 1024 / 256
  EXPECT_EQ(occ.blocksPerSm, 4);
  EXPECT_DOUBLE_EQ(occ.fraction, 1.0);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Warps);
}

TEST(OccupancyGt200, SharedRoundedTo512Bytes) {
  // 2100 B -> 2560 B (5 * 512); 16384 / 2560 = 6.4 -> 6 (unrounded: 16384 / 2100 = 7.8 -> 7).
  const Occupancy occ = run(gt200(), 64, 0, 2100);
  EXPECT_EQ(occ.sharedAllocatedPerBlock, 2560);
  EXPECT_EQ(occ.limitBySharedMemory, 6);
  EXPECT_EQ(occ.limitByWarps, 16);  // 32 / 2
  EXPECT_EQ(occ.blocksPerSm, 6);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::SharedMemory);
}

// ---- CC 3.5 (Kepler): per-warp allocation, 4 register-file partitions -------------------------

TEST(OccupancyKepler, PartitionsHoldWholeWarps) {
  // 544 threads = 17 warps at 40 registers: 40 * 32 = 1280 per warp (a multiple of 256).
  // Each partition has 65536 / 4 = 16384 registers = 12 warps (12.8), so the SM holds 48 warps
  // and 48 / 17 = 2 blocks. Without partitions: 65536 / 1280 = 51 warps, 3 blocks.
  const Occupancy occ = run(kepler(), 544, 40, 0);
  EXPECT_EQ(occ.registersAllocatedPerWarp, 1280);
  EXPECT_EQ(occ.registersAllocatedPerBlock, 21760);  // 1280 * 17
  EXPECT_EQ(occ.limitByRegisters, 2);
  EXPECT_EQ(occ.limitByWarps, 3);    // 64 / 17
  EXPECT_EQ(occ.limitByThreads, 3);  // 2048 / 544
  EXPECT_EQ(occ.blocksPerSm, 2);
  EXPECT_EQ(occ.warpsPerSm, 34);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Registers);
}

TEST(OccupancyKepler, RegistersRoundedPerWarpTo256) {
  // 33 registers: 33 * 32 = 1056 -> 1280 per warp, the same as 40 registers above.
  const Occupancy occ = run(kepler(), 544, 33, 0);
  EXPECT_EQ(occ.registersAllocatedPerWarp, 1280);
  EXPECT_EQ(occ.limitByRegisters, 2);
}

TEST(OccupancyKepler, SixteenBlockSlots) {
  // 64 threads = 2 warps at 32 registers: 1024 per warp; 16384 / 1024 = 16 warps per partition,
  // 64 per SM -> 32 blocks; warps 64 / 2 = 32; block slots 16.
  const Occupancy occ = run(kepler(), 64, 32, 0);
  EXPECT_EQ(occ.limitByRegisters, 32);
  EXPECT_EQ(occ.limitByWarps, 32);
  EXPECT_EQ(occ.limitByBlocks, 16);
  EXPECT_EQ(occ.blocksPerSm, 16);
  EXPECT_EQ(occ.warpsPerSm, 32);
  EXPECT_DOUBLE_EQ(occ.fraction, 0.5);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Blocks);
}

TEST(OccupancyKepler, SharedRoundedTo256Bytes) {
  // 3073 B -> 3328 B (13 * 256); 49152 / 3328 = 14.8 -> 14 (unrounded: 49152 / 3073 = 15.99 -> 15).
  const Occupancy occ = run(kepler(), 128, 0, 3073);
  EXPECT_EQ(occ.sharedAllocatedPerBlock, 3328);
  EXPECT_EQ(occ.limitBySharedMemory, 14);
  EXPECT_EQ(occ.limitByWarps, 16);  // 64 / 4
  EXPECT_EQ(occ.blocksPerSm, 14);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::SharedMemory);
}

// ---- CC 7.0 (Volta): published cross-check -----------------------------------------------------

// CUDA C++ Best Practices Guide, "Calculating Occupancy": on CC 7.0, 37 registers per thread give
// 75% occupancy with 12 active 128-thread blocks, but 63% with only four 320-thread blocks.
TEST(OccupancyVolta, BestPracticesGuide128ThreadBlocks) {
  // 37 * 32 = 1184 -> 1280 per warp; 16384 / 1280 = 12 warps per partition, 48 per SM;
  // 128 threads = 4 warps -> 48 / 4 = 12 blocks.
  const Occupancy occ = run(volta(), 128, 37, 0);
  EXPECT_EQ(occ.registersAllocatedPerWarp, 1280);
  EXPECT_EQ(occ.limitByRegisters, 12);
  EXPECT_EQ(occ.blocksPerSm, 12);
  EXPECT_EQ(occ.warpsPerSm, 48);
  EXPECT_DOUBLE_EQ(occ.fraction, 0.75);  // 48 / 64
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Registers);
}

TEST(OccupancyVolta, BestPracticesGuide320ThreadBlocks) {
  // 320 threads = 10 warps -> 48 / 10 = 4 blocks, 40 warps = 62.5% (the guide's "63%").
  // Dividing the whole file instead (65536 / 1280 = 51 warps) would give 5 blocks.
  const Occupancy occ = run(volta(), 320, 37, 0);
  EXPECT_EQ(occ.limitByRegisters, 4);
  EXPECT_EQ(occ.blocksPerSm, 4);
  EXPECT_EQ(occ.warpsPerSm, 40);
  EXPECT_DOUBLE_EQ(occ.fraction, 0.625);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Registers);
}

// ---- CC 8.0 (A100): 1 KiB reserved per block, 128 B shared unit --------------------------------

TEST(OccupancyA100, ReservationAppliesEvenWithoutSharedMemory) {
  // cuda_occupancy.h adds reservedSharedMemPerBlock unconditionally: 0 + 1024 = 1024 B per block,
  // 167936 / 1024 = 164 blocks, a finite limit that never binds (block slots are 32).
  const Occupancy occ = run(a100(), 256, 0, 0);
  EXPECT_EQ(occ.sharedAllocatedPerBlock, 1024);
  EXPECT_EQ(occ.limitBySharedMemory, 164);
  EXPECT_EQ(occ.limitByRegisters, INT_MAX);
  EXPECT_EQ(occ.registersAllocatedPerWarp, 0);
  EXPECT_EQ(occ.registersAllocatedPerBlock, 0);
  EXPECT_EQ(occ.blocksPerSm, 8);  // warps: 64 / 8
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Warps);
}

TEST(OccupancyA100, ReservationCostsABlock) {
  // 41900 B + 1024 B = 42924 B -> 43008 B (336 * 128); 167936 / 43008 = 3.9 -> 3.
  // Without the reservation: 41900 -> 41984 B, 167936 / 41984 = 4.
  const Occupancy occ = run(a100(), 256, 32, 41900);
  EXPECT_EQ(occ.sharedAllocatedPerBlock, 43008);
  EXPECT_EQ(occ.limitBySharedMemory, 3);
  EXPECT_EQ(occ.limitByRegisters, 8);  // 1024 per warp, 16 per partition, 64 / 8 warps
  EXPECT_EQ(occ.blocksPerSm, 3);
  EXPECT_EQ(occ.warpsPerSm, 24);
  EXPECT_DOUBLE_EQ(occ.fraction, 24.0 / 64.0);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::SharedMemory);
}

TEST(OccupancyA100, OptInMaximumFitsOnceAndOneByteMoreFails) {
  // 163 KiB = 166912 B + 1024 B = 167936 B = all of the SM's 164 KiB: one block.
  const Occupancy occ = run(a100(), 128, 0, 166912);
  EXPECT_EQ(occ.sharedAllocatedPerBlock, 167936);
  EXPECT_EQ(occ.limitBySharedMemory, 1);
  EXPECT_EQ(occ.blocksPerSm, 1);

  const std::string msg = errorOf(a100(), 128, 0, 166913);
  EXPECT_NE(msg.find("shared memory per block"), std::string::npos) << msg;
  EXPECT_NE(msg.find("166913"), std::string::npos) << msg;
  EXPECT_NE(msg.find("166912"), std::string::npos) << msg;
}

// The CUDA C++ Programming Guide's occupancy example (an SM with 32 block slots and 2048 thread
// slots, as on A100/H100): 32-thread blocks stop at 32 blocks = 1024 threads = 50% occupancy.
TEST(OccupancyA100, ProgrammingGuideSmallBlocksLimitedBySlots) {
  const Occupancy occ = run(a100(), 32, 32, 0);
  EXPECT_EQ(occ.limitByWarps, 64);          // 64 / 1
  EXPECT_EQ(occ.limitByRegisters, 64);      // 1024 per warp: 16 per partition, 64 warps
  EXPECT_EQ(occ.limitBySharedMemory, 164);  // 167936 / 1024 (reservation only)
  EXPECT_EQ(occ.limitByThreads, 64);        // 2048 / 32
  EXPECT_EQ(occ.limitByBlocks, 32);
  EXPECT_EQ(occ.blocksPerSm, 32);
  EXPECT_EQ(occ.warpsPerSm, 32);
  EXPECT_DOUBLE_EQ(occ.fraction, 0.5);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Blocks);
}

// ---- CC 9.0 (H100) -----------------------------------------------------------------------------

TEST(OccupancyH100, HeaderExample) {
  // occupancy.h: 256 threads, 32 registers, 0 B shared -> 8 warps per block; registers
  // 32 * 32 = 1024 per warp, 16384 / 1024 = 16 per partition, 64 warps -> 8 blocks; warps 64 / 8
  // = 8; shared (reservation only) 233472 / 1024 = 228; blocks 32; threads 2048 / 256 = 8.
  const Occupancy occ = run(h100(), 256, 32, 0);
  EXPECT_EQ(occ.warpsPerBlock, 8);
  EXPECT_EQ(occ.registersAllocatedPerWarp, 1024);
  EXPECT_EQ(occ.registersAllocatedPerBlock, 8192);
  EXPECT_EQ(occ.limitByWarps, 8);
  EXPECT_EQ(occ.limitByRegisters, 8);
  EXPECT_EQ(occ.limitBySharedMemory, 228);
  EXPECT_EQ(occ.limitByBlocks, 32);
  EXPECT_EQ(occ.limitByThreads, 8);
  EXPECT_EQ(occ.blocksPerSm, 8);
  EXPECT_EQ(occ.warpsPerSm, 64);
  EXPECT_DOUBLE_EQ(occ.fraction, 1.0);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Warps);
}

TEST(OccupancyH100, FullBlockAtSixtyFourRegisters) {
  // 1024 threads = 32 warps at 64 registers: 2048 per warp, 8 per partition, 32 per SM -> 1 block;
  // registers per block 2048 * 32 = 65536 = the per-block limit exactly.
  const Occupancy occ = run(h100(), 1024, 64, 0);
  EXPECT_EQ(occ.registersAllocatedPerBlock, 65536);
  EXPECT_EQ(occ.limitByRegisters, 1);
  EXPECT_EQ(occ.limitByWarps, 2);  // 64 / 32
  EXPECT_EQ(occ.blocksPerSm, 1);
  EXPECT_DOUBLE_EQ(occ.fraction, 0.5);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Registers);
}

TEST(OccupancyH100, SharedOptInMaximum) {
  // 227 KiB = 232448 B + 1024 B = 233472 B = 228 KiB: one block; one byte more is an error.
  const Occupancy occ = run(h100(), 256, 32, 232448);
  EXPECT_EQ(occ.limitBySharedMemory, 1);
  EXPECT_EQ(occ.blocksPerSm, 1);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::SharedMemory);
  const std::string msg = errorOf(h100(), 256, 32, 232449);
  EXPECT_NE(msg.find("232449"), std::string::npos) << msg;
  EXPECT_NE(msg.find("232448"), std::string::npos) << msg;
}

TEST(OccupancyH100, RegisterErrors) {
  std::string msg = errorOf(h100(), 128, 256, 0);
  EXPECT_NE(msg.find("registers per thread"), std::string::npos) << msg;
  EXPECT_NE(msg.find("256"), std::string::npos) << msg;
  EXPECT_NE(msg.find("255"), std::string::npos) << msg;

  // 1024 threads at 65 registers: 65 * 32 = 2080 -> 2304 per warp, * 32 warps = 73728 > 65536.
  msg = errorOf(h100(), 1024, 65, 0);
  EXPECT_NE(msg.find("registers per block"), std::string::npos) << msg;
  EXPECT_NE(msg.find("73728"), std::string::npos) << msg;
  EXPECT_NE(msg.find("65536"), std::string::npos) << msg;

  // The launch check rounds warps up to the 4 partitions (cuda_occupancy.h's "hardware check"):
  // 288 threads = 9 warps at 176 registers = 5632 per warp; 9 * 5632 = 50688 fits, but counted as
  // 12 warps it is 67584 > 65536, so the block is rejected for its registers per block.
  msg = errorOf(h100(), 288, 176, 0);
  EXPECT_NE(msg.find("registers per block"), std::string::npos) << msg;
  EXPECT_NE(msg.find("67584"), std::string::npos) << msg;
  EXPECT_NE(msg.find("65536"), std::string::npos) << msg;
}

TEST(OccupancyH100, BlockShapeErrors) {
  std::string msg = errorOf(h100(), 1025, 32, 0);
  EXPECT_NE(msg.find("threads per block"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1025"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1024"), std::string::npos) << msg;

  msg = errorOf(h100(), 0, 32, 0);
  EXPECT_NE(msg.find("threads per block"), std::string::npos) << msg;
  msg = errorOf(h100(), -32, 32, 0);
  EXPECT_NE(msg.find("threads per block"), std::string::npos) << msg;
  msg = errorOf(h100(), 128, -1, 0);
  EXPECT_NE(msg.find("registers per thread"), std::string::npos) << msg;
  msg = errorOf(h100(), 128, 32, -1);
  EXPECT_NE(msg.find("shared memory per block"), std::string::npos) << msg;
}

TEST(OccupancyH100, ZeroBlocksFitIsAnError) {
  // A GPU description whose shared memory per SM (here a 100 KiB carveout) is below what one block
  // may ask for: 150 KiB passes the per-block check (<= 227 KiB) but 102400 / 154624 = 0 blocks.
  Gpu gpu = h100();
  gpu.limits.sharedPerSm.value = 102400;
  const std::string msg = errorOf(gpu, 128, 32, 153600);
  EXPECT_NE(msg.find("no block fits"), std::string::npos) << msg;
  EXPECT_NE(msg.find("shared_memory"), std::string::npos) << msg;
  EXPECT_NE(msg.find("154624"), std::string::npos) << msg;  // 153600 + 1024, a multiple of 128
  EXPECT_NE(msg.find("102400"), std::string::npos) << msg;
}

TEST(OccupancyH100, InvalidGpuDescriptionIsAnError) {
  Gpu gpu = h100();
  gpu.limits.registerAllocUnit.value = 0;
  const std::string msg = errorOf(gpu, 128, 32, 0);
  EXPECT_NE(msg.find("register allocation unit"), std::string::npos) << msg;
}

// ---- The thread limit
// ----------------------------------------------------------------------------

// On every real architecture warpsPerSm * warpSize == threadsPerSm, and then the thread limit never
// limits alone: a block of t threads has w = ceil(t / 32) warps with t <= 32 w, so
// floor(threadsPerSm / t) >= floor(32 warpsPerSm / (32 w)) = floor(warpsPerSm / w); at best it ties
// with the warp limit, and ties go to Warps. A made-up SM with more warp slots than thread slots
// (1536 threads, 64 warps) shows the factor still works.
TEST(OccupancySynthetic, ThreadsLimitWhenWarpSlotsExceedThreadSlots) {
  Gpu gpu = h100();
  gpu.limits.threadsPerSm.value = 1536;
  const Occupancy occ = run(gpu, 1024, 0, 0);
  EXPECT_EQ(occ.limitByWarps, 2);    // 64 / 32
  EXPECT_EQ(occ.limitByThreads, 1);  // 1536 / 1024
  EXPECT_EQ(occ.blocksPerSm, 1);
  EXPECT_EQ(occ.warpsPerSm, 32);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Threads);
}

TEST(OccupancySynthetic, PartialWarpTakesAWholeWarpSlot) {
  // G80: 48-thread blocks have 2 warps; warps 24 / 2 = 12, threads 768 / 48 = 16 (partial warp).
  const Occupancy occ = run(g80(), 48, 0, 0);
  EXPECT_EQ(occ.limitByWarps, 12);
  EXPECT_EQ(occ.limitByThreads, 16);
  EXPECT_EQ(occ.limitByBlocks, 8);
  EXPECT_EQ(occ.limiter, OccupancyLimiter::Blocks);
}

TEST(OccupancyLimiterName, AllNames) {
  EXPECT_STREQ(occupancyLimiterName(OccupancyLimiter::Warps), "warps");
  EXPECT_STREQ(occupancyLimiterName(OccupancyLimiter::Registers), "registers");
  EXPECT_STREQ(occupancyLimiterName(OccupancyLimiter::SharedMemory), "shared_memory");
  EXPECT_STREQ(occupancyLimiterName(OccupancyLimiter::Blocks), "blocks");
  EXPECT_STREQ(occupancyLimiterName(OccupancyLimiter::Threads), "threads");
}

/// H100 with its carveouts (CUDA Programming Guide: 0, 8, 16, 32, 64, 100, 132, 164, 196 or
/// 228 KiB of shared memory per SM).
Gpu h100Carveouts() {
  Gpu g = h100();
  Param<std::vector<long long>> c;
  for (long long kib : {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}) c.value.push_back(kib * 1024);
  g.limits.sharedCarveouts = c;
  return g;
}

TEST(OccupancyCarveout, RoundsUpToTheNextListedCapacity) {
  const Gpu g = h100Carveouts();
  // 25 % of 228 KiB = 57 KiB (58368 B) → 64 KiB; 50 % = 114 KiB → 132 KiB; 100 % → 228 KiB.
  EXPECT_EQ(*carveoutCapacity(g, 25, 0), 65536);
  EXPECT_EQ(*carveoutCapacity(g, 50, 0), 135168);
  EXPECT_EQ(*carveoutCapacity(g, 100, 0), 233472);
  EXPECT_EQ(*carveoutCapacity(g, 0, 0), 0);
  // A 20 KiB block (+1 KiB reserved = 21504 B) with a 0 % carveout: the smallest that holds it, 32 KiB.
  EXPECT_EQ(*carveoutCapacity(g, 0, 21504), 32768);
  Expected<long long> none = carveoutCapacity(h100(), 25, 0);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message.find("the GPU description lists no shared-memory carveouts"), 0u);
}

TEST(OccupancyCarveout, SmallerCarveoutLimitsBlocksBySharedMemory) {
  // 256 threads, 32 registers, 16 KiB shared: 17 KiB (17408 B) per block. At 228 KiB,
  // 233472 / 17408 = 13 blocks, warps limit to 8; at 25 % (64 KiB), 65536 / 17408 = 3 blocks.
  const Gpu g = h100Carveouts();
  BlockResources b{256, 32, 16384};
  Expected<Occupancy> full = computeOccupancy(g, b);
  ASSERT_TRUE(full);
  EXPECT_EQ(full->blocksPerSm, 8);
  EXPECT_EQ(full->sharedCapacity, 233472);
  b.carveoutPercent = 25;
  Expected<Occupancy> quarter = computeOccupancy(g, b);
  ASSERT_TRUE(quarter);
  EXPECT_EQ(quarter->sharedCapacity, 65536);
  EXPECT_EQ(quarter->limitBySharedMemory, 3);
  EXPECT_EQ(quarter->blocksPerSm, 3);
  EXPECT_EQ(quarter->limiter, OccupancyLimiter::SharedMemory);
}

}  // namespace
}  // namespace foresight
