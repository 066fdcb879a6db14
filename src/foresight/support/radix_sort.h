// SPDX-License-Identifier: Apache-2.0
/// \file
/// Stable ordering of 64-bit keys by least-significant-digit radix sort: the orders the
/// memory engine needs for its sampled streams (by time, by sector), hundreds of thousands of
/// keys per analysis, in linear time.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace foresight {

/// The unsigned key that orders signed integers as they compare.
[[nodiscard]] inline std::uint64_t radixKey(long long v) {
  return static_cast<std::uint64_t>(v) ^ (std::uint64_t{1} << 63);
}

/// The unsigned key that orders doubles as they compare (no NaN; −0 orders before +0, which
/// compare equal).
[[nodiscard]] inline std::uint64_t radixKey(double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
}

/// The indices of `keys` in ascending key order, equal keys in index order (what
/// std::stable_sort of the indices by key gives). Fewer than 2^32 keys (indices are 32-bit;
/// the engine's samples hold at most a few million). Many keys of at most a thousand distinct
/// values (the engine's access times) are ordered by rank in one counting pass instead.
[[nodiscard]] std::vector<std::uint32_t> stableOrder(std::span<const std::uint64_t> keys);

}  // namespace foresight
