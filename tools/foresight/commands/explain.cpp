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

int runExplain(const CommonOptions& o, const bool* lines) {
  Expected<Gpu> gpu = resolveOneGpu(o, "explain");
  if (!gpu) return reportError(gpu.error());
  Expected<WorkloadOptions> wo = toWorkloadOptions(o);
  if (!wo) return reportError(wo.error());
  ExplainWorkloadOptions eo;
  eo.gpu = &*gpu;
  eo.workload = std::move(*wo);
  eo.model = toModelNames(o);
  eo.lines = *lines;
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
  auto lines = std::make_shared<bool>(false);
  sub.add_flag("--lines", *lines,
               "Also attribute the emulated cycles to source lines: instructions, issued, cycles waited and on what");
  return [options, lines] { return runExplain(*options, lines.get()); };
}

}  // namespace foresight::cli
