// SPDX-License-Identifier: Apache-2.0
/// \file
/// Common option registration and conversion.
#include "common_options.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "command.h"

namespace foresight::cli {

namespace {

Expected<Dim3> parseDim3(const std::string& text, const char* what) {
  Dim3 d;
  long long* parts[] = {&d.x, &d.y, &d.z};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    try {
      size_t used = 0;
      const long long v = std::stoll(part, &used);
      if (used != part.size() || v <= 0) throw std::invalid_argument(part);
      *parts[i] = v;
    } catch (const std::exception&) {
      return makeError(std::string("--") + what + " '" + text + "' must be X[,Y[,Z]] with positive integers");
    }
    if (comma == std::string::npos) return d;
    start = comma + 1;
  }
  return makeError(std::string("--") + what + " '" + text + "' has more than three extents");
}

}  // namespace

void addCommonOptions(CLI::App& sub, CommonOptions& o) {
  sub.add_option("input", o.input, "Input file (.toml workload summary)")->required();
  sub.add_option("--gpu", o.gpu, "GPU preset name or description file (.toml)")->capture_default_str();
  sub.add_option("--model", o.model, "Model: auto | mwp-cwp")->capture_default_str();
  sub.add_option("--variant", o.variant, "MWP-CWP variant: hong-kim | grophecy | cgpredict")
      ->capture_default_str();
  sub.add_option("--kernel", o.kernel, "Kernel to predict when the input has several");
  sub.add_option("--grid", o.grid, "Grid in blocks, X[,Y[,Z]] (overrides the input's)");
  sub.add_option("--block", o.block, "Block in threads, X[,Y[,Z]] (overrides the input's)");
  sub.add_flag("--quantize-waves", o.quantizeWaves, "Round waves of blocks up to whole waves");
  sub.add_flag("--json", o.json, "Print one JSON object on stdout");
}

Expected<ModelOptions> toModelOptions(const CommonOptions& o) {
  ModelOptions m;
  if (o.model == "auto") {
    m.model = ModelKind::Auto;
  } else if (o.model == "mwp-cwp") {
    m.model = ModelKind::MwpCwp;
  } else {
    return makeError("unknown model '" + o.model + "' (available: auto, mwp-cwp)");
  }
  const std::optional<MwpCwpVariant> variant = parseMwpCwpVariant(o.variant);
  if (!variant) {
    return makeError("unknown variant '" + o.variant + "' (available: hong-kim, grophecy, cgpredict)");
  }
  m.variant = *variant;
  m.quantizeWaves = o.quantizeWaves;
  return m;
}

Expected<Launch> resolveLaunch(const CommonOptions& o, const std::optional<Launch>& fromInput) {
  Launch launch = fromInput.value_or(Launch{});
  if (!fromInput && (o.grid.empty() || o.block.empty())) {
    return makeError("the input gives no launch; pass --grid and --block", o.input, 0);
  }
  if (!o.grid.empty()) {
    Expected<Dim3> grid = parseDim3(o.grid, "grid");
    if (!grid) return std::move(grid).takeError();
    launch.grid = *grid;
  }
  if (!o.block.empty()) {
    Expected<Dim3> block = parseDim3(o.block, "block");
    if (!block) return std::move(block).takeError();
    launch.block = *block;
  }
  return launch;
}

int reportError(const Error& error) {
  std::cerr << "foresight: " << error.format() << "\n";
  return kExitError;
}

}  // namespace foresight::cli
