// SPDX-License-Identifier: Apache-2.0
/// \file
/// Speed of the emulate model: emulated warp instructions per second of one SM run (the
/// sensitivity analysis reruns it 2R+1 times), the lowering, and a whole prediction.
#include <benchmark/benchmark.h>

#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/emulate/emulate_model.h"
#include "foresight/model/predict.h"

namespace {

using namespace foresight;

/// The tiled matmul summary on an H100, and the SASS fixture of the same kernel.
struct Inputs {
  LoadedInput summary = *loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/matmul-fx5600.toml");
  Gpu gpu = *loadPreset("h100");
};

void BM_EmulateRun(benchmark::State& state) {
  Inputs in;
  EmulateOptions o;
  o.maxOpsPerRun = state.range(0);
  const emu::KernelEmulation e = *emu::KernelEmulation::create(in.summary.kernels[0], *in.summary.launch, in.gpu, o);
  long long ops = 0;
  for (auto _ : state) {
    Expected<emu::KernelTiming> t = e.run();
    ops += t->issued;
    benchmark::DoNotOptimize(t);
  }
  // Warp instructions emulated per second.
  state.counters["warp_insts/s"] = benchmark::Counter(static_cast<double>(ops), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EmulateRun)->Arg(12000)->Arg(48000)->Unit(benchmark::kMillisecond);

void BM_EmulateLowering(benchmark::State& state) {
  Inputs in;
  for (auto _ : state) {
    benchmark::DoNotOptimize(emu::KernelEmulation::create(in.summary.kernels[0], *in.summary.launch, in.gpu, {}));
  }
}
BENCHMARK(BM_EmulateLowering)->Unit(benchmark::kMillisecond);

void BM_PredictEmulate(benchmark::State& state) {
  Inputs in;
  ModelOptions o;
  o.model = ModelKind::Emulate;
  for (auto _ : state) {
    benchmark::DoNotOptimize(predict(in.summary.kernels[0], *in.summary.launch, in.gpu, o));
  }
}
BENCHMARK(BM_PredictEmulate)->Unit(benchmark::kMillisecond);

}  // namespace
