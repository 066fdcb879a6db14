// SPDX-License-Identifier: Apache-2.0
/// \file
/// Register-bank conflicts per source line (Lai's checker, issue 16 item 3): which lines' FFMAs
/// read two or more source registers from one bank (Instruction::bankConflictDegree, set by the
/// CUDA frontend from the GPU's `[register_banks]`), how many extra operand-read cycles they
/// cost one warp, and — with the conflict-free-registers what-if — the predicted cost of each.
#pragma once

#include <string>
#include <vector>

#include "foresight/advise/whatif.h"
#include "foresight/ir/kernel_ir.h"

namespace foresight {

/// One source line with register-bank conflicts.
struct RegisterConflictLine {
  std::string file;
  int line = 0;                  ///< 0 = no line information
  int checked = 0;               ///< instructions of the line the checker reads (FFMA), static
  int conflicted = 0;            ///< of those, with a conflict
  int maxDegree = 1;             ///< the most source registers one of them reads from one bank
  double extraCyclesPerWarp = 0;  ///< Σ executions per warp × (degree − 1)
  double predictedCycles = 0;    ///< this line's share of the what-if's saving (0 without it, or when it is < 0)
};

/// The lines with conflicts, most extra cycles first. `whatIf`, when it has the
/// conflict-free-registers switch, shares its predicted saving over the lines by extra cycles.
[[nodiscard]] std::vector<RegisterConflictLine> registerConflictsByLine(const KernelIR& ir,
                                                                        const std::vector<WhatIfResult>& whatIf = {});

}  // namespace foresight
