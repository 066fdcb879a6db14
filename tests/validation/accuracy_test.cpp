// SPDX-License-Identifier: Apache-2.0
/// \file
/// Accuracy arithmetic on small sets worked by hand.
#include "foresight/validation/accuracy.h"

#include <gtest/gtest.h>

#include <cmath>

namespace foresight {
namespace {

TEST(Accuracy, RelativeError) {
  EXPECT_DOUBLE_EQ(relativeError(8.9, 10.0), -0.11);  // (8.9 - 10) / 10
  EXPECT_DOUBLE_EQ(relativeError(12.0, 10.0), 0.2);
}

TEST(Accuracy, GeometricMeanOfAbsoluteErrors) {
  // |e| = 0.1, 0.4: sqrt(0.1 x 0.4) = sqrt(0.04) = 0.2
  EXPECT_NEAR(*geomeanAbs({-0.1, 0.4}), 0.2, 1e-12);
  // |e| = 0.05, 0.2, 0.8: cube root of 0.008 = 0.2
  EXPECT_NEAR(*geomeanAbs({0.05, -0.2, 0.8}), 0.2, 1e-12);
  // An exact hit counts as the 0.01 % floor: sqrt(1e-4 x 0.01) = sqrt(1e-6) = 1e-3
  EXPECT_NEAR(*geomeanAbs({0.0, 0.01}), 1e-3, 1e-15);
  EXPECT_FALSE(geomeanAbs({}).has_value());
}

TEST(Accuracy, Medians) {
  // |e| sorted: 0.05, 0.1, 0.3 → 0.1
  EXPECT_DOUBLE_EQ(*medianAbs({-0.3, 0.05, 0.1}), 0.1);
  // |e| sorted: 0.1, 0.2, 0.3, 0.5 → (0.2 + 0.3) / 2 = 0.25
  EXPECT_DOUBLE_EQ(*medianAbs({0.5, -0.2, 0.1, -0.3}), 0.25);
  EXPECT_DOUBLE_EQ(*median({3, 1, 2}), 2);
  EXPECT_FALSE(median({}).has_value());
}

TEST(Accuracy, AverageRanksWithTies) {
  // {10, 20, 20, 30}: the two 20s share ranks 2 and 3 → 2.5
  EXPECT_EQ(averageRanks({10, 20, 20, 30}), (std::vector<double>{1, 2.5, 2.5, 4}));
  // {3, 1, 3, 3, 2}: 1 → 1, 2 → 2, the three 3s share ranks 3, 4, 5 → 4
  EXPECT_EQ(averageRanks({3, 1, 3, 3, 2}), (std::vector<double>{4, 1, 4, 4, 2}));
}

TEST(Accuracy, SpearmanWithoutTies) {
  // Same order → 1; reversed → -1.
  EXPECT_NEAR(*spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0, 1e-12);
  EXPECT_NEAR(*spearman({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0, 1e-12);
  // x ranks 1 2 3 4 5, y = {2, 1, 4, 3, 5} ranks 2 1 4 3 5: d = -1 1 -1 1 0, sum d^2 = 4,
  // rho = 1 - 6 x 4 / (5 x 24) = 1 - 0.2 = 0.8
  EXPECT_NEAR(*spearman({1, 2, 3, 4, 5}, {2, 1, 4, 3, 5}), 0.8, 1e-12);
}

TEST(Accuracy, SpearmanWithTies) {
  // x = {1, 2, 3, 4} ranks 1 2 3 4 (mean 2.5); y = {1, 2, 2, 3} ranks 1 2.5 2.5 4 (mean 2.5).
  // Deviations: x -1.5 -0.5 0.5 1.5; y -1.5 0 0 1.5.
  // sxy = 2.25 + 0 + 0 + 2.25 = 4.5; sxx = 5; syy = 4.5; rho = 4.5 / sqrt(22.5) = 0.948683
  EXPECT_NEAR(*spearman({1, 2, 3, 4}, {1, 2, 2, 3}), 4.5 / std::sqrt(22.5), 1e-12);
  EXPECT_NEAR(*spearman({1, 2, 3, 4}, {1, 2, 2, 3}), 0.9486832980505138, 1e-12);
  // All predictions tied: no ranking → undefined.
  EXPECT_FALSE(spearman({1, 2, 3}, {5, 5, 5}).has_value());
  EXPECT_FALSE(spearman({1}, {1}).has_value());
  EXPECT_FALSE(spearman({1, 2}, {1}).has_value());
}

}  // namespace
}  // namespace foresight


namespace foresight {
// Regret: the measured time of the variant predicted fastest over the fastest measured time.
TEST(Accuracy, RegretOfThePredictedFastest) {
  // Predicted fastest is the second variant (1.0), measured 12 against the best 10: 1.2.
  EXPECT_NEAR(*regret({10, 12, 15}, {3.0, 1.0, 2.0}), 1.2, 1e-12);
  // The model picks the measured best: 1.
  EXPECT_NEAR(*regret({10, 12, 15}, {1.0, 2.0, 3.0}), 1.0, 1e-12);
  // Ties for the fastest prediction: the slower of them counts (15 / 10).
  EXPECT_NEAR(*regret({10, 12, 15}, {2.0, 3.0, 2.0}), 1.5, 1e-12);
  EXPECT_FALSE(regret({}, {}).has_value());
  EXPECT_FALSE(regret({1, 2}, {1}).has_value());
  EXPECT_FALSE(regret({0, 2}, {1, 2}).has_value());
}

}  // namespace foresight
