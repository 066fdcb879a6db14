// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight explain FILE`: the emulate model's prediction, SAAKE sensitivity analysis
/// (bottleneck resource and mode) and TEG what-if penalties, for any input (CUDA, skeleton via
/// its best layout, summary).
#include <CLI/CLI.hpp>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "../skeleton_report.h"
#include "foresight/advise/sensitivity.h"
#include "foresight/advise/whatif.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/emulate/emulate_model.h"
#include "foresight/report/explain_view.h"

namespace foresight::cli {

namespace {

Error located(Error e, const std::string& input, const Gpu& gpu) {
  if (e.file.empty()) {
    e.message = "on GPU '" + gpu.name + "': " + e.message;
    e.file = input;
  }
  return e;
}

int explain(const CommonOptions& o, const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
            const std::string& frontend, const std::vector<std::string>& notes) {
  CommonOptions forced = o;
  forced.model = "emulate";
  Expected<ModelOptions> modelOptions = toModelOptions(forced);
  if (!modelOptions) return reportError(modelOptions.error());
  const EmulateOptions& eo = modelOptions->emulate;
  Expected<emu::KernelEmulation> emulation = emu::KernelEmulation::create(kernel, launch, gpu, eo);
  if (!emulation) return reportError(located(emulation.error(), o.input, gpu));
  Expected<emu::KernelTiming> timing = emulation->run();
  if (!timing) return reportError(located(timing.error(), o.input, gpu));
  SensitivityOptions so;
  so.central = eo.variant != EmulateVariant::Saake;  // the paper perturbs by +10% only
  so.fit = so.central;
  Expected<SensitivityReport> sensitivity = analyzeSensitivity(*emulation, so);
  if (!sensitivity) return reportError(located(sensitivity.error(), o.input, gpu));
  Expected<Prediction> prediction = emu::makeEmulatePrediction(*emulation, *timing, *sensitivity, gpu, eo);
  Expected<std::vector<WhatIfResult>> whatIf = analyzeWhatIf(*emulation, prediction->cycles);
  if (!whatIf) return reportError(located(whatIf.error(), o.input, gpu));
  for (const std::string& note : notes) prediction->warnings.push_back(note);
  const ExplainView view({o.input, frontend, kernel.ir.name, &gpu, launch}, std::move(*prediction),
                         std::move(*sensitivity), std::move(*whatIf));
  return printView(view, o.json);
}

int runExplain(const CommonOptions& o) {
  if (o.model != "auto" && o.model != "emulate") {
    return reportError(makeError("explain uses the emulate model; drop --model " + o.model));
  }
  if (isSkeletonInput(o.input)) {
    CommonOptions forced = o;  // the emulate options (--policy, hit rates) are explain's own
    forced.model = "emulate";
    Expected<SkeletonKernel> sk = bestSkeletonKernel(forced);
    if (!sk) return reportError(sk.error());
    return explain(o, sk->kernel, sk->launch, sk->gpu, "skeleton", {"explain: the best layout of the MWP-CWP layout search"});
  }
  Expected<Gpu> gpu = resolveGpu(o.gpu);
  if (!gpu) return reportError(gpu.error());
  Expected<InputOptions> inputOptions = toInputOptions(o, *gpu);
  if (!inputOptions) return reportError(inputOptions.error());
  Expected<LoadedInput> input = loadInput(o.input, *inputOptions);
  if (!input) return reportError(input.error());
  Expected<const KernelInput*> kernel = selectKernel(*input, o.kernel);
  if (!kernel) return reportError(kernel.error());
  Expected<Launch> launch = resolveLaunch(o, input->launch);
  if (!launch) return reportError(launch.error());
  return explain(o, **kernel, *launch, *gpu, input->frontend, input->notes);
}

}  // namespace

std::function<int()> setupExplain(CLI::App& sub) {
  auto options = std::make_shared<CommonOptions>();
  addCommonOptions(sub, *options);
  return [options] { return runExplain(*options); };
}

}  // namespace foresight::cli
