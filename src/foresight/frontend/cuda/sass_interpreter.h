// SPDX-License-Identifier: Apache-2.0
/// \file
/// `SassInterpreter`: executes the control flow of one warp over SASS (nvdisasm text), to count
/// the warp's dynamic SASS instructions. It tracks 32-bit integer values per lane in R, UR, P
/// and UP registers from the thread and block ids (S2R/S2UR), launch dimensions and kernel
/// parameters (constant bank 0, from the cubin's layout), through the integer instructions
/// nvcc emits for index and loop arithmetic (IMAD, IADD3, VIADD, LEA, LOP3, SHF, SEL, ISETP,
/// PLOP3, IABS, IMNMX, VIADDMNMX, MOV and their uniform forms), with the carries of IADD3/LEA
/// into their .X forms, IMAD.HI/.X and ISETP.EX (64-bit compares). Everything else (loads,
/// floating point) yields unknown values, except loads set by a trip hint. Branches reconverge
/// at immediate post-dominators. A branch on an unknown predicate that no hint resolves makes
/// the count unavailable (an Error that says where); the frontend then keeps the PTX stream,
/// otherwise the KernelIR is built from this SASS run.
#pragma once

#include <cstdint>
#include <map>
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
  /// `--trip FILE:LINE=N`: global loads on the hinted line that feed the loop's bounds (outside
  /// the loop whose exit test is on that line) yield N, or N × element index when there are
  /// several (CSR-style start/end pointers, so that end − start = N), exactly as in the PTX
  /// run (warp_interpreter.h); a loop-exit branch on an unknown predicate at the hinted line
  /// stays in the loop N times.
  std::vector<TripHint> trips;
  std::vector<BranchHint> branches;  ///< `--branch FILE:LINE=P` for other unknown branches
  long long maxInstructions = 200'000'000;  ///< executed one by one (folded ones do not count)
  bool recordStream = false;  ///< keep the dynamic stream (instruction, active mask) in order
  bool recordAddresses = false;  ///< keep the memory accesses (implied by recordStream)
  /// Fold loops whose iterations repeat, as the PTX run does (warp_interpreter.h, LoopFold;
  /// here also: no 32-bit register value may wrap around within the folded iterations, so
  /// that the carries of 64-bit address pairs do not change). Folded accesses are not in
  /// `accesses`: SassWarpCount::folds says which ones repeat and by what address step.
  bool foldLoops = true;
};

/// One execution of a SASS memory instruction by a warp.
struct SassAccess {
  size_t position = 0;  ///< dynamic position in the warp's stream (0-based)
  int instruction = 0;  ///< index in SassFunction::instructions
  /// Byte address per lane (-1 = inactive lane); empty when an active lane's address depends on
  /// untracked values (data-dependent). Global addresses are 64-bit register pairs (pointer
  /// parameters based as in the PTX run), shared ones offsets in the block's shared window,
  /// local ones interleaved per lane.
  std::vector<long long> lanes;
};

/// Counts of one warp.
struct SassWarpCount {
  long long instructions = 0;  ///< dynamic warp instructions
  std::vector<long long> perInstruction;  ///< executions per static instruction
  PtxCfg cfg;  ///< the SASS basic blocks (instruction index ranges), successors and loops
  /// (instruction index, lanes that execute it) in execution order, when recordStream was set.
  std::vector<std::pair<int, std::uint32_t>> stream;
  /// Every execution of a memory instruction with at least one active lane, in order, when
  /// recordStream or recordAddresses was set.
  std::vector<SassAccess> accesses;
  /// How hints resolved loads and branches: (instruction index, "trip hint 16 (loop bound pointers)").
  std::vector<std::pair<int, std::string>> hinted;
  /// Folded iterations (with recordStream or recordAddresses): each repeats `stream`
  /// [streamBegin, streamEnd) and `accesses` [addressBegin, addressEnd) `repeats` times; the
  /// access positions index the recorded `stream`.
  std::vector<LoopFold> folds;
  long long foldedIterations = 0;
};

/// Calls `emit(instruction, mask, lanes)` for positions [begin, end) of the full stream of a run
/// recorded with recordStream (folded repeats with their address steps; lanes null without a
/// known address). Full length: instructions.
void expandSassStream(const SassWarpCount& run, long long begin, long long end,
                      const std::function<void(int, std::uint32_t, const std::vector<long long>*)>& emit);

/// Whether `i` is an atomic or reduction (ATOM, ATOMG, ATOMS, RED, REDG), whose lanes on one
/// address serialize (accessUnits).
[[nodiscard]] bool isSassAtomic(const SassInstruction& i);

/// Runs warp `warp` of block `block` (linear) of `fn`.
[[nodiscard]] Expected<SassWarpCount> runSassWarp(const SassFunction& fn, const SassRunOptions& options,
                                                  long long block, int warp);

}  // namespace foresight::cuda
