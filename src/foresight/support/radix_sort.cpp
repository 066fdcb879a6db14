// SPDX-License-Identifier: Apache-2.0
/// \file
/// LSD radix sort (see radix_sort.h).
#include "foresight/support/radix_sort.h"

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <utility>

namespace foresight {

namespace {

constexpr int kDigitBits = 11;
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;

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

/// LSD passes over the low `bits` bits of `v`'s words above `shift`, in digits of at most
/// kDigitBits (as even as the passes allow: fewer buckets stay in the core's first-level
/// cache). One sweep counts every pass's digits; a pass whose digit is the same for every word
/// leaves the order as it is and is skipped. Sorts `v` (using `tmp`, of its size) stably.
template <class Word>
void radixPasses(std::vector<Word>& v, std::vector<Word>& tmp, int bits, int shift, auto key) {
  const int passes = (bits + kDigitBits - 1) / kDigitBits;
  const int width = (bits + passes - 1) / passes;
  const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
  std::vector<std::array<std::uint32_t, kBuckets>> counts(static_cast<std::size_t>(passes));
  for (auto& c : counts) c.fill(0);
  for (const Word& w : v) {
    const std::uint64_t k = key(w) >> shift;
    for (int p = 0; p < passes; ++p) ++counts[static_cast<std::size_t>(p)][(k >> (p * width)) & mask];
  }
  const std::size_t n = v.size();
  for (int p = 0; p < passes; ++p) {
    auto& c = counts[static_cast<std::size_t>(p)];
    const int at = shift + p * width;
    if (c[(key(v[0]) >> at) & mask] == n) continue;
    std::uint32_t start = 0;
    for (std::size_t b = 0; b <= mask; ++b) start += std::exchange(c[b], start);  // bucket starts
    for (const Word& w : v) tmp[c[(key(w) >> at) & mask]++] = w;
    v.swap(tmp);
  }
}

}  // namespace

std::vector<std::uint32_t> stableOrder(std::span<const std::uint64_t> keys) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> order(n);
  if (n >= kFewDistinctMinKeys && fewDistinctOrder(keys, order)) return order;
  std::iota(order.begin(), order.end(), std::uint32_t{0});
  if (n < 2) return order;
  // Keys taken relative to the least: only the bits that vary between them are sorted on (the
  // high bits of sector numbers, of times, and the sign of keys of both signs).
  const auto [lo, hi] = std::minmax_element(keys.begin(), keys.end());
  const int bits = std::bit_width(*hi - *lo);
  if (bits == 0) return order;
  const std::uint64_t least = *lo;
  if (bits <= 32) {
    // Key and index in one word, the key above: a stable order by key is the order of the
    // words, and each pass moves 8 bytes per key.
    std::vector<std::uint64_t> v(n), tmp(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = (keys[i] - least) << 32 | i;
    radixPasses(v, tmp, bits, 32, [](std::uint64_t w) { return w; });
    for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(v[i]);
    return order;
  }
  // (key, index) pairs move together: each pass reads and writes them in sequence.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> v(n), tmp(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = {keys[i] - least, static_cast<std::uint32_t>(i)};
  radixPasses(v, tmp, bits, 0, [](const std::pair<std::uint64_t, std::uint32_t>& w) { return w.first; });
  for (std::size_t i = 0; i < n; ++i) order[i] = v[i].second;
  return order;
}

}  // namespace foresight
