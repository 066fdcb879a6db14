// SPDX-License-Identifier: Apache-2.0
/// \file
/// Weighted reuse distances (see reuse_distance.h).
#include "foresight/memory/reuse_distance.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <type_traits>

#include "foresight/support/radix_sort.h"

namespace foresight {

namespace {

/// Prefix sums over positions 0..n-1 with point updates (Fenwick tree) of `T`.
template <class T>
class Fenwick {
 public:
  explicit Fenwick(size_t n) : tree_(n + 1, T{0}) {}
  void add(size_t pos, T v) {
    for (size_t i = pos + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += v;
  }
  /// Sum over positions [lo, hi). Integer sums walk both ends down only to where their paths
  /// meet (short reuse distances are cheap); floating sums take the two prefixes whole, so
  /// that they round the same whatever the distance.
  [[nodiscard]] T range(size_t lo, size_t hi) const {
    T s{0};
    if constexpr (std::is_integral_v<T>) {
      while (hi != lo) {
        if (hi > lo) {
          s += tree_[hi];
          hi -= hi & (~hi + 1);
        } else {
          s -= tree_[lo];
          lo -= lo & (~lo + 1);
        }
      }
      return s;
    } else {
      return prefix(hi) - prefix(lo);
    }
  }

 private:
  [[nodiscard]] T prefix(size_t pos) const {
    T s{0};
    for (size_t i = pos; i > 0; i -= i & (~i + 1)) s += tree_[i];
    return s;
  }
  std::vector<T> tree_;
};

/// Counts of positions 0..n-1 that are set, for unit weights: a bit per position and a
/// Fenwick tree of the set bits per 64-position word. The same counts as Fenwick<int> with
/// weights ±1, from structures a 64th the size (a sample of 2^17 accesses: 16 KiB of bits and
/// an 8 KiB tree, in the core's first-level cache rather than half a MiB).
class BitCounter {
 public:
  explicit BitCounter(size_t n) : bits_((n + 63) / 64, 0), words_((n + 63) / 64) {}
  void add(size_t pos, int v) {
    const std::uint64_t bit = std::uint64_t{1} << (pos & 63);
    if (v > 0) {
      bits_[pos >> 6] |= bit;
    } else {
      bits_[pos >> 6] &= ~bit;
    }
    words_.add(pos >> 6, v);
  }
  /// Set positions in [lo, hi).
  [[nodiscard]] int range(size_t lo, size_t hi) const {
    if (hi <= lo) return 0;
    const size_t wl = lo >> 6, wh = hi >> 6;
    const std::uint64_t fromLo = ~std::uint64_t{0} << (lo & 63);
    const std::uint64_t belowHi = (std::uint64_t{1} << (hi & 63)) - 1;
    if (wl == wh) return std::popcount(bits_[wl] & fromLo & belowHi);
    int s = std::popcount(bits_[wl] & fromLo) + words_.range(wl + 1, wh);
    if (belowHi) s += std::popcount(bits_[wh] & belowHi);
    return s;
  }

 private:
  std::vector<std::uint64_t> bits_;
  Fenwick<int> words_;
};

struct UnitState {
  long long pos = -1;      ///< position holding its weight in the tree (last resident touch)
  int lastWarp = -1;
  int clusters = 0;        ///< distinct sampled clusters touching it
  bool written = false;
  bool dirty = false;
  double weight = 1;
  double estimatedTouchers = 1;  ///< n̂: clusters of the population touching it
  double crossHits = 0;    ///< hits among re-touches by another warp
  double crossCount = 0;
};

}  // namespace

ReuseResult analyzeReuse(const std::vector<SampledAccess>& stream, const SamplePopulation& population,
                         double capacityUnits) {
  ReuseResult out;
  const size_t n = stream.size();
  out.outcomes.resize(n);
  out.weights.resize(n);
  const double k = std::max(1.0, population.sampledClusters);
  const double p = std::max(k, population.clusters);

  // Dense unit ids in key order, from one sort of (unit, position) (not hashing: streams are up
  // to millions of accesses); per unit, whether it is written and how many sampled clusters
  // touch it (n̂ and the weight 1/π below).
  std::vector<int> id(n);
  std::vector<UnitState> units;
  {
    std::vector<std::uint64_t> keys(n);
    int lo = 0, hi = 0;  // cluster range
    for (size_t i = 0; i < n; ++i) {
      keys[i] = radixKey(stream[i].unit);
      lo = std::min(lo, stream[i].cluster);
      hi = std::max(hi, stream[i].cluster);
    }
    const std::vector<std::uint32_t> order = stableOrder(keys);  // by unit, then position
    std::vector<int> seenBy(static_cast<size_t>(hi - lo) + 1, -1);  // per cluster, the last unit that counted it
    for (size_t j = 0; j < n; ++j) {
      if (j == 0 || keys[order[j]] != keys[order[j - 1]]) units.emplace_back();
      const int uid = static_cast<int>(units.size()) - 1;
      const SampledAccess& a = stream[order[j]];
      id[order[j]] = uid;
      UnitState& u = units.back();
      u.written = u.written || a.store;
      int& seen = seenBy[static_cast<size_t>(a.cluster - lo)];
      if (seen != uid) {
        seen = uid;
        ++u.clusters;
      }
    }
  }
  for (UnitState& u : units) {
    const double touched = std::min<double>(u.clusters, k);
    u.estimatedTouchers = k > 1 ? 1 + (touched - 1) * (p - 1) / (k - 1) : 1;
    const double pi = p <= k ? 1.0 : 1.0 - std::pow(1.0 - k / p, u.estimatedTouchers);
    u.weight = 1.0 / std::max(pi, 1e-12);
    out.distinctUnits += u.weight;
    (u.written ? out.distinctWrittenUnits : out.distinctReadUnits) += u.weight;
  }

  // Pass 1: distances of re-touches; cold accesses are resolved in pass 2. With every unit of
  // weight 1 (an unsampled population) the distances are counts, kept in integers: the same
  // values, faster.
  auto pass1 = [&](auto& tree) {
    using T = std::decay_t<decltype(tree.range(0, 0))>;
    for (size_t i = 0; i < n; ++i) {
      const SampledAccess& a = stream[i];
      UnitState& u = units[static_cast<size_t>(id[i])];
      AccessOutcome& o = out.outcomes[i];
      out.weights[i] = u.weight;
      bool hit = false;
      if (u.pos >= 0) {
        o.distance = static_cast<double>(tree.range(static_cast<size_t>(u.pos) + 1, i));
        hit = o.distance < capacityUnits;
        o.hit = hit ? 1.0 : 0.0;
        if (a.counted && a.warp != u.lastWarp) {
          u.crossHits += o.hit;
          u.crossCount += 1;
        }
      }
      if (a.store) {
        o.writeBack = u.dirty && hit ? 0.0 : 1.0;
        u.dirty = true;
      } else if (!hit && u.pos >= 0) {
        u.dirty = false;  // evicted (and written back) since
      }
      if (a.allocates || hit) {
        const auto w = static_cast<T>(u.weight);
        if (u.pos >= 0) tree.add(static_cast<size_t>(u.pos), -w);
        tree.add(i, w);
        u.pos = static_cast<long long>(i);
      }
      u.lastWarp = a.warp;
    }
  };
  if (std::all_of(units.begin(), units.end(), [](const UnitState& u) { return u.weight == 1.0; })) {
    BitCounter tree(n);
    pass1(tree);
  } else {
    Fenwick<double> tree(n);
    pass1(tree);
  }

  // Pass 2: a unit's first touch in the sample is the population's first with chance k/n̂;
  // otherwise another cluster touched it before, and it hits as often as the sample's own
  // re-touches by other warps did.
  std::vector<bool> first(units.size(), false);
  for (size_t i = 0; i < n; ++i) {
    const SampledAccess& a = stream[i];
    if (first[static_cast<size_t>(id[i])]) continue;
    first[static_cast<size_t>(id[i])] = true;
    const UnitState& u = units[static_cast<size_t>(id[i])];
    AccessOutcome& o = out.outcomes[i];
    const double firstChance = std::min(1.0, u.clusters / std::max(1.0, u.estimatedTouchers));
    const double q = u.crossCount > 0 ? u.crossHits / u.crossCount : 0.0;
    o.hit = (1.0 - firstChance) * q;
    o.distance = -1;
    if (a.store) o.writeBack = 1.0 - o.hit;
  }
  return out;
}

}  // namespace foresight
