// SPDX-License-Identifier: Apache-2.0
/// \file
/// How fast the library answers: loading a GPU preset, the occupancy calculator, and one
/// MWP-CWP prediction (the autotuner's inner loop).
#include <benchmark/benchmark.h>

#include "foresight/gpu/occupancy.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/predict.h"

namespace {

using namespace foresight;

KernelInput tiledMatmul() {
  KernelInput k;
  k.ir.name = "matmul_tiled";
  k.ir.resources.staticSharedBytes = 2048;
  WorkloadSummary w;
  w.compInsts = 2281;
  w.synchInsts = 50;
  w.mem(AccessClass::Coalesced).insts = 51;
  k.summary = w;
  return k;
}

void BM_LoadPreset(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(loadPreset("fx5600"));
}
BENCHMARK(BM_LoadPreset);

void BM_Occupancy(benchmark::State& state) {
  const Gpu gpu = *loadPreset("fx5600");
  for (auto _ : state) {
    benchmark::DoNotOptimize(computeOccupancy(gpu, {256, 10, 2048, std::nullopt}));
  }
}
BENCHMARK(BM_Occupancy);

void BM_PredictMwpCwp(benchmark::State& state) {
  const Gpu gpu = *loadPreset("fx5600");
  const KernelInput kernel = tiledMatmul();
  Launch launch;
  launch.grid = {50, 50, 1};
  launch.block = {16, 16, 1};
  for (auto _ : state) benchmark::DoNotOptimize(predict(kernel, launch, gpu, ModelOptions{}));
}
BENCHMARK(BM_PredictMwpCwp);

}  // namespace
