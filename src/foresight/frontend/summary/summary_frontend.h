// SPDX-License-Identifier: Apache-2.0
/// \file
/// The summary frontend: a TOML file that states a kernel's WorkloadSummary and launch directly
/// (docs/input-summary.md), so the closed-form models are usable before richer frontends exist
/// and so the papers' worked examples can be reproduced from their published inputs.
#pragma once

#include <string>
#include <string_view>

#include "foresight/frontend/input.h"
#include "foresight/support/error.h"

namespace foresight {

/// Parses a summary from text; `sourceName` is used in error messages.
[[nodiscard]] Expected<LoadedInput> loadSummaryFromString(std::string_view text,
                                                          const std::string& sourceName);

/// Reads and parses a summary file.
[[nodiscard]] Expected<LoadedInput> loadSummaryFile(const std::string& path);

}  // namespace foresight
