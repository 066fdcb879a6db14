// SPDX-License-Identifier: Apache-2.0
/// \file
/// `WorkloadPredictionView`: the report of `foresight predict` for any input, built from
/// predictWorkload()'s result by its shape — a skeleton's search (SkeletonPredictionView), several
/// GPUs side by side (GpuComparisonView), a program's run (ProgramPredictionView) or one kernel
/// launch (PredictionView). The CLI, `foresight batch` and the Python module print it, so they
/// agree for every input.
#pragma once

#include <iosfwd>
#include <memory>

#include "foresight/report/skeleton_views.h"
#include "foresight/report/view.h"
#include "foresight/workload/run_workload.h"

namespace foresight {

class WorkloadPredictionView : public View {
 public:
  explicit WorkloadPredictionView(WorkloadPrediction result);
  [[nodiscard]] std::string name() const override { return inner_->name(); }
  void printText(std::ostream& os) const override { inner_->printText(os); }
  [[nodiscard]] nlohmann::json toJson() const override;
  [[nodiscard]] std::string summary() const override { return inner_->summary(); }

 private:
  std::unique_ptr<PreparedSkeleton> skeleton_;  ///< a skeleton's, which inner_ points at
  std::unique_ptr<View> inner_;
};

/// True when the result holds a variant space of the input's own: a skeleton's searched layouts.
[[nodiscard]] bool hasLayouts(const WorkloadPrediction& result);

/// `foresight explore FILE.sk`: the layouts predictWorkload() searched on each GPU, ranked
/// (LayoutRankingView), `top` rows per GPU (0 = all). The result must have layouts (hasLayouts()).
class WorkloadLayoutsView : public View {
 public:
  WorkloadLayoutsView(WorkloadPrediction result, long long top);
  [[nodiscard]] std::string name() const override { return inner_->name(); }
  void printText(std::ostream& os) const override { inner_->printText(os); }
  [[nodiscard]] nlohmann::json toJson() const override;
  void printCsv(std::ostream& os) const { inner_->printCsv(os); }

 private:
  std::unique_ptr<PreparedSkeleton> skeleton_;  ///< inner_ points at it
  std::unique_ptr<LayoutRankingView> inner_;
};

}  // namespace foresight
