// SPDX-License-Identifier: Apache-2.0
/// \file
/// loadWorkload(): loadInput(), or for skeletons the layout search's winner; the launch overrides
/// applied; workloadRuns().
#include "foresight/workload/workload.h"

#include <fmt/format.h>

#include "foresight/model/default_model.h"

namespace foresight {

namespace {

Launch applyOverrides(Launch launch, const LaunchOverrides& o) {
  if (o.grid) launch.grid = *o.grid;
  if (o.block) launch.block = *o.block;
  if (o.dynamicSharedBytes) launch.dynamicSharedBytes = *o.dynamicSharedBytes;
  if (o.carveoutPercent) launch.carveoutPercent = *o.carveoutPercent;
  if (o.l2Start) launch.l2Start = *o.l2Start;
  if (o.timing) launch.timing = *o.timing;
  return launch;
}

Expected<Workload> loadSkeletonWorkload(const std::string& path, const WorkloadOptions& o) {
  if (!o.input.gpu) return makeError("a skeleton's layout search needs a target GPU", path, 0);
  if (o.launch.grid) return makeError("a grid does not apply to skeletons: the grid follows from the layout", path, 0);
  const Gpu& gpu = *o.input.gpu;
  SkeletonSearchOptions so;
  so.path = path;
  so.macros = o.input.macros;
  so.hints = o.layoutHints;
  if (o.launch.block || o.input.launch) {
    const Dim3& b = o.launch.block ? *o.launch.block : o.input.launch->block;
    so.block = {b.x, b.y, b.z};
  }
  so.model = o.searchModel;
  so.maxLayouts = o.maxLayouts;
  so.progress = o.input.progress;
  Expected<PreparedSkeleton> prepared = prepareSkeleton(so, gpu);
  if (!prepared) return std::move(prepared).takeError();
  Expected<SkeletonSearch> search = searchSkeleton(*prepared, gpu, so);  // the caller predicts
  if (!search) return std::move(search).takeError();
  Workload w;
  w.path = path;
  w.frontend = "skeleton";
  w.kernels.push_back(search->bestKernel);
  LaunchOverrides rest = o.launch;  // the block is the layout's already
  rest.block.reset();
  w.launch = applyOverrides(search->bestLaunch, rest);
  const skeleton::RankedLayout& top = search->result.layouts.front();
  w.notes.push_back(fmt::format("skeleton: {} layout {} of {} feasible on {} ({})",
                                prepared->hints.pinned ? "the pinned" : "the best",
                                skeleton::describeLayout(top.layout, prepared->sk), search->result.layouts.size(),
                                gpu.name, modelName(resolveDefaultModel(so.model, InputKind::Skeleton, &gpu))));
  w.layouts = SkeletonLayouts{std::move(*prepared), std::move(*search)};
  return w;
}

}  // namespace

Expected<Workload> loadWorkload(const std::string& path, const WorkloadOptions& options) {
  if (hasOwnVariantSpace(path)) return loadSkeletonWorkload(path, options);
  Expected<LoadedInput> input = loadInput(path, options.input);
  if (!input) return std::move(input).takeError();
  Workload w;
  static_cast<LoadedInput&>(w) = std::move(*input);
  const LaunchOverrides& o = options.launch;
  if (w.launch) {
    w.launch = applyOverrides(*w.launch, o);
  } else if (o.grid && o.block) {
    w.launch = applyOverrides(Launch{}, o);
  }
  for (KernelRun& run : w.runs) run.launch = applyOverrides(run.launch, o);
  return w;
}

bool hasOwnVariantSpace(const std::string& path) { return inputKindOf(path) == InputKind::Skeleton; }

Expected<std::vector<KernelRun>> workloadRuns(const Workload& w, const std::string& kernel) {
  Expected<const KernelInput*> selected = selectKernel(w, kernel);
  if (!w.runs.empty()) {
    std::vector<KernelRun> out;
    for (const KernelRun& run : w.runs) {
      if (kernel.empty() || (selected && &w.kernels[run.kernel] == *selected)) out.push_back(run);
    }
    if (!out.empty()) return out;
  }
  if (!selected) return std::move(selected).takeError();
  if (!w.launch) return makeError("the input gives no launch; give a grid and a block (--grid and --block; a request's grid= and block=)", w.path, 0);
  return std::vector<KernelRun>{{static_cast<size_t>(*selected - w.kernels.data()), *w.launch, 1, w.notes}};
}

Expected<KernelRun> workloadRun(const Workload& w, const std::string& kernel) {
  Expected<std::vector<KernelRun>> runs = workloadRuns(w, kernel);
  if (!runs) return std::move(runs).takeError();
  if (runs->size() > 1) {  // several kernels of a program and no name: say which there are
    Expected<const KernelInput*> one = selectKernel(w, kernel);
    if (!one) return std::move(one).takeError();
  }
  return std::move(runs->front());
}

}  // namespace foresight
