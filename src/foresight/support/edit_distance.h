// SPDX-License-Identifier: Apache-2.0
/// \file
/// Edit distance and "did you mean" suggestions for unknown names (keys, GPUs, kernels).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace foresight {

/// Levenshtein distance between two strings (insertions, deletions, substitutions cost 1).
[[nodiscard]] int editDistance(std::string_view a, std::string_view b);

/// The candidate closest to `name`, or "" when none is close enough to be a plausible typo
/// (distance at most max(2, |name|/3)).
[[nodiscard]] std::string closestMatch(std::string_view name, std::span<const std::string> candidates);

/// "; did you mean 'x'?" for the closest candidate, or "" when there is none.
[[nodiscard]] std::string didYouMean(std::string_view name, std::span<const std::string> candidates);

}  // namespace foresight
