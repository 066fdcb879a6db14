// SPDX-License-Identifier: Apache-2.0
/// \file
/// The GPU presets shipped in gpus/*.toml, compiled into the library (cmake/EmbedPresets.cmake),
/// and the one function that turns a `--gpu NAME|FILE` argument into a Gpu.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/support/error.h"

namespace foresight {

/// The name and TOML text of one preset (generated file).
struct PresetText {
  const char* name;
  const char* text;
};

/// All presets, in the order of FORESIGHT_PRESETS in src/foresight/CMakeLists.txt.
[[nodiscard]] std::span<const PresetText> presetTexts();

/// Names of all presets.
[[nodiscard]] std::vector<std::string> presetNames();

/// The TOML text of a preset, or an Error naming the closest preset.
[[nodiscard]] Expected<std::string_view> presetText(std::string_view name);

/// Loads a preset by name ("h100"); unknown names give an Error with a suggestion.
[[nodiscard]] Expected<Gpu> loadPreset(std::string_view name);

/// A `--gpu` argument: a path when it contains '/' or ends in ".toml", else a preset name.
[[nodiscard]] Expected<Gpu> resolveGpu(const std::string& nameOrPath);

}  // namespace foresight
