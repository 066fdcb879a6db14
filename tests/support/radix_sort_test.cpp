// SPDX-License-Identifier: Apache-2.0
/// \file
/// stableOrder(): the order std::stable_sort gives, by radix; keys of signed integers and doubles.
#include "foresight/support/radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace foresight {
namespace {

/// What stableOrder() promises: std::stable_sort of the indices by key.
std::vector<std::uint32_t> reference(const std::vector<std::uint64_t>& keys) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

TEST(RadixSort, SmallHandWorkedOrder) {
  // Keys 5, 1, 5, 0: ascending, the two 5s in index order: indices 3, 1, 0, 2.
  const std::vector<std::uint64_t> keys = {5, 1, 5, 0};
  EXPECT_EQ(stableOrder(keys), (std::vector<std::uint32_t>{3, 1, 0, 2}));
}

TEST(RadixSort, EmptyOneAndConstantKeepIndexOrder) {
  EXPECT_TRUE(stableOrder({}).empty());
  EXPECT_EQ(stableOrder(std::vector<std::uint64_t>{7}), (std::vector<std::uint32_t>{0}));
  const std::vector<std::uint64_t> same(100, 42);
  EXPECT_EQ(stableOrder(same), reference(same));
}

TEST(RadixSort, MatchesStableSortOnRandomKeysWithDuplicates) {
  std::mt19937_64 rng(7);
  for (const std::uint64_t range : {std::uint64_t{16}, std::uint64_t{1} << 20, ~std::uint64_t{0}}) {
    std::vector<std::uint64_t> keys(50000);
    for (std::uint64_t& k : keys) k = range == ~std::uint64_t{0} ? rng() : rng() % range;
    EXPECT_EQ(stableOrder(keys), reference(keys)) << "range " << range;
  }
}

TEST(RadixSort, KeysSpanningFewBitsAboveALargeBaseSortOnTheSpanOnly) {
  // Sector numbers of one array: a base far from zero plus offsets. Spans of 1, 11, 12, 31, 32
  // and 33 bits above the base (the one-word path up to 32 bits, digits split evenly between
  // passes; the pair path above), and keys of both signs around zero (radixKey flips the sign
  // bit: every high digit differs between them, the span stays small).
  std::mt19937_64 rng(3);
  for (const int bits : {1, 11, 12, 31, 32, 33}) {
    const std::uint64_t base = radixKey(5LL << 40), span = (std::uint64_t{1} << bits) - 1;
    std::vector<std::uint64_t> keys(30000);
    for (std::uint64_t& k : keys) k = base + rng() % (span + 1);
    keys[0] = base;  // both ends present: the span is exactly `bits` wide
    keys[1] = base + span;
    EXPECT_EQ(stableOrder(keys), reference(keys)) << bits << " bits";
  }
  std::vector<std::uint64_t> signedKeys(30000);
  for (std::uint64_t& k : signedKeys) k = radixKey(static_cast<long long>(rng() % 5000) - 2500);
  EXPECT_EQ(stableOrder(signedKeys), reference(signedKeys));
}

TEST(RadixSort, ManyKeysOfFewValuesOrderByRankAsByRadix) {
  // 20,000 keys over 1,024 distinct values take the ranking path; over 1,025 the radix passes,
  // the 1,025th value first appearing at the very end. Both must be std::stable_sort's order.
  std::mt19937_64 rng(11);
  for (const std::size_t values : {std::size_t{1}, std::size_t{2}, std::size_t{1024}, std::size_t{1025}}) {
    std::vector<std::uint64_t> pool(values);
    for (std::uint64_t& v : pool) v = rng();
    std::vector<std::uint64_t> keys(20000);
    for (std::uint64_t& k : keys) k = pool[rng() % std::min<std::size_t>(values, 1024)];
    keys.back() = pool.back();
    EXPECT_EQ(stableOrder(keys), reference(keys)) << values << " values";
  }
  // Times of a wave-ordered sample: waves 0..15 plus one of 64 positions, as the engine sorts.
  std::vector<std::uint64_t> times;
  for (int i = 0; i < 30000; ++i) times.push_back(radixKey(static_cast<double>(i % 16) + (i * 7 % 64 + 0.5) / 64));
  EXPECT_EQ(stableOrder(times), reference(times));
}

TEST(RadixSort, SignedAndDoubleKeysOrderAsTheyCompare) {
  const std::vector<long long> ints = {3, -1, 0, -1LL << 40, 1LL << 52, -2};
  std::vector<std::uint64_t> keys;
  for (long long v : ints) keys.push_back(radixKey(v));
  // Ascending: -2^40 (3), -2 (5), -1 (1), 0 (2), 3 (0), 2^52 (4).
  EXPECT_EQ(stableOrder(keys), (std::vector<std::uint32_t>{3, 5, 1, 2, 0, 4}));
  const std::vector<double> reals = {1.5, -0.25, 0.0, 1e300, -3.0, 0.5};
  keys.clear();
  for (double v : reals) keys.push_back(radixKey(v));
  // Ascending: -3 (4), -0.25 (1), 0 (2), 0.5 (5), 1.5 (0), 1e300 (3).
  EXPECT_EQ(stableOrder(keys), (std::vector<std::uint32_t>{4, 1, 2, 5, 0, 3}));
}

}  // namespace
}  // namespace foresight
