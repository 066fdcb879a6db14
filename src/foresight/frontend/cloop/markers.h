// SPDX-License-Identifier: Apache-2.0
/// \file
/// The C loop frontend's source markers (docs/input-cloop.md): `#pragma cgpredict kernel ...`
/// before the loop nest that becomes one CUDA kernel, and `#pragma cgpredict trace(N=128)` for
/// the problem size that is traced. Clang ignores unknown pragmas, so the marked file stays
/// plain C; Foresight reads the pragmas from the text and finds the loop by its source line.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "foresight/support/error.h"

namespace foresight::cloop {

/// One `#pragma cgpredict kernel [name(X)] [grid(1|2)] [block(BX[,BY])] [shared(A,...)]`.
struct KernelMarker {
  int pragmaLine = 0;        ///< 1-based line of the pragma
  int loopLine = 0;          ///< line of the `for` the pragma marks
  std::string name;          ///< empty = derived from the function
  int gridDims = 0;          ///< 1 or 2; 0 = decide from the loop nest (perfect 2-deep → 2)
  long long blockX = 0;      ///< 0 = default (256 for 1-D, 32 for 2-D)
  long long blockY = 0;      ///< 0 = default (1 for 1-D, 8 for 2-D)
  std::vector<std::string> shared;  ///< arrays hinted to live in shared memory
};

/// Everything the markers of one file say.
struct SourceMarkers {
  std::vector<KernelMarker> kernels;
  /// `#pragma cgpredict trace(N=128, M=64)`: the size macros and their traced values, in order.
  std::vector<std::pair<std::string, long long>> traceSizes;
  int traceLine = 0;
  /// `#pragma cgpredict limits(cpu=SECONDS, memory=MIB)`: limits of the traced run (0 = default).
  double cpuSeconds = 0;
  long long memoryMiB = 0;
  /// `#define NAME <integer>` found in the file (the default problem sizes).
  std::map<std::string, long long> defines;
};

/// Reads the markers of `text` (the contents of `path`). Errors carry path:line.
[[nodiscard]] Expected<SourceMarkers> parseMarkers(const std::string& path, const std::string& text);

}  // namespace foresight::cloop
