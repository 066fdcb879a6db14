// SPDX-License-Identifier: Apache-2.0
/// \file
/// Speed of the GROPHECY layout search: layouts characterized and predicted per second on one
/// core, for the paper's four workloads (examples/skeleton). Target: ≥ 100,000 layouts/s.
/// Run: build/bin/foresight_bench --benchmark_filter=Skeleton
#include <benchmark/benchmark.h>

#include <string>

#include "foresight/advise/layout_search.h"
#include "foresight/frontend/skeleton/skeleton_frontend.h"
#include "foresight/gpu/presets.h"

namespace {

using namespace foresight;

void searchExample(benchmark::State& state, const char* file, const char* gpuName) {
  Expected<skeleton::Skeleton> sk =
      skeleton::loadSkeletonFile(std::string(FORESIGHT_SOURCE_DIR) + "/examples/skeleton/" + file);
  Expected<Gpu> gpu = loadPreset(gpuName);
  if (!sk || !gpu) {
    state.SkipWithError("cannot load the example or the GPU");
    return;
  }
  long long layouts = 0;
  for (auto _ : state) {
    Expected<skeleton::SearchResult> r = skeleton::searchLayouts(*sk, *gpu, {});
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    layouts += r->enumerated;
    benchmark::DoNotOptimize(r->layouts.front().seconds);
  }
  state.counters["layouts/s"] =
      benchmark::Counter(static_cast<double>(layouts), benchmark::Counter::kIsRate);
  state.counters["layouts"] =
      benchmark::Counter(static_cast<double>(layouts) / static_cast<double>(state.iterations()));
}

void BM_SkeletonSearchMatmul(benchmark::State& s) {
  searchExample(s, "matmul.sk", "fx5600");
}
void BM_SkeletonSearchHotSpot(benchmark::State& s) {
  searchExample(s, "hotspot.sk", "c1060");
}
void BM_SkeletonSearchIspinEx(benchmark::State& s) {
  searchExample(s, "ispinex-split.sk", "fx5600");
}
void BM_SkeletonSearchSpinFlap(benchmark::State& s) {
  searchExample(s, "spinflap.sk", "c1060");
}
BENCHMARK(BM_SkeletonSearchMatmul)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SkeletonSearchHotSpot)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SkeletonSearchIspinEx)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SkeletonSearchSpinFlap)->Unit(benchmark::kMillisecond);

}  // namespace
