// SPDX-License-Identifier: Apache-2.0
/// \file
/// SAAKE's sensitivity analysis (saake.md §4): rerun the emulation with one parameter (a unit's
/// latency or gap, the issue gap, the launch overhead) raised by 10% and report normalized
/// elasticities e = (ΔT/T)/(ΔX/X). T is built from sums and maxima of these parameters, so it is
/// homogeneous of degree 1 and Σ e ≈ 1 (Euler); the sum is reported as a consistency check.
/// The bottleneck is the largest elasticity; its mode is "latency" or "throughput" by which
/// parameter it is. When no parameter stands out (the second is within `tieRatio` of the
/// first), the significant parameters are re-analysed per region (source-line ranges), with
/// region elasticities as shares of total time that add up across regions. Like uiCA, it also
/// reports the time each resource alone would allow (its busy time).
#pragma once

#include <string>
#include <vector>

#include "foresight/model/emulate/emulate_model.h"
#include "foresight/model/resource.h"

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

/// Runs the analysis on a lowered launch.
[[nodiscard]] Expected<SensitivityReport> analyzeSensitivity(const emu::KernelEmulation& emulation,
                                                             const SensitivityOptions& options = {});

}  // namespace foresight
