// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight predict FILE`: time, occupancy and bound of one kernel launch.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "../command.h"
#include "../common_options.h"
#include "../skeleton_report.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/predict.h"
#include "foresight/report/prediction_view.h"

namespace foresight::cli {

namespace {

int runPredict(const CommonOptions& o) {
  if (isSkeletonInput(o.input)) return runSkeletonPredict(o);  // layout search, best layout
  Expected<ModelOptions> modelOptions = toModelOptions(o);
  if (!modelOptions) return reportError(modelOptions.error());
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
  Expected<Prediction> prediction = predict(**kernel, *launch, *gpu, *modelOptions);
  if (!prediction) {
    Error e = std::move(prediction).takeError();
    if (e.file.empty()) {
      e.message = "on GPU '" + gpu->name + "': " + e.message;
      e.file = o.input;
    }
    return reportError(e);
  }
  for (const std::string& note : input->notes) prediction->warnings.push_back(note);
  const PredictionView view({o.input, input->frontend, (*kernel)->ir.name, &*gpu, *launch},
                            std::move(*prediction));
  return printView(view, o.json);
}

}  // namespace

std::function<int()> setupPredict(CLI::App& sub) {
  auto options = std::make_shared<CommonOptions>();
  addCommonOptions(sub, *options);
  return [options] { return runPredict(*options); };
}

}  // namespace foresight::cli
