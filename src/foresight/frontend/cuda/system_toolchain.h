// SPDX-License-Identifier: Apache-2.0
/// \file
/// `SystemToolchain`: the real Toolchain. Finds nvcc and ptxas in `$CUDA_HOME/bin` or on
/// `PATH`, and nvdisasm on `PATH`, in `$CUDA_HOME/bin` or in the project-local tools folder
/// that scripts/setup.sh fills from Debian's nvidia-cuda-toolkit 12.5 package
/// (`.tools/cuda-12.5/usr/bin`). Paths are resolved once, at construction. Each run of a tool
/// has a wall-clock limit (support/process.h): a tool that runs past it is killed, with its
/// process group, and the call returns "nvdisasm did not finish within 60 s (killed); raise the
/// limit with --tool-timeout SECONDS".
#pragma once

#include <memory>
#include <string>

#include "foresight/frontend/cuda/toolchain.h"
#include "foresight/support/progress.h"

namespace foresight::cuda {

/// Time limits of one run of each tool when SystemToolchainOptions::toolTimeoutSeconds is 0.
inline constexpr double kNvccTimeoutSeconds = 300;
inline constexpr double kPtxasTimeoutSeconds = 120;
inline constexpr double kNvdisasmTimeoutSeconds = 60;

/// Where to look for the tools, and how long to let them run.
struct SystemToolchainOptions {
  std::string cudaHome;  ///< empty = `$CUDA_HOME`, then PATH only
  /// Project-local tools folder; empty = `$FORESIGHT_TOOLS_DIR`, else the source tree's
  /// `.tools/` (compiled in).
  std::string toolsDir;
  std::string path;  ///< empty = `$PATH`
  /// Wall-clock limit of every tool run (`--tool-timeout`); 0 = the tool's default above.
  double toolTimeoutSeconds = 0;
  /// Told when a tool run starts and ends ("nvcc matmul.cu"); empty = nobody.
  ProgressCallback progress;
};

/// Creates the real toolchain (never fails: missing tools are reported when used).
[[nodiscard]] std::unique_ptr<Toolchain> createSystemToolchain(
    const SystemToolchainOptions& options = {});

}  // namespace foresight::cuda
