// SPDX-License-Identifier: Apache-2.0
/// \file
/// The list of subcommands.
#include "command.h"

namespace foresight::cli {

std::function<int()> setupGpus(CLI::App& sub);
std::function<int()> setupGpu(CLI::App& sub);
std::function<int()> setupModels(CLI::App& sub);
std::function<int()> setupPredict(CLI::App& sub);
std::function<int()> setupExplore(CLI::App& sub);
std::function<int()> setupExplain(CLI::App& sub);
std::function<int()> setupCountPtx(CLI::App& sub);
std::function<int()> setupIr(CLI::App& sub);
std::function<int()> setupValidate(CLI::App& sub);
std::function<int()> setupCalibrate(CLI::App& sub);
std::function<int()> setupBound(CLI::App& sub);
std::function<int()> setupPlace(CLI::App& sub);
std::function<int()> setupMerge(CLI::App& sub);
std::function<int()> setupBatch(CLI::App& sub);

std::span<const Command> commands() {
  static const Command kCommands[] = {
      {"gpus", "List the GPU presets", &setupGpus},
      {"gpu", "Show a GPU description (gpu show NAME|FILE)", &setupGpu},
      {"models", "List the models, where each comes from, and the default per input kind", &setupModels},
      {"predict", "Predict a kernel's time, occupancy and bound", &setupPredict},
      {"explain", "Emulate a kernel: bottleneck resource and mode (sensitivity), what-if penalties", &setupExplain},
      {"explore", "Rank the GPU code layouts of a skeleton (.sk), or a kernel's variants over a --space", &setupExplore},
      {"merge", "Merge the --json reports of the shards of one explore --shard search", &setupMerge},
      {"batch", "Run many predict/explain/explore requests (JSON lines) on every core", &setupBatch},
      {"place", "Choose where each global array of a CUDA kernel lives (PORPLE data placement)", &setupPlace},
      {"bound", "Attainable SGEMM peak of a GPU and what binds it (Lai's upper-bound analysis)", &setupBound},
      {"count-ptx", "Count PTX instructions per marked block of a C function (skeleton comp values)", &setupCountPtx},
      {"ir", "Dump the KernelIR of a CUDA kernel (.cu/.ptx/.cubin/.sass) for debugging", &setupIr},
      {"calibrate", "On a machine with a GPU: microbenchmarks -> GPU description", &setupCalibrate},
      {"validate", "Predicted vs measured times of the experiment corpus", &setupValidate},
  };
  return kCommands;
}

}  // namespace foresight::cli
