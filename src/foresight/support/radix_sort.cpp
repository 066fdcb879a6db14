// SPDX-License-Identifier: Apache-2.0
/// \file
/// LSD radix sort (see radix_sort.h).
#include "foresight/support/radix_sort.h"

#include <algorithm>
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

/// Keys with at most this many distinct values are ordered by their ranks (fewDistinctOrder()).
constexpr std::size_t kFewDistinct = 1024;
/// Below this many keys the radix passes cost little: no attempt.
constexpr std::size_t kFewDistinctMinKeys = 8192;

/// stableOrder() of keys with at most kFewDistinct distinct values (the memory engine's times:
/// a few dozen waves × a block's positions): each key's slot in a small open-addressing table,
/// the distinct keys sorted, then one counting pass by rank. False (and `order` untouched) as
/// soon as a key beyond kFewDistinct distinct ones shows up (sector numbers, within the first
/// few thousand keys).
bool fewDistinctOrder(std::span<const std::uint64_t> keys, std::vector<std::uint32_t>& order) {
  constexpr std::size_t kSlots = 4 * kFewDistinct;  // a power of two, at most a quarter full
  std::array<std::uint64_t, kSlots> slotKey{};
  std::array<std::uint32_t, kSlots> slotCount{};   // keys in the slot; 0 = empty
  std::vector<std::uint16_t> slotOf(keys.size());
  std::size_t distinct = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint64_t k = keys[i];
    std::size_t slot = static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ULL) >> 52) & (kSlots - 1);
    while (slotCount[slot] != 0 && slotKey[slot] != k) slot = (slot + 1) & (kSlots - 1);
    if (slotCount[slot] == 0) {
      if (++distinct > kFewDistinct) return false;
      slotKey[slot] = k;
    }
    ++slotCount[slot];
    slotOf[i] = static_cast<std::uint16_t>(slot);
  }
  // The used slots in key order; each one's first position in the result.
  std::vector<std::uint16_t> used;
  used.reserve(distinct);
  for (std::size_t s = 0; s < kSlots; ++s) {
    if (slotCount[s] != 0) used.push_back(static_cast<std::uint16_t>(s));
  }
  std::sort(used.begin(), used.end(), [&](std::uint16_t a, std::uint16_t b) { return slotKey[a] < slotKey[b]; });
  std::array<std::uint32_t, kSlots> next{};
  std::uint32_t start = 0;
  for (const std::uint16_t s : used) {
    next[s] = start;
    start += slotCount[s];
  }
  for (std::size_t i = 0; i < keys.size(); ++i) order[next[slotOf[i]]++] = static_cast<std::uint32_t>(i);
  return true;
}

}  // namespace

std::vector<std::uint32_t> stableOrder(std::span<const std::uint64_t> keys) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> order(n);
  if (n >= kFewDistinctMinKeys && fewDistinctOrder(keys, order)) return order;
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
