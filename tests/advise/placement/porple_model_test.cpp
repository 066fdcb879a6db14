// SPDX-License-Identifier: Apache-2.0
// The PORPLE placement model (porple.md §3) on hand-built profiles: every cost below is worked
// out by hand next to the assertion.
#include "foresight/advise/placement/porple_model.h"

#include <gtest/gtest.h>

#include "foresight/gpu/msl.h"
#include "foresight/memory/coalescing.h"
#include "test_support.h"

namespace foresight {
namespace {

using testing_support::preset;
using testing_support::replaced;

// One SM; global memory behind a 16 KiB L1 of 128-B lines (128 lines); constant memory behind a
// 4 KiB cache of 64-B lines (64 lines). α 0.2 for global, 1 for constant (PORPLE's experiments).
constexpr const char* kSpec = R"(die = 1 tpc; tpc = 1 sm; sm = 32 core;
globalMem   8 Y rw na 1G   128B ? 600clk <L1>  <>             die <0.2 0.5> warp{address1/blockSize != address2/blockSize};
L1          9 N rw na 16K  128B ? 80clk  <>    <globalMem>    sm  ?         warp{address1/blockSize != address2/blockSize};
constantMem 1 Y r  na 64K  ?    ? 360clk <cL1> <>             die <1 1>     warp{address1 != address2};
cL1         3 N r  na 4K   64B  ? 48clk  <>    <constantMem>  sm  ?         warp{address1/blockSize != address2/blockSize};
)";

ProfiledRequest request(int array, long long start, bool uniform) {
  ProfiledRequest r;
  r.array = array;
  r.lanes.resize(32);
  for (int l = 0; l < 32; ++l) r.lanes[static_cast<size_t>(l)] = uniform ? start : start + 4LL * l;
  return r;
}

/// Array 0 ("a"): four unit-stride warp loads at bytes 0, 128, 0, 128. Array 1 ("b"): four
/// warp-uniform loads of byte 0. Interleaved a, b, a, b, ...
AccessProfile profile(bool withB) {
  AccessProfile p;
  p.profiledBlocks = 1;
  p.warpsPerBlock = 1;
  p.threadsPerBlock = 32;
  ProfiledArray a;
  a.name = "a";
  a.read = true;
  a.bytes = 256;
  a.tileable = false;
  p.arrays.push_back(a);
  if (withB) {
    ProfiledArray b = a;
    b.name = "b";
    b.bytes = 4;
    p.arrays.push_back(b);
  }
  for (long long start : {0, 128, 0, 128}) {
    p.requests.push_back(request(0, start, false));
    if (withB) p.requests.push_back(request(1, 0, true));
  }
  return p;
}

struct Fixture {
  explicit Fixture(bool withB, std::string spec = kSpec) : prof(profile(withB)) {
    Expected<MslSpec> m = parseMsl(spec, "test.msl");
    EXPECT_TRUE(m) << (m ? "" : m.error().format());
    msl = *m;
    launch.block = {32, 1, 1};
    Expected<std::unique_ptr<PorpleModel>> pm = PorpleModel::create(prof, msl, gpu, ir, launch);
    EXPECT_TRUE(pm) << (pm ? "" : pm.error().format());
    model = std::move(*pm);
  }
  AccessProfile prof;
  MslSpec msl;
  Gpu gpu = preset("k20c");
  KernelIR ir;
  Launch launch;
  std::unique_ptr<PorpleModel> model;
};

TEST(PorpleModel, UnitStrideArrayOnGlobalMemory) {
  Fixture f(false);
  // L1 units 0,1,0,1: distances ∞, ∞, 1, 1 → half below 128 lines. One 128-B transaction per
  // request: L1 serves 4 × 0.5 = 2 (× 80 clk × 0.2 = 32); globalMem the other 2 (× 600 × 0.2 = 240).
  EXPECT_DOUBLE_EQ(f.model->explain({Placement::Global}).cost, 272.0);
  const PlanCost c = f.model->explain({Placement::Global});
  ASSERT_EQ(c.arrays.size(), 1u);
  ASSERT_EQ(c.arrays[0].levels.size(), 2u);
  EXPECT_EQ(c.arrays[0].levels[0].memory, "L1");
  EXPECT_DOUBLE_EQ(c.arrays[0].levels[0].hitFraction, 0.5);
  EXPECT_DOUBLE_EQ(c.arrays[0].levels[1].transactions, 2.0);
}

TEST(PorpleModel, DivergentReadsSerializeInConstantMemory) {
  Fixture f(false);
  // cL1 (64-B lines): units (0,1) (2,3) (0,1) (2,3): distances ∞ ∞ ∞ ∞ 3 3 3 3 → 0.5 served;
  // 2 transactions per request: 8 × 0.5 × 48 × 1 = 192. constantMem serializes 32 distinct
  // addresses per request: 128 × 0.5 × 360 = 23040. Total 23232 ≫ 272 on global.
  EXPECT_DOUBLE_EQ(f.model->explain({Placement::Constant}).cost, 23232.0);
  const std::vector<Placement> opts = f.model->options(0);
  EXPECT_EQ(opts, (std::vector<Placement>{Placement::Global, Placement::Constant}));
}

TEST(PorpleModel, EqualShareAndPaths) {
  Fixture f(true);
  // b alone on global: L1 units 0,0,0,0: distances ∞,0,0,0 → 0.75; 3 × 80 × 0.2 = 48 and
  // 1 × 600 × 0.2 = 120: 168. With a also in L1 (k = 2, 64 lines each) a's distances 1 < 64
  // still hit: global path 272 + 168 = 440.
  EXPECT_DOUBLE_EQ(f.model->explain({Placement::Global, Placement::Global}).cost, 440.0);
  // b in constant: cL1 0.75 × 4 × 48 = 144, constantMem 1 × 360 = 504 on the constant path;
  // the plan costs the slower path: max(272, 504) = 504.
  EXPECT_DOUBLE_EQ(f.model->explain({Placement::Global, Placement::Constant}).cost, 504.0);
  const PlanCost c = f.model->explain({Placement::Global, Placement::Constant});
  ASSERT_EQ(c.paths.size(), 2u);
  EXPECT_EQ(c.paths[0].first, "constant");
  EXPECT_DOUBLE_EQ(c.paths[0].second, 504.0);
  EXPECT_DOUBLE_EQ(c.paths[1].second, 272.0);
  // Partial plans count only the placed arrays (monotone for branch-and-bound); the searches'
  // cost adds 10^-9 × the sum over paths as a tie-break: 504 + 776e-9.
  EXPECT_NEAR(f.model->cost({Placement::Global, std::nullopt}), 272.0, 1e-6);
  EXPECT_DOUBLE_EQ(f.model->cost({Placement::Global, Placement::Constant}), 504.0 + 776e-9);
}

TEST(PorpleModel, SharingShrinksEachArraysCacheShare) {
  // An L1 of 2 lines: a alone hits with distance 1 < 2 (272); with b also cached each array
  // gets 1 line and a's distance-1 reuses miss: 4 × 600 × 0.2 = 480; b's distance-0 reuses
  // still hit (168): 648.
  std::string spec = kSpec;
  spec = replaced(spec, "L1          9 N rw na 16K ", "L1          9 N rw na 256B");
  Fixture f(true, spec);
  EXPECT_NEAR(f.model->cost({Placement::Global, std::nullopt}), 272.0, 1e-6);
  EXPECT_DOUBLE_EQ(f.model->explain({Placement::Global, Placement::Global}).cost, 648.0);
}

TEST(PorpleModel, LatencyCentricVariantSumsAllPaths) {
  Fixture f(true);
  PorpleModelOptions o;
  o.pathBased = false;
  Expected<std::unique_ptr<PorpleModel>> pm = PorpleModel::create(f.prof, f.msl, f.gpu, f.ir, f.launch, o);
  ASSERT_TRUE(pm);
  // MICRO'14: 272 + 504.
  EXPECT_DOUBLE_EQ((*pm)->explain({Placement::Global, Placement::Constant}).cost, 776.0);
}

TEST(PorpleModel, WrittenArraysStayOffReadOnlyMemories) {
  AccessProfile p = profile(false);
  p.arrays[0].written = true;
  p.requests[0].store = true;
  Expected<MslSpec> m = parseMsl(kSpec, "test.msl");
  ASSERT_TRUE(m);
  KernelIR ir;
  Launch launch;
  launch.block = {32, 1, 1};
  Expected<std::unique_ptr<PorpleModel>> pm = PorpleModel::create(p, *m, preset("k20c"), ir, launch);
  ASSERT_TRUE(pm);
  EXPECT_EQ((*pm)->options(0), std::vector<Placement>{Placement::Global});
  EXPECT_EQ((*pm)->whyNot(0, Placement::Constant), "written by the kernel");
}

TEST(PorpleModel, ReuseDistanceOfTheDigestsTrace) {
  // porple.md §3.1: in the trace b a c c b the second b has reuse distance 2 (a and c in
  // between), the second c distance 0. One lane per request, each element on its own 128-B
  // line: a = 0, b = 128, c = 256. Hits below the capacity: 1 of 5 with 2 lines (the second c),
  // 2 of 5 with 3 lines (and the second b).
  auto run = [](const char* l1Size) {
    AccessProfile p = profile(false);
    p.requests.clear();
    p.arrays[0].bytes = 384;
    for (long long at : {128, 0, 256, 256, 128}) {
      ProfiledRequest r;
      r.lanes.assign(32, kInactiveLane);
      r.lanes[0] = at;
      p.requests.push_back(r);
    }
    const std::string spec = replaced(kSpec, "L1          9 N rw na 16K ", std::string("L1          9 N rw na ") + l1Size);
    Expected<MslSpec> m = parseMsl(spec, "test.msl");
    EXPECT_TRUE(m);
    KernelIR ir;
    Launch launch;
    launch.block = {32, 1, 1};
    Expected<std::unique_ptr<PorpleModel>> pm = PorpleModel::create(p, *m, preset("k20c"), ir, launch);
    EXPECT_TRUE(pm);
    return (*pm)->explain({Placement::Global}).arrays[0].levels[0].hitFraction;
  };
  EXPECT_DOUBLE_EQ(run("256B"), 0.2);
  EXPECT_DOUBLE_EQ(run("384B"), 0.4);
}

}  // namespace
}  // namespace foresight
