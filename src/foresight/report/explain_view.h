// SPDX-License-Identifier: Apache-2.0
/// \file
/// `ExplainView`: the report of `foresight explain` — the emulate model's prediction, the
/// sensitivity table (elasticity of each latency and gap, Σ, bottleneck and mode, region
/// drill-down), the time each resource alone would allow, and the what-if penalty breakdown.
///
/// Sample text output (after the prediction part):
///   sensitivity (elasticity of T to +10% of each parameter; Σ = 1.00)
///     dram        gap        0.81  ################
///     dram        latency    0.12  ##
///   bottleneck  dram (throughput)
///
///   resources alone (cycles each would need by itself)
///     dram                  80112
///
///   what-if (cycles saved when the penalty is removed)
///     perfect-coalescing       0   1.00x  every global access takes its minimum sectors
#pragma once

#include <vector>

#include "foresight/advise/sensitivity.h"
#include "foresight/advise/whatif.h"
#include "foresight/report/prediction_view.h"

namespace foresight {

/// Text and JSON of an explanation.
class ExplainView : public View {
 public:
  ExplainView(PredictionContext context, Prediction prediction, SensitivityReport sensitivity,
              std::vector<WhatIfResult> whatIf)
      : prediction_(std::move(context), std::move(prediction)), sensitivity_(std::move(sensitivity)),
        whatIf_(std::move(whatIf)) {}
  [[nodiscard]] std::string name() const override { return "explain"; }
  void printText(std::ostream& os) const override;
  /// The prediction's keys plus `sensitivity` [{resource, parameter, elasticity}],
  /// `sensitivity_sum`, `bottleneck`, `regions`, `alone` and `whatif` [{name, cycles, penalty,
  /// speedup}].
  [[nodiscard]] nlohmann::json toJson() const override;

 private:
  PredictionView prediction_;
  SensitivityReport sensitivity_;
  std::vector<WhatIfResult> whatIf_;
};

}  // namespace foresight
