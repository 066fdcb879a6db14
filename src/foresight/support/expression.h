// SPDX-License-Identifier: Apache-2.0
/// \file
/// Integer expressions of experiment manifests ("N*N", "cdiv(N, TILE)", "(N + 15) / 16"): the
/// sizes, launch extents and scalar values of an experiment are written over its `-D` macros,
/// so one manifest serves every variant.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "foresight/support/error.h"

namespace foresight {

/// Evaluates an integer expression over named variables. Grammar: integers, identifiers (looked
/// up in `vars`), + - * / % (C semantics, integer division truncates), unary -, parentheses, and
/// the functions cdiv(a, b) (ceiling division), min(a, b), max(a, b). Division by zero, an
/// unknown name, overflow or a syntax error is an Error naming the expression.
[[nodiscard]] Expected<long long> evalExpression(std::string_view text,
                                                 const std::map<std::string, long long>& vars);

/// Splits "cdiv(N, TX), 4" at the commas outside parentheses: {"cdiv(N, TX)", "4"} (items
/// trimmed; an empty text gives no items).
[[nodiscard]] std::vector<std::string> splitExpressionList(std::string_view text);

}  // namespace foresight
