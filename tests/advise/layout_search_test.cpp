// SPDX-License-Identifier: Apache-2.0
/// \file
/// The layout search: the paper's qualitative results (grophecy.md §8.2) on FX5600 and C1060,
/// search sizes of the paper's order, hints restricting the domain, progress reports.
#include "foresight/advise/layout_search.h"

#include <gtest/gtest.h>

#include "foresight/frontend/skeleton/layout_hints.h"
#include "foresight/frontend/skeleton/skeleton_frontend.h"
#include "../frontend/skeleton/skeleton_test_util.h"

namespace foresight::skeleton {
namespace {

using namespace testing_util;

Skeleton example(const char* name) {
  Expected<Skeleton> sk =
      loadSkeletonFile(std::string(FORESIGHT_SOURCE_DIR) + "/examples/skeleton/" + name);
  EXPECT_TRUE(sk.ok()) << (sk.ok() ? "" : sk.error().format());
  return std::move(sk).value();
}

RankedLayout pinned(const Skeleton& sk, const Gpu& g, const char* hints) {
  Expected<LayoutHints> h = parseLayoutHints(hints, "hints.toml");
  EXPECT_TRUE(h.ok()) << (h.ok() ? "" : h.error().format());
  SearchOptions o;
  o.domain = h->domain;
  Expected<SearchResult> r = searchLayouts(sk, g, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().format());
  EXPECT_EQ(r->layouts.size(), 1u);
  return r->layouts.front();
}

class MatmulSearch : public testing::TestWithParam<const char*> {};

TEST_P(MatmulSearch, BestLayoutIsStagePlusLoopUnrollAndComputeBound) {
  const Skeleton sk = matmul();
  Expected<SearchResult> r = searchLayouts(sk, gpu(GetParam()), {});
  ASSERT_TRUE(r.ok()) << r.error().format();
  const RankedLayout& best = r->layouts.front();
  EXPECT_GT(best.layout.stage[0], 0);  // staged
  EXPECT_EQ(best.layout.cached, 3u);   // A and B in shared memory
  EXPECT_TRUE(best.layout.unroll);
  EXPECT_EQ(best.bound.resource, Resource::Issue);  // compute-bound (MWP > CWP−1)
  // The paper's search size is 6,372; ours is of that order.
  EXPECT_GT(r->enumerated, 1000);
  EXPECT_LT(r->enumerated, 100000);
}

TEST_P(MatmulSearch, AmongPaperVariantsWithBlock16x16StageUnrollWins) {
  const Skeleton sk = matmul();
  SearchOptions o;
  o.domain.blocks = {{16, 16}};
  o.domain.folds = {{1, 1}};
  o.domain.unroll = {true, false};
  Expected<SearchResult> r = searchLayouts(sk, gpu(GetParam()), o);
  ASSERT_TRUE(r.ok());
  const RankedLayout& best = r->layouts.front();
  EXPECT_EQ(best.layout.stage, (std::vector<long long>{16}));  // the paper's stage size
  EXPECT_EQ(best.layout.cached, 3u);
  EXPECT_TRUE(best.layout.unroll);
  // Stage (no unroll) is next, and Naive is far slower.
  const auto time = [&](bool staged, bool unroll) {
    for (const RankedLayout& l : r->layouts) {
      if ((l.layout.stage[0] == 16) == staged && l.layout.unroll == unroll &&
          l.layout.cached == (staged ? 3u : 0u)) {
        return l.seconds;
      }
    }
    return 0.0;
  };
  EXPECT_LT(best.seconds, time(true, false));
  EXPECT_LT(time(true, false), time(false, true));
  EXPECT_NEAR(time(true, false) / best.seconds, 1.88, 0.05);  // "almost doubles"
}

INSTANTIATE_TEST_SUITE_P(Gpus, MatmulSearch, testing::Values("fx5600", "c1060"));

TEST(HotSpotSearch, NaiveIsMemoryBoundOnFx5600AndComputeBoundOnC1060) {
  const Skeleton sk = example("hotspot.sk");
  const char* naive = "[layout]\nblock = [16, 16]\n";
  EXPECT_EQ(pinned(sk, gpu("fx5600"), naive).bound.resource, Resource::Dram);
  EXPECT_EQ(pinned(sk, gpu("c1060"), naive).bound.resource, Resource::Issue);
}

TEST(HotSpotSearch, Fold2x4BeatsShmOnBothGpus) {
  const Skeleton sk = example("hotspot.sk");
  for (const char* name : {"fx5600", "c1060"}) {
    const RankedLayout shm = pinned(sk, gpu(name), "[layout]\nblock = [16, 16]\ncache = [\"T\"]\n");
    const RankedLayout fold =
        pinned(sk, gpu(name), "[layout]\nblock = [16, 16]\nfold = [2, 4]\ncache = [\"T\"]\n");
    EXPECT_EQ(shm.stats.sharedBytesPerBlock, 18 * 18 * 4) << name;  // the halo tile
    EXPECT_LT(fold.seconds, shm.seconds) << name;
  }
}

TEST(SpinFlapSearch, SampleDrivenCoalescing) {
  const Skeleton sk = example("spinflap.sk");
  // Naive 1×256 layout: every indirect access is judged on the sample's warps (§5.9).
  // Paper: Uncoal_per_mw = 32.0 on FX5600 and 5.7 on C1060 (with the real GFMC data).
  const char* naive = "[layout]\nblock = [1, 256]\n";
  EXPECT_DOUBLE_EQ(pinned(sk, gpu("fx5600"), naive).stats.uncoalPerMw, 32);
  const double c1060 = pinned(sk, gpu("c1060"), naive).stats.uncoalPerMw;
  EXPECT_GT(c1060, 2);
  EXPECT_LT(c1060, 16);
  EXPECT_EQ(pinned(sk, gpu("c1060"), naive).bound.resource, Resource::Dram);  // memory-bound
}

TEST(IspinExSearch, SplittingComplexNumbersRemovesUncoalescedAccessesOnFx5600) {
  // C.Blk-64 vs R.Blk-64 with folding 132 over rows (§8.2): the stride-2 interleaving makes the
  // B and C accesses uncoalesced on CC 1.0; the split skeleton has none.
  const char* hints =
      "[layout]\nblock = [1, 64]\nfold = [132, 1]\ncache = [\"J\", \"I\", \"T\"]\nstage = { n = 14 "
      "}\n";
  const RankedLayout complex = pinned(example("ispinex.sk"), gpu("fx5600"), hints);
  const RankedLayout split = pinned(example("ispinex-split.sk"), gpu("fx5600"), hints);
  EXPECT_GT(complex.stats.uncoalMemInsts, 3000);    // paper: 4,050
  EXPECT_DOUBLE_EQ(split.stats.uncoalMemInsts, 0);  // paper: 0
  EXPECT_LT(split.seconds, complex.seconds);
}

TEST(LayoutSearch, SearchSizesAreOfThePapersOrder) {
  // Paper: MatMul 6,372; HotSpot 3,804; IspinEx (modified) 2,448; SpinFlap 16,113.
  for (const char* name : {"hotspot.sk", "ispinex-split.sk", "spinflap.sk"}) {
    Expected<SearchResult> r = searchLayouts(example(name), gpu("fx5600"), {});
    ASSERT_TRUE(r.ok()) << name;
    EXPECT_GT(r->enumerated, 1000) << name;
    EXPECT_LT(r->enumerated, 100000) << name;
  }
}

TEST(LayoutSearch, ReportsProgressPerShape) {
  const Skeleton sk = matmul();
  SearchOptions o;
  long long calls = 0, total = 0, last = 0;
  o.progress = [&](const SearchProgress& p) {
    ++calls;
    total = p.shapesTotal;
    last = p.shapesDone;
  };
  Expected<SearchResult> r = searchLayouts(sk, gpu("fx5600"), o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(calls, r->shapes);
  EXPECT_EQ(last, total);
}

TEST(LayoutSearch, HintErrorsNameTheUnknownThing) {
  const Skeleton sk = matmul();
  SearchOptions o;
  o.domain.stages = {{"kk", {16}}};
  Expected<SearchResult> r = searchLayouts(sk, gpu("fx5600"), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "hint names stream loop 'kk', which the skeleton does not have; did you mean 'k'?");
  o.domain.stages = {};
  o.domain.cacheSets = std::vector<std::vector<std::string>>{{"Q"}};
  r = searchLayouts(sk, gpu("fx5600"), o);
  ASSERT_FALSE(r.ok());
  o.domain.cacheSets.reset();
  o.domain.blocks = {{16}};
  r = searchLayouts(sk, gpu("fx5600"), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("2 dimensions"), std::string::npos);
}

TEST(LayoutSearch, InfeasibleSharedMemoryIsReported) {
  const Skeleton sk = matmul();
  SearchOptions o;
  o.domain.blocks = {{16, 16}};
  o.domain.folds = {{1, 1}};
  o.domain.stages = {{"k", {400}}};  // A[16][400] + B[400][16]: 51,200 B > 16 KiB
  o.domain.cacheSets = std::vector<std::vector<std::string>>{{"A", "B"}};
  Expected<SearchResult> r = searchLayouts(sk, gpu("fx5600"), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no layout fits on GPU 'fx5600'"), std::string::npos);
}

/// A 2-deep perfect stream nest over a 2-D array that every thread reads whole (so A is
/// cacheable with ShrDegree = size(B)); in skeleton order r is outer and c inner.
constexpr const char* kNest = R"(float A[64][64]; float Out[N]
parallel_for(N) : i {
  stream r = 0:64 {
    stream c = 0:64 {
      ld A[r][c]
      comp 2
    }
  }
  st Out[i]
}
)";

Skeleton nest(const char* text = kNest) {
  Expected<Skeleton> sk = parseSkeleton(text, "nest.sk", {.macros = {{"N", 4096}}});
  EXPECT_TRUE(sk.ok()) << (sk.ok() ? "" : sk.error().format());
  return std::move(sk).value();
}

TEST(TraversalOrder, PerfectStreamNestsOnly) {
  EXPECT_EQ(streamNests(nest()), (std::vector<std::vector<int>>{{0, 1}}));
  EXPECT_EQ(traversalOrders(nest()), (std::vector<std::vector<int>>{{0, 1}, {1, 0}}));
  // A statement between the two loops makes the nest imperfect: no order to choose.
  const Skeleton imperfect = nest(R"(float A[64][64]; float Out[N]
parallel_for(N) : i {
  stream r = 0:64 {
    comp 1
    stream c = 0:64 { ld A[r][c] }
  }
  st Out[i]
}
)");
  EXPECT_TRUE(streamNests(imperfect).empty());
  EXPECT_EQ(traversalOrders(imperfect).size(), 1u);
  EXPECT_TRUE(streamNests(matmul()).empty());
  Layout l;
  l.block = {32};
  l.fold = {1};
  l.stage = {0, 32};
  l.order = {1, 0};
  EXPECT_EQ(describeLayout(l, nest()), "B=32 F=1 S=c:32 O=c,r C={} L=unroll");
  l.order = {};
  EXPECT_EQ(describeLayout(l, nest()), "B=32 F=1 S=c:32 O=r,c C={} L=unroll");
  EXPECT_EQ(describeLayout(l, imperfect), "B=32 F=1 S=c:32 C={} L=unroll");
}

TEST(TraversalOrder, OrderChangesCachingCoalescingAndTheRowOrderWins) {
  const Skeleton sk = nest();
  const Gpu g = gpu("fx5600");
  SearchOptions one;
  one.domain.orders = {{"r", "c"}};  // skeleton order only: the search as before O existed
  Expected<SearchResult> fixed = searchLayouts(sk, g, one);
  ASSERT_TRUE(fixed.ok()) << fixed.error().format();
  Expected<SearchResult> all = searchLayouts(sk, g, {});
  ASSERT_TRUE(all.ok()) << all.error().format();
  // Two orders of the nest, and R = C = 64 makes the Eq. 3 suggestions of the two orders mirror
  // images ({r: b/64, c: b} against {r: b, c: b/64}), so every S×C×L combination of one order has
  // exactly one counterpart in the other: the space doubles.
  EXPECT_EQ(all->enumerated, 2 * fixed->enumerated);

  // Hand reasoning, B = 32, A cached, the inner loop staged by its Eq. 3 size 32 (= size(B)):
  //  - O = r,c: ShMem(A, c) = A[r][c0:c0+32] (A18: r fixed to one iteration). Its first warp of
  //    elements is 32 consecutive floats, aligned: on CC 1.0 that is 2 transactions, coalesced.
  //  - O = c,r: r is now the inner loop, ShMem(A, r) = A[r0:r0+32][c], a column: lanes 256 B
  //    apart, 32 transactions, uncoalesced, and 4 index instructions per caching instruction.
  //  Same buffer size (32 floats) and the same number of caching instructions (1 per stage ×
  //  2 stages × 64 executions), so only coalescing differs and r,c must be faster.
  const auto pin = [&](const char* hints) {
    Expected<LayoutHints> h = parseLayoutHints(hints, "hints.toml");
    EXPECT_TRUE(h.ok()) << (h.ok() ? "" : h.error().format());
    SearchOptions o;
    o.domain = h->domain;
    Expected<SearchResult> r = searchLayouts(sk, g, o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().format());
    return r->layouts.front();
  };
  const RankedLayout rc = pin(R"([layout]
block = [32]
stage = { c = 32 }
order = ["r", "c"]
cache = ["A"]
)");
  const RankedLayout cr = pin(R"([layout]
block = [32]
stage = { r = 32 }
order = ["c", "r"]
cache = ["A"]
)");
  ASSERT_EQ(rc.stats.buffers.size(), 1u);
  ASSERT_EQ(cr.stats.buffers.size(), 1u);
  EXPECT_EQ(rc.stats.buffers[0].shape, (std::vector<long long>{1, 32}));
  EXPECT_EQ(cr.stats.buffers[0].shape, (std::vector<long long>{32, 1}));
  EXPECT_TRUE(rc.stats.buffers[0].coalesced);
  EXPECT_FALSE(cr.stats.buffers[0].coalesced);
  EXPECT_DOUBLE_EQ(rc.stats.buffers[0].cachingInsts, 2 * 64);
  EXPECT_DOUBLE_EQ(cr.stats.buffers[0].cachingInsts, 2 * 64);
  EXPECT_DOUBLE_EQ(rc.stats.uncoalMemInsts, 0);
  EXPECT_DOUBLE_EQ(cr.stats.uncoalMemInsts, 128);
  EXPECT_DOUBLE_EQ(cr.stats.uncoalPerMw, 32);
  EXPECT_LT(rc.seconds, cr.seconds);
  // Over the whole space the best layout traverses rows (r outer, c inner) and caches A.
  const RankedLayout& best = all->layouts.front();
  EXPECT_EQ(best.layout.order, (std::vector<int>{0, 1}));
  EXPECT_EQ(best.layout.cached, 1u);
  EXPECT_EQ(best.stats.uncoalMemInsts, 0);
}

TEST(TraversalOrder, HintedOrdersAreChecked) {
  const Skeleton sk = nest();
  SearchOptions o;
  o.domain.orders = {{"c", "cc"}};
  Expected<SearchResult> r = searchLayouts(sk, gpu("fx5600"), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "hint orders stream loop 'cc', which the skeleton does not have; did you mean 'c'?");
  o.domain.orders = {{"c"}};
  r = searchLayouts(sk, gpu("fx5600"), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("must name every stream loop once"), std::string::npos);
}

}  // namespace
}  // namespace foresight::skeleton
