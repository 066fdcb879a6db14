// SPDX-License-Identifier: Apache-2.0
/// \file
/// `FixtureToolchain`: a Toolchain that serves stored outputs instead of running NVIDIA's
/// tools, so tests need neither nvcc nor nvdisasm. For a source `DIR/NAME.cu` (only the file
/// name counts) and architecture `sm_XX` it returns `FIXDIR/NAME.sm_XX.ptx`, `.cubin` and
/// `.sass` (scripts/update_cuda_fixtures.sh writes them). Macros are not supported: a request
/// with -D macros is an Error, because no fixture records them.
#pragma once

#include <memory>
#include <string>

#include "foresight/frontend/cuda/toolchain.h"

namespace foresight::cuda {

/// Options of the fixture toolchain.
struct FixtureToolchainOptions {
  std::string directory;      ///< folder holding NAME.sm_XX.{ptx,cubin,sass}
  bool withDisassembler = true;  ///< false: behave as if nvdisasm were absent
};

/// Creates a toolchain over a fixture folder.
[[nodiscard]] std::unique_ptr<Toolchain> createFixtureToolchain(
    const FixtureToolchainOptions& options);

}  // namespace foresight::cuda
