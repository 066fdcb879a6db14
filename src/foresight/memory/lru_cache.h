// SPDX-License-Identifier: Apache-2.0
/// \file
/// A set-associative LRU cache over block addresses: CGPredict's cache analyzer (cgpredict.md
/// §4.4). Its Temporal Conflict Set test — a reference hits when fewer than A unique blocks of
/// its set were referenced since the previous reference to it — is exactly per-set LRU, so one
/// MRU-ordered tag list per set gives the same hits in O(A) per access
/// (tests/memory/lru_cache_test.cpp checks it against the TCS definition).
#pragma once

#include <cstdint>
#include <vector>

namespace foresight {

class LruCache {
 public:
  /// `sizeBytes` = sets x ways x lineBytes; lineBytes a power of two.
  LruCache(long long sizeBytes, int lineBytes, int ways);

  /// References the line holding byte `address`; true on a hit. A miss allocates the line
  /// (stores are treated like loads: write-allocate).
  bool access(std::uint64_t address);

  [[nodiscard]] long long sets() const { return sets_; }
  [[nodiscard]] int ways() const { return ways_; }
  [[nodiscard]] int lineBytes() const { return 1 << lineShift_; }
  [[nodiscard]] long long hits() const { return hits_; }
  [[nodiscard]] long long misses() const { return misses_; }

 private:
  int lineShift_ = 6;
  long long sets_ = 1;
  int ways_ = 1;
  std::vector<std::uint64_t> tags_;  ///< sets x ways, MRU first within a set
  std::vector<int> filled_;          ///< valid ways per set
  long long hits_ = 0;
  long long misses_ = 0;
};

}  // namespace foresight
