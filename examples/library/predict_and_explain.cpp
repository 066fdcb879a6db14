// SPDX-License-Identifier: Apache-2.0
// A program that uses Foresight as a library (docs/library.md): for one input file it predicts
// the kernel's launch on each GPU given, with the default model, then explains it on the first.
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
  const foresight::InputKind kind = foresight::inputKindOf(path);
  for (size_t g = 0; g < gpuNames.size(); ++g) {
    // A preset name or a GPU description file.
    foresight::Expected<foresight::Gpu> gpu = foresight::resolveGpu(gpuNames[g]);
    if (!gpu) return fail(gpu.error());
    // The frontend the extension selects; CUDA sources are compiled for this GPU, a skeleton is
    // its best layout on it.
    foresight::WorkloadOptions wo;
    wo.input.gpu = &*gpu;
    wo.input.kernel = kernelName;
    foresight::Expected<foresight::LoadedInput> input = foresight::loadWorkload(path, wo);
    if (!input) return fail(input.error());
    foresight::Expected<const foresight::KernelInput*> kernel = foresight::selectKernel(*input, kernelName);
    if (!kernel) return fail(kernel.error());
    if (!input->launch) {
      std::fprintf(stderr, "error: %s gives no launch (set WorkloadOptions::input.launch)\n", path.c_str());
      return 1;
    }
    // `--model auto`: the default model for this kind of input on this GPU.
    foresight::Expected<foresight::ModelOptions> model =
        foresight::resolveModelNames(foresight::ModelNames{}, kind, &*gpu);
    if (!model) return fail(model.error());
    foresight::Expected<foresight::Prediction> p = foresight::predict(**kernel, *input->launch, *gpu, *model);
    if (!p) return fail(p.error());
    std::printf("%s on %s: %.6g us, %s-bound (%s), model %s\n", (*kernel)->ir.name.c_str(), gpu->name.c_str(),
                p->seconds * 1e6, foresight::resourceName(p->bound.resource),
                foresight::boundModeName(p->bound.mode), foresight::modelName(*model).c_str());
    if (g != 0) continue;
    // The bottleneck analysis of `foresight explain`, on the first GPU.
    foresight::Expected<foresight::ExplainOptions> eo =
        foresight::explainOptions(foresight::ModelNames{}, kind, &*gpu);
    if (!eo) return fail(eo.error());
    foresight::Expected<foresight::ExplainResult> r = foresight::explainKernel(**kernel, *input->launch, *gpu, *eo);
    if (!r) return fail(r.error());
    std::printf("  explain: same time %.6g us; bottleneck %s (%s)\n", r->prediction.seconds * 1e6,
                foresight::resourceName(r->sensitivity.bound.resource),
                foresight::boundModeName(r->sensitivity.bound.mode));
  }
  return 0;
}
