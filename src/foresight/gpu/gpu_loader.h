// SPDX-License-Identifier: Apache-2.0
/// \file
/// Strict loading of GPU descriptions from TOML (format: docs/gpu-format.md). An unknown key, a
/// missing required key, a wrong type, an unknown unit or a malformed provenance is an Error with
/// file, line and, for misspellings, a "did you mean" suggestion. Nothing is defaulted silently.
#pragma once

#include <string>
#include <string_view>

#include "foresight/gpu/gpu.h"
#include "foresight/support/error.h"

namespace foresight {

/// Parses a GPU description. `sourceName` is used in error messages and stored in Gpu::sourceFile.
[[nodiscard]] Expected<Gpu> loadGpuFromString(std::string_view text, const std::string& sourceName);

/// Reads and parses a GPU description file.
[[nodiscard]] Expected<Gpu> loadGpuFile(const std::string& path);

}  // namespace foresight
