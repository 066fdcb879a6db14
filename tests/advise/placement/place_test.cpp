// SPDX-License-Identifier: Apache-2.0
// `placeKernel` end to end on the examples of examples/place, analysed from stored sm_75/sm_90
// fixtures (scripts/update_cuda_fixtures.sh examples/place tests/examples/fixtures/place sm_75
// sm_90), on the K20c PORPLE evaluated and on an H100.
#include "foresight/advise/placement/place.h"

#include <gtest/gtest.h>

#include <map>

#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/frontend/cuda/fixture_toolchain.h"
#include "foresight/model/default_model.h"
#include "test_support.h"

namespace foresight {
namespace {

using testing_support::preset;
using testing_support::replaced;

const std::string kFixtures = std::string(FORESIGHT_SOURCE_DIR) + "/tests/examples/fixtures/place";
const std::string kExamples = std::string(FORESIGHT_SOURCE_DIR) + "/examples/place";

struct Case {
  std::string file;
  Dim3 grid;
  Dim3 block;
  std::map<std::string, ArgValue> args;
  std::map<std::string, long long> arrays;
  std::map<std::string, double> trips;  ///< "file.cu:LINE" → trip count
};

Expected<PlaceResult> place(const Case& c, const std::string& gpuName, SearchMethod method = SearchMethod::Hybrid,
                            bool earlyStop = false, const std::string& fixtures = kFixtures,
                            const std::string& sources = kExamples) {
  const Gpu gpu = preset(gpuName);
  auto tc = cuda::createFixtureToolchain({fixtures, true});
  cuda::CudaOptions o;
  Expected<std::string> arch = cuda::archForGpu(gpu);
  if (!arch) return std::move(arch).takeError();
  o.arch = *arch;
  o.launch.grid = c.grid;
  o.launch.block = c.block;
  o.launch.args = c.args;
  o.launch.arrayBytes = c.arrays;
  for (const auto& [where, n] : c.trips) {
    const size_t colon = where.find(':');
    o.trips.push_back({where.substr(0, colon), std::stoi(where.substr(colon + 1)), static_cast<long long>(n)});
  }
  Expected<cuda::CudaProgram> prog = cuda::loadCuda(sources + "/" + c.file, o, *tc);
  if (!prog) return std::move(prog).takeError();
  EXPECT_EQ(prog->kernels.size(), 1u);
  PlaceOptions po;
  po.search.method = method;
  po.profile.earlyStop = earlyStop;
  po.timing = resolveDefaultModel({}, InputKind::Cuda, &gpu);
  KernelInput input;
  input.ir = prog->kernels[0].ir;
  return placeKernel(input, o.launch, gpu, po);
}

/// The chosen plan as array name → placement.
std::map<std::string, Placement> chosen(const PlaceResult& r) {
  std::map<std::string, Placement> m;
  for (size_t a = 0; a < r.search.plan.size(); ++a) m[r.profile.arrays[a].name] = r.search.plan[a];
  return m;
}

/// The arrays' names of a result, in profile order.
std::vector<std::string> names(const PlaceResult& r) {
  std::vector<std::string> out;
  for (const ProfiledArray& a : r.profile.arrays) out.push_back(a.name);
  return out;
}

const ProfiledArray& array(const PlaceResult& r, const std::string& name) {
  for (const ProfiledArray& a : r.profile.arrays) {
    if (a.name == name) return a;
  }
  ADD_FAILURE() << "no array " << name;
  return r.profile.arrays.front();
}

/// The placements the model offers an array (those without a reason not to).
std::vector<Placement> offered(const PlaceResult& r, const std::string& name) {
  std::vector<Placement> out;
  for (size_t a = 0; a < r.profile.arrays.size(); ++a) {
    if (r.profile.arrays[a].name != name) continue;
    for (int p = 0; p < kNumPlacements; ++p) {
      if (r.whyNot[a][static_cast<size_t>(p)].empty()) out.push_back(static_cast<Placement>(p));
    }
  }
  return out;
}

const Case kTranspose{"transpose.cu", {64, 64, 1}, {16, 16, 1}, {{"width", 1024}, {"height", 1024}}, {}, {}};
const Case kParticleFilter{"particle_filter.cu", {16, 1, 1}, {128, 1, 1}, {{"n", 2048}}, {}, {}};
const Case kStencil{"stencil_coef.cu", {256, 1, 1}, {256, 1, 1}, {{"n", 65536}}, {{"coef", 36}}, {}};
const Case kSpmvVector{"spmv_vector.cu", {512, 1, 1}, {128, 1, 1}, {{"rows", 2048}},
                       {{"vec", 8192}, {"rowDelimiters", 8196}}, {{"spmv_vector.cu:15", 2}}};
const Case kSixteen{"sixteen_arrays.cu", {128, 1, 1}, {128, 1, 1}, {{"numElem", 16384}, {"numNode", 20000}},
                    {{"x", 80000}, {"y", 80000}, {"z", 80000}, {"xd", 80000}, {"yd", 80000}, {"zd", 80000},
                     {"fx", 80000}, {"fy", 80000}},
                    {}};

TEST(Place, TransposeReadsThroughTheReadOnlyPathOnK20c) {
  Expected<PlaceResult> r = place(kTranspose, "k20c");
  ASSERT_TRUE(r) << r.error().format();
  EXPECT_EQ(names(*r), (std::vector<std::string>{"in", "out"}));
  // out is written down columns: the byte range one block writes spans 15 rows of 4 KiB, too
  // large a tile to stage in shared memory without lowering occupancy; so is in's. in is
  // read-only but 4 MiB: too large for constant memory (64 KiB); no persisting L2 on a K20c.
  EXPECT_EQ(offered(*r, "out"), std::vector<Placement>{Placement::Global});
  EXPECT_EQ(offered(*r, "in"), (std::vector<Placement>{Placement::Global, Placement::ReadOnly, Placement::Texture}));
  // A 16×16 block reads 16 rows of 64 B: 32-B sectors through the 48 KB read-only cache (whose
  // 128-B lines the next row's block shares) beat the uncached global path.
  const std::map<std::string, Placement> c = chosen(*r);
  EXPECT_TRUE(c.at("in") == Placement::ReadOnly || c.at("in") == Placement::Texture) << placementName(c.at("in"));
  EXPECT_EQ(c.at("out"), Placement::Global);
  ASSERT_GE(r->plans.size(), 2u);
  EXPECT_EQ(r->plans[0].label, "chosen");
  EXPECT_EQ(r->plans[1].label, "original");
  EXPECT_LT(r->plans[0].modelCost, r->plans[1].modelCost);
  EXPECT_TRUE(r->search.optimal);
  // The original plan's time is the timing model's prediction of the kernel as written.
  ASSERT_TRUE(r->plans[1].seconds.has_value());
  EXPECT_DOUBLE_EQ(*r->plans[1].seconds, r->original.seconds);
}

TEST(Place, ParticleFilterProfilesEveryArrayAndKnowsWhatItCannotSize) {
  Expected<PlaceResult> r = place(kParticleFilter, "k20c");
  ASSERT_TRUE(r) << r.error().format();
  EXPECT_EQ(names(*r), (std::vector<std::string>{"CDF", "u", "arrayX", "arrayY", "xj", "yj"}));
  // Every lane of a warp reads the same CDF entry: PORPLE's case for constant memory.
  EXPECT_TRUE(array(*r, "CDF").traits.warpUniform);
  EXPECT_FALSE(array(*r, "u").traits.warpUniform);
  EXPECT_EQ(array(*r, "CDF").bytes, 2048 * 4);
  // arrayX[index] with a data-dependent index and no --array size: only G and R are safe.
  EXPECT_TRUE(array(*r, "arrayX").dataDependent);
  EXPECT_FALSE(array(*r, "arrayX").sizeKnown);
  EXPECT_EQ(offered(*r, "arrayX"), (std::vector<Placement>{Placement::Global, Placement::ReadOnly}));
  EXPECT_EQ(offered(*r, "xj"), (std::vector<Placement>{Placement::Global, Placement::Shared}));
  // Jang et al.'s rules send the warp-uniform read-only CDF to constant memory.
  ASSERT_GE(r->plans.size(), 3u);
  EXPECT_EQ(r->plans[2].label, "rule-based");
  EXPECT_EQ(r->plans[2].plan[0], Placement::Constant);
  // The search is exact here (6 arrays, a few hundred plans) and no plan beats it.
  EXPECT_TRUE(r->search.optimal);
  for (const ScoredPlan& p : r->plans) EXPECT_GE(p.modelCost, r->plans[0].modelCost) << p.label;
}

TEST(Place, StencilCoefficientsAreWarpUniformAndTheInputIsSharedByThreads) {
  Expected<PlaceResult> r = place(kStencil, "h100");
  ASSERT_TRUE(r) << r.error().format();
  EXPECT_TRUE(array(*r, "coef").traits.warpUniform);
  EXPECT_EQ(array(*r, "coef").bytes, 36);
  EXPECT_TRUE(array(*r, "in").traits.sharedReuse);
  // Block 0's threads 4..255 (i ≥ RADIUS) read in[i-4 .. i+4]: floats 0..259, a 1040-B tile
  // (the widest of the profiled blocks).
  EXPECT_EQ(array(*r, "in").tileBytes, 260 * 4);
  // Hopper offers the persisting L2 window for arrays of known size.
  const std::vector<Placement> coef = offered(*r, "coef");
  EXPECT_NE(std::find(coef.begin(), coef.end(), Placement::PersistingL2), coef.end());
  EXPECT_NE(std::find(coef.begin(), coef.end(), Placement::Constant), coef.end());
}

TEST(Place, VectorSpmvRowBoundsAreWarpUniform) {
  Expected<PlaceResult> r = place(kSpmvVector, "k20c");
  ASSERT_TRUE(r) << r.error().format();
  EXPECT_TRUE(array(*r, "rowDelimiters").traits.warpUniform);
  EXPECT_TRUE(array(*r, "cols").dataDependent);
  EXPECT_TRUE(array(*r, "vec").dataDependent);
  EXPECT_EQ(array(*r, "vec").bytes, 8192);  // --array
  EXPECT_TRUE(array(*r, "vec").sizeGiven);
}

TEST(Place, SixteenArraysFallBackToTheGreedySearch) {
  Expected<PlaceResult> r = place(kSixteen, "k20c");
  ASSERT_TRUE(r) << r.error().format();
  ASSERT_EQ(r->profile.arrays.size(), 16u);
  // The plan space is far beyond the node limit: the hybrid search returns the greedy plan.
  EXPECT_EQ(r->search.method, SearchMethod::Greedy);
  EXPECT_FALSE(r->search.optimal);
  EXPECT_LT(r->search.evaluations, 500);
  EXPECT_LE(r->plans[0].modelCost, r->plans[1].modelCost);  // never worse than all-global
}

TEST(Place, SearchesAgreeWhereTheSpaceIsSmall) {
  Expected<PlaceResult> hybrid = place(kParticleFilter, "k20c", SearchMethod::Hybrid);
  Expected<PlaceResult> exhaustive = place(kParticleFilter, "k20c", SearchMethod::Exhaustive);
  ASSERT_TRUE(hybrid && exhaustive);
  EXPECT_DOUBLE_EQ(hybrid->plans[0].modelCost, exhaustive->plans[0].modelCost);
}

// Procedure 2's test (porple.md §5.4): a move under 0.5 % of the last mean, or the same move as
// the step before within ±0.5 %.
TEST(PorpleProcedure2, StabilityTestHasTheDigestsTwoCases) {
  EXPECT_TRUE(porpleStable(100.4, 100, 90));   // |0.4| < 0.005 · 100
  EXPECT_FALSE(porpleStable(100.6, 100, 50));  // 0.6 ≥ 0.5, and 0.6 is not the last move (50)
  EXPECT_TRUE(porpleStable(110, 100, 90));     // 10 after 10: a linear drift
  EXPECT_FALSE(porpleStable(120, 100, 90));    // 20 after 10
  EXPECT_TRUE(porpleStable(-100.4, -100, -90));  // 0.4 < 0.005 · |−100|: negative means too
}

TEST(PorpleProcedure2, StopsAtTheFirstSettledRunningMeanFromTheThirdWarp) {
  // Proxies 10, 30, 50: running means 10, 20, 30; at warp 2 the move (10) repeats: 3 warps.
  EXPECT_EQ(porpleWarpsProfiled({10, 30, 50, 70, 90}), 3);
  // A constant proxy settles at the first test (warp 2), never before it.
  EXPECT_EQ(porpleWarpsProfiled({7, 7, 7, 7}), 3);
  EXPECT_EQ(porpleWarpsProfiled({7, 7}), 2);
  // Means 1, 5, 11/3, 17/4: moves 4, 4/3, 7/12, never within 0.5 % of the one before or of the
  // mean: every warp.
  EXPECT_EQ(porpleWarpsProfiled({1, 9, 1, 6}), 4);
  // All-zero proxies (indices nobody knows) never pass: |0 − 0| < 0.005 · 0 is false.
  EXPECT_EQ(porpleWarpsProfiled({0, 0, 0, 0, 0}), 5);
}

TEST(PorpleProcedure2, TransposeStopsAfterThreeWarpsWhoseKeptRequestsStandForAll) {
  Expected<PlaceResult> full = place(kTranspose, "k20c");
  Expected<PlaceResult> early = place(kTranspose, "k20c", SearchMethod::Hybrid, true);
  ASSERT_TRUE(full && early);
  // Block (0,0), warp w holds rows y = 2w, 2w+1 and columns x = 0..15; a thread reads in[1024y +
  // x] and writes out[1024x + y]: its index sum is 1025(x + y), the warp's mean 1025(2w + 8),
  // and the running mean over warps 1025(w + 8) moves by 1025 each warp: stable at warp 2.
  EXPECT_EQ(full->profile.tracedWarps, 8);
  EXPECT_EQ(full->profile.requests.size(), 16u);  // a load and a store per warp
  EXPECT_EQ(early->profile.tracedWarps, 3);
  EXPECT_EQ(early->profile.fullTraceReason, "");
  ASSERT_EQ(early->profile.requests.size(), 6u);
  for (const ProfiledRequest& r : early->profile.requests) {
    EXPECT_DOUBLE_EQ(r.weight, 8.0 / 3.0);
    EXPECT_LT(r.warp, 3);
  }
  // The traits and sizes still come from every warp.
  EXPECT_EQ(array(*early, "out").bytes, array(*full, "out").bytes);
  EXPECT_DOUBLE_EQ(array(*early, "in").requests, array(*full, "in").requests);
}

TEST(PorpleProcedure2, ThreadsThatShareThroughSharedMemoryAreAllProfiled) {
  // gemm_shared stages tiles of a and b through shared memory between barriers: its threads
  // depend on each other, and PORPLE then profiles the whole block.
  const Case gemm{"gemm_shared.cu", {8, 8, 1}, {16, 16, 1}, {{"n", 128}}, {}, {}};
  const std::string dir = std::string(FORESIGHT_SOURCE_DIR) + "/tests/examples/fixtures/bound";
  Expected<PlaceResult> r = place(gemm, "h100", SearchMethod::Hybrid, true, dir, dir);
  ASSERT_TRUE(r) << r.error().format();
  EXPECT_EQ(r->profile.tracedWarps, 8);
  EXPECT_EQ(r->profile.fullTraceReason, "its threads exchange data through shared memory");
}

TEST(Place, NonCudaInputsAreRefused) {
  KernelInput k;
  k.ir.name = "summary_kernel";
  Launch l;
  l.block = {128, 1, 1};
  Expected<PlaceResult> r = placeKernel(k, l, preset("h100"), PlaceOptions{});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("only the CUDA frontend"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace foresight
