// SPDX-License-Identifier: Apache-2.0
/// \file
/// Set-associative LRU cache (the CGPredict cache analyzer).
#include "foresight/memory/lru_cache.h"

#include <algorithm>

namespace foresight {

LruCache::LruCache(long long sizeBytes, int lineBytes, int ways) : ways_(std::max(1, ways)) {
  lineShift_ = 0;
  while ((1 << lineShift_) < lineBytes) ++lineShift_;
  sets_ = std::max<long long>(1, sizeBytes / (static_cast<long long>(lineBytes) * ways_));
  tags_.assign(static_cast<size_t>(sets_ * ways_), 0);
  filled_.assign(static_cast<size_t>(sets_), 0);
}

bool LruCache::access(std::uint64_t address) {
  const std::uint64_t block = address >> lineShift_;
  const long long set = static_cast<long long>(block % static_cast<std::uint64_t>(sets_));
  std::uint64_t* tags = &tags_[static_cast<size_t>(set * ways_)];
  int& filled = filled_[static_cast<size_t>(set)];
  for (int w = 0; w < filled; ++w) {
    if (tags[w] == block) {
      std::rotate(tags, tags + w, tags + w + 1);  // move to MRU
      ++hits_;
      return true;
    }
  }
  if (filled < ways_) ++filled;
  std::rotate(tags, tags + filled - 1, tags + filled);  // LRU slot (or a fresh one) to the front
  tags[0] = block;
  ++misses_;
  return false;
}

}  // namespace foresight
