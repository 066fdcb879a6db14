// SPDX-License-Identifier: Apache-2.0
/// \file
/// Register-bank conflicts by source line: counts and the share of the what-if's saving, by hand.
#include "foresight/advise/register_conflicts.h"

#include <gtest/gtest.h>

namespace foresight {
namespace {

Instruction ffma(int line, int degree) {
  Instruction in;
  in.opcode = "FFMA";
  in.cls = InstrClass::Fp32;
  in.sourceFile = "k.cu";
  in.sourceLine = line;
  in.bankConflictDegree = degree;
  return in;
}

KernelIR kernel() {
  KernelIR ir;
  BasicBlock loop;
  loop.executionsPerWarp = 100;
  // Line 10: 3 FFMA, two 2-way; line 12: 1 FFMA, 3-way; line 14: conflict-free.
  loop.instructions = {ffma(10, 2), ffma(10, 2), ffma(10, 1), ffma(12, 3), ffma(14, 1)};
  BasicBlock tail;
  tail.executionsPerWarp = 1;
  tail.instructions = {ffma(10, 2)};
  ir.blocks = {loop, tail};
  return ir;
}

TEST(RegisterConflicts, LinesByExtraCycles) {
  std::vector<RegisterConflictLine> lines = registerConflictsByLine(kernel());
  ASSERT_EQ(lines.size(), 2u);  // line 14 has none
  // Line 10: 2 × 100 × (2 − 1) + 1 × 1 = 201 extra cycles per warp; line 12: 100 × 2 = 200.
  EXPECT_EQ(lines[0].line, 10);
  EXPECT_EQ(lines[0].checked, 4);
  EXPECT_EQ(lines[0].conflicted, 3);
  EXPECT_EQ(lines[0].maxDegree, 2);
  EXPECT_DOUBLE_EQ(lines[0].extraCyclesPerWarp, 201);
  EXPECT_EQ(lines[1].line, 12);
  EXPECT_EQ(lines[1].maxDegree, 3);
  EXPECT_DOUBLE_EQ(lines[1].extraCyclesPerWarp, 200);
  EXPECT_DOUBLE_EQ(lines[0].predictedCycles, 0);  // no what-if given
}

TEST(RegisterConflicts, TheWhatIfSavingIsSharedByExtraCycles) {
  WhatIfResult w;
  w.name = "conflict-free-registers";
  w.penalty = 802;
  std::vector<RegisterConflictLine> lines = registerConflictsByLine(kernel(), {w});
  // 802 × 201 / 401 = 402; 802 × 200 / 401 = 400.
  EXPECT_DOUBLE_EQ(lines[0].predictedCycles, 402);
  EXPECT_DOUBLE_EQ(lines[1].predictedCycles, 400);
  w.penalty = -50;  // a schedule that gets worse without the conflicts: no cost
  lines = registerConflictsByLine(kernel(), {w});
  EXPECT_DOUBLE_EQ(lines[0].predictedCycles, 0);
}

}  // namespace
}  // namespace foresight
