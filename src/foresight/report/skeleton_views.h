// SPDX-License-Identifier: Apache-2.0
/// \file
/// Reports of the skeleton frontend: `SkeletonPredictionView` (foresight predict x.sk — the best
/// or pinned layout, its Table 2 statistics, MWP / CWP−1 / N−1 and the bound, then the model's
/// full prediction; several GPUs side by side) and `LayoutRankingView` (foresight explore —
/// layouts ranked by projected time, as text, JSON or CSV).
///
/// Sample text (explore):
///   fx5600: 31148 layouts searched (3260 block/fold shapes, 12226 infeasible)
///   rank      time  bound        MWP  CWP-1   N-1  blocks  shared   comp  coal  uncoal  layout
///      1  8.768 ms  compute    11.67   1.79    15      25    6144 115500  2000       0  B=16x32
///      F=2x25 ...
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "foresight/advise/layout_search.h"
#include "foresight/gpu/gpu.h"
#include "foresight/model/prediction.h"
#include "foresight/report/view.h"
#include "foresight/workload/skeleton_search.h"  // SkeletonSearchReport

namespace foresight {

/// What was searched.
struct SkeletonReportContext {
  std::string input;
  const skeleton::Skeleton* skeleton = nullptr;
  std::string model;    ///< "mwp-cwp"
  std::string variant;  ///< "grophecy"
  bool pinned = false;  ///< the hints pinned one layout
};

/// "memory-bound", "compute-bound" or "parallelism-bound" (GROPHECY's labels) for a bound.
[[nodiscard]] const char* grophecyBoundLabel(const Bound& bound);

/// foresight predict FILE.sk.
class SkeletonPredictionView : public View {
 public:
  SkeletonPredictionView(SkeletonReportContext context, std::vector<SkeletonSearchReport> gpus)
      : context_(std::move(context)), gpus_(std::move(gpus)) {}
  [[nodiscard]] std::string name() const override { return "skeleton_prediction"; }
  void printText(std::ostream& os) const override;
  /// Per GPU: the best layout's prediction line and the layout.
  [[nodiscard]] std::string summary() const override;
  [[nodiscard]] nlohmann::json toJson() const override;

 private:
  SkeletonReportContext context_;
  std::vector<SkeletonSearchReport> gpus_;
};

/// foresight explore FILE.sk.
class LayoutRankingView : public View {
 public:
  /// `top` limits the text and JSON/CSV rows per GPU (0 = all).
  LayoutRankingView(SkeletonReportContext context, std::vector<SkeletonSearchReport> gpus,
                    long long top)
      : context_(std::move(context)), gpus_(std::move(gpus)), top_(top) {}
  [[nodiscard]] std::string name() const override { return "layout_ranking"; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] nlohmann::json toJson() const override;
  /// One row per layout and GPU, with a header line.
  void printCsv(std::ostream& os) const;

 private:
  SkeletonReportContext context_;
  std::vector<SkeletonSearchReport> gpus_;
  long long top_ = 20;
};

}  // namespace foresight
