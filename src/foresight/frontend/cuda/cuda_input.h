// SPDX-License-Identifier: Apache-2.0
/// \file
/// The CUDA frontend behind `loadInput`: turns InputOptions into CudaOptions, runs loadCuda()
/// and packages the kernel as a LoadedInput (frontend "cuda").
#pragma once

#include <string>

#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/frontend/input.h"

namespace foresight::cuda {

/// CudaOptions from the generic input options; an Error when no GPU or launch is given.
[[nodiscard]] Expected<CudaOptions> toCudaOptions(const std::string& path, const InputOptions& options);

/// Loads a .cu/.ptx/.cubin/.sass file and analyses the selected kernel; `program` (optional)
/// receives the full analysis for `foresight ir`.
[[nodiscard]] Expected<LoadedInput> loadCudaInput(const std::string& path, const InputOptions& options,
                                                  CudaProgram* program = nullptr);

}  // namespace foresight::cuda

namespace foresight {
using cuda::loadCudaInput;
}  // namespace foresight
