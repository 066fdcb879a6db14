// SPDX-License-Identifier: Apache-2.0
/// \file
/// Skeleton commands: the command line to SkeletonSearchOptions, one search per GPU
/// (workload/skeleton_search.h), the view.
#include "skeleton_report.h"

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "command.h"
#include "progress_line.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/registry.h"
#include "foresight/report/skeleton_views.h"
#include "foresight/workload/skeleton_search.h"

namespace foresight::cli {

namespace {

/// The search options the command line gives, the GPUs (one search each) and the resolved model.
struct Prepared {
  SkeletonSearchOptions search;
  PreparedSkeleton skeleton;
  std::vector<Gpu> gpus;
};

Expected<Prepared> prepare(const CommonOptions& o) {
  Prepared p;
  Expected<ModelOptions> model = toModelOptions(o);
  if (!model) return std::move(model).takeError();
  if (!o.grid.empty()) return makeError("--grid does not apply to skeletons: the grid follows from the layout");
  p.search.path = o.input;
  p.search.model = *model;
  p.search.hints = o.hints;
  p.search.maxLayouts = o.maxVariants;
  p.search.progress = progressReporter();
  for (const std::string& d : o.defines) {
    Expected<std::pair<std::string, std::string>> kv = splitAssignment(d, "-D", true);
    if (!kv) return std::move(kv).takeError();
    p.search.macros.push_back(*kv);
  }
  if (!o.block.empty()) {
    Expected<Dim3> block = parseDim3(o.block, "block");
    if (!block) return std::move(block).takeError();
    // --block X[,Y[,Z]]: only the extents given count.
    const long long all[3] = {block->x, block->y, block->z};
    const size_t given = static_cast<size_t>(std::count(o.block.begin(), o.block.end(), ',') + 1);
    p.search.block.assign(all, all + std::min<size_t>(given, 3));
  }
  const std::vector<std::string> names = splitGpuList(o.gpu);
  if (names.empty()) return makeError("--gpu needs at least one GPU name or file");
  for (const std::string& name : names) {
    Expected<Gpu> gpu = resolveGpu(name);
    if (!gpu) return std::move(gpu).takeError();
    p.gpus.push_back(std::move(*gpu));
  }
  Expected<PreparedSkeleton> sk = prepareSkeleton(p.search, p.gpus.front());
  if (!sk) return std::move(sk).takeError();
  p.skeleton = std::move(*sk);
  return p;
}

Expected<std::vector<SkeletonSearchReport>> searchAll(const Prepared& p) {
  std::vector<SkeletonSearchReport> reports;
  for (const Gpu& gpu : p.gpus) {
    Expected<SkeletonSearchReport> r = reportSkeleton(p.skeleton, gpu, p.search);
    if (!r) return std::move(r).takeError();
    reports.push_back(std::move(*r));
  }
  return reports;
}

}  // namespace

Expected<SkeletonKernel> bestSkeletonKernel(const CommonOptions& o) {
  Expected<Prepared> p = prepare(o);
  if (!p) return std::move(p).takeError();
  // The layout search ranks with the model predict uses for this input and these options.
  if (p->gpus.size() > 1) return resolveOneGpu(o, "explain").error();
  const Gpu& gpu = p->gpus.front();
  Expected<SkeletonSearch> r = searchSkeleton(p->skeleton, gpu, p->search);  // explain predicts it
  if (!r) return std::move(r).takeError();
  return SkeletonKernel{std::move(r->bestKernel), r->bestLaunch, gpu};
}

namespace {
/// The model and variant names of the search's model (the default model unless chosen).
const char* modelLabel(const ModelOptions& m) {
  const RegisteredModel* r = registeredModelOf(m);
  return r ? r->family : "mwp-cwp";
}
const char* variantLabel(const ModelOptions& m) {
  const RegisteredModel* r = registeredModelOf(m);
  return r ? r->variant : "grophecy";
}
}  // namespace

bool isSkeletonInput(const std::string& path) {
  return inputKindOf(path) == InputKind::Skeleton;
}

int runSkeletonPredict(const CommonOptions& o) {
  Expected<Prepared> p = prepare(o);
  if (!p) return reportError(p.error());
  Expected<std::vector<SkeletonSearchReport>> reports = searchAll(*p);
  if (!reports) return reportError(reports.error());
  const SkeletonPredictionView view(
      {o.input, &p->skeleton.sk, modelLabel(p->search.model), variantLabel(p->search.model), p->skeleton.hints.pinned},
      std::move(*reports));
  if (o.json) {
    std::cout << view.toJson().dump(2) << "\n";
  } else {
    view.printText(std::cout);
  }
  return kExitOk;
}

int runSkeletonExplore(const CommonOptions& o, long long top, bool csv) {
  if (csv && o.json) return reportError(makeError("choose one of --json and --csv"));
  Expected<Prepared> p = prepare(o);
  if (!p) return reportError(p.error());
  Expected<std::vector<SkeletonSearchReport>> reports = searchAll(*p);
  if (!reports) return reportError(reports.error());
  const LayoutRankingView view(
      {o.input, &p->skeleton.sk, modelLabel(p->search.model), variantLabel(p->search.model), p->skeleton.hints.pinned},
      std::move(*reports), top);
  if (o.json) {
    std::cout << view.toJson().dump(2) << "\n";
  } else if (csv) {
    view.printCsv(std::cout);
  } else {
    view.printText(std::cout);
  }
  return kExitOk;
}

}  // namespace foresight::cli
