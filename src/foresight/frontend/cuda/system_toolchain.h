// SPDX-License-Identifier: Apache-2.0
/// \file
/// `SystemToolchain`: the real Toolchain. Finds nvcc and ptxas in `$CUDA_HOME/bin` or on
/// `PATH`, and nvdisasm on `PATH`, in `$CUDA_HOME/bin` or in the project-local tools folder
/// that scripts/setup.sh fills from Debian's nvidia-cuda-toolkit 12.5 package
/// (`.tools/cuda-12.5/usr/bin`). Paths are resolved once, at construction.
#pragma once

#include <memory>
#include <string>

#include "foresight/frontend/cuda/toolchain.h"

namespace foresight::cuda {

/// Where to look for the tools.
struct SystemToolchainOptions {
  std::string cudaHome;  ///< empty = `$CUDA_HOME`, then PATH only
  /// Project-local tools folder; empty = `$FORESIGHT_TOOLS_DIR`, else the source tree's
  /// `.tools/` (compiled in).
  std::string toolsDir;
  std::string path;  ///< empty = `$PATH`
};

/// Creates the real toolchain (never fails: missing tools are reported when used).
[[nodiscard]] std::unique_ptr<Toolchain> createSystemToolchain(
    const SystemToolchainOptions& options = {});

}  // namespace foresight::cuda
