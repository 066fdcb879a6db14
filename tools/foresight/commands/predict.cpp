// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight predict FILE`: time, occupancy and bound of one kernel launch.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

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

/// C loop nests: every marked kernel (or the --kernel one), each with its own launch, and the
/// program's total over kernels and launches.
int runCloopPredict(const CommonOptions& o) {
  Expected<ModelOptions> modelOptions = toModelOptions(o);
  if (!modelOptions) return reportError(modelOptions.error());
  Expected<Gpu> gpu = resolveGpu(o.gpu);
  if (!gpu) return reportError(gpu.error());
  Expected<InputOptions> inputOptions = toInputOptions(o, *gpu);
  if (!inputOptions) return reportError(inputOptions.error());
  Expected<cloop::CloopProgram> program = cloop::analyzeCloop(o.input, *inputOptions);
  if (!program) return reportError(program.error());
  std::vector<const cloop::CloopKernel*> chosen;
  std::vector<std::string> names;
  for (const cloop::CloopKernel& k : program->kernels) {
    names.push_back(k.input.ir.name);
    if (o.kernel.empty() || k.input.ir.name == o.kernel) chosen.push_back(&k);
  }
  if (chosen.empty()) {
    LoadedInput li;
    li.path = o.input;
    for (const cloop::CloopKernel& k : program->kernels) li.kernels.push_back(k.input);
    Expected<const KernelInput*> none = selectKernel(li, o.kernel);
    return reportError(none.error());
  }
  nlohmann::json all = nlohmann::json::array();
  double total = 0;
  std::string parts;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const cloop::CloopKernel& k = *chosen[i];
    Expected<Launch> launch = resolveLaunch(o, k.launch);
    if (!launch) return reportError(launch.error());
    Expected<Prediction> prediction = predict(k.input, *launch, *gpu, *modelOptions);
    if (!prediction) {
      Error e = std::move(prediction).takeError();
      if (e.file.empty()) e.file = o.input;
      return reportError(e);
    }
    for (const std::string& note : k.notes) prediction->warnings.push_back(note);
    total += prediction->seconds * k.launches;
    parts += fmt::format("{}{} {:.3f} ms x {}", parts.empty() ? "" : ", ", k.input.ir.name,
                         prediction->seconds * 1e3, k.launches);
    const PredictionView view({o.input, "cloop", k.input.ir.name, &*gpu, *launch}, std::move(*prediction));
    if (o.json) {
      nlohmann::json j = view.toJson();
      j["launches_per_run"] = k.launches;
      all.push_back(j);
    } else {
      if (i) std::cout << "\n";
      view.printText(std::cout);
    }
  }
  if (o.json) {
    if (all.size() == 1 && chosen[0]->launches == 1) {
      std::cout << all[0].dump(2) << "\n";
    } else {
      nlohmann::json j;
      j["input"] = o.input;
      j["kernels"] = all;
      j["program_time_s"] = total;
      std::cout << j.dump(2) << "\n";
    }
  } else if (chosen.size() > 1 || chosen[0]->launches > 1) {
    std::cout << fmt::format("\nprogram    {:.3f} ms per run ({})\n", total * 1e3, parts);
  }
  return kExitOk;
}

int runPredict(const CommonOptions& o) {
  if (isSkeletonInput(o.input)) return runSkeletonPredict(o);  // layout search, best layout
  if (o.input.size() > 2 && o.input.compare(o.input.size() - 2, 2, ".c") == 0) return runCloopPredict(o);
  Expected<ModelOptions> modelOptions = toModelOptions(o);
  if (!modelOptions) return reportError(modelOptions.error());
  Expected<Gpu> gpu = resolveGpu(o.gpu);
  if (!gpu) return reportError(gpu.error());
  modelOptions = toModelOptions(o, &*gpu);  // `auto` now for this GPU (same checks, passed above)
  if (!modelOptions) return reportError(modelOptions.error());
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
