// SPDX-License-Identifier: Apache-2.0
/// \file
/// `ValidationView`: the report of `foresight validate` — per measurement and model the
/// prediction, the measurement and the error, then per model the geometric-mean and median
/// |error|, the worst cases, and within each variant group Spearman's rho and the regret of
/// the variant the model ranks first (its measured time over the group's fastest).
///
/// Sample text output:
///   corpus     validation: 42 experiments, 97 variants
///   measured   validation/measurements: 2 measurements on h100
///
///   gpu   experiment/variant    model             measured     predicted    error
///   h100  gemm_tiled/t16        mwp-cwp/grophecy  1.234 ms     1.100 ms     -10.9%
///   h100  bfs/default           mwp-cwp/grophecy  0.222 ms     not predicted (no frontend reads
///   '.cu' files yet)
///
///   model              predicted  not predicted  geomean |err|  median |err|  mean rho (groups)  regret (mean, max)
///   mwp-cwp/grophecy   1          1              10.9%          10.9%         n/a (0)            n/a
///   worst: mwp-cwp/grophecy h100 gemm_tiled/t16 -10.9%
///
/// With no measurements the tables are empty and a line says that measuring is pending.
#pragma once

#include "foresight/report/view.h"
#include "foresight/validation/validate.h"

namespace foresight {

/// Text and JSON of a ValidationReport.
class ValidationView : public View {
 public:
  explicit ValidationView(ValidationReport report) : report_(std::move(report)) {}
  [[nodiscard]] std::string name() const override { return "validation"; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] nlohmann::json toJson() const override;

 private:
  ValidationReport report_;
};

}  // namespace foresight
