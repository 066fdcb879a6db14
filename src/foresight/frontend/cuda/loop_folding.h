// SPDX-License-Identifier: Apache-2.0
/// \file
/// What the PTX and SASS warp interpreters share to fold loops (warp_interpreter.h, LoopFold):
/// the known comparisons of an iteration and the first iteration at which one changes its
/// outcome, the rolling hash of the executed path, and the expansion of a folded stream.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "foresight/frontend/cuda/warp_interpreter.h"

namespace foresight::cuda::folding {

__extension__ typedef __int128 Int128;

/// A known integer comparison of one lane, in the domain it compares in.
struct Comparison {
  int index = 0;
  int lane = 0;
  char kind = 'l';  ///< l: <, L: <=, g: >, G: >=, e: ==, n: !=, ?: other
  Int128 a = 0, b = 0;
  Int128 lo = 0, hi = 0;  ///< the domain's range (the type's signed or unsigned range)
};

inline constexpr Int128 kNever = static_cast<Int128>(1) << 100;
inline constexpr std::uint64_t kHashBase = 0x100000001B3ULL;

/// b^e modulo 2^64.
[[nodiscard]] inline std::uint64_t power(std::uint64_t b, std::uint64_t e) {
  std::uint64_t r = 1;
  while (e) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return r;
}

/// A comparison of `bits`-wide operands (signed or unsigned values a, b).
[[nodiscard]] inline Comparison comparison(int index, int lane, char kind, bool isUnsigned, int bits, Int128 a, Int128 b) {
  Comparison c;
  c.index = index;
  c.lane = lane;
  c.kind = kind;
  c.a = a;
  c.b = b;
  bits = std::clamp(bits, 1, 64);
  c.lo = isUnsigned ? 0 : -(static_cast<Int128>(1) << (bits - 1));
  c.hi = isUnsigned ? (static_cast<Int128>(1) << bits) - 1 : (static_cast<Int128>(1) << (bits - 1)) - 1;
  return c;
}

/// Smallest j >= 1 with (A + j·dA < 0) != (A < 0); kNever when none.
[[nodiscard]] inline Int128 firstSignChange(Int128 A, Int128 dA) {
  if (dA == 0) return kNever;
  if (A < 0 && dA > 0) return (-A + dA - 1) / dA;
  if (A >= 0 && dA < 0) return A / -dA + 1;
  return kNever;
}

/// Smallest j >= 1 at which the comparison, with operands a + j·da and b + j·db, changes its
/// outcome or an operand leaves its domain's range; kNever when never.
[[nodiscard]] inline Int128 firstChange(const Comparison& c, Int128 da, Int128 db) {
  Int128 j = kNever;
  auto range = [&](Int128 v, Int128 d) {
    if (d > 0) j = std::min(j, (c.hi - v) / d + 1);
    if (d < 0) j = std::min(j, (v - c.lo) / -d + 1);
  };
  range(c.a, da);
  range(c.b, db);
  const Int128 A = c.a - c.b, dA = da - db;
  switch (c.kind) {
    case 'l': return std::min(j, firstSignChange(A, dA));
    case 'L': return std::min(j, firstSignChange(A - 1, dA));
    case 'g': return std::min(j, firstSignChange(-A, -dA));
    case 'G': return std::min(j, firstSignChange(-A - 1, -dA));
    case 'e':
    case 'n':
      if (dA == 0) return j;
      if (A == 0) return 1;
      if ((-A) % dA == 0 && (-A) / dA > 0) return std::min(j, (-A) / dA);
      return j;
    default: return dA == 0 ? j : 1;
  }
}

/// Emits positions [begin, end) of the full stream of a run recorded as `stream` (instruction,
/// mask) with address records (`count` of them, sorted by recorded position: `positionOf(k)`,
/// `lanesOf(k)`) and folds: `emit(instruction, mask, lanes)`, lanes null without a record.
template <class PositionOf, class LanesOf, class Emit>
void expandFolded(const std::vector<std::pair<int, std::uint32_t>>& stream, const std::vector<LoopFold>& folds,
                  size_t count, PositionOf positionOf, LanesOf lanesOf, long long begin, long long end, Emit emit) {
  auto recordOf = [&](size_t q) -> long long {
    size_t lo = 0, hi = count;
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (positionOf(mid) < q) lo = mid + 1;
      else hi = mid;
    }
    return lo < count && positionOf(lo) == q ? static_cast<long long>(lo) : -1;
  };
  long long pos = 0;
  size_t rec = 0;
  auto recorded = [&](size_t to) {
    const long long length = static_cast<long long>(to - rec);
    const long long lo = std::max(begin, pos), hi = std::min(end, pos + length);
    for (long long p = lo; p < hi; ++p) {
      const size_t q = rec + static_cast<size_t>(p - pos);
      const long long r = recordOf(q);
      emit(stream[q].first, stream[q].second, r >= 0 ? &lanesOf(static_cast<size_t>(r)) : nullptr);
    }
    pos += length;
    rec = to;
  };
  std::vector<long long> lanes;
  for (const LoopFold& f : folds) {
    if (pos >= end) return;
    recorded(f.streamEnd);
    const long long length = static_cast<long long>(f.streamEnd - f.streamBegin);
    const long long total = f.repeats * length;
    const long long lo = std::max(begin, pos), hi = std::min(end, pos + total);
    for (long long p = lo; p < hi; ++p) {
      const long long repeat = (p - pos) / length + 1;
      const size_t q = f.streamBegin + static_cast<size_t>((p - pos) % length);
      const long long r = recordOf(q);
      if (r < 0) {
        emit(stream[q].first, stream[q].second, nullptr);
        continue;
      }
      const std::vector<long long>& step = f.addressStep[static_cast<size_t>(r) - f.addressBegin];
      lanes = lanesOf(static_cast<size_t>(r));
      for (size_t l = 0; l < lanes.size() && l < step.size(); ++l) {
        if (lanes[l] >= 0) lanes[l] += repeat * step[l];
      }
      emit(stream[q].first, stream[q].second, &lanes);
    }
    pos += total;
  }
  if (pos < end) recorded(stream.size());
}

}  // namespace foresight::cuda::folding
