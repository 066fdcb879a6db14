// SPDX-License-Identifier: Apache-2.0
/// \file
/// What the `if` statement that starts on a source line runs as its body: how `--branch
/// FILE:LINE=P` (the probability that the `if`'s body runs) maps onto the compiled branch.
#pragma once

#include <string_view>

#include "foresight/frontend/cuda/warp_interpreter.h"

namespace foresight::cuda {

/// The body of the first `if` (or `else if`) that starts on line `line` (1-based) of `source`:
/// a jump (`return;`, `break;`, `continue;`, `goto L;`, alone or alone in braces) or any other
/// statement; IfBody::kNone when no `if` starts there. The condition and the body may span
/// lines; comments, string and character literals are skipped.
[[nodiscard]] IfBody ifBodyAt(std::string_view source, int line);

}  // namespace foresight::cuda
