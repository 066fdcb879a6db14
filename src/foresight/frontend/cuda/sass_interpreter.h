// SPDX-License-Identifier: Apache-2.0
/// \file
/// `SassInterpreter`: executes the control flow of one warp over SASS (nvdisasm text), to count
/// the warp's dynamic SASS instructions. It tracks 32-bit integer values per lane in R, UR, P
/// and UP registers from the thread and block ids (S2R/S2UR), launch dimensions and kernel
/// parameters (constant bank 0, from the cubin's layout), through the integer instructions
/// nvcc emits for index and loop arithmetic (IMAD, IADD3, VIADD, LEA, LOP3, SHF, SEL, ISETP,
/// PLOP3, IABS, IMNMX, MOV and their uniform forms). Everything else (loads, floating point,
/// 64-bit carries) yields unknown values. Branches reconverge at immediate post-dominators. A
/// branch on an unknown predicate makes the count unavailable (an Error that says where); the
/// frontend then keeps the PTX stream, otherwise the KernelIR is built from this SASS run.
#pragma once

#include <map>

#include "foresight/frontend/cuda/cubin_reader.h"
#include "foresight/frontend/cuda/ptx_cfg.h"
#include "foresight/frontend/cuda/sass_listing.h"
#include "foresight/ir/launch.h"
#include "foresight/support/error.h"

namespace foresight::cuda {

/// Inputs of a SASS run.
struct SassRunOptions {
  Launch launch;
  const CubinKernel* layout = nullptr;  ///< parameter layout (paramBankOffset, params); required
  std::map<int, long long> scalarArgs;  ///< by parameter ordinal; pointers get their base
  std::vector<int> pointerParams;
  long long maxInstructions = 200'000'000;
};

/// Counts of one warp.
struct SassWarpCount {
  long long instructions = 0;  ///< dynamic warp instructions
  std::vector<long long> perInstruction;  ///< executions per static instruction
  PtxCfg cfg;  ///< the SASS basic blocks (instruction index ranges), successors and loops
};

/// Runs warp `warp` of block `block` (linear) of `fn`.
[[nodiscard]] Expected<SassWarpCount> runSassWarp(const SassFunction& fn, const SassRunOptions& options,
                                                  long long block, int warp);

}  // namespace foresight::cuda
