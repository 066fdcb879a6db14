// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight explain FILE`: predict's time for the same input and options (the default model
/// unless --model/--variant say otherwise), with the emulate model's SAAKE sensitivity analysis
/// (bottleneck resource and mode) and TEG what-if penalties, for any input (explainWorkload(),
/// workload/run_workload.h: CUDA, a C program's kernel, a skeleton's best layout, a summary).
#include <CLI/CLI.hpp>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "foresight/report/explain_view.h"
#include "foresight/workload/run_workload.h"

namespace foresight::cli {

namespace {

/// Options only explain has.
struct ExplainFlags {
  bool lines = false;
  bool placement = false;
  bool tryDefines = false;
};

int runExplain(const CommonOptions& o, const ExplainFlags& flags) {
  Expected<Gpu> gpu = resolveOneGpu(o, "explain");
  if (!gpu) return reportError(gpu.error());
  Expected<WorkloadOptions> wo = toWorkloadOptions(o);
  if (!wo) return reportError(wo.error());
  ExplainWorkloadOptions eo;
  eo.gpu = &*gpu;
  eo.workload = std::move(*wo);
  eo.model = toModelNames(o);
  eo.lines = flags.lines;
  eo.placement = flags.placement;
  eo.tryDefines = flags.tryDefines;
  Expected<WorkloadExplanation> r = explainWorkload(o.input, eo);
  if (!r) return reportError(r.error());
  return printView(ExplainView(std::move(*r)), printOptions(o));
}

}  // namespace

std::function<int()> setupExplain(CLI::App& sub) {
  auto options = std::make_shared<CommonOptions>();
  addCommonOptions(sub, *options);
  addSummaryOption(sub, options->summary);
  addHtmlOption(sub, options->html);
  auto flags = std::make_shared<ExplainFlags>();
  sub.add_flag("--lines", flags->lines,
               "Also attribute the emulated cycles to source lines: instructions, issued, cycles waited and on what");
  sub.add_flag("--placement", flags->placement,
               "Also search data placements (PORPLE) for a fix, each plan emulated (CUDA inputs; about a second)");
  sub.add_flag("--try-defines", flags->tryDefines,
               "Also try each -D value the kernel is compiled with (given, or the source's #ifndef defaults; three at "
               "most) doubled and halved, the grid as it is or scaled, for a fix (.cu inputs; a compilation and an "
               "emulation each)");
  return [options, flags] { return runExplain(*options, *flags); };
}

}  // namespace foresight::cli
