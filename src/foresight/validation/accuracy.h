// SPDX-License-Identifier: Apache-2.0
/// \file
/// The arithmetic of accuracy reports: relative error, geometric mean and median of |error|,
/// and Spearman rank correlation with tied ranks averaged. Pure functions, tested on hand-worked
/// sets (tests/validation/accuracy_test.cpp).
#pragma once

#include <optional>
#include <vector>

namespace foresight {

/// (predicted - measured) / measured: negative when the model is too optimistic.
[[nodiscard]] double relativeError(double predicted, double measured);

/// |error| values below this count as this in the geometric mean, so one exact hit does not
/// make the mean zero (0.01 %).
inline constexpr double kGeomeanFloor = 1e-4;

/// Geometric mean of |e| over `errors` (each floored at kGeomeanFloor); nullopt when empty.
[[nodiscard]] std::optional<double> geomeanAbs(const std::vector<double>& errors);

/// Median of |e|; the mean of the two middle values for an even count; nullopt when empty.
[[nodiscard]] std::optional<double> medianAbs(const std::vector<double>& errors);

/// Median of the values themselves (not absolute); nullopt when empty.
[[nodiscard]] std::optional<double> median(std::vector<double> values);

/// 1-based ranks, ties getting the average of the ranks they span ({10, 20, 20, 30} → {1, 2.5,
/// 2.5, 4}).
[[nodiscard]] std::vector<double> averageRanks(const std::vector<double>& values);

/// Spearman's rho: the Pearson correlation of the average ranks. nullopt when fewer than two
/// pairs, sizes differ, or either side has all values tied (no ranking to compare).
[[nodiscard]] std::optional<double> spearman(const std::vector<double>& x,
                                             const std::vector<double>& y);

/// The regret of choosing by prediction: the measured time of the variant predicted fastest
/// over the fastest measured time (1 = the model picks the best variant). When several
/// variants tie for the fastest prediction, the slowest of them counts (a tuner may pick any).
/// nullopt when the sizes differ, the group is empty or a measured time is not positive.
[[nodiscard]] std::optional<double> regret(const std::vector<double>& measured,
                                           const std::vector<double>& predicted);

}  // namespace foresight
