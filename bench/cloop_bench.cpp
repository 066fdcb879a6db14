// SPDX-License-Identifier: Apache-2.0
/// \file
/// Speed of the C loop frontend: tracing and predicting a 1024^3 GEMM (examples/cloop/gemm.c) on
/// the Jetson TK1, end to end — three clang compiles, three instrumented runs (N = 128, 64, 32),
/// warp formation, the cache analyzer, fits, advice and the CGPredict prediction.
/// Target: seconds (the paper: 1-5 minutes per benchmark).
/// Run: build/bin/foresight_bench --benchmark_filter=Cloop
#include <benchmark/benchmark.h>

#include <string>

#include "foresight/advise/cloop_advice.h"
#include "foresight/frontend/cloop/program.h"
#include "foresight/gpu/presets.h"

namespace {

using namespace foresight;

void BM_CloopGemm1024(benchmark::State& state) {
  if (!cloop::cloopAvailable()) {
    state.SkipWithError("built without LLVM 14");
    return;
  }
  Expected<Gpu> gpu = loadPreset("tk1");
  if (!gpu) {
    state.SkipWithError("no tk1 preset");
    return;
  }
  InputOptions in;
  in.gpu = &*gpu;
  ModelOptions mo;
  mo.variant = MwpCwpVariant::CGPredict;
  for (auto _ : state) {
    Expected<cloop::CloopProgram> p =
        cloop::analyzeCloopWithAdvice(std::string(FORESIGHT_SOURCE_DIR) + "/examples/cloop/gemm.c", in);
    if (!p) {
      state.SkipWithError(p.error().message.c_str());
      return;
    }
    Expected<double> seconds = cloop::predictProgramSeconds(*p, *gpu, mo);
    benchmark::DoNotOptimize(seconds.ok() ? *seconds : 0.0);
  }
}
BENCHMARK(BM_CloopGemm1024)->Unit(benchmark::kSecond)->Iterations(3);

}  // namespace
