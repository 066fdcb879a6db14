// SPDX-License-Identifier: Apache-2.0
/// \file
/// predictWorkload() and explainWorkload().
#include "foresight/workload/run_workload.h"

#include "foresight/model/predict.h"

namespace foresight {

namespace {

/// A model's error without a file: the input's, on this GPU.
Error located(Error e, const std::string& path, const Gpu& gpu) {
  if (e.file.empty()) {
    e.message = "on GPU '" + gpu.name + "': " + e.message;
    e.file = path;
  }
  return e;
}

Expected<GpuPrediction> predictOnGpu(const std::string& path, const PredictOptions& o, const Gpu& gpu) {
  Expected<ModelOptions> model = resolveModelNames(o.model, inputKindOf(path), &gpu);
  if (!model) return std::move(model).takeError();
  WorkloadOptions wo = o.workload;
  wo.input.gpu = &gpu;
  wo.searchModel = *model;
  Expected<Workload> w = loadWorkload(path, wo);
  if (!w) return std::move(w).takeError();
  Expected<std::vector<KernelRun>> runs = workloadRuns(*w, wo.input.kernel);
  if (!runs) return std::move(runs).takeError();
  GpuPrediction out;
  out.gpu = &gpu;
  out.frontend = w->frontend;
  out.model = *model;
  out.program = !w->runs.empty();
  for (KernelRun& run : *runs) {
    const KernelInput& kernel = w->kernels[run.kernel];
    Expected<Prediction> p = predict(kernel, run.launch, gpu, *model);
    if (!p) return located(std::move(p).takeError(), path, gpu);
    if (w->layouts && !out.layouts) {  // a skeleton's one run: its winner, before the notes
      out.layouts = SkeletonLayoutsReport{std::move(w->layouts->skeleton), {std::move(w->layouts->search), *p}};
    }
    for (std::string& note : run.notes) p->warnings.push_back(std::move(note));
    out.kernels.push_back({kernel.ir.name, run.launch, run.launchesPerRun, std::move(*p)});
  }
  return out;
}

}  // namespace

Expected<WorkloadPrediction> predictWorkload(const std::string& path, const PredictOptions& options) {
  if (options.gpus.empty()) return makeError("predict needs at least one GPU");
  WorkloadPrediction out;
  out.path = path;
  for (const Gpu* gpu : options.gpus) {
    Expected<GpuPrediction> one = predictOnGpu(path, options, *gpu);
    if (!one) return std::move(one).takeError();
    out.gpus.push_back(std::move(*one));
  }
  return out;
}

Expected<WorkloadExplanation> explainWorkload(const std::string& path, const ExplainWorkloadOptions& options) {
  if (!options.gpu) return makeError("explain needs a GPU");
  const Gpu& gpu = *options.gpu;
  Expected<ExplainOptions> eo = explainOptions(options.model, inputKindOf(path), &gpu);
  if (!eo) return std::move(eo).takeError();
  eo->lines = options.lines;
  eo->placement = options.placement;
  WorkloadOptions wo = options.workload;
  wo.input.gpu = &gpu;
  wo.searchModel = eo->timing;  // a skeleton: the best layout by the time explain reports
  Expected<Workload> w = loadWorkload(path, wo);
  if (!w) return std::move(w).takeError();
  Expected<KernelRun> run = workloadRun(*w, wo.input.kernel);
  if (!run) return std::move(run).takeError();
  const KernelInput& kernel = w->kernels[run->kernel];
  if (inputKindOf(path) == InputKind::Cuda) {
    // A launch-shape fix is predicted on the kernel as the other launch runs it: the frontend
    // resolves a CUDA kernel's addresses per launch.
    eo->relaunch = [path, wo](const Launch& launch) -> Expected<KernelInput> {
      WorkloadOptions other = wo;
      other.input.progress = nullptr;
      other.launch.grid = launch.grid;
      other.launch.block = launch.block;
      if (other.input.launch) {
        other.input.launch->grid = launch.grid;
        other.input.launch->block = launch.block;
      }
      Expected<Workload> again = loadWorkload(path, other);
      if (!again) return std::move(again).takeError();
      Expected<KernelRun> one = workloadRun(*again, other.input.kernel);
      if (!one) return std::move(one).takeError();
      return std::move(again->kernels[one->kernel]);
    };
  }
  Expected<ExplainResult> r = explainKernel(kernel, run->launch, gpu, *eo);
  if (!r) return located(std::move(r).takeError(), path, gpu);
  for (std::string& note : run->notes) r->prediction.warnings.push_back(std::move(note));
  return WorkloadExplanation{path, w->frontend, kernel.ir.name, &gpu, run->launch, std::move(*r)};
}

}  // namespace foresight
