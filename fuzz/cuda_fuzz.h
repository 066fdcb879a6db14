// SPDX-License-Identifier: Apache-2.0
/// \file
/// The PTX and SASS targets run the whole CUDA frontend (cuda_frontend.h) on in-memory files:
/// the fuzzed text is one of them, fixtures are the others, and every kernel parameter gets a
/// value so that the interpreters run.
#pragma once

#include <map>
#include <string>

#include "foresight/frontend/cuda/cuda_frontend.h"

namespace foresight::fuzz {

/// A Toolchain over a map of file name → contents; it cannot compile, assemble or disassemble.
class MemoryToolchain : public cuda::Toolchain {
 public:
  explicit MemoryToolchain(std::map<std::string, std::string> files) : files_(std::move(files)) {}
  Expected<std::string> readFile(const std::string& path) override {
    auto it = files_.find(path);
    if (it == files_.end()) return makeError("no such file", path, 0);
    return it->second;
  }
  Expected<std::string> compileToPtx(const cuda::CompileRequest&) override { return makeError("no nvcc"); }
  Expected<std::string> compileToCubin(const cuda::CompileRequest&) override { return makeError("no nvcc"); }
  Expected<std::string> assemble(const std::string&, const std::string&, const std::string&) override {
    return makeError("no ptxas");
  }
  Expected<std::string> disassemble(const std::string&, const std::string&, const std::string&) override {
    return makeError("no nvdisasm");
  }
  bool canDisassemble(const std::string&) const override { return false; }
  cuda::ToolchainDescription describe() const override { return {"", "", "", "memory"}; }

 private:
  std::map<std::string, std::string> files_;
};

/// Options that make any kernel of `ptx` runnable: a 2 × 64-thread launch, pointers at synthetic
/// bases (the frontend's default), every scalar parameter 64, two sampled warps and a small
/// instruction budget so that a mutated loop cannot run for long.
inline cuda::CudaOptions runnableOptions(const cuda::PtxModule& ptx, const std::string& kernel) {
  cuda::CudaOptions o;
  o.arch = "sm_90";
  o.kernel = kernel;
  o.launch.grid = {2, 1, 1};
  o.launch.block = {64, 1, 1};
  o.maxSampledWarps = 2;
  o.sampleInstructionBudget = 20'000;
  o.maxInstructionsPerWarp = 200'000;
  for (const cuda::PtxKernel& k : ptx.kernels) {
    if (k.name != kernel) continue;
    for (size_t i = 0; i < k.params.size(); ++i) {
      const cuda::PtxParam& p = k.params[i];
      if (p.bytes == 4 || p.bytes == 2 || (p.bytes == 1 && p.type != "b8")) o.launch.args["param_" + std::to_string(i)] = 64;
    }
  }
  return o;
}

}  // namespace foresight::fuzz
