// SPDX-License-Identifier: Apache-2.0
/// \file
/// The memory engine's reuse analysis on its own: analyzeReuse() of a stream as large as a
/// view's sample (2^17 sector accesses), shaped like a stencil's: sectors swept in order, each
/// touched again by the next rows a few thousand accesses later, plus a small table every warp
/// reads. Arguments: the sampled clusters (1: every unit weighs 1; 8 of 64: the units touched
/// by one or two clusters weigh differently) and the fetch grouping (1: sectors only; 2: the
/// sector and the 64-byte-fetch analyses, as on H100/H200).
#include <benchmark/benchmark.h>

#include <vector>

#include "foresight/memory/reuse_distance.h"

namespace {

using namespace foresight;

std::vector<SampledAccess> stencilStream(int clusters) {
  constexpr long long kAccesses = 1 << 17;
  constexpr long long kRow = 2048;  // sectors per row
  std::vector<SampledAccess> s;
  s.reserve(kAccesses);
  unsigned long long x = 42;
  for (long long i = 0; s.size() < kAccesses; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const long long sector = i / 3;  // each sector read by three rows of the stencil
    SampledAccess a;
    a.unit = (i % 3 == 0 ? sector : i % 3 == 1 ? sector - kRow : sector - 2 * kRow);
    if ((x >> 40) % 16 == 0) a.unit = -1 - static_cast<long long>((x >> 20) % 64);  // the table
    // A cluster owns a stretch of rows; neighbouring stretches share their edge rows.
    a.cluster = static_cast<int>((sector / (4 * kRow)) % clusters);
    a.warp = static_cast<int>(i / 64);
    a.store = (x >> 50) % 8 == 0;
    s.push_back(a);
  }
  return s;
}

void BM_AnalyzeReuse(benchmark::State& state) {
  const int clusters = static_cast<int>(state.range(0));
  const long long group = state.range(1);
  const std::vector<SampledAccess> stream = stencilStream(clusters);
  const SamplePopulation population{static_cast<double>(clusters), clusters > 1 ? 64.0 : 1.0};
  const double capacity = 6000;
  for (auto _ : state) {
    if (group > 1) {
      auto both = analyzeReuseGrouped(stream, population, capacity, group);
      benchmark::DoNotOptimize(both.first.distinctUnits);
    } else {
      ReuseResult r = analyzeReuse(stream, population, capacity);
      benchmark::DoNotOptimize(r.distinctUnits);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(stream.size()));
}
BENCHMARK(BM_AnalyzeReuse)->Args({1, 1})->Args({1, 2})->Args({8, 1})->Args({8, 2})->Unit(benchmark::kMillisecond);

}  // namespace
