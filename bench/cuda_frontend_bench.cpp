// SPDX-License-Identifier: Apache-2.0
/// \file
/// How fast the CUDA frontend analyses a kernel from stored fixtures (no tools run): parsing
/// PTX, cubin and SASS, and executing the sampled warps. The argument is the matrix size n of
/// the tiled and naive matmul, so the cost of the warp interpreter per loop trip shows.
#include <benchmark/benchmark.h>

#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/frontend/cuda/fixture_toolchain.h"

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
  for (auto _ : state) {
    Expected<cuda::CudaProgram> p = cuda::loadCuda(path, o, *tc);
    if (!p) state.SkipWithError(p.error().message.c_str());
    benchmark::DoNotOptimize(p);
  }
}

void BM_CudaMatmulTiled(benchmark::State& state) { analyse(state, "matmul_tiled"); }
BENCHMARK(BM_CudaMatmulTiled)->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

void BM_CudaMatmulNaive(benchmark::State& state) { analyse(state, "matmul_naive"); }
BENCHMARK(BM_CudaMatmulNaive)->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

}  // namespace
