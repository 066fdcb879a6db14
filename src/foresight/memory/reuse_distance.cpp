// SPDX-License-Identifier: Apache-2.0
/// \file
/// Weighted reuse distances (see reuse_distance.h).
#include "foresight/memory/reuse_distance.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include "foresight/support/parallel.h"
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
  /// Moves weight `v` from position `from` (none when negative) to `to`: add(from, −v) then
  /// add(to, v), in that order (floating sums round as they would).
  void move(std::ptrdiff_t from, size_t to, T v) {
    if (from >= 0) add(static_cast<size_t>(from), -v);
    add(to, v);
  }
  /// Integer weights: add(from, −v) and add(to, v) for from < to. The two update paths meet at
  /// the first node of `to`'s path whose range reaches down to `from`; from there on −v and +v
  /// cancel, so only the nodes below it change.
  void moveCancelling(size_t from, size_t to, T v) {
    const size_t n = tree_.size(), a = from + 1;
    size_t meet = to + 1;
    for (; meet < n && meet - (meet & (~meet + 1)) >= a; meet += meet & (~meet + 1)) tree_[meet] += v;
    for (size_t i = a; i < meet && i < n; i += i & (~i + 1)) tree_[i] -= v;
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

/// Set bits of `w`, inline: std::popcount compiles to a library call unless the build targets
/// a CPU with a population-count instruction, and the counter takes two per query.
int bitsSet(std::uint64_t w) {
  w -= (w >> 1) & 0x5555555555555555ULL;
  w = (w & 0x3333333333333333ULL) + ((w >> 2) & 0x3333333333333333ULL);
  w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((w * 0x0101010101010101ULL) >> 56);
}

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
  /// Clears position `from` (none when negative) and sets `to`. The word counts change only
  /// when the two lie in different words, and then only below the node covering both.
  void move(std::ptrdiff_t from, size_t to) {
    if (from < 0) {
      add(to, 1);
      return;
    }
    const auto f = static_cast<size_t>(from);
    bits_[f >> 6] &= ~(std::uint64_t{1} << (f & 63));
    bits_[to >> 6] |= std::uint64_t{1} << (to & 63);
    if ((f >> 6) != (to >> 6)) words_.moveCancelling(f >> 6, to >> 6, 1);
  }
  /// Set positions in [lo, hi).
  [[nodiscard]] int range(size_t lo, size_t hi) const {
    if (hi <= lo) return 0;
    const size_t wl = lo >> 6, wh = hi >> 6;
    const std::uint64_t fromLo = ~std::uint64_t{0} << (lo & 63);
    const std::uint64_t belowHi = (std::uint64_t{1} << (hi & 63)) - 1;
    if (wl == wh) return bitsSet(bits_[wl] & fromLo & belowHi);
    int s = bitsSet(bits_[wl] & fromLo) + words_.range(wl + 1, wh);
    if (belowHi) s += bitsSet(bits_[wh] & belowHi);
    return s;
  }

 private:
  std::vector<std::uint64_t> bits_;
  Fenwick<int> words_;
};

/// Weighted counts of positions 0..n-1 whose weights take a few values (a unit's weight depends
/// on its cluster count only, and a sample has few distinct counts): a BitCounter per value,
/// the sum over [lo, hi) the weighted sum of their counts. The same sums as Fenwick<double>
/// up to rounding (counts are exact here, one product per class), at a fraction of its cost.
class ClassCounter {
 public:
  ClassCounter(size_t n, std::vector<double> weights) : weights_(std::move(weights)) {
    counts_.reserve(weights_.size());
    for (size_t c = 0; c < weights_.size(); ++c) counts_.emplace_back(n);
  }
  void move(std::ptrdiff_t from, size_t to, size_t weightClass) { counts_[weightClass].move(from, to); }
  [[nodiscard]] double range(size_t lo, size_t hi) const {
    double s = 0;
    for (size_t c = 0; c < counts_.size(); ++c) s += weights_[c] * counts_[c].range(lo, hi);
    return s;
  }

 private:
  std::vector<double> weights_;
  std::vector<BitCounter> counts_;
};

/// Distinct weights a ClassCounter takes at most; beyond, a Fenwick tree of the weights.
constexpr size_t kMaxWeightClasses = 4;

/// Per unit (32 bytes: the pass over the stream visits units at random).
struct UnitState {
  std::int32_t pos = -1;       ///< position holding its weight in the tree (last resident touch)
  std::int32_t lastWarp = -1;
  std::int32_t clusters = 0;   ///< distinct sampled clusters touching it
  std::int32_t crossHits = 0;  ///< hits among re-touches by another warp
  std::int32_t crossCount = 0;
  bool written = false;
  bool dirty = false;
  double weight = 1;
};

/// A stream's units: a dense id per access, in key order, and per unit its state.
struct UnitTable {
  std::vector<int> id;
  std::vector<UnitState> units;
};

/// The unit tables of `stream` for each grouping in `groups` (1: the units as given; g: runs of
/// g consecutive units, unitOf()), from one sort of (unit, position): a group's units are
/// consecutive in unit order. Per unit, whether it is written and how many sampled clusters
/// touch it (n̂ and the weight 1/π). Not hashing: streams are up to millions of accesses.
std::vector<UnitTable> unitTables(const std::vector<SampledAccess>& stream, std::initializer_list<long long> groups) {
  const size_t n = stream.size();
  // Keys, and what the unit pass reads of each access in compact arrays: it visits them in unit
  // order, at random.
  std::vector<std::uint64_t> keys(n);
  std::vector<std::uint8_t> stored(n);
  std::vector<int> clusterOf;
  int lo = 0, hi = 0;  // cluster range
  for (size_t i = 0; i < n; ++i) {
    keys[i] = radixKey(stream[i].unit);
    stored[i] = stream[i].store;
    lo = std::min(lo, stream[i].cluster);
    hi = std::max(hi, stream[i].cluster);
  }
  // One sampled cluster: each unit is touched by exactly one.
  if (lo != hi) {
    clusterOf.resize(n);
    for (size_t i = 0; i < n; ++i) clusterOf[i] = stream[i].cluster;
  }
  const std::vector<std::uint32_t> order = stableOrder(keys);  // by unit, then position
  std::vector<UnitTable> tables;
  std::vector<int> seenBy;  // per cluster, the last unit that counted it
  for (const long long group : groups) {
    UnitTable& t = tables.emplace_back();
    t.id.resize(n);
    t.units.reserve(n);  // at most one unit per access: no regrowth (a copy and fresh pages each time)
    seenBy.assign(static_cast<size_t>(hi - lo) + 1, -1);
    long long current = 0;
    for (size_t j = 0; j < n; ++j) {
      const std::uint32_t at = order[j];
      const long long unit = static_cast<long long>(keys[at] ^ (std::uint64_t{1} << 63));  // radixKey's inverse
      const long long key = group == 1 ? unit : unitOf(unit, group);
      if (j == 0 || key != current) t.units.emplace_back();
      current = key;
      const int uid = static_cast<int>(t.units.size()) - 1;
      t.id[at] = uid;
      UnitState& u = t.units.back();
      u.written = u.written || stored[at];
      int& seen = seenBy[clusterOf.empty() ? 0 : static_cast<size_t>(clusterOf[at] - lo)];
      if (seen != uid) {
        seen = uid;
        ++u.clusters;
      }
    }
  }
  return tables;
}

/// The reuse analysis of `stream` with its units as in `table` (analyzeReuse()).
ReuseResult reuseOf(const std::vector<SampledAccess>& stream, UnitTable table, const SamplePopulation& population,
                    double capacityUnits) {
  ReuseResult out;
  const size_t n = stream.size();
  out.outcomes.resize(n);
  const double k = std::max(1.0, population.sampledClusters);
  const double p = std::max(k, population.clusters);
  const std::vector<int>& id = table.id;
  std::vector<UnitState>& units = table.units;
  // n̂ and the weight depend on a unit's cluster count only: computed once per count.
  std::vector<std::pair<double, double>> byClusters;  // (n̂, weight); NaN: not yet
  for (UnitState& u : units) {
    const auto c = static_cast<size_t>(u.clusters);
    if (c >= byClusters.size()) byClusters.resize(c + 1, {std::nan(""), 0.0});
    if (std::isnan(byClusters[c].first)) {
      const double touched = std::min<double>(u.clusters, k);
      const double touchers = k > 1 ? 1 + (touched - 1) * (p - 1) / (k - 1) : 1;
      const double pi = p <= k ? 1.0 : 1.0 - std::pow(1.0 - k / p, touchers);
      byClusters[c] = {touchers, 1.0 / std::max(pi, 1e-12)};
    }
    u.weight = byClusters[c].second;
    out.distinctUnits += u.weight;
    (u.written ? out.distinctWrittenUnits : out.distinctReadUnits) += u.weight;
  }

  // Pass 1: distances of re-touches; cold accesses are resolved in pass 2. With every unit of
  // weight 1 (an unsampled population) the distances are counts, kept in integers: the same
  // values, faster; with a few distinct weights, counts per weight. `moveUnit(tree, u, i)`
  // moves unit u's weight to position i.
  auto pass1 = [&](auto& tree, auto moveUnit) {
    for (size_t i = 0; i < n; ++i) {
      const SampledAccess& a = stream[i];
      UnitState& u = units[static_cast<size_t>(id[i])];
      AccessOutcome& o = out.outcomes[i];
      bool hit = false;
      if (u.pos >= 0) {
        o.distance = static_cast<double>(tree.range(static_cast<size_t>(u.pos) + 1, i));
        hit = o.distance < capacityUnits;
        o.hit = hit ? 1.0 : 0.0;
        if (a.counted && a.warp != u.lastWarp) {
          u.crossHits += hit ? 1 : 0;
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
        moveUnit(tree, u, i);
        u.pos = static_cast<std::int32_t>(i);
      }
      u.lastWarp = a.warp;
    }
  };
  // The distinct weights, by cluster count (byClusters): the class of each count.
  std::vector<double> weights;
  std::vector<size_t> classOf(byClusters.size(), 0);
  for (size_t c = 0; c < byClusters.size(); ++c) {
    if (std::isnan(byClusters[c].first)) continue;
    const auto it = std::find(weights.begin(), weights.end(), byClusters[c].second);
    classOf[c] = static_cast<size_t>(it - weights.begin());
    if (it == weights.end()) weights.push_back(byClusters[c].second);
  }
  if (weights.size() <= 1 && (weights.empty() || weights[0] == 1.0)) {
    BitCounter tree(n);
    pass1(tree, [](BitCounter& t, const UnitState& u, size_t i) { t.move(u.pos, i); });
  } else if (weights.size() <= kMaxWeightClasses) {
    ClassCounter tree(n, std::move(weights));
    pass1(tree, [&](ClassCounter& t, const UnitState& u, size_t i) {
      t.move(u.pos, i, classOf[static_cast<size_t>(u.clusters)]);
    });
  } else {
    Fenwick<double> tree(n);
    pass1(tree, [](Fenwick<double>& t, const UnitState& u, size_t i) { t.move(u.pos, i, u.weight); });
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
    const double firstChance = std::min(1.0, u.clusters / std::max(1.0, byClusters[static_cast<size_t>(u.clusters)].first));
    const double q = u.crossCount > 0 ? static_cast<double>(u.crossHits) / u.crossCount : 0.0;
    o.hit = (1.0 - firstChance) * q;
    o.distance = -1;
    if (a.store) o.writeBack = 1.0 - o.hit;
  }
  return out;
}

}  // namespace

ReuseResult analyzeReuse(const std::vector<SampledAccess>& stream, const SamplePopulation& population,
                         double capacityUnits) {
  std::vector<UnitTable> tables = unitTables(stream, {1});
  return reuseOf(stream, std::move(tables[0]), population, capacityUnits);
}

std::pair<ReuseResult, ReuseResult> analyzeReuseGrouped(const std::vector<SampledAccess>& stream,
                                                        const SamplePopulation& population, double capacityUnits,
                                                        long long group) {
  std::vector<UnitTable> tables = unitTables(stream, {1, group});
  std::pair<ReuseResult, ReuseResult> out;
  parallelFor(2, [&](std::size_t k) {
    if (k == 0) out.first = reuseOf(stream, std::move(tables[0]), population, capacityUnits);
    else out.second = reuseOf(stream, std::move(tables[1]), population, capacityUnits / static_cast<double>(group));
  });
  return out;
}

}  // namespace foresight
