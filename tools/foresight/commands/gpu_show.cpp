// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight gpu show NAME|FILE`: prints a validated GPU description as TOML, ready to edit and
/// pass back with --gpu FILE; with --msl, its PORPLE memory specification (the MSL `foresight
/// place` derives from it, gpu/msl.h), ready to edit and pass to `place --msl FILE`.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "foresight/gpu/msl.h"
#include "foresight/gpu/presets.h"
#include "foresight/support/text_file.h"

namespace foresight::cli {

std::function<int()> setupGpu(CLI::App& sub) {
  auto target = std::make_shared<std::string>();
  auto msl = std::make_shared<bool>(false);
  sub.require_subcommand(1);
  CLI::App* show = sub.add_subcommand("show", "Print a GPU preset or file as TOML");
  show->add_option("gpu", *target, "Preset name or .toml file")->required();
  show->add_flag("--msl", *msl, "print the GPU's memories in PORPLE's MSL (for place --msl) instead");
  return [target, msl] {
    // Validate first: printing a description that does not load would mislead.
    Expected<Gpu> gpu = resolveGpu(*target);
    if (!gpu) return reportError(gpu.error());
    if (*msl) {
      std::cout << writeMsl(mslFromGpu(*gpu));
      return kExitOk;
    }
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
