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

#include "foresight/model/emulate/emulate_model.h"
#include "foresight/model/sensitivity.h"

namespace foresight {

/// Runs the analysis on a lowered launch.
[[nodiscard]] Expected<SensitivityReport> analyzeSensitivity(const emu::KernelEmulation& emulation,
                                                             const SensitivityOptions& options = {});

}  // namespace foresight
