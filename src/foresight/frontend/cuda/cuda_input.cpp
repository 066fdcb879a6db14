// SPDX-License-Identifier: Apache-2.0
/// \file
/// Glue between the generic input options and the CUDA frontend.
#include "foresight/frontend/cuda/cuda_input.h"

#include <filesystem>

#include "foresight/frontend/cuda/compile_cache.h"
#include "foresight/frontend/cuda/system_toolchain.h"

namespace foresight::cuda {

Expected<CudaOptions> toCudaOptions(const std::string& path, const InputOptions& in) {
  // A missing input is the first thing to say, before the options it would need.
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return makeError("cannot read file '" + path + "'");
  if (!in.gpu) return makeError("CUDA inputs need a target GPU (--gpu)", path, 0);
  Expected<std::string> arch = archForGpu(*in.gpu);
  if (!arch) {
    Error e = std::move(arch).takeError();
    e.file = path;
    return e;
  }
  if (!in.launch) return makeError("CUDA inputs need a launch; pass --grid and --block", path, 0);
  CudaOptions o;
  o.arch = *arch;
  o.launch = *in.launch;
  o.kernel = in.kernel;
  o.macros = in.macros;
  o.includeDirs = in.includeDirs;
  o.nvccFlags = in.nvccFlags;
  o.progress = in.progress;
  o.registerBanks = in.gpu->registerBanks;
  for (const SourceHint& h : in.trips) {
    if (h.value < 0) return makeError("--trip " + h.file + ":" + std::to_string(h.line) + " must be >= 0");
    o.trips.push_back({h.file, h.line, static_cast<long long>(h.value)});
  }
  for (const SourceHint& h : in.branches) {
    if (h.value < 0 || h.value > 1) return makeError("--branch " + h.file + ":" + std::to_string(h.line) + " must be a probability in [0, 1]");
    o.branches.push_back({h.file, h.line, h.value});
  }
  return o;
}

Expected<LoadedInput> loadCudaInput(const std::string& path, const InputOptions& options, CudaProgram* program) {
  Expected<CudaOptions> o = toCudaOptions(path, options);
  if (!o) return std::move(o).takeError();
  std::unique_ptr<Toolchain> owned;
  Toolchain* tc = options.toolchain;
  if (!tc) {
    SystemToolchainOptions system;
    system.toolTimeoutSeconds = options.toolTimeoutSeconds;
    system.progress = options.progress;
    owned = createCachingToolchain(createSystemToolchain(system));
    tc = owned.get();
  }
  Expected<CudaProgram> p = loadCuda(path, *o, *tc);
  if (!p) return std::move(p).takeError();
  LoadedInput out;
  out.path = path;
  out.frontend = "cuda";
  out.launch = o->launch;
  if (standInArch(*options.gpu)) {
    out.notes.push_back("GPU '" + options.gpu->name + "' (compute capability " + options.gpu->computeCapability() +
                        ") is older than the toolchain's targets: the kernel was compiled for " + kStandInArch +
                        ", whose instructions stand in for the GPU's own");
  }
  for (CudaKernel& k : p->kernels) {
    for (const std::string& n : k.notes) out.notes.push_back(k.name + ": " + n);
    KernelInput ki;
    ki.ir = k.ir;
    if (k.mangled != k.name) ki.symbol = k.mangled;
    out.kernels.push_back(std::move(ki));
  }
  if (program) *program = std::move(*p);
  return out;
}

}  // namespace foresight::cuda
