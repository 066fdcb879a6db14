// SPDX-License-Identifier: Apache-2.0
/// \file
/// `explainKernel`: what `foresight explain` computes for one kernel launch, as a library call —
/// predict's time (with the timing model, through the same floors) and, when that model is not
/// emulate, its own sensitivity to the GPU's timing parameters; and from the emulate model
/// SAAKE's sensitivity analysis (bottleneck resource and mode), TEG's what-if penalties and the
/// register-bank conflicts by source line.
#pragma once

#include <optional>
#include <vector>

#include "foresight/advise/fixes.h"
#include "foresight/advise/register_conflicts.h"
#include "foresight/advise/roofline.h"
#include "foresight/advise/source_lines.h"
#include "foresight/advise/whatif.h"
#include "foresight/frontend/input.h"
#include "foresight/model/default_model.h"
#include "foresight/model/emulate/sensitivity.h"
#include "foresight/model/model_options.h"
#include "foresight/model/prediction.h"

namespace foresight {

/// Options of explainKernel().
struct ExplainOptions {
  /// The model whose time is reported: predict's for the same input (resolved, not Auto).
  ModelOptions timing;
  /// The emulation that the sensitivity analysis and the what-ifs run (variant, policy, hit
  /// rates). When `timing` is the emulate model this emulation is also the time: pass
  /// `timing.emulate`.
  EmulateOptions emulate;
  /// Also attribute the emulation's issue and wait cycles to source lines (`--lines`).
  bool lines = false;
  /// Also search PORPLE's data placements for a fix (`--placement`): each timed plan costs one
  /// emulation, so a search is about a second on a 2-core machine.
  bool placement = false;
  /// The input, so that the fixes that change the launch or the source are predicted on the
  /// kernel as the input then gives it (explainWorkload() sets it for kernel files); empty: no
  /// such change is suggested. Its `macros` are tried for a -D fix, each a compilation and an
  /// emulation (seconds in all): explainWorkload() lists them only with `--try-defines`.
  InputAccess input;
};

/// The options explain runs with for model names as a user gives them: the timing model is
/// predict's for the same names — an emulate variant alone selects emulate, and the emulate-only
/// options (policy, hit rates), which configure the analysis' emulation, are left out of an
/// MWP-CWP timing model instead of refused — and the emulation is emulate with the names'
/// variant when the timing model is emulate, else its default variant, with those options.
[[nodiscard]] Expected<ExplainOptions> explainOptions(const ModelNames& names, InputKind kind, const Gpu* gpu);

/// Everything an explain report shows.
struct ExplainResult {
  Prediction prediction;  ///< the time: predict()'s with `timing`
  SensitivityReport sensitivity;
  std::vector<WhatIfResult> whatIf;
  std::vector<RegisterConflictLine> conflicts;
  /// The timing model's own sensitivity to the GPU's timing parameters (model/sensitivity.h),
  /// when it is not the emulate model (whose analysis is `sensitivity`).
  std::optional<SensitivityReport> timingSensitivity;
  /// The timing model's own what-ifs (analyzeModelWhatIf()), under the same condition.
  std::vector<WhatIfResult> timingWhatIf;
  /// The changes worth making, best first (rankFixes(): the emulate model's speedups, and the
  /// timing model's where it is another and can express the change).
  std::vector<Fix> fixes;
  /// Per source line, most waited first (source_lines.h); only when ExplainOptions::lines.
  std::optional<std::vector<SourceLineCost>> lines;
  /// The emulated SM's first issues (source_lines.h); only when ExplainOptions::lines.
  std::optional<std::vector<TimelineEntry>> timeline;
  /// The launch's point per memory level at the reported time, and the GPU's roofs.
  std::optional<Roofline> roofline;
  /// Occupancy of the kernel's resources at every block size.
  std::vector<OccupancyPoint> occupancyByBlock;
};

/// Emulates one launch, analyses it and predicts its time. When the timing model is not emulate,
/// a warning in the prediction says so and gives the emulated time.
[[nodiscard]] Expected<ExplainResult> explainKernel(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                                    const ExplainOptions& options);

}  // namespace foresight
