// SPDX-License-Identifier: Apache-2.0
/// \file
/// WorkloadPredictionView: the view that fits predictWorkload()'s result.
#include "foresight/report/workload_views.h"

#include <nlohmann/json.hpp>

#include "foresight/model/registry.h"
#include "foresight/report/prediction_view.h"

namespace foresight {

namespace {

/// What a skeleton's reports say was searched; they point at `skeleton`.
SkeletonReportContext skeletonContext(const WorkloadPrediction& r, const PreparedSkeleton& skeleton) {
  const RegisteredModel* m = registeredModelOf(r.gpus.front().model);
  return {r.path, &skeleton.sk, m ? m->family : "mwp-cwp", m ? m->variant : "grophecy", skeleton.hints.pinned};
}

/// Each GPU's search, moved out of the result.
std::vector<SkeletonSearchReport> searches(WorkloadPrediction& r) {
  std::vector<SkeletonSearchReport> out;
  for (GpuPrediction& g : r.gpus) out.push_back(std::move(g.layouts->report));
  return out;
}

}  // namespace

WorkloadPredictionView::WorkloadPredictionView(WorkloadPrediction r) {
  if (hasLayouts(r)) {
    skeleton_ = std::make_unique<PreparedSkeleton>(std::move(r.gpus.front().layouts->skeleton));
    inner_ = std::make_unique<SkeletonPredictionView>(skeletonContext(r, *skeleton_), searches(r));
    return;
  }
  std::vector<ProgramPredictionView::Kernel> kernels;
  for (GpuPrediction& g : r.gpus) {
    for (KernelPrediction& k : g.kernels) {
      kernels.push_back({PredictionView({r.path, g.frontend, k.kernel, g.gpu, k.launch}, std::move(k.prediction)),
                         k.launchesPerRun});
    }
  }
  if (r.gpus.size() > 1) {
    std::vector<PredictionView> rows;
    for (ProgramPredictionView::Kernel& k : kernels) rows.push_back(std::move(k.view));
    inner_ = std::make_unique<GpuComparisonView>(std::move(rows));
  } else if (!r.gpus.empty() && r.gpus.front().program) {
    inner_ = std::make_unique<ProgramPredictionView>(r.path, std::move(kernels));
  } else {
    inner_ = std::make_unique<PredictionView>(std::move(kernels.at(0).view));
  }
}

nlohmann::json WorkloadPredictionView::toJson() const { return inner_->toJson(); }

bool hasLayouts(const WorkloadPrediction& r) {
  for (const GpuPrediction& g : r.gpus) {
    if (!g.layouts) return false;
  }
  return !r.gpus.empty();
}

WorkloadLayoutsView::WorkloadLayoutsView(WorkloadPrediction r, long long top)
    : skeleton_(std::make_unique<PreparedSkeleton>(std::move(r.gpus.at(0).layouts.value().skeleton))),
      inner_(std::make_unique<LayoutRankingView>(skeletonContext(r, *skeleton_), searches(r), top)) {}

nlohmann::json WorkloadLayoutsView::toJson() const { return inner_->toJson(); }

}  // namespace foresight
