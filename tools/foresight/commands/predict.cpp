// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight predict FILE`: time, occupancy and bound of one kernel launch.
#include <CLI/CLI.hpp>
#include <deque>
#include <iostream>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "../skeleton_report.h"
#include "foresight/frontend/cloop/cloop_frontend.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/predict.h"
#include "foresight/report/prediction_view.h"

namespace foresight::cli {

namespace {

/// One kernel's prediction on one GPU, and how often a run of the program launches it.
using Predicted = ProgramPredictionView::Kernel;

/// C loop nests: every marked kernel (or the --kernel one), each with its own launch.
Expected<std::vector<Predicted>> predictCloop(const CommonOptions& o, const ModelOptions& modelOptions, const Gpu& gpu) {
  Expected<InputOptions> inputOptions = toInputOptions(o, gpu);
  if (!inputOptions) return std::move(inputOptions).takeError();
  Expected<cloop::CloopProgram> program = cloop::analyzeCloop(o.input, *inputOptions);
  if (!program) return std::move(program).takeError();
  std::vector<const cloop::CloopKernel*> chosen;
  for (const cloop::CloopKernel& k : program->kernels) {
    if (o.kernel.empty() || k.input.ir.name == o.kernel) chosen.push_back(&k);
  }
  if (chosen.empty()) {
    LoadedInput li;
    li.path = o.input;
    for (const cloop::CloopKernel& k : program->kernels) li.kernels.push_back(k.input);
    Expected<const KernelInput*> none = selectKernel(li, o.kernel);
    return std::move(none).takeError();
  }
  std::vector<Predicted> out;
  for (const cloop::CloopKernel* k : chosen) {
    Expected<Launch> launch = resolveLaunch(o, k->launch);
    if (!launch) return std::move(launch).takeError();
    Expected<Prediction> prediction = predict(k->input, *launch, gpu, modelOptions);
    if (!prediction) {
      Error e = std::move(prediction).takeError();
      if (e.file.empty()) e.file = o.input;
      return e;
    }
    for (const std::string& note : k->notes) prediction->warnings.push_back(note);
    out.push_back({PredictionView({o.input, "cloop", k->input.ir.name, &gpu, *launch}, std::move(*prediction)), k->launches});
  }
  return out;
}

/// Summaries and CUDA inputs: the chosen kernel.
Expected<std::vector<Predicted>> predictKernel(const CommonOptions& o, const Gpu& gpu) {
  Expected<ModelOptions> modelOptions = toModelOptions(o, &gpu);  // `auto` for this GPU
  if (!modelOptions) return std::move(modelOptions).takeError();
  Expected<LoadedKernel> k = loadKernel(o, gpu);
  if (!k) return std::move(k).takeError();
  Expected<Prediction> prediction = predict(k->kernel(), k->launch, gpu, *modelOptions);
  if (!prediction) {
    Error e = std::move(prediction).takeError();
    if (e.file.empty()) {
      e.message = "on GPU '" + gpu.name + "': " + e.message;
      e.file = o.input;
    }
    return e;
  }
  for (const std::string& note : k->input.notes) prediction->warnings.push_back(note);
  std::vector<Predicted> out;
  out.push_back({PredictionView({o.input, k->input.frontend, k->kernel().ir.name, &gpu, k->launch}, std::move(*prediction)), 1});
  return out;
}

int runPredict(const CommonOptions& o) {
  if (isSkeletonInput(o.input)) return runSkeletonPredict(o);  // layout search, best layout
  const bool cloopInput = inputKindOf(o.input) == InputKind::CLoop;
  Expected<ModelOptions> modelOptions = toModelOptions(o);
  if (!modelOptions) return reportError(modelOptions.error());
  const std::vector<std::string> names = splitGpuList(o.gpu);
  if (names.empty()) return reportError(makeError("--gpu needs at least one GPU name or file"));
  std::deque<Gpu> gpus;  // stable addresses: the views point at them
  for (const std::string& name : names) {
    Expected<Gpu> gpu = resolveGpu(name);
    if (!gpu) return reportError(gpu.error());
    gpus.push_back(std::move(*gpu));
  }
  std::vector<Predicted> predicted;
  for (const Gpu& gpu : gpus) {
    Expected<std::vector<Predicted>> one = cloopInput ? predictCloop(o, *modelOptions, gpu) : predictKernel(o, gpu);
    if (!one) return reportError(one.error());
    for (Predicted& p : *one) predicted.push_back(std::move(p));
  }
  if (gpus.size() > 1) {
    std::vector<PredictionView> rows;
    for (Predicted& p : predicted) rows.push_back(std::move(p.view));
    return printView(GpuComparisonView(std::move(rows)), o.json);
  }
  if (cloopInput) return printView(ProgramPredictionView(o.input, std::move(predicted)), o.json);
  return printView(predicted.front().view, o.json);
}

}  // namespace

std::function<int()> setupPredict(CLI::App& sub) {
  auto options = std::make_shared<CommonOptions>();
  addCommonOptions(sub, *options);
  return [options] { return runPredict(*options); };
}

}  // namespace foresight::cli
