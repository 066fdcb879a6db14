// SPDX-License-Identifier: Apache-2.0
/// \file
/// The bound of one launch (model/kernel_bound.h): floors by hand for a small hand-built
/// kernel on the H100 and GTX580 presets, and the inner loop's mix.
#include "foresight/model/kernel_bound.h"

#include <gtest/gtest.h>

#include "test_support.h"

#include "foresight/gpu/presets.h"

namespace foresight {
namespace {

using testing_support::preset;

Instruction ffma(int d, int a, int b, int c) {
  Instruction in;
  in.opcode = "FFMA";
  in.cls = InstrClass::Fp32;
  in.flops = 2;
  in.dst = {d};
  in.src = {a, b, c};
  return in;
}

Instruction lds64(int d) {
  Instruction in;
  in.opcode = "LDS.64";
  in.cls = InstrClass::Ldst;
  in.dst = {d};
  MemoryAccess m;
  m.space = MemorySpace::Shared;
  m.widthBytes = 8;
  in.memory = m;
  return in;
}

/// One loop block executed 10 times per warp: two accumulator chains of 4 FFMA each (a
/// 2-element C tile, 4 k-steps), two LDS.64; 100 instructions per warp in all.
KernelInput twoChainKernel() {
  KernelInput k;
  k.ir.name = "two_chains";
  BasicBlock b;
  b.label = "loop";
  b.executionsPerWarp = 10;
  b.instructions = {lds64(50), lds64(52)};
  // Chain A: 10 → 11 → 12 → 13 → 10 (ptxas renames), chain B: 20 → 21 → 22 → 23.
  for (int i = 0; i < 4; ++i) {
    b.instructions.push_back(ffma(11 + i, 50, 52, i == 0 ? 10 : 10 + i));
    b.instructions.push_back(ffma(21 + i, 51, 53, i == 0 ? 20 : 20 + i));
  }
  k.ir.blocks.push_back(b);
  return k;
}

Launch oneWarpPerBlock(int blocks) {
  Launch l;
  l.grid = {blocks, 1, 1};
  l.block = {32, 1, 1};
  return l;
}

TEST(KernelBound, InnerLoopMixCountsChainsNotRegisters) {
  const std::optional<InnerLoopMix> m = innerLoopMix(twoChainKernel().ir);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->fmas, 8);
  EXPECT_EQ(m->accumulators, 2);
  EXPECT_DOUBLE_EQ(m->kSteps(), 4);
  EXPECT_EQ(m->sharedLoadsByBits.at(64), 2);
  // 2 LDS.64 = 4 elements over 8 FMA; FMA share 8 / 10.
  EXPECT_DOUBLE_EQ(m->sharedElementsPerFma(), 0.5);
  EXPECT_DOUBLE_EQ(m->fmaShare(), 0.8);
  EXPECT_DOUBLE_EQ(m->iterationsPerWarp, 10);
}

TEST(KernelBound, H100FloorsByHand) {
  const Gpu gpu = preset("h100");
  // 132 warps (one per SM), each 100 instructions: 80 FFMA, 20 LDS.64.
  Expected<KernelBound> b = kernelBound(twoChainKernel(), oneWarpPerBlock(132), gpu);
  ASSERT_TRUE(b) << b.error().format();
  const double cycle = 1 / 1.98e9;
  // issue: 13200 warp instructions / (132 SMs × 4 schedulers × 1) = 25 cycles.
  EXPECT_NEAR(b->floors.issueSeconds / cycle, 25, 1e-9);
  // fp32: 10560 FFMA × gap 1 / 528 = 20 cycles.
  EXPECT_NEAR(b->floors.pipeSeconds[static_cast<int>(InstrClass::Fp32)] / cycle, 20, 1e-9);
  // ld/st: 2640 loads × gap 4 / 528 = 20 cycles.
  EXPECT_NEAR(b->floors.ldstSeconds / cycle, 20, 1e-9);
  // shared: 2640 wavefronts (1 each: not counted by a frontend) × 128 B / (128 B × 132 SMs) = 20 cycles.
  EXPECT_NEAR(b->floors.sharedSeconds / cycle, 20, 1e-9);
  EXPECT_EQ(b->floors.mixThroughput, 0);  // no measured [sgemm_mix] on the H100
  EXPECT_EQ(b->binding, "issue");
  EXPECT_NEAR(b->seconds / cycle, 25, 1e-9);
  // 80 FFMA × 2 flops × 32 lanes × 132 warps.
  EXPECT_DOUBLE_EQ(b->flops, 80 * 2.0 * 32 * 132);
  ASSERT_TRUE(b->hasLoop);
  EXPECT_EQ(b->loop.accumulators, 2);
}

TEST(KernelBound, Gtx580MeasuredMixThroughputBinds) {
  const Gpu gpu = preset("gtx580");
  // 16 warps (one per SM). Lai's Eq. 4.10 on the code: (80 FFMA + 20 LDS.64) per warp at
  // F_T = 0.9625 of the FP32 rate (gap 2 over 2 schedulers = 1 warp instruction per cycle):
  // 100 / 0.9625 = 103.896 cycles; issue alone: 100 instructions / 2 schedulers × 1 = 50 cycles.
  Expected<KernelBound> b = kernelBound(twoChainKernel(), oneWarpPerBlock(16), gpu);
  ASSERT_TRUE(b) << b.error().format();
  const double cycle = 1 / 1.544e9;
  EXPECT_EQ(b->floors.mixLdsBits, 64);
  EXPECT_DOUBLE_EQ(b->floors.mixThroughput, 0.9625);
  EXPECT_NEAR(b->floors.mixSeconds / cycle, 100 / 0.9625, 1e-6);
  EXPECT_EQ(b->binding, "sgemm-mix");
}

TEST(KernelBound, MatrixInstructionsCountTheirPipeWork) {
  const Gpu gpu = preset("h100");
  KernelInput k;
  k.ir.name = "mma";
  BasicBlock b;
  b.executionsPerWarp = 100;
  Instruction hmma;
  hmma.opcode = "HMMA.16816.F32";
  hmma.cls = InstrClass::Tensor;
  hmma.flops = 128;
  hmma.pipeWork = 0.5;
  b.instructions = {hmma};
  k.ir.blocks.push_back(b);
  // One block of 4 warps per SM (4 one-warp blocks per SM would wait for the block dispatch:
  // 3 × 157 = 471 cycles).
  Launch launch = oneWarpPerBlock(132);
  launch.block.x = 128;
  Expected<KernelBound> r = kernelBound(k, launch, gpu);
  ASSERT_TRUE(r) << r.error().format();
  // 528 warps × 100 HMMA × 0.5 units × gap 8 / 528 schedulers = 400 cycles (issue: 100).
  EXPECT_NEAR(r->floors.pipeSeconds[static_cast<int>(InstrClass::Tensor)] * 1.98e9, 400, 1e-6);
  EXPECT_EQ(r->binding, "tensor");
  EXPECT_EQ(r->loop.matrixInstructions, 1);
  EXPECT_EQ(r->loop.fmas, 0);
}

}  // namespace
}  // namespace foresight
