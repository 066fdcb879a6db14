// SPDX-License-Identifier: Apache-2.0
/// \file
/// Levenshtein distance with a two-row table, and the suggestion helpers built on it.
#include "foresight/support/edit_distance.h"

#include <algorithm>
#include <vector>

namespace foresight {

int editDistance(std::string_view a, std::string_view b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, substitute});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string closestMatch(std::string_view name, std::span<const std::string> candidates) {
  const int limit = std::max<int>(2, static_cast<int>(name.size()) / 3);
  std::string best;
  int bestDistance = limit + 1;
  for (const std::string& candidate : candidates) {
    const int d = editDistance(name, candidate);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

std::string didYouMean(std::string_view name, std::span<const std::string> candidates) {
  std::string best = closestMatch(name, candidates);
  return best.empty() ? std::string() : "; did you mean '" + best + "'?";
}

}  // namespace foresight
