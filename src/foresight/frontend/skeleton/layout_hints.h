// SPDX-License-Identifier: Apache-2.0
/// \file
/// The hints file (grophecy.md §2.5, format [C]; docs/skeleton-language.md "Hints file"): a TOML
/// file that restricts the layout search ([domain]: a domain per factor), pins one layout
/// ([layout]), and overrides Table 3's constants ([peripheral]). Strict: unknown keys are errors
/// with line numbers and suggestions.
///
///   [layout]                 # the hand-written MatMul of Listing 3
///   block = [16, 16]
///   stage = { k = 16 }
///   cache = ["A", "B"]
///   # order = ["c", "r"]   # O: stream loops in traversal order (perfect nests only)
#pragma once

#include <string>
#include <string_view>

#include "foresight/frontend/skeleton/characterizer.h"
#include "foresight/frontend/skeleton/layout.h"
#include "foresight/support/error.h"

namespace foresight::skeleton {

/// What a hints file says.
struct LayoutHints {
  LayoutDomain domain;    ///< a pinned [layout] becomes a domain of one value per factor
  bool pinned = false;    ///< the file had a [layout] table
  PeripheralCosts costs;  ///< Table 3, with the file's overrides applied to the given defaults
};

/// Parses hints text; `defaults` are the Table 3 values the file may override.
[[nodiscard]] Expected<LayoutHints> parseLayoutHints(std::string_view text,
                                                     const std::string& sourceName,
                                                     const PeripheralCosts& defaults = {});

/// Reads and parses a hints file.
[[nodiscard]] Expected<LayoutHints> loadLayoutHints(const std::string& path,
                                                    const PeripheralCosts& defaults = {});

}  // namespace foresight::skeleton
