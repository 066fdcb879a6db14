// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight ir FILE.cu --kernel K --grid X --block Y --arg NAME=VALUE …`: the KernelIR the
/// CUDA frontend derives (resources, SASS summary, loops, blocks, memory behaviour), for
/// debugging the frontend.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "../command.h"
#include "../common_options.h"
#include "foresight/frontend/cuda/cuda_input.h"
#include "foresight/gpu/presets.h"
#include "foresight/report/cuda_program_view.h"

namespace foresight::cli {

namespace {

int runIr(const CommonOptions& o) {
  Expected<Gpu> gpu = resolveOneGpu(o, "ir");
  if (!gpu) return reportError(gpu.error());
  Expected<InputOptions> inputOptions = toInputOptions(o, *gpu);
  if (!inputOptions) return reportError(inputOptions.error());
  cuda::CudaProgram program;
  Expected<LoadedInput> input = cuda::loadCudaInput(o.input, *inputOptions, &program);
  if (!input) return reportError(input.error());
  const cuda::CudaProgramView view(program);
  return printView(view, printOptions(o));
}

}  // namespace

std::function<int()> setupIr(CLI::App& sub) {
  auto options = std::make_shared<CommonOptions>();
  addCommonOptions(sub, *options);
  return [options] { return runIr(*options); };
}

}  // namespace foresight::cli
