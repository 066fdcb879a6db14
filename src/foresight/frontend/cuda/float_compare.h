// SPDX-License-Identifier: Apache-2.0
/// \file
/// Float comparisons as PTX `setp` and SASS `FSETP` make them, shared by both runs, and the
/// range check SASS `FCHK` makes before a float division.
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

/// Whether `a / b` takes the slow path of the IEEE float division ptxas emits (FCHK sets the
/// predicate that calls it). The fast path multiplies by a refined reciprocal of b; it is exact
/// for normal operands whose reciprocal and quotient stay normal. NVIDIA does not document
/// FCHK's exact rule; this takes the slow path where the fast one cannot hold: a NaN or
/// infinite operand, b zero or subnormal, a subnormal, 1/b near the end of the normal range
/// (|exponent of b| ≥ 126), or a quotient whose exponent is within two of either end.
[[nodiscard]] inline bool divisionNeedsSlowPath(float a, float b) {
  if (!std::isfinite(a) || !std::isfinite(b) || b == 0.0f) return true;
  if (std::fpclassify(b) == FP_SUBNORMAL || std::fpclassify(a) == FP_SUBNORMAL) return true;
  const int eb = std::ilogb(b);
  if (eb >= 126 || eb <= -126) return true;
  if (a == 0.0f) return false;
  const int q = std::ilogb(a) - eb;
  return q >= 126 || q <= -125;
}

}  // namespace foresight::cuda
