// SPDX-License-Identifier: Apache-2.0
/// \file
/// LSD radix sort (see radix_sort.h).
#include "foresight/support/radix_sort.h"

#include <array>
#include <numeric>
#include <utility>

namespace foresight {

namespace {

constexpr int kDigitBits = 11;
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
constexpr int kPasses = (64 + kDigitBits - 1) / kDigitBits;

std::size_t digit(std::uint64_t key, int pass) {
  return static_cast<std::size_t>(key >> (pass * kDigitBits)) & (kBuckets - 1);
}

}  // namespace

std::vector<std::uint32_t> stableOrder(std::span<const std::uint64_t> keys) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), std::uint32_t{0});
  if (n < 2) return order;
  // One sweep counts every pass's digits; a pass whose digit is the same for all keys leaves
  // the order as it is and is skipped (the high digits of sector numbers and times).
  std::vector<std::array<std::uint32_t, kBuckets>> counts(kPasses);
  for (auto& c : counts) c.fill(0);
  for (const std::uint64_t k : keys) {
    for (int p = 0; p < kPasses; ++p) ++counts[static_cast<std::size_t>(p)][digit(k, p)];
  }
  // (key, index) pairs move together: each pass reads and writes them in sequence.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> cur(n), next(n);
  for (std::size_t i = 0; i < n; ++i) cur[i] = {keys[i], static_cast<std::uint32_t>(i)};
  bool moved = false;
  for (int p = 0; p < kPasses; ++p) {
    auto& c = counts[static_cast<std::size_t>(p)];
    if (c[digit(keys[0], p)] == n) continue;
    std::uint32_t start = 0;
    for (std::uint32_t& b : c) start += std::exchange(b, start);  // bucket starts
    for (const auto& kv : cur) next[c[digit(kv.first, p)]++] = kv;
    cur.swap(next);
    moved = true;
  }
  if (moved) {
    for (std::size_t i = 0; i < n; ++i) order[i] = cur[i].second;
  }
  return order;
}

}  // namespace foresight
