// SPDX-License-Identifier: Apache-2.0
/// \file
/// Enumeration in dependency order, pruning, and ranking.
#include "foresight/advise/layout_search.h"

#include <algorithm>
#include <limits>
#include <cmath>

#include "foresight/model/registry.h"
#include "foresight/support/edit_distance.h"

namespace foresight::skeleton {

namespace {

long long ceilDiv(long long a, long long b) {
  return (a + b - 1) / b;
}

/// Autopruning of B (A21): powers of two per dimension up to the extent's next power of two,
/// with minThreads ≤ Π b_d ≤ the GPU's threads per block.
std::vector<std::vector<int>> blockShapes(const Skeleton& sk, long long maxThreads,
                                          long long minThreads) {
  std::vector<std::vector<int>> out;
  std::vector<int> cur(sk.parallelDims, 1);
  std::function<void(int, long long)> rec = [&](int d, long long product) {
    if (d == sk.parallelDims) {
      if (product >= minThreads) out.push_back(cur);
      return;
    }
    for (long long b = 1; product * b <= maxThreads; b *= 2) {
      cur[d] = static_cast<int>(b);
      rec(d + 1, product * b);
      if (b >= sk.extent(d)) break;
    }
  };
  rec(0, 1);
  return out;
}

/// Autopruning of F per dimension ([C] grophecy.md §4.3): powers of two up to maxFold, plus the
/// divisors of the remaining extent ⌈extent / b_d⌉ that are not powers of two (so 44×1 or 132
/// can be found for a 132-row space).
std::vector<int> foldCandidates(long long remaining, int maxFold) {
  std::vector<int> f;
  for (long long p = 1; p <= remaining && p <= maxFold; p *= 2) f.push_back(static_cast<int>(p));
  for (long long d = 1; d * d <= remaining; ++d) {
    if (remaining % d == 0) {
      for (long long q : {d, remaining / d}) {
        if ((q & (q - 1)) != 0) f.push_back(static_cast<int>(q));  // powers of two: capped above
      }
    }
  }
  std::sort(f.begin(), f.end());
  f.erase(std::unique(f.begin(), f.end()), f.end());
  return f;
}

/// Whether `order` is a permutation of the stream loops that keeps every loop inside its perfect
/// nest (loops outside nests keep their place).
bool orderRespectsNests(const std::vector<int>& order, const std::vector<std::vector<int>>& nests,
                        size_t streams) {
  if (order.empty()) return true;
  if (order.size() != streams) return false;
  std::vector<int> nestOf(streams, -1);
  for (size_t n = 0; n < nests.size(); ++n)
    for (int s : nests[n]) nestOf[s] = static_cast<int>(n);
  std::vector<bool> seen(streams, false);
  for (size_t j = 0; j < streams; ++j) {
    const int o = order[j];
    if (o < 0 || o >= static_cast<int>(streams) || seen[o]) return false;
    seen[o] = true;
    if (nestOf[j] < 0 ? o != static_cast<int>(j) : nestOf[o] != nestOf[j]) return false;
  }
  return true;
}

}  // namespace

std::vector<std::vector<int>> traversalOrders(const Skeleton& sk) {
  size_t streams = 0;
  for (const Var& v : sk.vars) streams += v.kind == VarKind::Stream;
  std::vector<int> id(streams);
  for (size_t s = 0; s < streams; ++s) id[s] = static_cast<int>(s);
  std::vector<std::vector<int>> out = {id};
  for (const std::vector<int>& nest : streamNests(sk)) {
    std::vector<std::vector<int>> next;
    for (const std::vector<int>& base : out) {
      std::vector<int> perm = nest;  // sorted: the skeleton order comes first
      do {
        std::vector<int> o = base;
        for (size_t j = 0; j < nest.size(); ++j) o[nest[j]] = perm[j];
        next.push_back(std::move(o));
      } while (std::next_permutation(perm.begin(), perm.end()));
    }
    out = std::move(next);
  }
  return out;
}

namespace {

/// The model that ranks layouts: the options' when its family predicts from a workload summary
/// (MWP-CWP), else MWP-CWP with the options' variant (GROPHECY's unless set): an emulated search
/// would replay every candidate's instructions. The winner is then predicted with the options'
/// model (workload/skeleton_search.h).
ModelOptions rankingModel(const ModelOptions& model) {
  ModelOptions r = model;
  const ModelFamily* family = findModelFamily(r.model);
  if (!family || !family->predictSummary) r.model = ModelKind::MwpCwp;
  return r;
}

Expected<RankedLayout> evaluatePrepared(const Characterizer& ch, const PreparedShape& shape,
                                        const Layout& layout, const ModelOptions& model) {
  RankedLayout r;
  r.layout = layout;
  r.stats = ch.characterize(shape, layout);
  ThreadResources resources;
  resources.staticSharedBytes = r.stats.sharedBytesPerBlock;
  // The model's variant decides the label (A16: GROPHECY's min(MWP, CWP−1, N−1), uncapped).
  // A layout whose grid CUDA cannot launch (N = 1e12 in blocks of 64) is infeasible.
  const Launch launch = launchOf(layout, ch.skeleton());
  if (Expected<void> ok = checkLaunchLimits(launch); !ok) return std::move(ok).takeError();
  Expected<Prediction> p = predictFromSummary(r.stats.toWorkload(), resources, launch, ch.gpu(), rankingModel(model));
  if (!p) return std::move(p).takeError();
  r.seconds = p->seconds;
  r.cycles = p->cycles;
  r.bound = p->bound;
  // GROPHECY's table columns: the MWP-CWP family's values (0 where a model has none).
  const auto value = [&](const char* name, double absent) {
    const NamedValue* v = p->value(name);
    return v ? v->value : absent;
  };
  r.activeBlocksPerSm = static_cast<int>(value("Active_blocks_per_SM", p->occupancy.blocksPerSm));
  r.n = value("N", 0);
  r.mwp = std::min(value("MWP_Without_BW_full", 0), value("MWP_peak_BW", 1e300));
  r.cwpFull = value("CWP_full", 0);
  return r;
}

}  // namespace

Expected<RankedLayout> evaluateLayout(const Characterizer& ch, const Layout& layout,
                                      const ModelOptions& model) {
  const Skeleton& sk = ch.skeleton();
  if (static_cast<int>(layout.block.size()) != sk.parallelDims ||
      static_cast<int>(layout.fold.size()) != sk.parallelDims) {
    return makeError("the layout's block and fold need one entry per parallel dimension (" +
                     std::to_string(sk.parallelDims) + ")");
  }
  if (!orderRespectsNests(layout.order, streamNests(sk), ch.streams().size()))
    return makeError("the layout's traversal order moves a stream loop out of its perfect nest");
  auto shape = ch.prepare(layout.block, layout.fold);
  return evaluatePrepared(ch, *shape, layout, model);
}

Expected<SearchResult> searchLayouts(const Skeleton& sk, const Gpu& gpu,
                                     const SearchOptions& options) {
  Expected<Characterizer> chOr = Characterizer::create(sk, gpu, options.characterizer);
  if (!chOr) return std::move(chOr).takeError();
  const Characterizer& ch = *chOr;
  const LayoutDomain& dom = options.domain;
  const int P = sk.parallelDims;

  // Resolve names in the domain.
  std::vector<std::string> streamNames;
  for (int v : ch.streams()) streamNames.push_back(sk.vars[v].name);
  for (const auto& [name, sizes] : dom.stages) {
    if (std::find(streamNames.begin(), streamNames.end(), name) == streamNames.end()) {
      return makeError("hint names stream loop '" + name + "', which the skeleton does not have" +
                       didYouMean(name, streamNames));
    }
  }
  std::vector<std::uint64_t> cacheSets;
  if (dom.cacheSets) {
    std::vector<std::string> arrays;
    for (const Array& a : sk.arrays) arrays.push_back(a.name);
    for (const auto& set : *dom.cacheSets) {
      std::uint64_t mask = 0;
      for (const std::string& name : set) {
        const int a = sk.findArray(name);
        if (a < 0)
          return makeError("hint caches array '" + name + "', which the skeleton does not declare" +
                           didYouMean(name, arrays));
        mask |= std::uint64_t{1} << a;
      }
      cacheSets.push_back(mask);
    }
  }
  // O: hinted orders (names of every stream loop, in traversal order), or all of them.
  const std::vector<std::vector<int>> nests = streamNests(sk);
  std::vector<std::vector<int>> orders;
  for (const auto& names : dom.orders) {
    std::vector<int> order;
    for (const std::string& name : names) {
      auto it = std::find(streamNames.begin(), streamNames.end(), name);
      if (it == streamNames.end())
        return makeError("hint orders stream loop '" + name +
                         "', which the skeleton does not have" + didYouMean(name, streamNames));
      order.push_back(static_cast<int>(it - streamNames.begin()));
    }
    if (!orderRespectsNests(order, nests, streamNames.size())) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      return makeError("hinted order [" + list +
                       "] must name every stream loop once, and only loops of one perfect "
                       "stream nest may trade places");
    }
    orders.push_back(std::move(order));
  }
  if (orders.empty()) orders = traversalOrders(sk);
  for (const auto& shapeList : {dom.blocks, dom.folds}) {
    for (const auto& s : shapeList) {
      if (static_cast<int>(s.size()) != P) {
        return makeError("a hinted block or fold shape has " + std::to_string(s.size()) +
                         " entries; the parallel_for has " + std::to_string(P) + " dimensions");
      }
      for (int v : s) {
        if (v <= 0) return makeError("hinted block and fold sizes must be positive");
      }
    }
  }

  const long long maxThreads = gpu.limits.threadsPerBlock.value;
  const long long minThreads = dom.minThreads > 0 ? dom.minThreads : gpu.warpSize.value;
  const std::vector<std::vector<int>> blocks =
      dom.blocks.empty() ? blockShapes(sk, maxThreads, std::min(minThreads, sk.loopSpaceSize()))
                         : dom.blocks;

  // The size of the domain before it is materialized: (B, F) shapes × orders, saturating.
  const auto saturatingMul = [](long long a, long long b) {
    return b != 0 && a > std::numeric_limits<long long>::max() / b ? std::numeric_limits<long long>::max() : a * b;
  };
  long long shapeCount = 0;
  for (const auto& b : blocks) {
    long long perBlock = dom.folds.empty() ? 1 : static_cast<long long>(dom.folds.size());
    for (int d = 0; d < P && dom.folds.empty(); ++d) {
      perBlock = saturatingMul(perBlock, static_cast<long long>(foldCandidates(ceilDiv(sk.extent(d), b[d]), dom.maxFold).size()));
    }
    shapeCount = std::min(std::numeric_limits<long long>::max() - perBlock, shapeCount) + perBlock;
  }
  const long long atLeast = saturatingMul(shapeCount, static_cast<long long>(orders.size()));
  const auto tooMany = [&](const std::string& how) {
    return makeError("the layout search " + how + ", above the limit of " + std::to_string(options.maxLayouts) +
                     "; pin the block (--block) or narrow the domain with a hints file, or raise the limit with "
                     "--max-variants");
  };
  if (atLeast > options.maxLayouts) {
    return tooMany("would evaluate at least " + std::to_string(atLeast) + " layouts (" + std::to_string(shapeCount) +
                   " block/fold shapes x " + std::to_string(orders.size()) + " traversal orders)");
  }

  // All (B, F) pairs first, so progress can report a total.
  std::vector<std::pair<const std::vector<int>*, std::vector<int>>> shapes;
  for (const auto& b : blocks) {
    if (!dom.folds.empty()) {
      for (const auto& f : dom.folds) shapes.push_back({&b, f});
      continue;
    }
    std::vector<std::vector<int>> perDim(P);
    for (int d = 0; d < P; ++d)
      perDim[d] = foldCandidates(ceilDiv(sk.extent(d), b[d]), dom.maxFold);
    std::vector<int> cur(P, 1);
    std::function<void(int)> rec = [&](int d) {
      if (d == P) {
        shapes.push_back({&b, cur});
        return;
      }
      for (int f : perDim[d]) {
        cur[d] = f;
        rec(d + 1);
      }
    };
    rec(0);
  }

  SearchResult result;
  SearchProgress progress;
  progress.shapesTotal = static_cast<long long>(shapes.size());
  const size_t nStreams = ch.streams().size();
  Error firstError;
  bool sawError = false;
  bool overLimit = false;
  for (const auto& [bp, fold] : shapes) {
    const std::vector<int>& block = *bp;
    auto shape = ch.prepare(block, fold);
    const std::uint64_t cacheable = ch.cacheable(*shape);
    // C: subsets of the cacheable arrays, or the hinted sets.
    std::vector<std::uint64_t> cacheDomain;
    if (dom.cacheSets) {
      cacheDomain = cacheSets;
    } else {
      for (std::uint64_t sub = cacheable;; sub = (sub - 1) & cacheable) {
        cacheDomain.push_back(sub);
        if (sub == 0) break;
      }
    }
    Layout layout;
    layout.block = block;
    layout.fold = fold;
    for (const std::vector<int>& order : orders) {
      layout.order = order;
      // S: per stream loop, hinted sizes or "not staged" plus the Eq. 3 suggestions (which depend
      // on O: a loop moved inward in a nest sees its former inner loops fixed to one iteration).
      const std::vector<std::vector<long long>>& suggestions = ch.stageSuggestions(*shape, order);
      std::vector<std::vector<long long>> stageDomain(nStreams);
      for (size_t s = 0; s < nStreams; ++s) {
        auto it = dom.stages.find(streamNames[s]);
        if (it != dom.stages.end()) {
          stageDomain[s] = it->second;
          continue;
        }
        stageDomain[s].push_back(0);
        if (dom.stagesExhaustive) continue;
        for (long long base : suggestions[s]) {
          for (int mult : dom.stageMultipliers) {
            const long long size = base * mult;
            if (std::find(stageDomain[s].begin(), stageDomain[s].end(), size) ==
                stageDomain[s].end()) {
              stageDomain[s].push_back(size);
            }
          }
        }
      }
      layout.stage.assign(nStreams, 0);
      std::function<void(size_t)> stageRec = [&](size_t s) {
        if (overLimit) return;
        if (s < nStreams) {
          for (long long size : stageDomain[s]) {
            layout.stage[s] = size;
            stageRec(s + 1);
          }
          return;
        }
        for (std::uint64_t cached : cacheDomain) {
          // A staged loop needs cached data in it, else staging changes nothing but overhead.
          bool useful = true;
          for (size_t k = 0; k < nStreams && !dom.stagesExhaustive; ++k) {
            if (layout.stage[k] > 0 && (ch.arraysInStream(*shape)[k] & cached) == 0) useful = false;
          }
          if (!useful) continue;
          double firstLoopInsts = -1;
          for (bool unroll : dom.unroll) {
            layout.cached = cached;
            layout.unroll = unroll;
            if (result.enumerated >= options.maxLayouts) {
              overLimit = true;
              return;
            }
            Expected<RankedLayout> r = evaluatePrepared(ch, *shape, layout, options.model);
            if (r && firstLoopInsts >= 0 && r->stats.loopInsts == firstLoopInsts)
              continue;  // no loop to unroll
            ++result.enumerated;
            if (!r) {
              ++result.infeasible;
              if (!sawError) firstError = r.error();
              sawError = true;
              continue;
            }
            if (firstLoopInsts < 0) firstLoopInsts = r->stats.loopInsts;
            result.layouts.push_back(std::move(*r));
          }
        }
      };
      stageRec(0);
      if (overLimit) {
        return tooMany("reached " + std::to_string(result.enumerated) + " layouts after " + std::to_string(result.shapes) +
                       " of " + std::to_string(shapes.size()) + " block/fold shapes");
      }
    }
    ++result.shapes;
    progress.shapesDone = result.shapes;
    progress.layouts = result.enumerated;
    if (options.progress) options.progress(progress);
  }
  if (result.layouts.empty()) {
    if (sawError) {
      firstError.message = "no layout fits on GPU '" + gpu.name + "'; e.g. " + firstError.message;
      return firstError;
    }
    return makeError("the layout domain is empty");
  }
  std::stable_sort(
      result.layouts.begin(), result.layouts.end(),
      [](const RankedLayout& a, const RankedLayout& b) { return a.seconds < b.seconds; });
  return result;
}

Expected<BestLayout> searchBestLayout(const Skeleton& sk, const Gpu& gpu, const SearchOptions& options) {
  Expected<SearchResult> search = searchLayouts(sk, gpu, options);
  if (!search) return std::move(search).takeError();
  Expected<Characterizer> ch = Characterizer::create(sk, gpu, options.characterizer);
  if (!ch) return std::move(ch).takeError();
  Expected<LoweredLayout> lowered = lowerLayout(*ch, search->layouts.front().layout);
  if (!lowered) return std::move(lowered).takeError();
  return BestLayout{std::move(*search), std::move(*lowered)};
}

}  // namespace foresight::skeleton
