// SPDX-License-Identifier: Apache-2.0
/// \file
/// Sensitivity analysis, the method shared by every model (saake.md §4): raise one timing
/// parameter by a step, re-predict, and report the normalized elasticity e = (ΔT/T)/(ΔX/X).
/// A model whose time is built from sums and maxima of its latencies and gaps is homogeneous of
/// degree 1 in them, so Σ e ≈ 1 (Euler), reported as a consistency check; the bottleneck is the
/// largest elasticity. The emulate model perturbs its emulated units (emulate/sensitivity.h);
/// analyzeModelSensitivity() below perturbs the GPU description's timing parameters and
/// re-predicts with any registered model, which it treats as a black box.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/ir/kernel_input.h"
#include "foresight/ir/launch.h"
#include "foresight/model/model_options.h"
#include "foresight/model/resource.h"
#include "foresight/support/error.h"

namespace foresight {

/// One perturbed parameter.
struct Elasticity {
  std::string unit;                    ///< "dram", "fp32", "issue", "launch", ...
  Resource resource = Resource::Issue;
  BoundMode parameter = BoundMode::Latency;  ///< Latency = the latency, Throughput = the gap
  double elasticity = 0;               ///< (ΔT/T)/0.1
  std::string region;                  ///< empty = whole kernel
};

/// Cycles a resource alone would need (its busy time), as a bound on T.
struct ResourceAlone {
  std::string unit;
  Resource resource = Resource::Issue;
  double cycles = 0;
};

/// Thresholds (saake.md §4 "Proposed defaults").
struct SensitivityOptions {
  double step = 0.10;          ///< relative perturbation
  /// Central differences (T(+step) - T(-step)) / (2 step T): the schedule is piecewise linear
  /// with ties (GTO choices, barrier phases), so a one-sided step can land on a jump
  /// (saake.md §4 "use both a +10% and a -10% perturbation"). false = the paper's +10% only.
  bool central = true;
  /// With central: the least-squares slope of ΔT/T against ΔX/X over ±step and ±2·step
  /// (through the origin), which averages over jumps instead of landing on one.
  bool fit = true;
  double sumTolerance = 0.2;   ///< warn when |Σ - 1| exceeds this
  double significant = 0.2;    ///< a parameter matters at this elasticity
  double tieRatio = 0.75;      ///< "no clear winner" when second >= tieRatio x first
  double notSensitive = 0.05;  ///< below this a parameter is left out of the report
  bool regions = true;         ///< region-wise analysis when there is no clear winner
};

/// Result of the analysis.
struct SensitivityReport {
  double cycles = 0;                 ///< baseline T
  std::string method;                ///< "+10%", "±10%" or "slope over ±10%, ±20%"
  std::vector<Elasticity> entries;   ///< every parameter, largest first
  double sum = 0;                    ///< Σ elasticities (≈ 1)
  Bound bound;                       ///< resource and mode of the largest
  std::string boundUnit;             ///< its unit name
  bool clearWinner = true;
  std::vector<Elasticity> regional;  ///< per-region elasticities of the significant parameters
  std::vector<ResourceAlone> alone;  ///< largest first
  std::vector<std::string> warnings;
};

/// How the options measure an elasticity: "+10%", "±10%" or "slope over ±10%, ±20%".
[[nodiscard]] std::string sensitivityMethod(const SensitivityOptions& options);

/// One parameter's elasticity from the relative change of T at each step the options take
/// (`relative(d)` = (T at 1 + d) − T) / T): +step alone, ±step, or the least-squares slope
/// through the origin over ±step and ±2·step.
[[nodiscard]] Expected<double> elasticityOf(const std::function<Expected<double>(double)>& relative,
                                            const SensitivityOptions& options);

/// The steps d elasticityOf() takes, in order; and the elasticity from the relative changes at
/// them (`relatives[i]` at `steps[i]`), for callers that run the steps apart.
[[nodiscard]] std::vector<double> elasticitySteps(const SensitivityOptions& options);
/// The indices into elasticitySteps() that run first: with the fitted slope the outer steps
/// ±2·step, otherwise every step. When T moves at none of them the parameter does not move T
/// over the range: its elasticity is 0 and the other steps are not run (one that returned T to
/// its base value at both ±2·step yet moved it at ±step is taken as not moving it: in the
/// explain runs of the corpus' 74 launches one parameter did, by 4e-16).
[[nodiscard]] std::vector<size_t> screeningSteps(const SensitivityOptions& options);
[[nodiscard]] double elasticityFrom(const std::vector<double>& steps, const std::vector<double>& relatives,
                                    const SensitivityOptions& options);

/// Orders `report.entries` (largest first), sums them, names the bound (the largest) and whether
/// it stands out (`tieRatio`), and warns when the sum is off 1 by more than `sumTolerance`;
/// `cause` says why a model's sum can be off ("the emulated schedule changes discontinuously").
void rankElasticities(SensitivityReport& report, const SensitivityOptions& options, const std::string& cause);

/// One timing parameter of a GPU description and how to scale it by a factor f: a latency or
/// overhead is multiplied by f, a gap too (a bandwidth or issue width is divided by it). The
/// [mwp_cwp] section's values move with the parameter they are a form of.
struct GpuTimingParameter {
  std::string unit;      ///< "fp32", "issue", "dram", "barrier", "launch", "dispatch", ...
  Resource resource;
  BoundMode mode;        ///< Latency: a latency or overhead; Throughput: a gap
  bool memoryLevel;      ///< a level of the memory hierarchy (`[memory.*]`), not a pipeline
  std::function<void(Gpu&, double)> scale;
};
/// Every timing parameter `gpu` describes, in a fixed order: each pipeline's latency and gap, the
/// issue gap, each memory level's latency (with its far latency) and gap (its bandwidths; the
/// L2's atomic and read-modify-write times with them), the barrier, the launch and block
/// overheads, the block dispatch.
[[nodiscard]] std::vector<GpuTimingParameter> gpuTimingParameters(const Gpu& gpu);

/// `model` with the memory engine's traffic of the launch set (`emulate.memory`), analysed here
/// unless it already is: what predict() would analyse, shared by re-predictions that change
/// nothing it depends on.
[[nodiscard]] Expected<ModelOptions> withMemoryTraffic(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                                       ModelOptions model);

/// The sensitivity of `model`'s prediction to the GPU's timing parameters: each pipeline's
/// latency and gap, the issue gap (1 / issue width), each memory level's latency (and far
/// latency) and bandwidths (as a gap: bandwidth / (1 + d)), the barrier's latency and arrival,
/// and the launch and block overheads, each perturbed in the GPU description and predicted
/// again through predict() (the memory engine's traffic, which does not depend on them, is
/// analysed once). No regions and no per-resource times (a black box has neither). Parameters
/// the prediction does not move are left out.
[[nodiscard]] Expected<SensitivityReport> analyzeModelSensitivity(const KernelInput& kernel, const Launch& launch,
                                                                  const Gpu& gpu, const ModelOptions& model,
                                                                  const SensitivityOptions& options = {});

}  // namespace foresight
