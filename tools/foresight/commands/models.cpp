// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight models [--gpu GPU]`: the models Foresight has (model/registry.h) and the default
/// for each kind of input.
#include <CLI/CLI.hpp>
#include <memory>
#include <optional>

#include "../command.h"
#include "../common_options.h"
#include "foresight/gpu/presets.h"
#include "foresight/report/model_views.h"

namespace foresight::cli {

std::function<int()> setupModels(CLI::App& sub) {
  auto json = std::make_shared<bool>(false);
  auto gpuName = std::make_shared<std::string>();
  sub.add_option("--gpu", *gpuName, "GPU preset or file: CUDA's default depends on what it describes");
  sub.add_flag("--json", *json, "Print one JSON object on stdout");
  return [json, gpuName] {
    std::optional<Gpu> gpu;
    if (!gpuName->empty()) {
      Expected<Gpu> g = resolveGpu(*gpuName);
      if (!g) return reportError(g.error());
      gpu = std::move(*g);
    }
    PrintOptions print;
    print.json = *json;
    return printView(ModelListView(gpu ? &*gpu : nullptr), print);
  };
}

}  // namespace foresight::cli
