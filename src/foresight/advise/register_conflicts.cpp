// SPDX-License-Identifier: Apache-2.0
/// \file
/// Register-bank conflicts by source line.
#include "foresight/advise/register_conflicts.h"

#include <algorithm>
#include <map>
#include <utility>

namespace foresight {

std::vector<RegisterConflictLine> registerConflictsByLine(const KernelIR& ir, const std::vector<WhatIfResult>& whatIf) {
  std::map<std::pair<std::string, int>, RegisterConflictLine> byLine;
  for (const BasicBlock& b : ir.blocks) {
    for (const Instruction& in : b.instructions) {
      if (in.memory || in.opcode.rfind("FFMA", 0) != 0) continue;
      RegisterConflictLine& l = byLine[{in.sourceFile, in.sourceLine}];
      l.file = in.sourceFile;
      l.line = in.sourceLine;
      ++l.checked;
      if (in.bankConflictDegree <= 1) continue;
      ++l.conflicted;
      l.maxDegree = std::max(l.maxDegree, in.bankConflictDegree);
      l.extraCyclesPerWarp += b.executionsPerWarp * (in.bankConflictDegree - 1);
    }
  }
  std::vector<RegisterConflictLine> out;
  double extra = 0;
  for (auto& [key, l] : byLine) {
    if (l.conflicted == 0) continue;
    extra += l.extraCyclesPerWarp;
    out.push_back(std::move(l));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.extraCyclesPerWarp > b.extraCyclesPerWarp; });
  const auto saving = std::find_if(whatIf.begin(), whatIf.end(),
                                   [](const WhatIfResult& w) { return w.name == "conflict-free-registers"; });
  // A saving below 0 (the emulated schedule happens to get worse without the conflicts) is no cost.
  if (saving != whatIf.end() && extra > 0 && saving->penalty > 0) {
    for (RegisterConflictLine& l : out) l.predictedCycles = saving->penalty * l.extraCyclesPerWarp / extra;
  }
  return out;
}

}  // namespace foresight
