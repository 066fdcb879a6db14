// SPDX-License-Identifier: Apache-2.0
/// \file
/// Float comparisons as PTX `setp` and SASS `FSETP` make them, shared by both runs.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace foresight::cuda {

/// The comparison `cmp` (lower case: eq, ne, lt, le, gt, ge; their unordered forms equ, neu,
/// ltu, leu, gtu, geu; num, nan) of x and y: the ordered ones are false when either is NaN,
/// the unordered ones true; nullopt for an unknown operator.
[[nodiscard]] inline std::optional<bool> compareFloats(std::string_view cmp, double x, double y) {
  const bool unordered = std::isnan(x) || std::isnan(y);
  if (cmp == "num") return !unordered;
  if (cmp == "nan") return unordered;
  const bool u = cmp.size() == 3 && cmp.back() == 'u';
  const std::string_view c = u ? cmp.substr(0, 2) : cmp;
  if (unordered) return u;
  if (c == "eq") return x == y;
  if (c == "ne") return x != y;
  if (c == "lt") return x < y;
  if (c == "le") return x <= y;
  if (c == "gt") return x > y;
  if (c == "ge") return x >= y;
  return std::nullopt;
}

}  // namespace foresight::cuda
