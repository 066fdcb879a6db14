// SPDX-License-Identifier: Apache-2.0
/// \file
/// Issue 18's speed targets: a warm prediction of a corpus kernel (goal: median <= 10 ms) and
/// explore's throughput once the variants are compiled (goal: >= 100 variants/s per core).
///
/// - BM_PredictCorpus/<experiment>: every launch of the experiment's first variant, as predict
///   does it with the compile cache warm (one untimed pass fills it): loadInput (the cached
///   PTX/SASS parsed, the warps interpreted) and predict() with the default model. Counters:
///   load_ms and predict_ms per iteration. Run with --benchmark_filter=PredictCorpus where nvcc
///   is installed.
/// - BM_ExploreThroughput/<threads>: explore() of the stored vecadd SASS over 6 block sizes x 4
///   problem sizes (24 variants, nothing to compile), on 1 thread and on every core;
///   items_per_second = variants per second.
#include <benchmark/benchmark.h>

#include <chrono>

#include "corpus_manifests.h"
#include "foresight/explore/explore.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/predict.h"
#include "foresight/validation/manifest.h"
#include "foresight/validation/validate.h"

namespace {

using namespace foresight;

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// Loads and predicts every launch of `e`; adds the phases' wall times. An error message or "".
std::string predictLaunches(const ResolvedExperiment& e, const Gpu& gpu, double& loadMs, double& predictMs) {
  for (const ResolvedLaunch& l : e.launches) {
    const InputOptions options = launchInputOptions(e, l, gpu);
    auto start = std::chrono::steady_clock::now();
    Expected<LoadedInput> input = loadInput(e.source, options);
    if (!input) return input.error().message;
    Expected<const KernelInput*> k = selectKernel(*input, l.kernel);
    if (!k) return k.error().message;
    loadMs += msSince(start);
    start = std::chrono::steady_clock::now();
    Expected<Prediction> p = predict(**k, l.launch, gpu, ModelOptions{});
    if (!p) return p.error().message;
    predictMs += msSince(start);
    benchmark::DoNotOptimize(p->seconds);
  }
  return {};
}

void predictExperiment(benchmark::State& state, const std::string& manifestPath) {
  const std::optional<ResolvedExperiment> e = bench::firstVariant(state, manifestPath);
  if (!e) return;
  const Gpu gpu = *loadPreset("h100");
  double load = 0, pred = 0;
  if (std::string err = predictLaunches(*e, gpu, load, pred); !err.empty()) {  // fills the compile cache
    state.SkipWithError(err.c_str());
    return;
  }
  for (auto _ : state) {
    load = pred = 0;
    if (std::string err = predictLaunches(*e, gpu, load, pred); !err.empty()) {
      state.SkipWithError(err.c_str());
      return;
    }
    state.counters["load_ms"] = load;
    state.counters["predict_ms"] = pred;
    // The speed target is per kernel: an experiment with several launches predicts each.
    state.counters["launches"] = static_cast<double>(e->launches.size());
    state.counters["ms_per_launch"] = (load + pred) / static_cast<double>(e->launches.size());
  }
}

const bool kCorpusRegistered = [] {
  for (const std::string& path : bench::corpusManifests()) {
    const std::string name = "BM_PredictCorpus/" + bench::corpusName(path);
    benchmark::RegisterBenchmark(name.c_str(), [path](benchmark::State& s) { predictExperiment(s, path); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
  }
  return true;
}();

void BM_ExploreThroughput(benchmark::State& state) {
  const Gpu gpu = *loadPreset("h100");
  ExploreOptions o;
  o.input = std::string(FORESIGHT_SOURCE_DIR) + "/tests/frontend/cuda/fixtures/vecadd.sm_90.sass";
  o.inputOptions.gpu = &gpu;
  if (!parseSpace("TX=32..1024:pow2,N=262144,1048576,4194304,16777216", o.space)) {
    state.SkipWithError("bad space");
    return;
  }
  o.launch.grid = {"cdiv(N, TX)"};
  o.launch.block = {"TX"};
  o.launch.args = {{"n", "N"}};
  o.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    Expected<ExploreResult> r = explore(o);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(r->predicted);
  }
  state.SetItemsProcessed(state.iterations() * o.space.size());
}
BENCHMARK(BM_ExploreThroughput)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
