// SPDX-License-Identifier: Apache-2.0
/// \file
/// The characterizer: tiles, patterns and footprints (§5.1), sharing and staging (Eqs. 1–4),
/// shared-memory buffers (Eqs. 5–7), global accesses and their coalescing (Eqs. 9–16), and
/// computation instructions with Table 3 (Eq. 17). Ambiguities are resolved where the code
/// resolves them and labelled with the digest's names (A2, A4, ...); docs/skeleton-model.md
/// lists them all.
#include "foresight/frontend/skeleton/characterizer.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <span>
#include <tuple>

#include "foresight/frontend/skeleton/brs.h"
#include "foresight/memory/coalescing.h"

namespace foresight::skeleton {

namespace {

/// An access statement, with what does not depend on the layout.
struct AccessInfo {
  const Ref* ref = nullptr;
  bool store = false;
  double lp = 1;    ///< executions per task (enclosing trip counts × branch probabilities)
  double prob = 1;  ///< product of enclosing branch probabilities
  std::vector<int> ancestors;  ///< enclosing loop variables, outermost first
  bool reuse = false;  ///< the same element as an earlier load in scope: a register, not memory
};

/// A loop, with what does not depend on the layout.
struct LoopInfo {
  int var = -1;
  double lp = 1;  ///< executions of the loop per task
  double trip = 0;
  bool stream = false;
  bool unrollable = false;  ///< static trip count, branch-free, innermost (A14, A15)
  bool leaf = false;        ///< its body has no loop and no branch (unrollable if static)
  std::vector<int> ancestors;
};

enum class Rule { Cc10, Cc12, Sectors };

std::string refKey(const Ref& r) {
  std::string k = std::to_string(r.array);
  for (const Index& x : r.dims) {
    k += "[" + std::to_string(x.affine.constant);
    for (const auto& [v, c] : x.affine.terms)
      k += "," + std::to_string(v) + ":" + std::to_string(c);
    if (x.indirect) k += "," + std::to_string(x.indirectCoef) + "*" + refKey(*x.indirect);
    k += "]";
  }
  return k;
}

bool containsLoopOrBranch(const std::vector<Stmt>& body, bool loops, bool branches) {
  for (const Stmt& s : body) {
    if (loops && s.kind == StmtKind::Loop) return true;
    if (branches && s.kind == StmtKind::Branch) return true;
    if (containsLoopOrBranch(s.body, loops, branches)) return true;
  }
  return false;
}

constexpr long long kBase = 1LL << 30;  // 256-B aligned array base (A10)

long long ceilDiv(long long a, long long b) {
  return (a + b - 1) / b;
}

}  // namespace

struct PreparedShape {
  std::vector<int> block, fold;
  long long threads = 1, foldDegree = 1, blocks = 1;
  std::vector<long long> origin;
  std::vector<Range> parallelFull;  ///< b_d·f_d tasks per dimension (B̂)
  std::vector<Range> parallelOne;   ///< one fold iteration (A18 applied to fold loops)
  std::vector<Range> fhat, bhat;    ///< per variable
  std::vector<double> shr;
  std::uint64_t cacheable = 0;
  std::vector<std::vector<long long>> suggestions;
  std::vector<std::uint64_t> inStream;
  struct Direct {
    double insts = 0;  ///< Eq. 13 × branch probability
    bool coalesced = true;
    double transactions = 1;
    long long bhatSize = 0;  ///< size(P(access, B̂)) for Eq. 9
  };
  std::vector<Direct> direct;
  /// ShMem buffers by (array, stream index or -1, staging size).
  /// Keyed also by the traversal order's view id (O changes Eq. 5 sections).
  mutable std::map<std::tuple<int, int, long long, std::uint64_t, int>, SharedBuffer> buffers;
  /// Eq. 3 suggestions for non-identity traversal orders, by view id (computed on demand).
  mutable std::map<int, std::vector<std::vector<long long>>> orderSuggestions;
};

/// The loops and access ancestors as one traversal order O sees them (§4.1): inside a perfect
/// stream nest the loops trade places, so which loop is innermost (unrolling, A15), the
/// enclosing loops of a buffer (A18, Eq. 5) and the executions per task of each loop change.
struct OrderView {
  int id = 0;                               ///< 0 = skeleton order
  std::vector<LoopInfo> loops;              ///< by position, like Impl::loops
  std::vector<std::vector<int>> ancestors;  ///< per access, outermost first
  const LoopInfo& loopOf(int var) const {
    for (const LoopInfo& l : loops) {
      if (l.var == var) return l;
    }
    return loops.front();
  }
};

struct Characterizer::Impl {
  Skeleton sk;
  Gpu gpu;
  CharacterizerOptions opt;
  std::vector<AccessInfo> accesses;
  std::vector<LoopInfo> loops;
  std::vector<int> streams;
  std::vector<int> streamIndexOfVar;  ///< var -> position in `streams`, -1 otherwise
  double funcPerTask = 0;
  double branchPerTask = 0;
  bool foldUnrollable = true;
  Rule rule = Rule::Sectors;
  SectorOptions sectors;
  int warp = 32;

  void walk(const std::vector<Stmt>& body, double lp, double prob, std::vector<int>& ancestors,
            std::vector<std::string>& loaded) {
    const size_t scope = loaded.size();
    for (const Stmt& s : body) {
      switch (s.kind) {
        case StmtKind::Comp: funcPerTask += s.count * lp; break;
        case StmtKind::Bind: break;
        case StmtKind::Load:
        case StmtKind::Store: {
          AccessInfo a;
          a.ref = &s.ref;
          a.store = s.kind == StmtKind::Store;
          a.lp = lp;
          a.prob = prob;
          a.ancestors = ancestors;
          const std::string key = refKey(s.ref);
          if (!a.store) {
            a.reuse = std::find(loaded.begin(), loaded.end(), key) != loaded.end();
            if (!a.reuse) loaded.push_back(key);
          }
          accesses.push_back(std::move(a));
          break;
        }
        case StmtKind::Branch:
          branchPerTask += s.count * lp;
          walk(s.body, lp * s.prob, prob * s.prob, ancestors, loaded);
          break;
        case StmtKind::Loop: {
          const Var& v = sk.vars[s.var];
          LoopInfo l;
          l.var = s.var;
          l.lp = lp;
          l.trip = v.trip;
          l.stream = v.kind == VarKind::Stream;
          l.leaf = !containsLoopOrBranch(s.body, true, true);
          l.unrollable = !v.dataBounds && l.leaf;
          l.ancestors = ancestors;
          loops.push_back(l);
          if (l.stream) streams.push_back(s.var);
          ancestors.push_back(s.var);
          walk(s.body, lp * v.trip, prob, ancestors, loaded);
          ancestors.pop_back();
          break;
        }
      }
    }
    loaded.resize(scope);
  }

  /// Ranges of every variable: parallel ranges given, inner loops full unless overridden.
  /// C1: a data-bounded loop ranges over ⟨0, ⌈trip⌉ × Π sizes of the variables its bounds depend
  /// on⟩: consecutive values of those variables own disjoint consecutive chunks (the CSR
  /// assumption; docs/skeleton-model.md).
  std::vector<Range> tile(const std::vector<Range>& parallel,
                          const std::map<int, Range>& overrides) const {
    std::vector<Range> t(sk.vars.size());
    for (size_t v = 0; v < sk.vars.size(); ++v) {
      const Var& var = sk.vars[v];
      if (auto it = overrides.find(static_cast<int>(v)); it != overrides.end()) {
        t[v] = it->second;
      } else if (var.kind == VarKind::Parallel) {
        t[v] = parallel[v];
      } else if (!var.dataBounds) {
        t[v] = {var.lo, std::max(var.hi, var.lo), var.step};
      } else {
        long long n = static_cast<long long>(std::ceil(var.trip));
        for (size_t u = 0; u < v; ++u) {
          if ((var.boundDeps >> u) & 1) n *= std::max<long long>(1, t[u].size());
        }
        t[v] = {0, std::max<long long>(n, 1), 1};
      }
    }
    return t;
  }

  /// P(access, tile) (§5.1): each subscript's range, clamped to the array's extent. An indirect
  /// term covers as many elements as the tile gives distinct index values, at most the hinted
  /// range of its index array or the whole dimension (A20).
  Section pattern(const Ref& r, const std::vector<Range>& t) const {
    const Array& arr = sk.arrays[r.array];
    Section s(r.dims.size());
    for (size_t i = 0; i < r.dims.size(); ++i) {
      const Index& x = r.dims[i];
      const long long extent = arr.dims[i];
      Range acc{x.affine.constant, x.affine.constant + 1, 1};
      for (const auto& [v, c] : x.affine.terms) acc = rangeSum(acc, affineImage(t[v], c, 0));
      if (x.indirect) {
        // A20: one-to-one, so the targets are as many as the distinct index values the tile
        // produces, capped by the hinted range or the dimension; taken as one contiguous run.
        const Array& src = sk.arrays[x.indirect->array];
        VarMask srcVars = 0;
        for (const Index& d : x.indirect->dims) srcVars |= d.vars;
        long long distinct = 1;
        for (size_t v = 0; v < t.size(); ++v) {
          if ((srcVars >> v) & 1) distinct *= std::max<long long>(1, t[v].size());
        }
        const long long lo = src.indexRange ? src.indexRange->first : 0;
        const long long span =
            src.indexRange ? src.indexRange->second - src.indexRange->first : extent;
        acc = rangeSum(acc, {lo, lo + std::min(span, distinct), 1});
      }
      if (acc.lo < 0) acc.lo += ceilDiv(-acc.lo, acc.stride) * acc.stride;
      acc.hi = std::min(acc.hi, extent);
      if (acc.hi <= acc.lo) acc = {0, 0, 1};
      s[i] = acc;
    }
    return s;
  }

  /// H(D, tile) over the given accesses of array D.
  long long footprint(int array, const std::vector<Range>& t, const std::vector<int>& which,
                      std::vector<Section>* sections = nullptr) const {
    std::vector<Section> parts;
    for (int a : which) {
      if (accesses[a].ref->array == array) parts.push_back(pattern(*accesses[a].ref, t));
    }
    std::vector<Section> merged = mergeFootprint(std::move(parts));
    const long long n = footprintSize(merged);
    if (sections) *sections = std::move(merged);
    return n;
  }

  /// Eq. 13: unique elements one thread touches through an access statement. With an indirect
  /// subscript, every combination of the variables it names counts (no reuse can be shown
  /// statically; A20).
  double directInsts(const AccessInfo& a, const std::vector<Range>& fhat,
                     long long foldDegree) const {
    bool indirect = false;
    VarMask vars = 0;
    for (const Index& x : a.ref->dims) {
      indirect |= x.indirect != nullptr;
      vars |= x.vars;
    }
    // C2: a value walked by an inner loop cannot stay in registers across fold iterations (that
    // would take one register per inner iteration): such a statement reuses only within one
    // task, and each of the F tasks reloads ([C], docs/skeleton-model.md). Other statements
    // keep Eq. 13 over the whole F̂.
    VarMask inner = 0;
    for (size_t v = sk.parallelDims; v < sk.vars.size(); ++v) inner |= VarMask{1} << v;
    if (!indirect && (vars & inner) != 0 && foldDegree > 1) {
      std::vector<Range> task = fhat;
      for (int d = 0; d < sk.parallelDims; ++d) task[d] = {fhat[d].lo, fhat[d].lo + 1, 1};
      task = tile(std::vector<Range>(task.begin(), task.begin() + sk.parallelDims), {});
      return static_cast<double>(sectionSize(pattern(*a.ref, task))) *
             static_cast<double>(foldDegree) * a.prob;
    }
    if (!indirect) return static_cast<double>(sectionSize(pattern(*a.ref, fhat))) * a.prob;
    double n = 1;
    for (size_t v = 0; v < sk.vars.size(); ++v) {
      if ((vars >> v) & 1) n *= static_cast<double>(fhat[v].size());
    }
    return n * a.prob;
  }

  /// Values of every variable for `lanes` consecutive threads starting at warp `w` of an interior
  /// block (A3: the last dimension varies fastest; A10: the block's origin is b_d·f_d; lanes past
  /// the block continue in the next block along the last dimension).
  void laneValues(const PreparedShape& sh, int w, std::vector<long long>& vals) const {
    const int P = sk.parallelDims;
    const size_t nv = sk.vars.size();
    vals.assign(static_cast<size_t>(warp) * nv, 0);
    for (int l = 0; l < warp; ++l) {
      long long* val = &vals[static_cast<size_t>(l) * nv];
      long long g = static_cast<long long>(w) * warp + l;
      const long long blk = g / sh.threads;
      long long t = g % sh.threads;
      for (int d = P - 1; d >= 0; --d) {
        const long long td = t % sh.block[d];
        t /= sh.block[d];
        val[d] = sh.origin[d] + td + (d == P - 1 ? blk * sh.block[d] * sh.fold[d] : 0);
      }
      for (size_t v = P; v < nv; ++v) {
        const Var& var = sk.vars[v];
        const long long trip = std::max<long long>(1, static_cast<long long>(std::ceil(var.trip)));
        const long long it = w % trip;  // sampled warps also walk the inner iterations
        if (!var.dataBounds) {
          val[v] = var.lo + it * var.step;
        } else {
          long long base = 0;
          for (int d = 0; d < P; ++d) {
            if ((var.boundDeps >> d) & 1) base += val[d];
          }
          val[v] = base * trip + it;
        }
      }
    }
  }

  /// Subscript value for one lane; sets `random` for a lane-varying indirect index without a
  /// sample (A20: worst case).
  long long evalIndex(const Index& x, const long long* val, VarMask varying, bool& random) const {
    long long v = x.affine.constant;
    for (const auto& [var, c] : x.affine.terms) v += c * val[var];
    if (!x.indirect) return v;
    const Ref& src = *x.indirect;
    const Array& srcArray = sk.arrays[src.array];
    if (!srcArray.sample.empty()) {
      long long flat = 0;
      for (size_t i = 0; i < src.dims.size(); ++i) {
        long long idx = evalIndex(src.dims[i], val, varying, random);
        idx = ((idx % srcArray.dims[i]) + srcArray.dims[i]) % srcArray.dims[i];
        flat = flat * srcArray.dims[i] + idx;
      }
      const long long n = static_cast<long long>(srcArray.sample.size());
      return v + x.indirectCoef * srcArray.sample[((flat % n) + n) % n];
    }
    if ((x.deps & varying) != 0) random = true;
    return v;  // warp-uniform indirect value: taken as 0 (A20)
  }

  /// Byte addresses of one warp request of `ref`.
  std::vector<long long> addresses(const PreparedShape& sh, const Ref& ref, int w) const {
    thread_local std::vector<long long> vals;
    laneValues(sh, w, vals);
    const size_t nv = sk.vars.size();
    VarMask varying = 0;
    for (size_t v = 0; v < nv; ++v) {
      for (int l = 1; l < warp; ++l) {
        if (vals[static_cast<size_t>(l) * nv + v] != vals[v]) varying |= VarMask{1} << v;
      }
    }
    const Array& arr = sk.arrays[ref.array];
    std::vector<long long> out(warp);
    bool random = false;
    for (int l = 0; l < warp; ++l) {
      long long offset = 0;
      for (size_t i = 0; i < ref.dims.size(); ++i) {
        offset = offset * arr.dims[i] +
                 evalIndex(ref.dims[i], &vals[static_cast<size_t>(l) * nv], varying, random);
      }
      out[l] = kBase + offset * arr.elemBytes;
    }
    if (random) {
      for (int l = 0; l < warp; ++l) out[l] = kBase + static_cast<long long>(l) * 4096;
    }
    return out;
  }

  /// Transactions and coalescing of one warp request under the GPU generation's rule. A9: an
  /// instruction is coalesced when the rule's `coalesced` flag says so (no more transactions than
  /// an aligned unit-stride access); any other is uncoalesced with its transaction count.
  std::pair<bool, double> coalesce(std::span<const long long> lanes, int bytes) const {
    switch (rule) {
      case Rule::Cc10: {
        Expected<SegmentTransactions> t = countTransactionsCc10(lanes, bytes);
        return t ? std::make_pair(t->coalesced, static_cast<double>(t->transactions))
                 : std::make_pair(false, 32.0);
      }
      case Rule::Cc12: {
        Expected<SegmentTransactions> t = countTransactionsCc12(lanes, bytes);
        return t ? std::make_pair(t->coalesced, static_cast<double>(t->transactions))
                 : std::make_pair(false, 32.0);
      }
      case Rule::Sectors: {
        Expected<SectorCount> t = countSectors(lanes, bytes, sectors);
        return t ? std::make_pair(t->coalesced, static_cast<double>(t->sectors))
                 : std::make_pair(false, 32.0);
      }
    }
    return {false, 32.0};
  }

  bool usesSample(const Ref& r) const {
    for (const Index& x : r.dims) {
      if (x.indirect && (!sk.arrays[x.indirect->array].sample.empty() || usesSample(*x.indirect)))
        return true;
    }
    return false;
  }

  /// The ShMem(D, k) buffer: Eq. 5 section, Eq. 4 stages, Eq. 12 instructions and the coalescing
  /// of its first warp of elements (§5.6).
  SharedBuffer buffer(const PreparedShape& sh, const OrderView& view, int array, int streamIdx,
                      long long stage) const {
    SharedBuffer b;
    b.array = array;
    std::vector<int> which;
    std::vector<Range> t;
    double execs = 1;
    if (streamIdx < 0) {
      // k = 0: the accesses of D outside every staged loop, over the whole B̂.
      b.stream = -1;
      t = sh.bhat;
      b.numStages = 1;
      which = zeroAccesses_;
    } else {
      const int k = streams[streamIdx];
      b.stream = k;
      const LoopInfo& loop = view.loopOf(k);
      std::map<int, Range> over;
      for (int anc : loop.ancestors) over[anc] = oneIteration(anc);  // A18
      const Var& v = sk.vars[k];
      over[k] = v.dataBounds ? Range{0, stage, 1}
                             : Range{v.lo, std::min(v.hi, v.lo + stage * v.step), v.step};
      t = tile(sh.parallelOne, over);
      b.numStages = std::ceil(loop.trip / static_cast<double>(stage));  // Eq. 4 (A6)
      execs = static_cast<double>(sh.foldDegree) * loop.lp;
      which = stagedAccesses_;
    }
    std::vector<Section> sections;
    b.elements = footprint(array, t, which, &sections);
    for (const Section& s : sections) {
      for (const Range& r : s) b.shape.push_back(r.size());
      break;
    }
    // Eq. 12 with the ceiling (A6), dynamic per thread.
    b.cachingInsts = static_cast<double>(ceilDiv(b.elements, sh.threads)) * b.numStages * execs;
    // Coalescing: the global addresses of the first warp_size elements, row-major.
    const Array& arr = sk.arrays[array];
    std::vector<long long> lanes;
    for (const Section& s : sections) {
      std::vector<long long> idx(s.size());
      for (size_t d = 0; d < s.size(); ++d) idx[d] = s[d].lo;
      while (static_cast<int>(lanes.size()) < warp) {
        long long offset = 0;
        for (size_t d = 0; d < s.size(); ++d) offset = offset * arr.dims[d] + idx[d];
        lanes.push_back(kBase + offset * arr.elemBytes);
        int d = static_cast<int>(s.size()) - 1;
        for (; d >= 0; --d) {
          idx[d] += s[d].stride;
          if (idx[d] < s[d].hi) break;
          idx[d] = s[d].lo;
        }
        if (d < 0) break;
      }
      if (static_cast<int>(lanes.size()) >= warp) break;
    }
    while (static_cast<int>(lanes.size()) < warp) lanes.push_back(kInactiveLane);
    std::tie(b.coalesced, b.transactions) = coalesce(lanes, arr.elemBytes);
    b.firstWarp = std::move(lanes);
    return b;
  }

  const LoopInfo& loopOf(int var) const {
    for (const LoopInfo& l : loops) {
      if (l.var == var) return l;
    }
    return loops.front();
  }
  Range oneIteration(int var) const {
    const Var& v = sk.vars[var];
    return v.dataBounds ? Range{0, 1, 1} : Range{v.lo, v.lo + 1, 1};
  }

  /// The view of a traversal order (`order` as in Layout::order; empty = skeleton order).
  const OrderView& view(const std::vector<int>& order) const {
    bool identity = true;
    for (size_t j = 0; j < order.size(); ++j) identity &= order[j] == static_cast<int>(j);
    if (identity || order.size() != streams.size()) return base;
    if (auto it = viewIds.find(order); it != viewIds.end()) return extraViews[it->second];
    // sub[v]: the loop that now runs at the place where the skeleton has loop v.
    std::vector<int> sub(sk.vars.size());
    for (size_t v = 0; v < sub.size(); ++v) sub[v] = static_cast<int>(v);
    for (size_t j = 0; j < order.size(); ++j) sub[streams[j]] = streams[order[j]];
    OrderView ov;
    ov.id = static_cast<int>(extraViews.size()) + 1;
    for (const LoopInfo& l : loops) {
      LoopInfo n = l;
      n.var = sub[l.var];
      const Var& w = sk.vars[n.var];
      n.trip = w.trip;
      n.unrollable = l.leaf && !w.dataBounds;
      for (int& a : n.ancestors) {
        if (sub[a] != a && sk.vars[a].trip > 0)
          n.lp *= sk.vars[sub[a]].trip / sk.vars[a].trip;  // enclosing trips are permuted
        a = sub[a];
      }
      ov.loops.push_back(std::move(n));
    }
    for (const AccessInfo& a : accesses) {
      std::vector<int> anc = a.ancestors;
      for (int& v : anc) v = sub[v];
      ov.ancestors.push_back(std::move(anc));
    }
    viewIds.emplace(order, static_cast<int>(extraViews.size()));
    extraViews.push_back(std::move(ov));
    return extraViews.back();
  }

  /// Eqs. 2–3 for every stream loop under one traversal order, from the cacheable arrays it
  /// references.
  std::vector<std::vector<long long>> suggest(const PreparedShape& sh,
                                              const OrderView& view) const {
    std::vector<std::vector<long long>> out(streams.size());
    for (size_t s = 0; s < streams.size(); ++s) {
      const int k = streams[s];
      const LoopInfo& loop = view.loopOf(k);
      std::vector<int> inside;
      for (size_t i = 0; i < accesses.size(); ++i) {
        const auto& anc = accesses[i].ancestors;
        if (std::find(anc.begin(), anc.end(), k) != anc.end())
          inside.push_back(static_cast<int>(i));
      }
      std::map<int, Range> over;
      for (int anc : loop.ancestors) over[anc] = oneIteration(anc);  // A18
      over[k] = oneIteration(k);
      const std::vector<Range> one = tile(sh.parallelOne, over);
      const Var& v = sk.vars[k];
      over[k] = v.dataBounds
                    ? Range{0, std::max<long long>(1, static_cast<long long>(std::ceil(v.trip))), 1}
                    : Range{v.lo, v.hi, v.step};
      const std::vector<Range> full = tile(sh.parallelOne, over);
      const long long maxStage =
          std::max<long long>(1, static_cast<long long>(std::ceil(loop.trip)));
      for (size_t a = 0; a < sk.arrays.size(); ++a) {
        if (!((sh.inStream[s] >> a) & 1) || !((sh.cacheable >> a) & 1)) continue;
        const long long h1 = footprint(static_cast<int>(a), one, inside);
        const long long hk = footprint(static_cast<int>(a), full, inside);
        if (h1 == 0 || hk == 0) continue;
        const double stageShr =
            static_cast<double>(h1) * loop.trip / static_cast<double>(hk);  // Eq. 2
        const double stageSize =
            static_cast<double>(sh.threads) * stageShr / static_cast<double>(h1);  // Eq. 3
        const long long size = std::clamp<long long>(std::llround(stageSize), 1, maxStage);
        auto& list = out[s];
        if (std::find(list.begin(), list.end(), size) == list.end()) list.push_back(size);
      }
      std::sort(out[s].begin(), out[s].end());
    }
    return out;
  }

  /// The skeleton order's view (id 0) and the others met so far.
  OrderView base;
  mutable std::map<std::vector<int>, int> viewIds;
  mutable std::deque<OrderView> extraViews;

  /// Sample-driven coalescing per (block shape, small-block fold, access).
  mutable std::map<std::vector<long long>, std::pair<bool, double>> sampleCache;
  /// Indices (into `accesses`) for the current buffer computation.
  mutable std::vector<int> zeroAccesses_, stagedAccesses_;
};

// ---- public -----------------------------------------------------------------------------------

PeripheralCosts peripheralCostsFor(const Gpu& /*gpu*/) {
  return PeripheralCosts{};
}

Characterizer::Characterizer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Characterizer::Characterizer(Characterizer&&) noexcept = default;
Characterizer& Characterizer::operator=(Characterizer&&) noexcept = default;
Characterizer::~Characterizer() = default;

Expected<Characterizer> Characterizer::create(const Skeleton& sk, const Gpu& gpu,
                                              const CharacterizerOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->sk = sk;
  impl->gpu = gpu;
  impl->opt = options;
  impl->warp = gpu.warpSize.value;
  if (impl->warp <= 0 || impl->warp > 64)
    return makeError("GPU '" + gpu.name + "' has an unusable warp size");
  for (const Array& a : sk.arrays) {
    if (a.elemBytes != 1 && a.elemBytes != 2 && a.elemBytes != 4 && a.elemBytes != 8 &&
        a.elemBytes != 16) {
      return makeError("array '" + a.name + "' has " + std::to_string(a.elemBytes) +
                           "-byte elements; coalescing rules cover 1, 2, 4, 8 and 16 bytes",
                       sk.path, a.loc.line, a.loc.column);
    }
  }
  // The coalescing rule is the GPU description's: the serialization of its dram level (§5.9:
  // segment-cc1.0 / segment-cc1.2 on CC 1.x; whole lines or 32-byte sectors later, §10.4), as in
  // summarize(). A GPU without a dram level (the generic target) counts 32-byte sectors.
  impl->rule = Rule::Sectors;
  if (const MemoryLevel* dram = gpu.memoryForResource("dram")) {
    switch (dram->serialization) {
      case Serialization::SegmentCc10: impl->rule = Rule::Cc10; break;
      case Serialization::SegmentCc12: impl->rule = Rule::Cc12; break;
      case Serialization::Line:
        if (dram->line) impl->sectors.sectorBytes = dram->line->value;
        break;
      case Serialization::Sector:
        if (dram->sector) impl->sectors.sectorBytes = dram->sector->value;
        break;
      case Serialization::Address:
      case Serialization::Bank:
        break;
    }
  }
  std::vector<int> ancestors;
  std::vector<std::string> loaded;
  impl->walk(impl->sk.body, 1, 1, ancestors, loaded);
  impl->foldUnrollable = !containsLoopOrBranch(impl->sk.body, true, true);
  impl->base.loops = impl->loops;
  for (const AccessInfo& a : impl->accesses) impl->base.ancestors.push_back(a.ancestors);
  impl->streamIndexOfVar.assign(impl->sk.vars.size(), -1);
  for (size_t i = 0; i < impl->streams.size(); ++i)
    impl->streamIndexOfVar[impl->streams[i]] = static_cast<int>(i);
  if (impl->accesses.empty() && impl->funcPerTask <= 0) {
    return makeError("the skeleton has no instructions (no comp, ld or st)", sk.path, 1, 1);
  }
  return Characterizer(std::move(impl));
}

std::shared_ptr<const PreparedShape> Characterizer::prepare(const std::vector<int>& block,
                                                            const std::vector<int>& fold) const {
  const Impl& m = *impl_;
  auto sh = std::make_shared<PreparedShape>();
  sh->block = block;
  sh->fold = fold;
  const int P = m.sk.parallelDims;
  for (int d = 0; d < P; ++d) {
    const long long tileExtent = static_cast<long long>(block[d]) * fold[d];
    const long long extent = m.sk.extent(d);
    sh->threads *= block[d];
    sh->foldDegree *= fold[d];
    sh->blocks *= ceilDiv(extent, tileExtent);
    // A10: an interior block at origin b_d·f_d (or as far in as the extent allows).
    const long long o =
        2 * tileExtent <= extent ? tileExtent : std::max<long long>(0, extent - tileExtent);
    sh->origin.push_back(o + m.sk.vars[d].lo);
    sh->parallelFull.push_back({sh->origin[d], sh->origin[d] + tileExtent, 1});
    sh->parallelOne.push_back({sh->origin[d], sh->origin[d] + block[d], 1});
  }
  // F̂: one thread's tasks (cyclic folding, A4: stride b_d) plus inner loops; B̂: the block's.
  std::vector<Range> threadRanges;
  for (int d = 0; d < P; ++d)
    threadRanges.push_back(
        {sh->origin[d], sh->origin[d] + static_cast<long long>(block[d]) * fold[d], block[d]});
  sh->fhat = m.tile(threadRanges, {});
  sh->bhat = m.tile(sh->parallelFull, {});

  std::vector<int> all(m.accesses.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  // Eq. 1.
  sh->shr.assign(m.sk.arrays.size(), 0);
  for (size_t a = 0; a < m.sk.arrays.size(); ++a) {
    const long long hb = m.footprint(static_cast<int>(a), sh->bhat, all);
    if (hb == 0) continue;
    const long long hf = m.footprint(static_cast<int>(a), sh->fhat, all);
    sh->shr[a] =
        static_cast<double>(hf) * static_cast<double>(sh->threads) / static_cast<double>(hb);
    if (sh->shr[a] > 1 + 1e-9) sh->cacheable |= std::uint64_t{1} << a;
  }
  // Eqs. 2–3 per stream loop (skeleton order), from the cacheable arrays it references.
  sh->inStream.assign(m.streams.size(), 0);
  for (size_t s = 0; s < m.streams.size(); ++s) {
    for (const AccessInfo& a : m.accesses) {
      if (std::find(a.ancestors.begin(), a.ancestors.end(), m.streams[s]) != a.ancestors.end())
        sh->inStream[s] |= std::uint64_t{1} << a.ref->array;
    }
  }
  sh->suggestions = m.suggest(*sh, m.base);
  // Direct accesses: Eq. 13 and the coalescing of the warp tile W (§5.6).
  sh->direct.resize(m.accesses.size());
  for (size_t i = 0; i < m.accesses.size(); ++i) {
    const AccessInfo& a = m.accesses[i];
    PreparedShape::Direct& d = sh->direct[i];
    d.insts = m.directInsts(a, sh->fhat, sh->foldDegree);
    d.bhatSize = sectionSize(m.pattern(*a.ref, sh->bhat));
    const int bytes = m.sk.arrays[a.ref->array].elemBytes;
    if (!m.usesSample(*a.ref)) {
      const std::vector<long long> lanes = m.addresses(*sh, *a.ref, 0);
      std::tie(d.coalesced, d.transactions) = m.coalesce(lanes, bytes);
      continue;
    }
    // Sample-driven (§5.9): average over sample warps of a block at the origin, so the result
    // depends on B only (and on the last fold when a block is smaller than a warp) and is
    // computed once per block shape.
    std::vector<long long> key(block.begin(), block.end());
    key.push_back(sh->threads < m.warp ? fold.back() : 0);
    key.push_back(static_cast<long long>(i));
    auto hit = m.sampleCache.find(key);
    if (hit == m.sampleCache.end()) {
      PreparedShape atOrigin;
      atOrigin.block = block;
      atOrigin.fold = fold;
      atOrigin.threads = sh->threads;
      atOrigin.origin.assign(block.size(), 0);
      const int samples = std::max(1, m.opt.sampleWarps);
      double trans = 0;
      bool coalesced = true;
      for (int w = 0; w < samples; ++w) {
        const std::vector<long long> lanes = m.addresses(atOrigin, *a.ref, w);
        const auto [c, t] = m.coalesce(lanes, bytes);
        coalesced &= c;
        trans += t;
      }
      hit = m.sampleCache.emplace(key, std::make_pair(coalesced, trans / samples)).first;
    }
    std::tie(d.coalesced, d.transactions) = hit->second;
  }
  return sh;
}

const std::vector<double>& Characterizer::sharingDegrees(const PreparedShape& shape) const {
  return shape.shr;
}
std::uint64_t Characterizer::cacheable(const PreparedShape& shape) const {
  return shape.cacheable;
}
const std::vector<std::vector<long long>>& Characterizer::stageSuggestions(
    const PreparedShape& shape) const {
  return shape.suggestions;
}
const std::vector<std::vector<long long>>& Characterizer::stageSuggestions(
    const PreparedShape& shape, const std::vector<int>& order) const {
  const OrderView& v = impl_->view(order);
  if (v.id == 0) return shape.suggestions;
  auto it = shape.orderSuggestions.find(v.id);
  if (it == shape.orderSuggestions.end())
    it = shape.orderSuggestions.emplace(v.id, impl_->suggest(shape, v)).first;
  return it->second;
}
const std::vector<std::uint64_t>& Characterizer::arraysInStream(const PreparedShape& shape) const {
  return shape.inStream;
}
const std::vector<int>& Characterizer::streams() const {
  return impl_->streams;
}
const Skeleton& Characterizer::skeleton() const {
  return impl_->sk;
}
const Gpu& Characterizer::gpu() const {
  return impl_->gpu;
}

std::vector<long long> Characterizer::laneAddresses(const PreparedShape& shape, int access) const {
  return impl_->addresses(shape, *impl_->accesses.at(access).ref, 0);
}

LayoutStats Characterizer::characterize(const PreparedShape& sh, const Layout& layout,
                                        std::vector<GlobalAccess>* globals) const {
  const Impl& m = *impl_;
  const OrderView& view = m.view(layout.order);
  const PeripheralCosts& c = m.opt.costs;
  LayoutStats st;
  const double F = static_cast<double>(sh.foldDegree);
  st.threadsPerBlock = sh.threads;
  st.blocks = sh.blocks;
  st.warpsPerBlock = static_cast<int>(ceilDiv(sh.threads, m.warp));  // A5
  const auto staged = [&](int var) {
    const int s = m.streamIndexOfVar[var];
    return s >= 0 && s < static_cast<int>(layout.stage.size()) && layout.stage[s] > 0
               ? layout.stage[s]
               : 0;
  };
  const double group = c.unrollGroup;
  const auto unrolledCost = [&](double trip) {  // A14: groups of 16; a loop of ≤ 16 is free
    return trip <= group ? 0.0 : c.perLoopIteration * std::ceil(trip / group);
  };

  // Eq. 17. A19: no unrolled-body discount; comp values are taken literally.
  st.funcInsts = F * m.funcPerTask;
  st.branchInsts = c.perBranch * m.branchPerTask * F;
  for (const LoopInfo& l : view.loops) {
    const double execs = F * l.lp;
    const long long s = l.stream ? staged(l.var) : 0;
    const bool unroll = layout.unroll && l.unrollable;
    if (s > 0) {
      const double stages = std::ceil(l.trip / static_cast<double>(s));
      st.loopInsts +=
          c.perLoopIteration * stages * execs;  // the stage loop keeps its overhead (A15)
      st.loopInsts +=
          (unroll ? unrolledCost(static_cast<double>(s)) * stages : c.perLoopIteration * l.trip) *
          execs;
    } else {
      st.loopInsts += (unroll ? unrolledCost(l.trip) : c.perLoopIteration * l.trip) * execs;
    }
  }
  if (sh.foldDegree > 1) {  // fold loops, flattened into one loop of F iterations
    st.loopInsts += layout.unroll && m.foldUnrollable ? unrolledCost(F) : c.perLoopIteration * F;
  }

  std::vector<double> dataReqs(m.sk.arrays.size(), 0);
  double uncoalTrans = 0;
  std::uint64_t zeroArrays = 0;
  std::vector<std::uint64_t> stagedArrays(m.streams.size(), 0);
  for (size_t i = 0; i < m.accesses.size(); ++i) {
    const AccessInfo& a = m.accesses[i];
    const int arr = a.ref->array;
    const double dynamic = F * a.lp;
    if ((layout.cached >> arr) & 1) {
      st.sharedAccessInsts += dynamic;  // A11: a shared ld/st is a computation instruction
      int home = -1;
      const std::vector<int>& ancestors = view.ancestors[i];
      for (auto it = ancestors.rbegin(); it != ancestors.rend(); ++it) {
        if (staged(*it) > 0) {
          home = m.streamIndexOfVar[*it];
          break;
        }
      }
      if (home < 0) {
        zeroArrays |= std::uint64_t{1} << arr;
      } else {
        stagedArrays[home] |= std::uint64_t{1} << arr;
      }
      continue;
    }
    if (a.reuse) {
      st.sharedAccessInsts += dynamic;  // register reuse (§5.2)
      continue;
    }
    const PreparedShape::Direct& d = sh.direct[i];
    if (d.coalesced) {
      st.coalMemInsts += d.insts;
    } else {
      st.uncoalMemInsts += d.insts;
      uncoalTrans += d.insts * d.transactions;
    }
    if (dynamic > d.insts) st.sharedAccessInsts += dynamic - d.insts;  // reuse within a thread
    if (globals) {
      GlobalAccess g;
      g.label = (a.store ? "st " : "ld ") + m.sk.arrays[arr].name;
      g.store = a.store;
      g.widthBytes = m.sk.arrays[arr].elemBytes;
      g.insts = d.insts;
      g.coalesced = d.coalesced;
      g.transactions = d.transactions;
      g.sampled = m.usesSample(*a.ref);
      g.lanes = m.addresses(sh, *a.ref, 0);
      g.statements = {static_cast<int>(i)};
      g.array = arr;
      for (const Index& x : a.ref->dims) g.unknownAddresses |= x.indirect != nullptr;
      g.unknownAddresses = g.unknownAddresses && !g.sampled;
      globals->push_back(std::move(g));
    }
    dataReqs[arr] += static_cast<double>(d.bhatSize);
  }

  double cachingInsts = 0;
  // Which accesses feed a buffer depends on which loops are staged: part of the cache key.
  std::uint64_t stagedMask = 0;
  for (size_t s = 0; s < m.streams.size(); ++s) {
    if (staged(m.streams[s]) > 0) stagedMask |= std::uint64_t{1} << s;
  }
  const auto addBuffer = [&](int array, int streamIdx, long long stage) {
    const auto key = std::make_tuple(array, streamIdx, stage, stagedMask, view.id);
    auto it = sh.buffers.find(key);
    if (it == sh.buffers.end() || globals) {
      // Which accesses feed this buffer.
      m.zeroAccesses_.clear();
      m.stagedAccesses_.clear();
      for (size_t i = 0; i < m.accesses.size(); ++i) {
        const AccessInfo& a = m.accesses[i];
        if (a.ref->array != array) continue;
        int home = -1;
        const std::vector<int>& ancestors = view.ancestors[i];
        for (auto r = ancestors.rbegin(); r != ancestors.rend(); ++r) {
          if (staged(*r) > 0) {
            home = m.streamIndexOfVar[*r];
            break;
          }
        }
        if (home < 0) m.zeroAccesses_.push_back(static_cast<int>(i));
        if (home == streamIdx) m.stagedAccesses_.push_back(static_cast<int>(i));
      }
      if (it == sh.buffers.end()) {
        SharedBuffer b = m.buffer(sh, view, array, streamIdx, stage);
        it = sh.buffers.emplace(key, std::move(b)).first;
      }
    }
    const SharedBuffer& b = it->second;
    SharedBuffer& copy = st.buffers.emplace_back();  // without firstWarp: no allocation per layout
    copy.array = b.array;
    copy.stream = b.stream;
    copy.shape = b.shape;
    copy.elements = b.elements;
    copy.numStages = b.numStages;
    copy.cachingInsts = b.cachingInsts;
    copy.coalesced = b.coalesced;
    copy.transactions = b.transactions;
    cachingInsts += b.cachingInsts;
    if (b.coalesced) {
      st.coalMemInsts += b.cachingInsts;
    } else {
      st.uncoalMemInsts += b.cachingInsts;
      uncoalTrans += b.cachingInsts * b.transactions;
    }
    dataReqs[array] += static_cast<double>(b.elements);
    if (globals) {
      GlobalAccess g;
      g.label = "fill " + m.sk.arrays[array].name +
                (b.stream < 0 ? std::string(" (once)") : " (" + m.sk.vars[b.stream].name + ")");
      g.widthBytes = m.sk.arrays[array].elemBytes;
      g.insts = b.cachingInsts;
      g.coalesced = b.coalesced;
      g.transactions = b.transactions;
      g.lanes = b.firstWarp;
      g.fill = true;
      g.statements = streamIdx < 0 ? m.zeroAccesses_ : m.stagedAccesses_;
      g.array = array;
      g.stream = b.stream;
      g.stage = stage;
      g.numStages = b.numStages;
      g.elements = b.elements;
      globals->push_back(std::move(g));
    }
    st.sharedBytesPerBlock += b.elements * m.sk.arrays[array].elemBytes;  // Eqs. 6–7
  };
  for (size_t a = 0; a < m.sk.arrays.size(); ++a) {
    if ((zeroArrays >> a) & 1) addBuffer(static_cast<int>(a), -1, 0);
  }
  if (zeroArrays) st.synchInsts += 2;  // A13: k = 0 counts as one stage
  for (size_t s = 0; s < m.streams.size(); ++s) {
    if (!stagedArrays[s]) continue;
    for (size_t a = 0; a < m.sk.arrays.size(); ++a) {
      if ((stagedArrays[s] >> a) & 1)
        addBuffer(static_cast<int>(a), static_cast<int>(s), layout.stage[s]);
    }
    const LoopInfo& l = view.loopOf(m.streams[s]);
    st.synchInsts +=
        2 * std::ceil(l.trip / static_cast<double>(layout.stage[s])) * F * l.lp;  // A13
  }
  st.dataPrepInsts = c.perCachingInst * cachingInsts;
  st.indexInsts = c.perUncoalescedAccess * st.uncoalMemInsts;
  st.overheadInsts = c.perThreadOverhead;
  st.compInsts = st.funcInsts + st.sharedAccessInsts + st.loopInsts + st.branchInsts +
                 st.dataPrepInsts + st.indexInsts + st.synchInsts + st.overheadInsts;
  st.uncoalPerMw = st.uncoalMemInsts > 0 ? uncoalTrans / st.uncoalMemInsts : 1;  // Eq. 16 (A7)
  double reqs = 0, bytes = 0;
  for (size_t a = 0; a < dataReqs.size(); ++a) {
    reqs += dataReqs[a];
    bytes += dataReqs[a] * m.sk.arrays[a].elemBytes;
  }
  st.loadBytesPerWarp = (reqs > 0 ? bytes / reqs : 4) * m.warp;  // Eqs. 9–11 (A8: literal)
  return st;
}

// ---- addresses --------------------------------------------------------------------------------

namespace {

/// Synthetic base of array `a`: distinct arrays never share a sector (as the CUDA frontend's
/// pointer bases).
long long arrayBase(int a) {
  return static_cast<long long>(a + 1) << 40;
}

/// A stand-in for loaded index data without a sample (A20: unknown values): a hash of the
/// element that holds the index, so equal elements give equal values.
unsigned long long mixIndex(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace

/// Characterizer::addresses(): per global statement of a layout, each thread's address sequence.
///
/// A direct statement walks, in program order, the iteration space of the variables it names
/// (Eq. 13 counts its elements: the values stay in registers across the other loops): the fold
/// iterations of the parallel dimensions it names (of all of them under C2), outermost, then its
/// enclosing loops that it names, in nest order. Execution j of a thread is element j of that
/// walk; a statement whose count differs from the walk's length (branch probabilities) takes
/// elements ⌊j·length/count⌋. A lane whose task lies beyond the loop space, or whose subscript
/// falls outside its array, is inactive (the guard a real kernel has).
///
/// A caching load (fill) walks, per fold iteration, per iteration of the enclosing loops of its
/// stream loop and per stage, the buffer's section (Eq. 5 at this block and stage, merged) in
/// row-major order; the block's threads take consecutive elements, ⌈elements/threads⌉ each.
class SkeletonAddresses final : public AccessAddresses {
 public:
  SkeletonAddresses(Characterizer ch, const PreparedShape& shape, const Layout& layout,
                    const std::vector<GlobalAccess>& globals)
      : ch_(std::move(ch)), globals_(globals), block_(shape.block), fold_(shape.fold), threads_(shape.threads) {
    const Characterizer::Impl& m = *ch_.impl_;
    const int P = m.sk.parallelDims;
    for (int d = 0; d < P; ++d) {
      grid_.push_back(ceilDiv(m.sk.extent(d), static_cast<long long>(block_[d]) * fold_[d]));
    }
    const OrderView& view = m.view(layout.order);
    VarMask inner = 0;
    for (size_t v = P; v < m.sk.vars.size(); ++v) inner |= VarMask{1} << v;
    for (const GlobalAccess& g : globals_) {
      Walk w;
      if (!g.fill) {
        const int i = g.statements.empty() ? 0 : g.statements.front();
        const AccessInfo& a = m.accesses[static_cast<size_t>(i)];
        bool indirect = false;
        VarMask named = 0;
        for (const Index& x : a.ref->dims) {
          indirect |= x.indirect != nullptr;
          named |= x.vars;
        }
        const bool c2 = !indirect && (named & inner) != 0 && shape.foldDegree > 1;
        for (int d = 0; d < P; ++d) {
          if (fold_[d] > 1 && (c2 || ((named >> d) & 1))) w.vars.push_back(d);
        }
        for (int v : view.ancestors[static_cast<size_t>(i)]) {
          if ((named >> v) & 1) w.vars.push_back(v);
        }
      } else {
        if (g.stream >= 0) {  // k = 0 loads the block's whole tile once, fold included
          for (int d = 0; d < P; ++d) {
            if (fold_[d] > 1) w.vars.push_back(d);
          }
          for (int v : view.loopOf(g.stream).ancestors) w.vars.push_back(v);
        }
        w.stages = g.stream >= 0 ? std::max<long long>(1, static_cast<long long>(g.numStages)) : 1;
        w.perCombo = std::max<long long>(1, ceilDiv(std::max<long long>(1, g.elements), threads_));
      }
      w.length = w.stages * w.perCombo;
      for (int v : w.vars) {
        w.sizes.push_back(size(v));
        w.length *= w.sizes.back();
      }
      walks_.push_back(std::move(w));
    }
    // Footprint: per array, the merged sections of all its statements over the whole loop space
    // (written: of its stores), in bytes. Not with indirect subscripts (their sections are A20's
    // estimate, not the data's).
    bool indirect = false;
    for (const AccessInfo& a : m.accesses) {
      for (const Index& x : a.ref->dims) indirect |= x.indirect != nullptr;
    }
    if (!indirect) {
      std::vector<Range> space;
      for (int d = 0; d < P; ++d) space.push_back({m.sk.vars[d].lo, std::max(m.sk.vars[d].hi, m.sk.vars[d].lo), 1});
      const std::vector<Range> t = m.tile(space, {});
      Footprint f;
      for (size_t arr = 0; arr < m.sk.arrays.size(); ++arr) {
        std::vector<int> all, stores;
        for (size_t i = 0; i < m.accesses.size(); ++i) {
          if (m.accesses[i].ref->array != static_cast<int>(arr)) continue;
          all.push_back(static_cast<int>(i));
          if (m.accesses[i].store) stores.push_back(static_cast<int>(i));
        }
        if (all.empty()) continue;
        const double bytes = m.sk.arrays[arr].elemBytes;
        const double total = static_cast<double>(m.footprint(static_cast<int>(arr), t, all)) * bytes;
        const double written = stores.empty() ? 0 : static_cast<double>(m.footprint(static_cast<int>(arr), t, stores)) * bytes;
        f.writtenBytes += std::min(written, total);
        f.readBytes += std::max(0.0, total - written);
      }
      footprint_ = f;
    }
  }

  [[nodiscard]] std::optional<Footprint> footprint() const override { return footprint_; }

  void lanes(int access, long long block, int warp, long long execution, std::vector<long long>& out) const override {
    const Characterizer::Impl& m = *ch_.impl_;
    const int W = m.warp;
    out.assign(static_cast<size_t>(W), kInactiveLane);
    if (access < 0 || access >= static_cast<int>(globals_.size())) return;
    const GlobalAccess& g = globals_[static_cast<size_t>(access)];
    const Walk& w = walks_[static_cast<size_t>(access)];
    // Element of the walk: the count may differ from the walk's length (probabilities).
    long long e = execution;
    if (g.insts > 0 && std::fabs(g.insts - static_cast<double>(w.length)) > 0.5) {
      e = static_cast<long long>(std::floor(static_cast<double>(execution) * static_cast<double>(w.length) / g.insts));
    }
    e = std::clamp<long long>(e, 0, w.length - 1);
    // Mixed radix, the innermost fastest: [vars...][stage][slot].
    const long long slot = e % w.perCombo;
    long long rest = e / w.perCombo;
    const long long stage = rest % w.stages;
    rest /= w.stages;
    const size_t nv = m.sk.vars.size();
    std::vector<long long> it(nv, 0);
    for (size_t k = w.vars.size(); k-- > 0;) {
      it[static_cast<size_t>(w.vars[k])] = rest % w.sizes[k];
      rest /= w.sizes[k];
    }
    const int P = m.sk.parallelDims;
    // Block coordinates: the last dimension fastest (launchOf: x = the last dimension).
    std::vector<long long> blockOrigin(static_cast<size_t>(P));
    long long b = block;
    for (int d = P - 1; d >= 0; --d) {
      blockOrigin[static_cast<size_t>(d)] = m.sk.vars[d].lo + (b % grid_[d]) * block_[d] * fold_[d];
      b /= grid_[d];
    }
    if (g.fill) {
      fillLanes(g, w, blockOrigin, it, stage, slot, warp, out);
      return;
    }
    const Ref& ref = *m.accesses[static_cast<size_t>(g.statements.front())].ref;
    const Array& arr = m.sk.arrays[static_cast<size_t>(ref.array)];
    std::vector<long long> val(nv, 0);
    for (int l = 0; l < W; ++l) {
      const long long t = static_cast<long long>(warp) * W + l;
      if (t >= threads_) continue;
      bool active = true;
      long long r = t;
      for (int d = P - 1; d >= 0; --d) {
        const long long td = r % block_[d];
        r /= block_[d];
        val[d] = blockOrigin[static_cast<size_t>(d)] + td + it[static_cast<size_t>(d)] * block_[d];
        active &= val[d] < m.sk.vars[d].hi;
      }
      if (!active) continue;
      loopValues(it, val);
      long long offset = 0;
      for (size_t i = 0; i < ref.dims.size() && active; ++i) {
        const long long x = evalIndex(ref.dims[i], val.data(), arr.dims[i]);
        active = x >= 0 && x < arr.dims[i];
        offset = offset * arr.dims[i] + x;
      }
      if (active) out[static_cast<size_t>(l)] = arrayBase(ref.array) + offset * arr.elemBytes;
    }
  }

 private:
  struct Walk {
    std::vector<int> vars;         ///< enumerated variables, outermost first
    std::vector<long long> sizes;  ///< their iteration counts
    long long stages = 1;          ///< fill: stages of the stream loop
    long long perCombo = 1;        ///< fill: elements per thread and stage
    long long length = 1;          ///< elements of the walk per thread
  };

  /// Iterations of variable v within one thread: a parallel dimension's fold, a loop's trip.
  long long size(int v) const {
    const Characterizer::Impl& m = *ch_.impl_;
    if (v < m.sk.parallelDims) return fold_[static_cast<size_t>(v)];
    const Var& var = m.sk.vars[static_cast<size_t>(v)];
    if (var.dataBounds) return std::max<long long>(1, static_cast<long long>(std::ceil(var.trip)));
    return std::max<long long>(1, Range{var.lo, std::max(var.hi, var.lo), var.step}.size());
  }

  /// Values of the inner loop variables at iteration `it` (C1 for data-dependent bounds: a
  /// chunk of ⌈trip⌉ values per value of the variables the bounds depend on).
  void loopValues(const std::vector<long long>& it, std::vector<long long>& val) const {
    const Characterizer::Impl& m = *ch_.impl_;
    for (size_t v = static_cast<size_t>(m.sk.parallelDims); v < m.sk.vars.size(); ++v) {
      const Var& var = m.sk.vars[v];
      if (!var.dataBounds) {
        val[v] = var.lo + it[v] * var.step;
        continue;
      }
      long long base = 0;
      for (size_t u = 0; u < v; ++u) {
        if ((var.boundDeps >> u) & 1) base += val[u];
      }
      val[v] = base * std::max<long long>(1, static_cast<long long>(std::ceil(var.trip))) + it[v];
    }
  }

  /// A subscript's value: the affine part plus the indirect term (the sample's value, else a
  /// hash of the index element over the hinted range or the indexed dimension, `extent`).
  long long evalIndex(const Index& x, const long long* val, long long extent) const {
    const Characterizer::Impl& m = *ch_.impl_;
    long long v = x.affine.constant;
    for (const auto& [var, c] : x.affine.terms) v += c * val[var];
    if (!x.indirect) return v;
    const Ref& src = *x.indirect;
    const Array& srcArray = m.sk.arrays[static_cast<size_t>(src.array)];
    long long flat = 0;
    for (size_t i = 0; i < src.dims.size(); ++i) {
      long long idx = evalIndex(src.dims[i], val, srcArray.dims[i]);
      idx = ((idx % srcArray.dims[i]) + srcArray.dims[i]) % srcArray.dims[i];
      flat = flat * srcArray.dims[i] + idx;
    }
    if (!srcArray.sample.empty()) {
      const long long n = static_cast<long long>(srcArray.sample.size());
      return v + x.indirectCoef * srcArray.sample[static_cast<size_t>(((flat % n) + n) % n)];
    }
    long long lo = 0, span = 1;
    if (srcArray.indexRange) {
      lo = srcArray.indexRange->first;
      span = std::max<long long>(1, srcArray.indexRange->second - srcArray.indexRange->first);
    } else {
      span = std::max<long long>(1, extent);  // A20: the whole dimension
    }
    const unsigned long long h = mixIndex(static_cast<unsigned long long>(flat) ^ (static_cast<unsigned long long>(src.array) << 48));
    return v + x.indirectCoef * (lo + static_cast<long long>(h % static_cast<unsigned long long>(span)));
  }

  void fillLanes(const GlobalAccess& g, const Walk& w, const std::vector<long long>& blockOrigin,
                 const std::vector<long long>& it, long long stage, long long slot, int warp,
                 std::vector<long long>& out) const {
    const Characterizer::Impl& m = *ch_.impl_;
    const int P = m.sk.parallelDims;
    std::vector<Range> parallel(static_cast<size_t>(P));
    std::map<int, Range> over;
    for (int d = 0; d < P; ++d) {
      const Var& v = m.sk.vars[d];
      const long long o = blockOrigin[static_cast<size_t>(d)];
      if (g.stream < 0) {  // k = 0: the block's whole tile B̂
        parallel[static_cast<size_t>(d)] = {o, std::min(v.hi, o + static_cast<long long>(block_[d]) * fold_[d]), 1};
      } else {             // one fold iteration of the block
        const long long lo = o + it[static_cast<size_t>(d)] * block_[d];
        parallel[static_cast<size_t>(d)] = {lo, std::min(v.hi, lo + block_[d]), 1};
      }
    }
    if (g.stream >= 0) {
      std::vector<long long> val(m.sk.vars.size(), 0);
      for (int d = 0; d < P; ++d) val[d] = parallel[static_cast<size_t>(d)].lo;
      loopValues(it, val);
      for (int v : w.vars) {
        if (v >= P) over[v] = {val[v], val[v] + 1, 1};  // A18: one iteration of each enclosing loop
      }
      const Var& k = m.sk.vars[static_cast<size_t>(g.stream)];
      if (k.dataBounds) {
        over[g.stream] = {stage * g.stage, (stage + 1) * g.stage, 1};
      } else {
        const long long lo = k.lo + stage * g.stage * k.step;
        over[g.stream] = {lo, std::min(k.hi, lo + g.stage * k.step), k.step};
      }
    }
    const std::vector<Range> t = m.tile(parallel, over);
    std::vector<Section> sections;
    const long long total = m.footprint(g.array, t, g.statements, &sections);
    const Array& arr = m.sk.arrays[static_cast<size_t>(g.array)];
    for (int l = 0; l < m.warp; ++l) {
      const long long tid = static_cast<long long>(warp) * m.warp + l;
      if (tid >= threads_) continue;
      long long idx = slot * threads_ + tid;
      if (idx >= total) continue;
      for (const Section& s : sections) {
        const long long n = sectionSize(s);
        if (idx >= n) {
          idx -= n;
          continue;
        }
        long long offset = 0;
        long long rem = idx;
        std::vector<long long> coord(s.size());
        for (size_t d = s.size(); d-- > 0;) {
          const long long sz = std::max<long long>(1, s[d].size());
          coord[d] = s[d].lo + (rem % sz) * s[d].stride;
          rem /= sz;
        }
        for (size_t d = 0; d < s.size(); ++d) offset = offset * arr.dims[d] + coord[d];
        out[static_cast<size_t>(l)] = arrayBase(g.array) + offset * arr.elemBytes;
        break;
      }
    }
  }

  Characterizer ch_;
  std::vector<GlobalAccess> globals_;
  std::vector<int> block_, fold_;
  long long threads_ = 1;
  std::vector<long long> grid_;
  std::vector<Walk> walks_;
  std::optional<Footprint> footprint_;
};

std::shared_ptr<const AccessAddresses> Characterizer::addresses(const PreparedShape& shape, const Layout& layout,
                                                                const std::vector<GlobalAccess>& globals) const {
  // A private characterizer: the source outlives this one (it travels with the KernelIR).
  Expected<Characterizer> own = Characterizer::create(impl_->sk, impl_->gpu, impl_->opt);
  if (!own) return nullptr;
  return std::make_shared<SkeletonAddresses>(std::move(*own), shape, layout, globals);
}

}  // namespace foresight::skeleton
