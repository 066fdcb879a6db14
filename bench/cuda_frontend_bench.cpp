// SPDX-License-Identifier: Apache-2.0
/// \file
/// How fast the CUDA frontend analyses a kernel from stored fixtures (no tools run): parsing
/// PTX, cubin and SASS, and executing the sampled warps. The argument is the matrix size n of
/// the tiled and naive matmul, so the cost of the warp interpreter per loop trip shows.
#include <benchmark/benchmark.h>

#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/frontend/cuda/fixture_toolchain.h"
#include "foresight/ir/warp_stream.h"

namespace {

using namespace foresight;

void analyse(benchmark::State& state, const char* kernel) {
  auto tc = cuda::createFixtureToolchain({std::string(FORESIGHT_SOURCE_DIR) + "/tests/frontend/cuda/fixtures", true});
  cuda::CudaOptions o;
  o.arch = "sm_90";
  o.kernel = kernel;
  const long long n = state.range(0);
  o.launch.grid = {n / 16, n / 16, 1};
  o.launch.block = {16, 16, 1};
  o.launch.args["n"] = n;
  const std::string path = std::string(FORESIGHT_SOURCE_DIR) + "/tests/frontend/cuda/fixtures/matmul.cu";
  double interpreted = 0;  // warp instructions executed per analysis: PTX + SASS runs
  for (auto _ : state) {
    Expected<cuda::CudaProgram> p = cuda::loadCuda(path, o, *tc);
    if (!p) {
      state.SkipWithError(p.error().message.c_str());
      break;
    }
    const cuda::CudaKernel& k = p->kernels[0];
    interpreted = k.sampledWarps * (k.dynamicInstructionsPerWarp + k.sass->dynamicInstructionsPerWarp.value_or(0));
    benchmark::DoNotOptimize(p);
  }
  state.counters["warp_insts/s"] = benchmark::Counter(interpreted * static_cast<double>(state.iterations()),
                                                      benchmark::Counter::kIsRate);
}

/// One warp's KernelIR stream (SASS run with addresses, mapped onto the IR), as the emulate
/// model requests them.
void BM_CudaWarpStream(benchmark::State& state) {
  auto tc = cuda::createFixtureToolchain({std::string(FORESIGHT_SOURCE_DIR) + "/tests/frontend/cuda/fixtures", true});
  cuda::CudaOptions o;
  o.arch = "sm_90";
  o.kernel = "matmul_tiled";
  const long long n = state.range(0);
  o.launch.grid = {n / 16, n / 16, 1};
  o.launch.block = {16, 16, 1};
  o.launch.args["n"] = n;
  Expected<cuda::CudaProgram> p = cuda::loadCuda(std::string(FORESIGHT_SOURCE_DIR) + "/tests/frontend/cuda/fixtures/matmul.cu", o, *tc);
  if (!p) {
    state.SkipWithError(p.error().message.c_str());
    return;
  }
  size_t emitted = 0;
  for (auto _ : state) {
    Expected<std::vector<DynamicInstruction>> s = p->kernels[0].ir.streams->stream(1, 3);
    if (!s) {
      state.SkipWithError(s.error().message.c_str());
      break;
    }
    emitted += s->size();
    benchmark::DoNotOptimize(s);
  }
  state.counters["warp_insts/s"] = benchmark::Counter(static_cast<double>(emitted), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CudaWarpStream)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);

void BM_CudaMatmulTiled(benchmark::State& state) { analyse(state, "matmul_tiled"); }
BENCHMARK(BM_CudaMatmulTiled)->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

void BM_CudaMatmulNaive(benchmark::State& state) { analyse(state, "matmul_naive"); }
BENCHMARK(BM_CudaMatmulNaive)->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

}  // namespace
