// SPDX-License-Identifier: Apache-2.0
/// \file
/// Accuracy statistics.
#include "foresight/validation/accuracy.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace foresight {

double relativeError(double predicted, double measured) {
  return (predicted - measured) / measured;
}

std::optional<double> geomeanAbs(const std::vector<double>& errors) {
  if (errors.empty()) return std::nullopt;
  double logSum = 0;
  for (double e : errors) logSum += std::log(std::max(std::fabs(e), kGeomeanFloor));
  return std::exp(logSum / static_cast<double>(errors.size()));
}

std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::optional<double> medianAbs(const std::vector<double>& errors) {
  std::vector<double> abs;
  for (double e : errors) abs.push_back(std::fabs(e));
  return median(std::move(abs));
}

std::vector<double> averageRanks(const std::vector<double>& values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(values.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
    const double rank = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2;  // 1-based
    for (size_t k = i; k <= j; ++k) ranks[order[k]] = rank;
    i = j + 1;
  }
  return ranks;
}

std::optional<double> spearman(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 2) return std::nullopt;
  const std::vector<double> rx = averageRanks(x), ry = averageRanks(y);
  const double n = static_cast<double>(x.size());
  const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n;
  const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  if (sxx == 0 || syy == 0) return std::nullopt;
  return sxy / std::sqrt(sxx * syy);
}

std::optional<double> regret(const std::vector<double>& measured, const std::vector<double>& predicted) {
  if (measured.size() != predicted.size() || measured.empty()) return std::nullopt;
  const double fastestPredicted = *std::min_element(predicted.begin(), predicted.end());
  const double fastestMeasured = *std::min_element(measured.begin(), measured.end());
  if (!(fastestMeasured > 0)) return std::nullopt;
  double chosen = 0;
  for (size_t i = 0; i < measured.size(); ++i) {
    if (predicted[i] == fastestPredicted) chosen = std::max(chosen, measured[i]);
  }
  return chosen / fastestMeasured;
}

}  // namespace foresight
