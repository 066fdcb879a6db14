// SPDX-License-Identifier: Apache-2.0
// Stream synthesis from execution counts (prologue / body / epilogue), caps and addresses.
#include "foresight/ir/warp_stream.h"

#include <gtest/gtest.h>

namespace foresight {
namespace {

KernelIR loopKernel() {
  KernelIR ir;
  ir.name = "k";
  BasicBlock pro{"pro", {Instruction{"IMAD", InstrClass::Int}, Instruction{"MOV", InstrClass::Int}}, {}, 1};
  Instruction load{"LDG", InstrClass::Ldst};
  MemoryAccess m;
  for (int l = 0; l < 32; ++l) m.laneAddresses.push_back(4LL * l);
  load.memory = m;
  BasicBlock body{"body", {load}, {}, 4};
  BasicBlock epi{"epi", {Instruction{"STG", InstrClass::Ldst}}, {}, 1};
  ir.blocks = {pro, body, epi};
  return ir;
}

TEST(EmulateWarpStream, PrologueBodyEpilogueOrder) {
  // K = 4 rounds: round 0 = pro (ceil(1/4) = 1) + body; rounds 1-3 body; epi (floor) in round 3.
  Expected<SynthesizedStream> s = synthesizeStream(loopKernel());
  ASSERT_TRUE(s.ok());
  std::vector<int> blocks;
  for (const DynamicInstruction& d : s->instructions) blocks.push_back(d.block);
  EXPECT_EQ(blocks, (std::vector<int>{0, 0, 1, 1, 1, 1, 2}));
  EXPECT_DOUBLE_EQ(s->fullLength, 7);  // 2·1 + 1·4 + 1·1
  EXPECT_DOUBLE_EQ(s->scale, 1);
}

TEST(EmulateWarpStream, CapKeepsProportionalRounds) {
  // Cap 4 < 7: K' = floor(4·4/7) = 2 rounds, counts halved: pro 0.5→1, body 2, epi 0.5→1;
  // 5 instructions represent 7: scale 1.4.
  Expected<SynthesizedStream> s = synthesizeStream(loopKernel(), {.maxInstructions = 4});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->instructions.size(), 5u);
  EXPECT_DOUBLE_EQ(s->scale, 7.0 / 5.0);
}

TEST(EmulateWarpStream, AddressesShiftPerWarpAndExecution) {
  // Span of lanes 0..124 (+4 B) = 128 B. Warp 3 of 10: execution e shifts by (3 + 10e)·128.
  Expected<SynthesizedStream> s = synthesizeStream(loopKernel(), {.warpIndex = 3, .totalWarps = 10});
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->instructions[2].laneAddresses.size(), 32u);
  EXPECT_EQ(s->instructions[2].laneAddresses[0], 3 * 128);
  EXPECT_EQ(s->instructions[3].laneAddresses[1], (3 + 10) * 128 + 4);
  EXPECT_TRUE(s->instructions[0].laneAddresses.empty());  // not a memory instruction
}

TEST(EmulateWarpStream, EmptyKernelIsAnError) {
  KernelIR ir;
  ir.name = "empty";
  EXPECT_FALSE(synthesizeStream(ir).ok());
}

}  // namespace
}  // namespace foresight
