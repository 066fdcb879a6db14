// SPDX-License-Identifier: Apache-2.0
/// \file
/// prepareSkeleton() and searchSkeleton() (skeleton_search.h).
#include "foresight/workload/skeleton_search.h"

#include <algorithm>
#include <chrono>
#include <map>

#include <fmt/format.h>

#include "foresight/frontend/input.h"
#include "foresight/frontend/skeleton/skeleton_frontend.h"
#include "foresight/model/default_model.h"
#include "foresight/support/strings.h"

namespace foresight {

Expected<PreparedSkeleton> prepareSkeleton(const SkeletonSearchOptions& o, const Gpu& gpu) {
  std::map<std::string, long long> macros;
  for (const auto& [name, value] : o.macros) {
    const std::optional<long long> v = toInteger(value);
    if (!v) return makeError("-D " + name + "=" + value + ": a skeleton's macros are integers", o.path, 0);
    macros[name] = *v;
  }
  PreparedSkeleton p;
  Expected<skeleton::Skeleton> sk = skeleton::loadSkeletonFile(o.path, {.macros = macros});
  if (!sk) return std::move(sk).takeError();
  p.sk = std::move(*sk);
  if (!o.hints.empty()) {
    Expected<skeleton::LayoutHints> h = skeleton::loadLayoutHints(o.hints, skeleton::peripheralCostsFor(gpu));
    if (!h) return std::move(h).takeError();
    p.hints = std::move(*h);
  } else {
    p.hints.costs = skeleton::peripheralCostsFor(gpu);
  }
  if (!o.block.empty()) {
    // The block pins B, which lists the parallel dimensions outermost first: x is the last (A3).
    const int dims = p.sk.parallelDims;
    if (static_cast<int>(o.block.size()) < dims) {
      return makeError(fmt::format("the block gives {} extent{}; the skeleton's parallel_for has {} dimensions",
                                   o.block.size(), o.block.size() == 1 ? "" : "s", dims),
                       o.path, 0);
    }
    std::vector<int> pinned;
    for (size_t d = 0; d < o.block.size(); ++d) {
      if (static_cast<int>(d) < dims) {
        if (o.block[d] <= 0) return makeError("the block's extents must be positive", o.path, 0);
        pinned.push_back(static_cast<int>(o.block[d]));
      } else if (o.block[d] != 1) {
        return makeError(fmt::format("the block has more dimensions than the skeleton's parallel_for ({})", dims),
                         o.path, 0);
      }
    }
    std::reverse(pinned.begin(), pinned.end());
    p.hints.domain.blocks = {pinned};
  }
  return p;
}

namespace {

/// The model that ranks the layouts and predicts the winner on `gpu`.
ModelOptions searchModel(const SkeletonSearchOptions& o, const Gpu& gpu) {
  return resolveDefaultModel(o.model, InputKind::Skeleton, &gpu);
}

}  // namespace

Expected<SkeletonSearch> searchSkeleton(const PreparedSkeleton& p, const Gpu& gpu, const SkeletonSearchOptions& o) {
  skeleton::SearchOptions so;
  so.domain = p.hints.domain;
  so.characterizer.costs = p.hints.costs;
  so.model = searchModel(o, gpu);
  so.maxLayouts = o.maxLayouts;
  // The search's counts on the progress line; the stage ends with this GPU's search.
  const std::string stage = "searching layouts on " + gpu.name;
  ProgressStage searching(o.progress, stage);
  if (o.progress) {
    so.progress = [&](const skeleton::SearchProgress& s) {
      o.progress({stage + " (" + std::to_string(s.layouts) + " layouts so far), block/fold shapes", s.shapesDone,
                  s.shapesTotal, false});
    };
  }
  const auto start = std::chrono::steady_clock::now();
  Expected<skeleton::BestLayout> best = skeleton::searchBestLayout(p.sk, gpu, so);
  if (!best) {
    Error e = std::move(best).takeError();
    if (e.file.empty()) e.file = o.hints.empty() ? o.path : o.hints;
    return e;
  }
  SkeletonSearch r;
  r.gpu = &gpu;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.result = std::move(best->search);
  r.bestKernel = std::move(best->lowered.kernel);
  r.bestLaunch = best->lowered.launch;
  return r;
}

}  // namespace foresight
