// SPDX-License-Identifier: Apache-2.0
/// \file
/// loadWorkload(): loadInput(), or for skeletons the layout search's winner.
#include "foresight/workload/workload.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "foresight/advise/layout_search.h"
#include "foresight/frontend/skeleton/layout_hints.h"
#include "foresight/frontend/skeleton/skeleton_frontend.h"
#include "foresight/model/default_model.h"
#include "foresight/support/strings.h"

namespace foresight {

namespace {

Expected<LoadedInput> loadSkeletonWorkload(const std::string& path, const WorkloadOptions& o) {
  if (!o.input.gpu) return makeError("a skeleton's layout search needs a target GPU", path, 0);
  const Gpu& gpu = *o.input.gpu;
  std::map<std::string, long long> macros;
  for (const auto& [name, value] : o.input.macros) {
    const std::optional<long long> v = toInteger(value);
    if (!v) return makeError("-D " + name + "=" + value + ": a skeleton's macros are integers", path, 0);
    macros[name] = *v;
  }
  Expected<skeleton::Skeleton> sk = skeleton::loadSkeletonFile(path, {.macros = macros});
  if (!sk) return std::move(sk).takeError();
  skeleton::LayoutHints hints;
  if (!o.layoutHints.empty()) {
    Expected<skeleton::LayoutHints> h = skeleton::loadLayoutHints(o.layoutHints, skeleton::peripheralCostsFor(gpu));
    if (!h) return std::move(h).takeError();
    hints = std::move(*h);
  } else {
    hints.costs = skeleton::peripheralCostsFor(gpu);
  }
  if (o.input.launch) {
    // The block pins B; B lists the parallel dimensions outermost first, x last (A3).
    const Dim3& b = o.input.launch->block;
    const long long all[3] = {b.x, b.y, b.z};
    std::vector<int> dims;
    for (int d = 0; d < 3; ++d) {
      if (d < sk->parallelDims) {
        dims.push_back(static_cast<int>(all[d]));
      } else if (all[d] != 1) {
        return makeError(fmt::format("the block {}x{}x{} has more dimensions than the skeleton's parallel_for ({})",
                                     b.x, b.y, b.z, sk->parallelDims),
                         path, 0);
      }
    }
    std::reverse(dims.begin(), dims.end());
    hints.domain.blocks = {dims};
  }
  skeleton::SearchOptions so;
  so.domain = hints.domain;
  so.characterizer.costs = hints.costs;
  so.model = resolveDefaultModel(o.searchModel, InputKind::Skeleton, &gpu);
  so.maxLayouts = o.maxLayouts;
  Expected<skeleton::BestLayout> best = [&] {
    ProgressStage stage(o.input.progress, "searching the layouts of " + path + " on " + gpu.name);
    return skeleton::searchBestLayout(*sk, gpu, so);
  }();
  if (!best) {
    Error e = std::move(best).takeError();
    if (e.file.empty()) e.file = o.layoutHints.empty() ? path : o.layoutHints;
    return e;
  }
  LoadedInput in;
  in.path = path;
  in.frontend = "skeleton";
  in.kernels.push_back(std::move(best->lowered.kernel));
  in.launch = best->lowered.launch;
  const skeleton::RankedLayout& top = best->search.layouts.front();
  in.notes.push_back(fmt::format("skeleton: {} layout {} of {} feasible on {} ({})",
                                 hints.pinned ? "the pinned" : "the best", skeleton::describeLayout(top.layout, *sk),
                                 best->search.layouts.size(), gpu.name, modelName(so.model)));
  return in;
}

}  // namespace

Expected<LoadedInput> loadWorkload(const std::string& path, const WorkloadOptions& options) {
  if (inputKindOf(path) == InputKind::Skeleton) return loadSkeletonWorkload(path, options);
  return loadInput(path, options.input);
}

}  // namespace foresight
