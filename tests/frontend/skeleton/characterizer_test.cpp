// SPDX-License-Identifier: Apache-2.0
/// \file
/// The characterizer against the MatMul walk-through of grophecy.md §10.3 (literal
/// interpretation), equation by equation, on FX5600 and C1060, plus the naive and Stage variants
/// and the coalescing rule of each GPU generation.
#include "foresight/frontend/skeleton/characterizer.h"

#include <gtest/gtest.h>

#include "foresight/advise/layout_search.h"
#include "foresight/memory/coalescing.h"
#include "skeleton_test_util.h"

namespace foresight::skeleton {
namespace {

using namespace testing_util;

constexpr std::uint64_t kA = 1, kB = 2;

Layout tiled(bool unroll = true) {
  Layout l;
  l.block = {16, 16};
  l.fold = {1, 1};
  l.stage = {16};
  l.cached = kA | kB;
  l.unroll = unroll;
  return l;
}

Layout naive() {
  Layout l = tiled();
  l.stage = {0};
  l.cached = 0;
  return l;
}

TEST(SkeletonCharacterizer, Eq1SharingDegreeAndEq3StageSize) {
  const Skeleton sk = matmul();
  Expected<Characterizer> ch = Characterizer::create(sk, gpu("fx5600"), {});
  ASSERT_TRUE(ch.ok());
  auto shape = ch->prepare({16, 16}, {1, 1});
  // ShrDegree(A) = size(H(A,F̂))·size(B)/size(H(A,B̂)) = 400·256/(16·400) = 16; same for B; C: 1.
  EXPECT_DOUBLE_EQ(ch->sharingDegrees(*shape)[0], 16);
  EXPECT_DOUBLE_EQ(ch->sharingDegrees(*shape)[1], 16);
  EXPECT_DOUBLE_EQ(ch->sharingDegrees(*shape)[2], 1);
  EXPECT_EQ(ch->cacheable(*shape), kA | kB);  // C is not cacheable
  // StageShrDegree = 16·400/(16·400) = 1; StageSize = 256·1/16 = 16 (§5.3 MatMul check).
  ASSERT_EQ(ch->stageSuggestions(*shape).size(), 1u);
  EXPECT_EQ(ch->stageSuggestions(*shape)[0], (std::vector<long long>{16}));
}

TEST(SkeletonCharacterizer, MatmulWalkthroughOnFx5600) {
  const Skeleton sk = matmul();
  Expected<Characterizer> ch = Characterizer::create(sk, gpu("fx5600"), {});
  ASSERT_TRUE(ch.ok());
  Expected<RankedLayout> r = evaluateLayout(*ch, tiled(), ModelOptions{});
  ASSERT_TRUE(r.ok()) << r.error().format();
  const LayoutStats& s = r->stats;
  EXPECT_EQ(s.blocks, 2500);  // 640,000 / 256
  EXPECT_EQ(s.threadsPerBlock, 256);
  ASSERT_EQ(s.buffers.size(), 2u);  // ShMem(A,k) = A[16][16], ShMem(B,k) = B[16][16]
  EXPECT_EQ(s.buffers[0].elements, 256);
  EXPECT_EQ(s.buffers[0].shape, (std::vector<long long>{16, 16}));
  EXPECT_EQ(s.buffers[1].elements, 256);
  EXPECT_DOUBLE_EQ(s.buffers[0].numStages, 25);  // ⌈400/16⌉ (Eq. 4)
  EXPECT_EQ(s.sharedBytesPerBlock, 2048);        // Eq. 7: 2·256·4 B
  EXPECT_EQ(r->activeBlocksPerSm, 3);            // min(24/8, 16384/2048, 8, ⌈2500/16⌉)
  // Eq. 12: ⌈256/256⌉·25 = 25 per array, coalesced; + the direct store of C (Eq. 13: 1).
  EXPECT_DOUBLE_EQ(s.coalMemInsts, 51);
  EXPECT_DOUBLE_EQ(s.uncoalMemInsts, 0);
  EXPECT_DOUBLE_EQ(s.loadBytesPerWarp, 128);  // Eqs. 9–11: 4 B × 32
  // Eq. 17 + Table 3: functional 6 + 400·3 = 1206; shared loads 2·400 = 800; stage loop 25·5 =
  // 125 (the 16-trip inner loop is unrolled: 0); data preparation 2·50 = 100; synch 2·25 = 50.
  EXPECT_DOUBLE_EQ(s.funcInsts, 1206);
  EXPECT_DOUBLE_EQ(s.sharedAccessInsts, 800);
  EXPECT_DOUBLE_EQ(s.loopInsts, 125);
  EXPECT_DOUBLE_EQ(s.dataPrepInsts, 100);
  EXPECT_DOUBLE_EQ(s.synchInsts, 50);
  EXPECT_DOUBLE_EQ(s.indexInsts, 0);
  EXPECT_DOUBLE_EQ(s.compInsts, 2281);
  EXPECT_DOUBLE_EQ(s.totalInsts(), 2332);
  // HK on FX5600: MWP = MWP_peak_BW = 11.67, CWP = 3.30 → compute-bound, ≈ 8.9 ms.
  EXPECT_NEAR(r->mwp, 11.67, 0.01);
  EXPECT_NEAR(r->cwpFull, 3.30, 0.01);
  EXPECT_EQ(r->bound.resource, Resource::Issue);
  EXPECT_NEAR(r->seconds * 1e3, 8.90, 0.01);
}

TEST(SkeletonCharacterizer, MatmulWalkthroughOnC1060) {
  const Skeleton sk = matmul();
  Expected<Characterizer> ch = Characterizer::create(sk, gpu("c1060"), {});
  ASSERT_TRUE(ch.ok());
  Expected<RankedLayout> r = evaluateLayout(*ch, tiled(), ModelOptions{});
  ASSERT_TRUE(r.ok()) << r.error().format();
  EXPECT_EQ(r->activeBlocksPerSm, 4);  // min(32/8, 8, 8, 83.3)
  EXPECT_DOUBLE_EQ(r->stats.coalMemInsts, 51);
  EXPECT_DOUBLE_EQ(r->stats.totalInsts(), 2332);
  EXPECT_NEAR(r->mwp, 9.39, 0.01);  // MWP_peak_BW
  EXPECT_NEAR(r->cwpFull, 3.46, 0.01);
  EXPECT_EQ(r->bound.resource, Resource::Issue);  // compute-bound
  EXPECT_NEAR(r->seconds * 1e3, 4.9, 0.05);
}

TEST(SkeletonCharacterizer, StageWithoutUnrollAlmostDoublesComputation) {
  const Skeleton sk = matmul();
  Expected<Characterizer> ch = Characterizer::create(sk, gpu("fx5600"), {});
  ASSERT_TRUE(ch.ok());
  auto shape = ch->prepare({16, 16}, {1, 1});
  const LayoutStats s = ch->characterize(*shape, tiled(/*unroll=*/false));
  EXPECT_DOUBLE_EQ(s.compInsts, 4281);  // 2281 + 400·5
  EXPECT_NEAR(s.compInsts / 2281, 1.88, 0.01);
}

TEST(SkeletonCharacterizer, NaiveMatmulOnFx5600IsUncoalescedAndMemoryBound) {
  const Skeleton sk = matmul();
  Expected<Characterizer> ch = Characterizer::create(sk, gpu("fx5600"), {});
  ASSERT_TRUE(ch.ok());
  Expected<RankedLayout> r = evaluateLayout(*ch, naive(), ModelOptions{});
  ASSERT_TRUE(r.ok());
  const LayoutStats& s = r->stats;
  // A[i][k] is a half-warp broadcast: not "word k of a segment" under CC 1.0 → 32 transactions.
  EXPECT_DOUBLE_EQ(s.coalMemInsts, 401);  // B[k][j]·400 + C
  EXPECT_DOUBLE_EQ(s.uncoalMemInsts, 400);
  EXPECT_DOUBLE_EQ(s.uncoalPerMw, 32);
  EXPECT_DOUBLE_EQ(s.compInsts, 2931);  // 1206 + 125 (k unrolled by 16: 5·25) + 4·400
  EXPECT_EQ(s.sharedBytesPerBlock, 0);
  EXPECT_EQ(r->bound.resource, Resource::Dram);  // memory-bound
  EXPECT_NEAR(r->mwp, 3.55, 0.01);
  EXPECT_NEAR(r->seconds * 1e3, 120, 0.5);
}

TEST(SkeletonCharacterizer, NaiveMatmulOnC1060IsCoalescedAndMemoryBound) {
  const Skeleton sk = matmul();
  Expected<Characterizer> ch = Characterizer::create(sk, gpu("c1060"), {});
  ASSERT_TRUE(ch.ok());
  Expected<RankedLayout> r = evaluateLayout(*ch, naive(), ModelOptions{});
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->stats.coalMemInsts, 801);  // the broadcast is 1 transaction per half-warp
  EXPECT_DOUBLE_EQ(r->stats.uncoalMemInsts, 0);
  EXPECT_EQ(r->bound.resource, Resource::Dram);
  EXPECT_NEAR(r->mwp, 9.39, 0.01);
  EXPECT_NEAR(r->seconds * 1e3, 19.7, 0.1);
}

TEST(SkeletonCharacterizer, WarpLanesFollowA3AndA10) {
  const Skeleton sk = matmul();
  Expected<Characterizer> ch = Characterizer::create(sk, gpu("fx5600"), {});
  ASSERT_TRUE(ch.ok());
  auto shape = ch->prepare({16, 16}, {1, 1});
  // Access 1 is B[k][j]: j = threadIdx.x varies fastest, so lanes 0..15 read 16 consecutive
  // floats from the interior block's column origin 16 (A10); k is fixed for the warp and i,
  // which changes for lanes 16..31, does not index B, so they read the same 16 floats.
  const std::vector<long long> lanes = ch->laneAddresses(*shape, 1);
  ASSERT_EQ(lanes.size(), 32u);
  EXPECT_EQ(lanes[1] - lanes[0], 4);
  EXPECT_EQ(lanes[16], lanes[0]);
  EXPECT_EQ(lanes[0] % 64, 0);  // 16·4 B: aligned
}

TEST(SkeletonCharacterizer, ModernGpusUseSectors) {
  const Skeleton sk = matmul();
  Expected<Characterizer> ch = Characterizer::create(sk, gpu("h100"), {});
  ASSERT_TRUE(ch.ok());
  auto shape = ch->prepare({16, 16}, {1, 1});
  const LayoutStats s = ch->characterize(*shape, naive());
  // A broadcast touches one sector: coalesced under the sector rule (minimum sectors).
  EXPECT_DOUBLE_EQ(s.uncoalMemInsts, 0);
}

TEST(SkeletonCharacterizer, Table3ConstantsAreConfigurable) {
  const Skeleton sk = matmul();
  CharacterizerOptions options;
  options.costs.perLoopIteration = 3;
  options.costs.perCachingInst = 1;
  options.costs.perThreadOverhead = 10;
  Expected<Characterizer> ch = Characterizer::create(sk, gpu("fx5600"), options);
  ASSERT_TRUE(ch.ok());
  auto shape = ch->prepare({16, 16}, {1, 1});
  const LayoutStats s = ch->characterize(*shape, tiled());
  EXPECT_DOUBLE_EQ(s.loopInsts, 75);      // 25·3
  EXPECT_DOUBLE_EQ(s.dataPrepInsts, 50);  // 50·1
  EXPECT_DOUBLE_EQ(s.compInsts, 1206 + 800 + 75 + 50 + 50 + 10);
}

TEST(SkeletonCharacterizer, BranchesCostThreeAndWeightTheirBody) {
  Expected<Skeleton> sk = parseSkeleton(
      "float X[1024]\nparallel_for(1024) : i {\n  branch 2 prob 0.5 { comp 10 }\n  ld X[i]\n}",
      "b.sk");
  ASSERT_TRUE(sk.ok());
  Expected<Characterizer> ch = Characterizer::create(*sk, gpu("fx5600"), {});
  ASSERT_TRUE(ch.ok());
  auto shape = ch->prepare({256}, {1});
  Layout l;
  l.block = {256};
  l.fold = {1};
  const LayoutStats s = ch->characterize(*shape, l);
  EXPECT_DOUBLE_EQ(s.branchInsts, 6);  // 2 branches × 3
  EXPECT_DOUBLE_EQ(s.funcInsts, 5);    // 10 × 0.5
  EXPECT_DOUBLE_EQ(s.coalMemInsts, 1);
}

TEST(SkeletonCharacterizer, RejectsElementSizesWithoutACoalescingRule) {
  Expected<Skeleton> sk = parseSkeleton("float A[4]\nparallel_for(4) : i { ld A[i] }", "x.sk");
  ASSERT_TRUE(sk.ok());
  sk->arrays[0].elemBytes = 12;
  Expected<Characterizer> ch = Characterizer::create(*sk, gpu("fx5600"), {});
  ASSERT_FALSE(ch.ok());
  EXPECT_NE(ch.error().message.find("12-byte"), std::string::npos);
}

}  // namespace
}  // namespace foresight::skeleton
