// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight gpu show NAME|FILE`: prints a validated GPU description as TOML, ready to edit and
/// pass back with --gpu FILE.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "../command.h"
#include "../common_options.h"
#include "foresight/gpu/presets.h"

namespace foresight::cli {

std::function<int()> setupGpu(CLI::App& sub) {
  auto target = std::make_shared<std::string>();
  sub.require_subcommand(1);
  CLI::App* show = sub.add_subcommand("show", "Print a GPU preset or file as TOML");
  show->add_option("gpu", *target, "Preset name or .toml file")->required();
  return [target] {
    // Validate first: printing a description that does not load would mislead.
    Expected<Gpu> gpu = resolveGpu(*target);
    if (!gpu) return reportError(gpu.error());
    if (Expected<std::string_view> preset = presetText(*target)) {
      std::cout << *preset;
      return kExitOk;
    }
    std::ifstream in(*target);
    std::stringstream text;
    text << in.rdbuf();
    std::cout << text.str();
    return kExitOk;
  };
}

}  // namespace foresight::cli
