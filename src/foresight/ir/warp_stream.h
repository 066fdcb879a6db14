// SPDX-License-Identifier: Apache-2.0
/// \file
/// Per-warp dynamic instruction streams of a KernelIR. A frontend that can execute warps (the
/// CUDA frontend) attaches a `WarpStreamSource` to its KernelIR (`KernelIR::streams`); models
/// that replay instructions in order (the `emulate` model) ask it for the stream of any warp of
/// the launch, generated on demand. When a KernelIR has no source (summaries, skeletons),
/// `synthesizeStream()` derives one from the blocks' execution counts and loops.
#pragma once

#include <cstdint>
#include <vector>

#include "foresight/ir/kernel_ir.h"
#include "foresight/support/error.h"

namespace foresight {

/// One dynamic execution of a KernelIR instruction by a warp.
struct DynamicInstruction {
  int block = 0;  ///< index into KernelIR::blocks
  int index = 0;  ///< index into BasicBlock::instructions
  std::uint32_t activeMask = 0xffffffffu;  ///< lanes that execute it
  /// Byte address per lane of this execution (negative = inactive lane) when the instruction
  /// accesses memory and its addresses are known; empty = use the static MemoryAccess.
  std::vector<long long> laneAddresses;
};

/// Produces the dynamic instruction stream of any warp of one launch.
class WarpStreamSource {
 public:
  virtual ~WarpStreamSource() = default;
  /// The stream of warp `warp` (0-based within its block) of block `block` (linear index), in
  /// execution order.
  [[nodiscard]] virtual Expected<std::vector<DynamicInstruction>> stream(long long block, int warp) const = 0;
};

/// Options of synthesizeStream().
struct StreamSynthesis {
  /// Cap on the instructions returned (0 = none). A longer stream keeps a proportional sample
  /// of its rounds (see synthesizeStream) and reports the ratio in `scale`.
  long long maxInstructions = 0;
  long long warpIndex = 0;   ///< linear index of the warp in the launch (address offsets)
  long long totalWarps = 1;  ///< warps in the launch
};

/// A synthesized stream and how much of the full one it represents.
struct SynthesizedStream {
  std::vector<DynamicInstruction> instructions;
  double fullLength = 0;  ///< dynamic instructions of the uncapped stream (Σ executions x size)
  double scale = 1;       ///< fullLength / instructions.size()
};

/// Derives one warp's dynamic stream from a KernelIR without a WarpStreamSource (summaries,
/// skeletons, CUDA kernels before exact streams): the blocks are replayed in K "rounds", K the
/// largest `executionsPerWarp`; a block executed n times runs in n of the K rounds, spread
/// evenly; blocks before the hottest blocks run in the first rounds (prologue), blocks after
/// them in the last rounds (epilogue). A stream over `maxInstructions` replays only K' < K
/// rounds with every count scaled by K'/K. Global, local and texture accesses with
/// representative lane addresses get fresh addresses for each warp and execution: the
/// representative addresses shifted by (warpIndex + execution x totalWarps) x span, span their
/// extent rounded up to 128 B (no reuse across executions is assumed: exact reuse needs a
/// WarpStreamSource). Errors for a kernel with no instructions.
[[nodiscard]] Expected<SynthesizedStream> synthesizeStream(const KernelIR& kernel,
                                                           const StreamSynthesis& options = {});

}  // namespace foresight
