// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight gpu show NAME|FILE`: prints a validated GPU description as TOML, ready to edit and
/// pass back with --gpu FILE.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "foresight/gpu/presets.h"
#include "foresight/support/text_file.h"

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
    Expected<std::string> text = readTextFile(*target, "GPU description");
    if (!text) return reportError(text.error());
    std::cout << *text;
    return kExitOk;
  };
}

}  // namespace foresight::cli
