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

/// The visits of one loop header, with the run's own snapshot of the state at each visit.
template <class Snapshot>
struct HeaderTrack {
  long long lastExecuted = -1;  ///< executed instructions at the last visit (-1 = none)
  std::uint64_t lastHash = 0;
  long long lastLength = -1;    ///< instructions of the iteration that ended at the last visit
  std::uint64_t lastIterationHash = 0;
  std::vector<Snapshot> snaps;  ///< up to four consecutive visits whose iterations are alike
  long long cooldown = 0;       ///< alike visits to skip after a failed attempt
  long long backoff = 4;
};

/// A visit of a loop header (what the PTX and SASS runs share): compares the iteration that
/// just ended with the one before (length and rolling hash of the executed (instruction, mask)
/// path, `pathHash` after `executed` instructions); after three alike iterations, with four
/// snapshots taken by `snapshot(Snapshot&)`, calls `tryFold()` (true: folded). After a failed
/// attempt the loop waits 4, 8, 16 … alike iterations before the next. `armed` counts the
/// tracks holding snapshots (the run logs comparisons while it is positive).
template <class Snapshot, class TakeSnapshot, class TryFold>
void visitHeader(HeaderTrack<Snapshot>& t, long long executed, std::uint64_t pathHash, int& armed, TakeSnapshot snapshot,
                 TryFold tryFold) {
  const long long len = executed - t.lastExecuted;
  const std::uint64_t iterationHash = pathHash - t.lastHash * power(kHashBase, static_cast<std::uint64_t>(len));
  const bool alike = t.lastExecuted >= 0 && len == t.lastLength && iterationHash == t.lastIterationHash;
  t.lastLength = t.lastExecuted >= 0 ? len : -1;
  t.lastIterationHash = iterationHash;
  t.lastExecuted = executed;
  t.lastHash = pathHash;
  const bool had = !t.snaps.empty();
  if (!alike || t.cooldown > 0) {
    t.cooldown = alike ? t.cooldown - 1 : 0;
    t.snaps.clear();
  } else {
    if (t.snaps.size() == 4) t.snaps.erase(t.snaps.begin());
    t.snaps.emplace_back();
    snapshot(t.snaps.back());
    if (t.snaps.size() == 4) {
      if (tryFold()) {
        t.backoff = 4;
        t.lastExecuted = -1;  // the next iteration is compared afresh
      } else {
        t.cooldown = t.backoff;
        t.backoff = std::min<long long>(t.backoff * 2, 1 << 20);
      }
      t.snaps.clear();
    }
  }
  armed += (t.snaps.empty() ? 0 : 1) - (had ? 1 : 0);
}

/// The folds among [begin, end) (indices into a run's folds, which are in the order they were
/// made: an outer fold after the folds inside its iteration) that no other fold of the range
/// holds in its iteration, in stream order.
[[nodiscard]] inline std::vector<size_t> outermostFolds(const std::vector<LoopFold>& folds, size_t begin, size_t end) {
  std::vector<size_t> out;
  size_t g = end;
  while (g > begin) {
    --g;
    out.push_back(g);
    if (folds[g].innerEnd > folds[g].innerBegin) g = std::max(begin, folds[g].innerBegin);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

/// Instructions of one full iteration of each fold: its recorded iteration with the repeats of
/// the folds inside it.
[[nodiscard]] inline std::vector<long long> iterationLengths(const std::vector<LoopFold>& folds) {
  std::vector<long long> len(folds.size(), 0);
  for (size_t i = 0; i < folds.size(); ++i) {
    const LoopFold& f = folds[i];
    long long n = static_cast<long long>(f.streamEnd - f.streamBegin);
    for (size_t g : outermostFolds(folds, f.innerBegin, f.innerEnd)) {
      const long long recorded = static_cast<long long>(folds[g].streamEnd - folds[g].streamBegin);
      n += len[g] - recorded + folds[g].repeats * len[g];
    }
    len[i] = n;
  }
  return len;
}

/// Instructions of the full stream of a run that recorded `recorded` instructions and `folds`.
[[nodiscard]] inline long long expandedLength(size_t recorded, const std::vector<LoopFold>& folds) {
  const std::vector<long long> len = iterationLengths(folds);
  long long n = static_cast<long long>(recorded);
  for (size_t g : outermostFolds(folds, 0, folds.size())) {
    n += len[g] - static_cast<long long>(folds[g].streamEnd - folds[g].streamBegin) + folds[g].repeats * len[g];
  }
  return n;
}

/// Whether the three iterations [p0, p1), [p1, p2), [p2, p3) of a loop (stream positions at
/// four visits of its header; a0..a3 the address-record positions at the same visits) hold the
/// same inner folds: the same number, each at the same place relative to its iteration, with
/// the same length, repeats, address steps and nesting. Then the iterations still differ only by
/// constant steps and the loop may fold too; [first, end) are the folds of the last iteration.
/// False when a fold straddles an iteration boundary. A run that records addresses but not the
/// stream (`byAddress`) places folds by their address records instead.
[[nodiscard]] inline bool innerFoldsAlike(const std::vector<LoopFold>& folds, const size_t (&p)[4], const size_t (&a)[4],
                                          size_t& first, size_t& end, bool byAddress = false) {
  const size_t(&at)[4] = byAddress ? a : p;
  auto foldBegin = [&](const LoopFold& f) { return byAddress ? f.addressBegin : f.streamBegin; };
  auto foldEnd = [&](const LoopFold& f) { return byAddress ? f.addressEnd : f.streamEnd; };
  size_t k = folds.size();
  while (k > 0 && foldEnd(folds[k - 1]) > at[0]) --k;
  size_t bound[4] = {k, k, k, folds.size()};
  for (int it = 0; it < 3; ++it) {
    size_t j = bound[it];
    while (j < folds.size() && foldEnd(folds[j]) <= at[it + 1]) {
      if (foldBegin(folds[j]) < at[it]) return false;
      ++j;
    }
    if (it < 2) bound[it + 1] = j;
    else if (j != folds.size()) return false;
  }
  const size_t n = bound[1] - bound[0];
  if (bound[2] - bound[1] != n || bound[3] - bound[2] != n) return false;
  for (size_t j = 0; j < n; ++j) {
    const LoopFold& z = folds[bound[2] + j];
    for (int it = 0; it < 2; ++it) {
      const LoopFold& x = folds[bound[it] + j];
      if (x.header != z.header || x.repeats != z.repeats || x.addressStep != z.addressStep) return false;
      if (x.streamBegin - p[it] != z.streamBegin - p[2] || x.streamEnd - x.streamBegin != z.streamEnd - z.streamBegin) return false;
      if (x.addressBegin - a[it] != z.addressBegin - a[2] || x.addressEnd - x.addressBegin != z.addressEnd - z.addressBegin) return false;
      const bool xi = x.innerEnd > x.innerBegin, zi = z.innerEnd > z.innerBegin;
      if (xi != zi) return false;
      if (xi && (x.innerBegin - bound[it] != z.innerBegin - bound[2] || x.innerEnd - x.innerBegin != z.innerEnd - z.innerBegin)) return false;
    }
  }
  first = bound[2];
  end = bound[3];
  return true;
}

/// Emits positions [begin, end) of the full stream of a run recorded as `stream` (instruction,
/// mask) with address records (`count` of them, sorted by recorded position: `positionOf(k)`,
/// `lanesOf(k)`) and folds: `emit(instruction, mask, lanes)`, lanes null without a record. A
/// fold's repeats follow its recorded iteration; a record of a repeat has the recorded lanes
/// plus, for every fold repeating it (inner folds within outer ones), repeat × that fold's step.
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
  const std::vector<long long> len = iterationLengths(folds);
  std::vector<std::pair<size_t, long long>> repeating;  // (fold, repeat) of the enclosing repeats
  std::vector<long long> lanes;
  long long pos = 0;
  // Recorded positions [qa, qb), shifted by the enclosing repeats.
  auto recorded = [&](size_t qa, size_t qb) {
    const long long length = static_cast<long long>(qb - qa);
    const long long lo = std::max(begin, pos), hi = std::min(end, pos + length);
    for (long long p = lo; p < hi; ++p) {
      const size_t q = qa + static_cast<size_t>(p - pos);
      const long long r = recordOf(q);
      if (r < 0) {
        emit(stream[q].first, stream[q].second, nullptr);
        continue;
      }
      if (repeating.empty()) {
        emit(stream[q].first, stream[q].second, &lanesOf(static_cast<size_t>(r)));
        continue;
      }
      lanes = lanesOf(static_cast<size_t>(r));
      for (const auto& [fi, repeat] : repeating) {
        const LoopFold& f = folds[fi];
        const std::vector<long long>& step = f.addressStep[static_cast<size_t>(r) - f.addressBegin];
        for (size_t l = 0; l < lanes.size() && l < step.size(); ++l) {
          if (lanes[l] >= 0) lanes[l] += repeat * step[l];
        }
      }
      emit(stream[q].first, stream[q].second, &lanes);
    }
    pos += length;
  };
  // Recorded positions [qa, qb) holding the outermost folds `inner`, each followed by its repeats.
  auto segment = [&](auto& self, size_t qa, size_t qb, const std::vector<size_t>& inner) -> void {
    size_t q = qa;
    for (size_t g : inner) {
      if (pos >= end) return;
      const LoopFold& f = folds[g];
      recorded(q, f.streamBegin);
      const std::vector<size_t> nested = outermostFolds(folds, f.innerBegin, f.innerEnd);
      for (long long r = 0; r <= f.repeats && pos < end; ++r) {
        if (pos + len[g] <= begin) {  // a whole iteration before the range: skip it (and its like)
          const long long skip = std::min(f.repeats - r + 1, (begin - pos) / std::max<long long>(1, len[g]));
          pos += skip * len[g];
          r += skip - 1;
          continue;
        }
        if (r > 0) repeating.emplace_back(g, r);
        self(self, f.streamBegin, f.streamEnd, nested);
        if (r > 0) repeating.pop_back();
      }
      if (pos >= end) return;
      q = f.streamEnd;
    }
    recorded(q, qb);
  };
  segment(segment, 0, stream.size(), outermostFolds(folds, 0, folds.size()));
}

}  // namespace foresight::cuda::folding
