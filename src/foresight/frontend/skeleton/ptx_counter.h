// SPDX-License-Identifier: Apache-2.0
/// \file
/// Functional-instruction counting (grophecy.md §2.4): the PTX instructions between the markers
/// `// GROPHECY_BB <id> BEGIN` and `// GROPHECY_BB <id> END` that `asm volatile` statements
/// leave in nvcc's PTX. Directives, labels, comments, braces and the inline-asm wrappers are not
/// instructions. The compile step (nvcc) belongs to the caller; this is pure text analysis.
///
/// Example: a marked block holding `mul.f32`, `add.f32` and a label counts 2.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "foresight/support/error.h"

namespace foresight::skeleton {

/// The count of one marked block.
struct PtxBlockCount {
  std::string id;
  int instructions = 0;  ///< in its first occurrence
  int occurrences = 1;   ///< how often nvcc emitted the block (unrolling, duplication)
  int line = 0;          ///< line of the first BEGIN marker in the PTX
};

/// What the PTX holds.
struct PtxCount {
  std::vector<PtxBlockCount> blocks;  ///< in order of first appearance
  int outside = 0;  ///< instructions outside every marked block (loops, branches: peripheral)
};

/// Counts the instructions of every marked block. Errors for an END without BEGIN, nested
/// markers, or a BEGIN never closed (line numbers refer to the PTX).
[[nodiscard]] Expected<PtxCount> countPtxBlocks(std::string_view ptx,
                                                const std::string& sourceName);

/// The header the count-ptx command prepends: defines GROPHECY_KERNEL, GROPHECY_BEGIN(id) and
/// GROPHECY_END(id) so a marked C function compiles as a single-thread CUDA kernel.
[[nodiscard]] std::string ptxMarkerPrelude();

}  // namespace foresight::skeleton
