// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight gpus`: the table of GPU presets.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "../command.h"
#include "../common_options.h"
#include "foresight/gpu/presets.h"
#include "foresight/report/gpu_views.h"

namespace foresight::cli {

std::function<int()> setupGpus(CLI::App& sub) {
  auto json = std::make_shared<bool>(false);
  sub.add_flag("--json", *json, "Print one JSON object on stdout");
  return [json] {
    std::vector<Gpu> gpus;
    for (const std::string& name : presetNames()) {
      Expected<Gpu> gpu = loadPreset(name);
      if (!gpu) return reportError(gpu.error());
      gpus.push_back(std::move(*gpu));
    }
    const GpuListView view(std::move(gpus));
    PrintOptions print;
    print.json = *json;
    return printView(view, print);
  };
}

}  // namespace foresight::cli
