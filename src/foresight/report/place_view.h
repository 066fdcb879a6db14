// SPDX-License-Identifier: Apache-2.0
/// \file
/// The report of `foresight place` (advise/placement/place.h): the arrays and their options,
/// the ranked plans with the placement model's cost and the timing model's time, and the chosen
/// plan per array and memory.
///
/// Sample text output:
///   arrays     3 global arrays; profiled 1 block of 8 warps, 1536 warp requests
///     array   bytes     reads  writes  options    why not
///     coef    64 B      yes    no      G R T S C  -
///   ...
///   plans      hybrid search (greedy + branch-and-bound): optimal under the model, 57 plans scored
///     plan         coef in out   model T     time        speedup
///     chosen       C    T  G     1.20e+04    12.345 us   1.18x
#pragma once

#include "foresight/advise/placement/place.h"
#include "foresight/report/prediction_view.h"
#include "foresight/report/view.h"

namespace foresight {

class PlaceView : public View {
 public:
  PlaceView(PredictionContext context, PlaceResult result, std::string timingModel)
      : context_(std::move(context)), result_(std::move(result)), timingModel_(std::move(timingModel)) {}
  [[nodiscard]] std::string name() const override { return "place"; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] nlohmann::json toJson() const override;

 private:
  PredictionContext context_;
  PlaceResult result_;
  std::string timingModel_;
};

}  // namespace foresight
