// SPDX-License-Identifier: Apache-2.0
/// \file
/// The manifests the corpus benchmarks run (validation/**.toml: our corpus and the public set,
/// less measurements/ and runner/), sorted, and a benchmark name for each ("group/experiment").
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <optional>
#include <vector>

#include "foresight/validation/manifest.h"

namespace foresight::bench {

inline std::vector<std::string> corpusManifests() {
  const std::filesystem::path root = std::filesystem::path(FORESIGHT_SOURCE_DIR) / "validation";
  std::error_code ec;
  std::vector<std::string> manifests;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec); !ec && it != std::filesystem::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string p = it->path().string();
    if (it->path().extension() == ".toml" && p.find("/measurements/") == std::string::npos && p.find("/runner/") == std::string::npos) {
      manifests.push_back(p);
    }
  }
  std::sort(manifests.begin(), manifests.end());
  return manifests;
}

/// "suite-folder/experiment" of a manifest path.
inline std::string corpusName(const std::string& manifest) {
  const std::filesystem::path p(manifest);
  return p.parent_path().filename().string() + "/" + p.stem().string();
}

/// The first variant of a manifest with every expression evaluated; nullopt (the benchmark
/// skipped with the error) when it does not load.
inline std::optional<ResolvedExperiment> firstVariant(benchmark::State& state, const std::string& manifest) {
  Expected<Manifest> m = loadManifest(manifest);
  if (!m) {
    state.SkipWithError(m.error().message.c_str());
    return std::nullopt;
  }
  Expected<ResolvedExperiment> e = resolveVariant(*m, m->variants.front());
  if (!e) {
    state.SkipWithError(e.error().message.c_str());
    return std::nullopt;
  }
  return std::move(*e);
}

}  // namespace foresight::bench
