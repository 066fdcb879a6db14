// SPDX-License-Identifier: Apache-2.0
/// \file
/// The cache analyzer against a straightforward reference: the Temporal Conflict Set definition
/// of cgpredict.md §4.4 (Eq. 9), evaluated literally by scanning the per-set history.
#include "foresight/memory/lru_cache.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

namespace foresight {
namespace {

/// Eq. 9: reference j of block m hits iff j > 1 and fewer than A unique blocks of its set were
/// referenced since reference j-1 of m.
std::vector<bool> tcsReference(const std::vector<std::uint64_t>& addresses, long long sets, int ways, int line) {
  std::vector<std::vector<std::uint64_t>> history(static_cast<size_t>(sets));
  std::vector<bool> hits;
  for (std::uint64_t a : addresses) {
    const std::uint64_t m = a / static_cast<std::uint64_t>(line);
    auto& h = history[static_cast<size_t>(m % static_cast<std::uint64_t>(sets))];
    bool seen = false;
    std::set<std::uint64_t> between;
    for (size_t k = h.size(); k-- > 0;) {
      if (h[k] == m) {
        seen = true;
        break;
      }
      between.insert(h[k]);
    }
    hits.push_back(seen && static_cast<int>(between.size()) < ways);
    h.push_back(m);
  }
  return hits;
}

TEST(CloopCache, IdenticalToTemporalConflictSetReference) {
  std::mt19937_64 rng(7);
  for (int ways : {1, 2, 4, 16}) {
    const int line = 64;
    const long long size = 4096LL * ways;  // 64 sets
    // A mix of streaming, reuse within a working set and random references.
    std::vector<std::uint64_t> trace;
    for (int i = 0; i < 20000; ++i) {
      const int kind = static_cast<int>(rng() % 3);
      if (kind == 0) trace.push_back(static_cast<std::uint64_t>(i) * 4);
      if (kind == 1) trace.push_back((rng() % (64 * ways * 2)) * line);
      if (kind == 2) trace.push_back(rng() % (1 << 22));
    }
    LruCache cache(size, line, ways);
    const std::vector<bool> expected = tcsReference(trace, cache.sets(), ways, line);
    long long hits = 0;
    for (size_t i = 0; i < trace.size(); ++i) {
      const bool hit = cache.access(trace[i]);
      ASSERT_EQ(hit, expected[i]) << "reference " << i << ", " << ways << "-way";
      hits += hit;
    }
    EXPECT_EQ(cache.hits(), hits);
    EXPECT_GT(hits, 0);
  }
}

TEST(CloopCache, GeometryOfTheTk1L2) {
  LruCache l2(128 * 1024, 64, 16);  // cgpredict.md §4.1: K = 128 KB / (64 B x 16) = 128 sets
  EXPECT_EQ(l2.sets(), 128);
  EXPECT_FALSE(l2.access(0));
  EXPECT_TRUE(l2.access(63));   // same 64-B line
  EXPECT_FALSE(l2.access(64));  // next line
}

}  // namespace
}  // namespace foresight
