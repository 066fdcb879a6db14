// SPDX-License-Identifier: Apache-2.0
/// \file
/// JSON requests: predict, explain and explore for front ends that speak JSON (the Python
/// module, `foresight batch`). A request is one JSON object; the result is the JSON text the
/// CLI prints with `--json` for the same input and options (the same report views build both).
///
/// Request keys (docs/python.md#requests): `path` (required), `gpu` (preset name or .toml, default
/// h100), `kernel`, `grid` and `block` (an int or up to three; explore: expressions), `args`
/// (name → number; explore: numbers or expressions), `defines` (name → value), `dynamic_shared`,
/// `carveout`, `include_dirs`, `nvcc_flags`, `trips` and `branches` ("file.cu:LINE" → value),
/// `tool_timeout`, `model`, `variant`, `policy`, `l1_hit_rate`, `l2_hit_rate`, `l2` ("cold" or "warm"); explore also
/// `space` (a --space string or name → list of values), `max_variants`, `jobs`, `shard` ([i, n]).
#pragma once

#include <string>

#include "foresight/support/error.h"

namespace foresight {

/// The GPU presets (`foresight gpus --json`).
[[nodiscard]] Expected<std::string> gpusRequest();
/// One prediction (`predict --json`).
[[nodiscard]] Expected<std::string> predictRequest(const std::string& request);
/// One explanation (`explain --json`).
[[nodiscard]] Expected<std::string> explainRequest(const std::string& request);
/// A search over a space (`explore --json`).
[[nodiscard]] Expected<std::string> exploreRequest(const std::string& request);

}  // namespace foresight
