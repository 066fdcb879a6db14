// SPDX-License-Identifier: Apache-2.0
/// \file
/// Maps SASS memory instructions onto the PTX memory instructions they implement, through the
/// source lines both carry (`-lineinfo`): per line, SASS and PTX accesses of the same space and
/// direction are paired in program order. SASS local accesses without a PTX counterpart are
/// register spills (ptxas adds them); any other unpaired access is reported.
#pragma once

#include <string>
#include <vector>

#include "foresight/frontend/cuda/ptx_module.h"
#include "foresight/frontend/cuda/sass_listing.h"

namespace foresight::cuda {

/// The memory space a SASS instruction accesses (generic LD/ST count as global).
enum class SassSpace { None, Global, Shared, Local };

/// Space and direction of a SASS memory instruction (Space::None for any other instruction);
/// the one classification the pairing, the SASS address run and the lowering share.
struct SassAccessKind {
  SassSpace space = SassSpace::None;
  bool store = false;
};
[[nodiscard]] SassAccessKind sassAccessKind(const SassInstruction& i);

/// One SASS memory instruction and its PTX counterpart.
struct SassPtxPair {
  int sass = 0;   ///< index in SassFunction::instructions
  int ptx = -1;   ///< index in PtxKernel::instructions; -1 = none
  bool spill = false;  ///< an STL/LDL that ptxas added (no PTX local access on its line)
};

/// The mapping of one kernel.
struct SassPtxMap {
  std::vector<SassPtxPair> pairs;  ///< one per SASS memory instruction, in SASS order
  int spillStores = 0;             ///< STL without a PTX counterpart
  int spillLoads = 0;              ///< LDL without a PTX counterpart
  long long spillStoreBytes = 0;   ///< bytes per thread the spill stores write (= ptxas "spill stores")
  long long spillLoadBytes = 0;    ///< bytes per thread the spill loads read (= ptxas "spill loads")
  int unmatchedSass = 0;           ///< non-spill SASS accesses without a PTX counterpart
  int unmatchedPtx = 0;            ///< PTX accesses no SASS instruction was paired with
};

/// Pairs the memory instructions of `sass` with those of `ptx` by source line.
[[nodiscard]] SassPtxMap mapSassToPtx(const PtxKernel& ptx, const SassFunction& sass);

}  // namespace foresight::cuda
