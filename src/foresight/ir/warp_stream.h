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

}  // namespace foresight
