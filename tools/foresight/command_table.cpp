// SPDX-License-Identifier: Apache-2.0
/// \file
/// The list of subcommands.
#include "command.h"

namespace foresight::cli {

std::function<int()> setupGpus(CLI::App& sub);
std::function<int()> setupGpu(CLI::App& sub);
std::function<int()> setupPredict(CLI::App& sub);

std::span<const Command> commands() {
  static const Command kCommands[] = {
      {"gpus", "List the GPU presets", &setupGpus},
      {"gpu", "Show a GPU description (gpu show NAME|FILE)", &setupGpu},
      {"predict", "Predict a kernel's time, occupancy and bound", &setupPredict},
  };
  return kCommands;
}

}  // namespace foresight::cli
