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
///
///   register-bank conflicts (FFMA sources read from one bank; ...)
///     line                          FFMA conflicted degree extra cycles/warp       cycles
///     matmul.cu:25                    16          2  2-way               128          412
#pragma once

#include <optional>
#include <vector>

#include "foresight/advise/explain.h"
#include "foresight/report/prediction_view.h"
#include "foresight/workload/run_workload.h"

namespace foresight {

/// Text and JSON of an explanation: the parts of the prediction (PredictionView), then
/// `timing_sensitivity` and `timing_whatif` (the timing model's own, when it is not emulate),
/// `sensitivity` (with the bottleneck), `regions`, `alone`, `whatif` and
/// `register_bank_conflicts`, `fixes`, `roofline`, `occupancy_by_block`, and with --lines
/// `lines` and `timeline`.
class ExplainView : public Report {
 public:
  ExplainView(PredictionContext context, ExplainResult result);
  /// explainWorkload()'s result.
  explicit ExplainView(WorkloadExplanation e)
      : ExplainView({std::move(e.path), std::move(e.frontend), std::move(e.kernel), e.gpu, e.launch},
                    std::move(e.result)) {}
  /// The prediction's summary line and the top fix: "...; top fix: coalescing 1.24x at
  /// transpose.cu:13".
  [[nodiscard]] std::string summary() const override { return summary_; }
  // JSON: the prediction's keys plus `sensitivity` [{resource, bound_resource, parameter,
  // elasticity}], `sensitivity_sum`, `sensitivity_method`, `bottleneck`, `regions`, `alone` and
  // `whatif` [{name, cycles, penalty, speedup}], `register_bank_conflicts` [{file, line, ffma,
  // conflicted, max_degree, extra_cycles_per_warp, predicted_cycles}], and `timing_sensitivity`
  // (null when the timing model is emulate): {entries [as sensitivity], sum, method, largest
  // {unit, resource, mode}, warnings}, and `timing_whatif` (empty for emulate) [as whatif];
  // `fixes` [{kind, change, why, lines [{file, line, detail}], basis, cycles_before, upper_bound,
  // cycles_after, speedup}], best first; with --lines, `lines` [{file, line, instructions,
  // issued, stall_cycles, not_selected_cycles, waits [{reason, unit, cycles}]}] and `timeline`
  // [{warp, cycle, finish, op, unit}]; `roofline` {flops, seconds, gflops, levels [{name, bytes,
  // bandwidth_gbs, intensity}], peaks [{name, gflops}]} (null without one);
  // `occupancy_by_block` [{threads, blocks_per_sm, warps_per_sm, fraction, limiter}].

 private:
  std::string summary_;
};

}  // namespace foresight
