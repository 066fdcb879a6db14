// SPDX-License-Identifier: Apache-2.0
/// \file
/// Which loads produce the bounds of a `--trip FILE:LINE=N` loop, found once for both
/// instruction sets: each ISA describes its instructions in ISA-neutral facts (a load, a copy,
/// a register stepped by a constant, a comparison, a sum of two registers, an index use, the
/// registers written), and one analysis over those facts and the CFG finds the loads.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "foresight/frontend/cuda/ptx_cfg.h"
#include "foresight/frontend/cuda/warp_interpreter.h"

namespace foresight::cuda {

/// One instruction as the bound-load analysis sees it. Registers are the ISA's own numbers
/// (PTX virtual registers; SASS R registers); -1 = none.
struct BoundLoadFacts {
  const std::string* path = nullptr;  ///< its source file (hints match the end of it)
  int line = 0;
  bool load = false;  ///< a global load whose value may bound a loop (not library code)
  int dst = -1;       ///< the register a load or a copy writes
  std::vector<int> defs;  ///< every register it writes
  int copyFrom = -1;  ///< the source register of a plain register copy
  /// `r = r + constant`: the register, the constant, and whether that constant is the loop's
  /// index step (a 32-bit integer add; 64-bit registers step pointers in bytes).
  int stepped = -1;
  long long stepBy = 0;
  bool indexStep = false;
  std::vector<int> compared;  ///< registers an integer comparison reads
  int sumA = -1, sumB = -1;   ///< two registers added
  std::vector<int> indexUses;  ///< registers read as an index (moved, multiplied, shifted, converted)
};

/// The loads that produce the bounds of the hinted loops: instruction → (value, as index). The
/// value is N × the loop's step (LoopStep); `as index` means it is multiplied by the load's
/// element index (boundLoadRoles: start/end pointer pairs, the start of a start + count pair).
/// A load is a bound load when it is on the hinted line outside every loop tested on that line
/// (loads inside such a loop are its body's data, e.g. col[j]), or when, outside those loops
/// and before them, its value seeds the induction variable of a loop tested there (a `for`
/// written over several lines: `for (int i = node.start;\n i < node.start + node.count; …)`),
/// directly or through a copy, and nothing writes its register between the load and the loop
/// (a register the compiler reuses for another value is not a seed).
[[nodiscard]] std::map<int, std::pair<long long, bool>> findBoundLoads(const PtxCfg& cfg, const std::vector<BoundLoadFacts>& code,
                                                                     const std::vector<TripHint>& trips);

}  // namespace foresight::cuda
