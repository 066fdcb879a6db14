// SPDX-License-Identifier: Apache-2.0
/// \file
/// `InputOptions`: what a frontend may need besides the input file — the target GPU, the
/// launch from the command line, the kernel, `-D` macros and source hints. Frontends that read
/// everything from the file (summary TOML) ignore it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/ir/launch.h"
#include "foresight/support/progress.h"

namespace foresight {

namespace cuda {
class Toolchain;
}
namespace cloop {
struct Advice;
struct AdviceContext;
}

/// A value attached to a source line: `--trip FILE:LINE=N`, `--branch FILE:LINE=P`.
struct SourceHint {
  std::string file;  ///< file name as written (matched against the end of the source path)
  int line = 0;
  double value = 0;
};

/// Options of loadInput().
struct InputOptions {
  const Gpu* gpu = nullptr;        ///< target GPU (the CUDA frontend compiles for its arch)
  std::optional<Launch> launch;    ///< grid, block and scalar arguments from the command line
  std::string kernel;              ///< kernel to load when the file has several
  std::vector<std::pair<std::string, std::string>> macros;  ///< -D NAME[=VALUE]
  std::vector<std::string> includeDirs;  ///< -I DIR: include paths of CUDA compilation
  std::vector<std::string> nvccFlags;    ///< --nvcc-flag: further flags of CUDA compilation
  std::vector<SourceHint> trips;     ///< loop trip counts by source line
  std::vector<SourceHint> branches;  ///< branch-taken probabilities by source line
  /// CUDA toolchain to use; nullptr = the system's nvcc/ptxas/nvdisasm behind the compile cache.
  cuda::Toolchain* toolchain = nullptr;
  /// Wall-clock limit in seconds of each run of nvcc, ptxas and nvdisasm by that system
  /// toolchain, and of clang for C inputs (`--tool-timeout`); 0 = each tool's default
  /// (system_toolchain.h, cloop/program.h).
  double toolTimeoutSeconds = 0;
  /// C loops: CGPredict's optimization advice, called per kernel while its trace exists. The
  /// advisor predicts, so it comes from above the frontends (`cloop::adviseKernel`,
  /// advise/cloop_advice.h; the CLI passes it); empty = no advice.
  std::function<std::vector<cloop::Advice>(const cloop::AdviceContext&)> cloopAdvisor;
  /// Told when a stage that can take more than a second starts, advances and ends (nvcc,
  /// nvdisasm, warp interpretation, clang, the traced C program); empty = nobody is told.
  ProgressCallback progress;
};

}  // namespace foresight
