// SPDX-License-Identifier: Apache-2.0
/// \file
/// `CacheLevel`: a set-associative LRU cache with sector-valid lines, used to predict hit levels
/// from the addresses the frontend resolved (Hopper L1: 128-B lines of four 32-B sectors).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace foresight::emu {

/// Set-associative LRU, allocate on miss, sector granularity within lines.
class CacheLevel {
 public:
  /// A cache of `bytes` in lines of `lineBytes` (sectors of `sectorBytes`) with `ways` ways;
  /// at least one set.
  CacheLevel(long long bytes, long long lineBytes, long long sectorBytes, int ways)
      : line_(lineBytes > 0 ? lineBytes : 128), sector_(sectorBytes > 0 ? sectorBytes : line_),
        ways_(ways > 0 ? ways : 1) {
    const long long lines = bytes / line_;
    sets_ = static_cast<long long>(std::max<long long>(1, lines / ways_));
    tags_.assign(static_cast<size_t>(sets_ * ways_), Way{});
  }
  CacheLevel(const CacheLevel&) = delete;
  CacheLevel& operator=(const CacheLevel&) = delete;
  CacheLevel(CacheLevel&&) = default;

  /// Looks up the sector holding byte `address`; on a miss allocates it when `allocate`.
  /// Returns true on a hit.
  bool access(long long address, bool allocate) {
    const long long lineId = address / line_;
    const int sectorBit = static_cast<int>((address % line_) / sector_);
    const long long set = lineId % sets_;
    Way* base = &tags_[static_cast<size_t>(set * ways_)];
    ++clock_;
    Way* victim = nullptr;
    for (int w = 0; w < ways_; ++w) {
      Way& way = base[w];
      if (way.valid && way.tag == lineId) {
        way.lastUse = clock_;
        const std::uint32_t bit = 1u << sectorBit;
        if (way.sectors & bit) return true;
        if (allocate) way.sectors |= bit;
        return false;
      }
      if (!way.valid) {
        if (victim == nullptr || victim->valid) victim = &way;
      } else if (victim == nullptr || (victim->valid && way.lastUse < victim->lastUse)) {
        victim = &way;
      }
    }
    if (allocate) {
      victim->valid = true;
      victim->tag = lineId;
      victim->sectors = 1u << sectorBit;
      victim->lastUse = clock_;
    }
    return false;
  }

 private:
  struct Way {
    long long tag = 0;
    std::uint64_t lastUse = 0;
    std::uint32_t sectors = 0;
    bool valid = false;
  };
  long long line_;
  long long sector_;
  int ways_;
  long long sets_ = 1;
  std::uint64_t clock_ = 0;
  std::vector<Way> tags_;
};

}  // namespace foresight::emu
