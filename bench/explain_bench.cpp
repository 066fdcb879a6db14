// SPDX-License-Identifier: Apache-2.0
/// \file
/// Speed of `explain` (issue 11): the frontend's warp runs and everything explainKernel() does
/// (the emulation with its sensitivity and what-if re-runs, the timing model's own analyses,
/// roofline, occupancy curve and fixes), as tools/foresight/commands/explain.cpp runs them.
///
/// - BM_ExplainTripCount/n: `explain` of matmul_naive from the stored sm_90 PTX
///   (tests/frontend/cuda/fixtures/matmul.sm_90.ptx) with one 16x16 block and n = 256 … 2560000:
///   the k loop's trip count. The k loop folds (the interpretation is flat in n); the memory
///   engine analyses whole streams up to 32K instructions per warp (n ≈ 4600) and a systematic
///   sample beyond, so the time grows up to there and is flat from 25600 on (1x, 10x, 100x).
/// - BM_ExplainOuterTripCount/s: `explain` of the correlation example (a triangular j2 loop
///   around an inner i loop, tests/frontend/cuda/fixtures/correlation.sm_90.ptx) with one block
///   of 128 threads, m = 256·s rows and n = 256·s columns for s = 1, 10, 100: both loops'
///   trip counts at 1x, 10x, 100x (the outer loop folds over the folded inner one). The kernel
///   indexes with 32-bit ints, so m·n must stay below 2^31 (s = 100 at 1024·s would overflow
///   i * n, and the folds rightly stop at every wrap of the index).
/// - BM_ExplainCorpus/<experiment>: every launch of each corpus experiment (validation/**.toml,
///   first variant) on an H100, explained as `foresight explain` does it (explainWorkload(),
///   without the process start and the printing) through the system toolchain, the compile
///   cache warm (one untimed pass fills it). Counter ms_per_launch: issue 11's target is the
///   median kernel at <= 100 ms. Run with --benchmark_filter=Corpus where nvcc is installed.
#include <benchmark/benchmark.h>

#include <chrono>

#include "foresight/advise/explain.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/support/heap.h"
#include "foresight/validation/manifest.h"
#include "foresight/validation/validate.h"
#include "foresight/workload/run_workload.h"
#include "corpus_manifests.h"

namespace {

using namespace foresight;

/// The heap as the CLI's main() sets it up (support/heap.h), before any benchmark runs.
[[maybe_unused]] const bool kHeapTuned = (tuneHeapForAnalysis(), true);

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// What `explain` computes for one launch of a loaded kernel (explainKernel(), with the options
/// `foresight explain` resolves for the input's kind by default); errors as a message.
std::string explainOnce(const KernelInput& kernel, const Launch& launch, const Gpu& gpu, InputKind kind) {
  Expected<ExplainOptions> o = explainOptions(ModelNames{}, kind, &gpu);
  if (!o) return o.error().message;
  Expected<ExplainResult> r = explainKernel(kernel, launch, gpu, *o);
  if (!r) return r.error().message;
  benchmark::DoNotOptimize(r->prediction.seconds);
  return {};
}

/// Loads one stored PTX fixture with `launch` and runs explainOnce() per iteration.
void explainFixture(benchmark::State& state, const std::string& fixture, const std::string& kernel, const Launch& launch,
                    const Gpu& gpu) {
  InputOptions options;
  options.gpu = &gpu;
  options.launch = launch;
  options.kernel = kernel;
  const std::string path = std::string(FORESIGHT_SOURCE_DIR) + "/tests/frontend/cuda/fixtures/" + fixture;
  for (auto _ : state) {
    Expected<LoadedInput> input = loadInput(path, options);
    if (!input) {
      state.SkipWithError(input.error().message.c_str());
      break;
    }
    Expected<const KernelInput*> k = selectKernel(*input, kernel);
    if (!k) {
      state.SkipWithError(k.error().message.c_str());
      break;
    }
    if (std::string err = explainOnce(**k, launch, gpu, inputKindOf(path)); !err.empty()) {
      state.SkipWithError(err.c_str());
      break;
    }
  }
}

void BM_ExplainTripCount(benchmark::State& state) {
  const Gpu gpu = *loadPreset("h100");
  Launch launch;
  launch.grid = {1, 1, 1};
  launch.block = {16, 16, 1};
  launch.args["n"] = state.range(0);
  explainFixture(state, "matmul.sm_90.ptx", "matmul_naive", launch, gpu);
}
BENCHMARK(BM_ExplainTripCount)->Arg(256)->Arg(2560)->Arg(25600)->Arg(256000)->Arg(2560000)->Unit(benchmark::kMillisecond);

void BM_ExplainOuterTripCount(benchmark::State& state) {
  const Gpu gpu = *loadPreset("h100");
  Launch launch;
  launch.grid = {1, 1, 1};
  launch.block = {128, 1, 1};
  launch.args["m"] = 256 * state.range(0);
  launch.args["n"] = 256 * state.range(0);
  explainFixture(state, "correlation.sm_90.ptx", "correlation", launch, gpu);
}
BENCHMARK(BM_ExplainOuterTripCount)->Arg(1)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond);

/// Explains every launch of `e` as `foresight explain` does (explainWorkload(): the input loaded
/// from the compile cache, the emulation, its sensitivity and what-ifs, the timing model's own,
/// the roofline, the occupancy curve and the fixes); adds the wall time. An error message or "".
std::string explainLaunches(const ResolvedExperiment& e, const Gpu& gpu, double& ms) {
  for (const ResolvedLaunch& l : e.launches) {
    ExplainWorkloadOptions o;
    o.gpu = &gpu;
    o.workload.input = launchInputOptions(e, l, gpu);
    const auto start = std::chrono::steady_clock::now();
    Expected<WorkloadExplanation> x = explainWorkload(e.source, o);
    if (!x) return x.error().message;
    ms += msSince(start);
    benchmark::DoNotOptimize(x->result.prediction.seconds);
  }
  return {};
}

/// One corpus experiment: every launch of its first variant.
void explainExperiment(benchmark::State& state, const std::string& manifestPath) {
  const std::optional<ResolvedExperiment> e = bench::firstVariant(state, manifestPath);
  if (!e) return;
  const Gpu gpu = *loadPreset("h100");
  double ms = 0;
  if (std::string err = explainLaunches(*e, gpu, ms); !err.empty()) {  // fills the compile cache
    state.SkipWithError(err.c_str());
    return;
  }
  for (auto _ : state) {
    ms = 0;
    if (std::string err = explainLaunches(*e, gpu, ms); !err.empty()) {
      state.SkipWithError(err.c_str());
      return;
    }
    // The speed target is per kernel: an experiment with several launches explains each.
    state.counters["launches"] = static_cast<double>(e->launches.size());
    state.counters["ms_per_launch"] = ms / static_cast<double>(e->launches.size());
  }
}

/// Registers BM_ExplainCorpus/<experiment> for every manifest of the corpus.
const bool kCorpusRegistered = [] {
  for (const std::string& path : bench::corpusManifests()) {
    const std::string name = "BM_ExplainCorpus/" + bench::corpusName(path);
    benchmark::RegisterBenchmark(name.c_str(), [path](benchmark::State& s) { explainExperiment(s, path); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  }
  return true;
}();

}  // namespace
