// SPDX-License-Identifier: Apache-2.0
/// \file
/// `PtxCfg`: basic blocks of one PTX kernel, their successors, immediate post-dominators (the
/// reconvergence points of divergent branches) and natural loops (from back edges to a
/// dominating header).
#pragma once

#include <vector>

#include "foresight/frontend/cuda/ptx_module.h"
#include "foresight/support/error.h"

namespace foresight::cuda {

/// One basic block: instructions [first, end).
struct PtxBlock {
  int first = 0;
  int end = 0;
  int taken = -1;        ///< branch target block of the terminator, -1 = none
  int fallthrough = -1;  ///< next block when the terminator does not branch, -1 = none (ret)
  std::vector<int> successors;
  int ipdom = -1;        ///< immediate post-dominator; -1 = the virtual exit
  int loop = -1;         ///< innermost loop containing the block, -1 = none
};

/// A natural loop.
struct PtxLoop {
  int header = 0;
  std::vector<int> blocks;  ///< sorted, header included
  int parent = -1;          ///< enclosing loop, -1 = none
  [[nodiscard]] bool contains(int block) const;
};

/// The control-flow graph of a kernel.
struct PtxCfg {
  std::vector<PtxBlock> blocks;
  std::vector<PtxLoop> loops;  ///< outer loops before inner ones
  std::vector<int> blockOf;    ///< instruction index → block index
};

/// Builds the CFG; an Error for a branch to an unknown label or an indirect branch.
[[nodiscard]] Expected<PtxCfg> buildCfg(const PtxKernel& kernel, const std::string& fileName);

/// Fills `ipdom`, `loop` and `loops` of a CFG whose blocks and successors are set (shared with
/// the SASS CFG); `mayExit[b]` says that block b can leave the kernel.
void analyseCfg(PtxCfg& cfg, const std::vector<char>& mayExit);

}  // namespace foresight::cuda
