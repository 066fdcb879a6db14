// SPDX-License-Identifier: Apache-2.0
/// \file
/// loadWorkload(): loadInput(), or for skeletons the layout search's winner.
#include "foresight/workload/workload.h"

#include <fmt/format.h>

#include "foresight/model/default_model.h"
#include "foresight/workload/skeleton_search.h"

namespace foresight {

namespace {

Expected<LoadedInput> loadSkeletonWorkload(const std::string& path, const WorkloadOptions& o) {
  if (!o.input.gpu) return makeError("a skeleton's layout search needs a target GPU", path, 0);
  const Gpu& gpu = *o.input.gpu;
  SkeletonSearchOptions so;
  so.path = path;
  so.macros = o.input.macros;
  so.hints = o.layoutHints;
  if (o.input.launch) {
    const Dim3& b = o.input.launch->block;
    so.block = {b.x, b.y, b.z};
  }
  so.model = o.searchModel;
  so.maxLayouts = o.maxLayouts;
  so.progress = o.input.progress;
  Expected<PreparedSkeleton> prepared = prepareSkeleton(so, gpu);
  if (!prepared) return std::move(prepared).takeError();
  Expected<SkeletonSearch> search = searchSkeleton(*prepared, gpu, so);  // the caller predicts
  if (!search) return std::move(search).takeError();
  LoadedInput in;
  in.path = path;
  in.frontend = "skeleton";
  in.kernels.push_back(std::move(search->bestKernel));
  in.launch = search->bestLaunch;
  const skeleton::RankedLayout& top = search->result.layouts.front();
  in.notes.push_back(fmt::format("skeleton: {} layout {} of {} feasible on {} ({})",
                                 prepared->hints.pinned ? "the pinned" : "the best",
                                 skeleton::describeLayout(top.layout, prepared->sk), search->result.layouts.size(),
                                 gpu.name, modelName(resolveDefaultModel(so.model, InputKind::Skeleton, &gpu))));
  return in;
}

}  // namespace

Expected<LoadedInput> loadWorkload(const std::string& path, const WorkloadOptions& options) {
  if (inputKindOf(path) == InputKind::Skeleton) return loadSkeletonWorkload(path, options);
  return loadInput(path, options.input);
}

}  // namespace foresight
