// SPDX-License-Identifier: Apache-2.0
// A program that uses Foresight as a library (docs/library.md): for one input file it predicts
// its launches on each GPU given, with the default model, then explains it on the first —
// `foresight predict` and `foresight explain` as library calls.
//
//   predict_and_explain FILE GPU [GPU...] [--kernel NAME]
//   predict_and_explain matmul-fx5600.toml fx5600 gtx280
//
// Built against the installed package (examples/library/CMakeLists.txt); CTest builds and runs it
// (tests/library/CMakeLists.txt).
#include <cstdio>
#include <string>
#include <vector>

#include <foresight/foresight.h>

namespace {

int fail(const foresight::Error& e) {
  std::fprintf(stderr, "error: %s\n", e.format().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path, kernelName;
  std::vector<std::string> gpuNames;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--kernel" && i + 1 < argc) {
      kernelName = argv[++i];
    } else if (path.empty()) {
      path = a;
    } else {
      gpuNames.push_back(a);
    }
  }
  if (path.empty() || gpuNames.empty()) {
    std::fprintf(stderr, "usage: %s FILE GPU [GPU...] [--kernel NAME]\n", argv[0]);
    return 2;
  }
  // Every GPU, kept alive while the results point at them (a preset name or a description file).
  std::vector<foresight::Gpu> gpus;
  for (const std::string& name : gpuNames) {
    foresight::Expected<foresight::Gpu> gpu = foresight::resolveGpu(name);
    if (!gpu) return fail(gpu.error());
    gpus.push_back(std::move(*gpu));
  }
  // `foresight predict FILE --gpu A,B`: the input loaded for each GPU (CUDA sources compiled for
  // it, a skeleton's best layout on it, every kernel of a C program), with the default model.
  foresight::PredictOptions po;
  for (const foresight::Gpu& gpu : gpus) po.gpus.push_back(&gpu);
  po.workload.input.kernel = kernelName;
  foresight::Expected<foresight::WorkloadPrediction> predicted = foresight::predictWorkload(path, po);
  if (!predicted) return fail(predicted.error());
  for (const foresight::GpuPrediction& g : predicted->gpus) {
    for (const foresight::KernelPrediction& k : g.kernels) {
      const foresight::Prediction& p = k.prediction;
      std::printf("%s on %s: %.6g us, %s-bound (%s), model %s\n", k.kernel.c_str(), g.gpu->name.c_str(),
                  p.seconds * 1e6, foresight::resourceName(p.bound.resource), foresight::boundModeName(p.bound.mode),
                  foresight::modelName(g.model).c_str());
    }
  }
  // `foresight explain`: the bottleneck analysis on the first GPU.
  foresight::ExplainWorkloadOptions eo;
  eo.gpu = &gpus.front();
  eo.workload = po.workload;
  foresight::Expected<foresight::WorkloadExplanation> r = foresight::explainWorkload(path, eo);
  if (!r) return fail(r.error());
  std::printf("  explain: same time %.6g us; bottleneck %s (%s)\n", r->result.prediction.seconds * 1e6,
              foresight::resourceName(r->result.sensitivity.bound.resource),
              foresight::boundModeName(r->result.sensitivity.bound.mode));
  return 0;
}
