// SPDX-License-Identifier: Apache-2.0
/// \file
/// The SASS run: the semantics of SASS (nvdisasm text) for the one warp executor
/// (warp_executor.h), to count one warp's dynamic SASS instructions and record its accesses.
/// It tracks 32-bit integer values per lane in R, UR, P and UP registers from the thread and
/// block ids (S2R/S2UR), launch dimensions and kernel parameters (constant bank 0, from the
/// cubin's layout), through the integer instructions nvcc emits for index and loop arithmetic
/// (IMAD, IADD3, VIADD, LEA, LOP3, SHF, SEL, ISETP, PLOP3, IABS, IMNMX, VIADDMNMX, MOV and their
/// uniform forms), with the carries of IADD3/LEA into their .X forms, IMAD.HI/.X and ISETP.EX
/// (64-bit compares). Everything else (loads, floating point) yields unknown values, except
/// loads set by a trip hint. Branches, guards and hints follow the executor's rules, as in the
/// PTX run. A branch on an unknown predicate that no hint resolves makes the count unavailable
/// (an Error that says where); the frontend then keeps the PTX stream, otherwise the KernelIR
/// is built from this SASS run.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "foresight/frontend/cuda/cubin_reader.h"
#include "foresight/frontend/cuda/ptx_cfg.h"
#include "foresight/frontend/cuda/sass_listing.h"
#include "foresight/frontend/cuda/warp_interpreter.h"
#include "foresight/ir/launch.h"
#include "foresight/support/error.h"

namespace foresight::cuda {

/// Inputs of a SASS run.
struct SassRunOptions {
  Launch launch;
  const CubinKernel* layout = nullptr;  ///< parameter layout (paramBankOffset, params); required
  std::map<int, long long> scalarArgs;  ///< by parameter ordinal; pointers get their base
  std::vector<int> pointerParams;
  /// Array contents by parameter ordinal (InterpreterOptions::arrayData): global and generic
  /// loads at known addresses inside them read these values.
  std::map<int, ArrayData> arrayData;
  /// `--trip FILE:LINE=N`: global loads on the hinted line that feed the loop's bounds (outside
  /// the loop whose exit test is on that line) yield N, or N × element index when there are
  /// several (CSR-style start/end pointers, so that end − start = N), exactly as in the PTX
  /// run (warp_interpreter.h); a loop-exit branch on an unknown predicate at the hinted line
  /// stays in the loop N times.
  std::vector<TripHint> trips;
  std::vector<BranchHint> branches;  ///< `--branch FILE:LINE=P` for other unknown branches
  long long maxInstructions = 200'000'000;  ///< executed one by one (folded ones do not count)
  bool recordStream = false;  ///< keep the dynamic stream (instruction, executing lanes) in order
  bool recordAddresses = false;  ///< keep the memory accesses (implied by recordStream)
  /// Fold loops whose iterations repeat, as the PTX run does (warp_interpreter.h, LoopFold;
  /// here also: no 32-bit register value may wrap around within the folded iterations, so
  /// that the carries of 64-bit address pairs do not change). Folded accesses are not in
  /// `accesses`: SassWarpCount::folds says which ones repeat and by what address step.
  bool foldLoops = true;
};

/// One warp's SASS run: the executor's trace (warp_executor.h; `instructions[i].executions` per
/// static instruction, `accesses` for every memory instruction executed, data-dependent ones
/// with empty lanes: global addresses are 64-bit register pairs, pointer parameters based as in
/// the PTX run; shared ones offsets in the block's shared window; local ones interleaved per
/// lane) and the SASS basic blocks (instruction index ranges), successors and loops.
struct SassWarpCount : WarpTrace {
  PtxCfg cfg;
};

/// Whether `i` is an atomic or reduction (ATOM, ATOMG, ATOMS, RED, REDG), whose lanes on one
/// address serialize (accessUnits).
[[nodiscard]] bool isSassAtomic(const SassInstruction& i);

/// What every run of one function with one set of options shares: the decoded instructions,
/// the basic blocks and the loads that feed hinted trip counts.
struct SassPrepared;

/// Prepares runs of `fn` with `options` (errors: a listing that is not contiguous, a branch to an
/// unknown label).
[[nodiscard]] Expected<std::shared_ptr<const SassPrepared>> prepareSassRun(const SassFunction& fn,
                                                                          const SassRunOptions& options);

/// Runs warp `warp` of block `block` (linear) of `fn`, from `prepared` (prepareSassRun() of the
/// same function and options) when given, else preparing it.
[[nodiscard]] Expected<SassWarpCount> runSassWarp(const SassFunction& fn, const SassRunOptions& options,
                                                  long long block, int warp, const SassPrepared* prepared = nullptr);

}  // namespace foresight::cuda
