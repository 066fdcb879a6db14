// SPDX-License-Identifier: Apache-2.0
/// \file
/// Preset lookup by name, and resolution of `--gpu` arguments.
#include "foresight/gpu/presets.h"

#include "foresight/gpu/gpu_loader.h"
#include "foresight/support/edit_distance.h"

namespace foresight {

std::vector<std::string> presetNames() {
  std::vector<std::string> names;
  for (const PresetText& p : presetTexts()) names.emplace_back(p.name);
  return names;
}

Expected<std::string_view> presetText(std::string_view name) {
  for (const PresetText& p : presetTexts()) {
    if (name == p.name) return std::string_view(p.text);
  }
  const std::vector<std::string> names = presetNames();
  return makeError("unknown GPU '" + std::string(name) + "'" + didYouMean(name, names) +
                   " (run 'foresight gpus' for the list, or pass a .toml file)");
}

Expected<Gpu> loadPreset(std::string_view name) {
  Expected<std::string_view> text = presetText(name);
  if (!text) return std::move(text).takeError();
  return loadGpuFromString(*text, "gpus/" + std::string(name) + ".toml");
}

Expected<Gpu> resolveGpu(const std::string& nameOrPath) {
  const bool isPath = nameOrPath.find('/') != std::string::npos ||
                      (nameOrPath.size() > 5 && nameOrPath.ends_with(".toml"));
  if (isPath) return loadGpuFile(nameOrPath);
  return loadPreset(nameOrPath);
}

}  // namespace foresight
