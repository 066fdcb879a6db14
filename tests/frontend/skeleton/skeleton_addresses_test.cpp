// SPDX-License-Identifier: Apache-2.0
/// \file
/// Skeleton addresses for the memory engine: each execution of a global statement gets the
/// addresses of its bounded regular section under the layout's thread mapping, so the engine
/// sees the skeleton's reuse, footprint and DRAM floor (docs/skeleton-model.md, "Addresses").
#include <gtest/gtest.h>

#include <chrono>

#include "foresight/frontend/skeleton/lowering.h"
#include "foresight/ir/counted_streams.h"
#include "foresight/memory/hierarchy.h"
#include "skeleton_test_util.h"

namespace foresight::skeleton {
namespace {

using namespace testing_util;

constexpr long long kBase = 1LL << 40;  // array a lives at (a + 1) << 40

Skeleton parse(const char* text) {
  Expected<Skeleton> sk = parseSkeleton(text, "test.sk", {});
  EXPECT_TRUE(sk.ok()) << (sk.ok() ? "" : sk.error().format());
  return std::move(sk).value();
}

LoweredLayout lower(const Skeleton& sk, const Gpu& g, const Layout* layout = nullptr) {
  Expected<Characterizer> ch = Characterizer::create(sk, g, {});
  EXPECT_TRUE(ch.ok());
  const Layout l = layout ? *layout : defaultLayout(sk, *ch);
  Expected<LoweredLayout> low = lowerLayout(*ch, l);
  EXPECT_TRUE(low.ok()) << (low.ok() ? "" : low.error().format());
  return std::move(low).value();
}

/// The first instruction of warp (block, warp)'s stream whose IR block has this label, at
/// its `nth` execution.
DynamicInstruction nthExecution(const KernelIR& ir, long long block, int warp, const std::string& label, int nth) {
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(block, warp);
  EXPECT_TRUE(s.ok());
  int seen = 0;
  for (const DynamicInstruction& d : *s) {
    if (ir.blocks[static_cast<size_t>(d.block)].label != label) continue;
    if (seen++ == nth) return d;
  }
  ADD_FAILURE() << "no execution " << nth << " of " << label;
  return {};
}

TEST(SkeletonAddresses, MatmulDirectLoadsWalkTheirSections) {
  // Default layout of MatMul 800×400×800: B = 1×256 (the last dimension j fills the block),
  // grid (x = ⌈800/256⌉ = 4, y = 800). Block 5 = (x 1, y 1): i = 1, j = 256 + lane for warp 0.
  const Skeleton sk = matmul();
  const LoweredLayout low = lower(sk, gpu("h100"));
  ASSERT_TRUE(low.kernel.ir.streams);
  EXPECT_EQ(low.launch.grid, (Dim3{4, 800, 1}));
  // ld A[i][k], execution k = 7: every lane reads A[1][7] (array 0, K = 400, 4 B).
  const DynamicInstruction a = nthExecution(low.kernel.ir, 5, 0, "ld A", 7);
  ASSERT_EQ(a.laneAddresses.size(), 32u);
  for (long long x : a.laneAddresses) EXPECT_EQ(x, kBase + (1 * 400 + 7) * 4);
  // ld B[k][j], execution k = 7, warp 2: lane l reads B[7][256 + 64 + l] (array 1, M = 800).
  const DynamicInstruction b = nthExecution(low.kernel.ir, 5, 2, "ld B", 7);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(b.laneAddresses[static_cast<size_t>(l)], 2 * kBase + (7 * 800 + 320 + l) * 4);
  // st C[i][j] runs once: C[1][256 + l] (array 2).
  const DynamicInstruction c = nthExecution(low.kernel.ir, 5, 0, "st C", 0);
  EXPECT_EQ(c.laneAddresses[3], 3 * kBase + (1 * 800 + 259) * 4);
  // Block 3 = (x 3, y 0) covers j = 768..1023: warp 0 ends at j = 799, warp 1 (j ≥ 800) is
  // past the loop space and inactive.
  const DynamicInstruction last = nthExecution(low.kernel.ir, 3, 0, "st C", 0);
  EXPECT_EQ(last.laneAddresses[31], 3 * kBase + 799 * 4);
  const DynamicInstruction edge = nthExecution(low.kernel.ir, 3, 1, "st C", 0);
  EXPECT_EQ(edge.laneAddresses[0], -1);
  EXPECT_EQ(edge.activeMask, 0u);
}

TEST(SkeletonAddresses, CachedLayoutFillsWalkTheBufferSection) {
  // B = 16×16, A and B cached, stage 16 over k: per stage the block loads A[i0..i0+16)[k0..k0+16)
  // into shared memory, thread t taking element t in row-major order: row t / 16, column t % 16.
  const Skeleton sk = matmul();
  Layout l;
  l.block = {16, 16};
  l.fold = {1, 1};
  l.stage = {16};
  l.order = {0};
  l.cached = 3;
  const LoweredLayout low = lower(sk, gpu("h100"), &l);
  ASSERT_TRUE(low.kernel.ir.streams);
  EXPECT_EQ(low.launch.grid, (Dim3{50, 50, 1}));
  // Block 51 = (x 1, y 1): i0 = 16, j0 = 16. Stage 2: k0 = 32. Warp 0, lane 17: A[16 + 1][32 + 1].
  const DynamicInstruction fa = nthExecution(low.kernel.ir, 51, 0, "fill A (k)", 2);
  EXPECT_EQ(fa.laneAddresses[17], kBase + (17 * 400 + 33) * 4);
  // B[k0 + 1][j0 + 1] = B[33][17].
  const DynamicInstruction fb = nthExecution(low.kernel.ir, 51, 0, "fill B (k)", 2);
  EXPECT_EQ(fb.laneAddresses[17], 2 * kBase + (33 * 800 + 17) * 4);
  // 25 stages, one fill of each buffer per thread and stage (256 elements, 256 threads).
  EXPECT_EQ(low.kernel.ir.blocks[static_cast<size_t>(fa.block)].executionsPerWarp, 25);
}

TEST(SkeletonAddresses, StreamingCopyFootprintIsBothArraysAndNothingHits) {
  // out[i] = in[i] over n = 2^22 floats: footprint 2 × n × 4 B = 32 MiB (in read, out written),
  // every load sector requested once: no L1 or L2 hit.
  const Skeleton sk = parse(R"(#define N 4194304
float In[N]; float Out[N]
parallel_for(N) : i {
  ld In[i]
  comp 1
  st Out[i]
}
)");
  const Gpu g = gpu("h100");
  const LoweredLayout low = lower(sk, g);
  Expected<MemoryTraffic> t = analyzeMemory(low.kernel.ir, nullptr, low.launch, g);
  ASSERT_TRUE(t.ok()) << t.error().format();
  const double n = 4194304;
  EXPECT_DOUBLE_EQ(t->compulsoryReadBytes, n * 4);  // exact: the sections over the loop space
  EXPECT_DOUBLE_EQ(t->compulsoryWriteBytes, n * 4);
  EXPECT_DOUBLE_EQ(t->loadSectors, n * 4 / 32);  // 4 sectors per warp request, n / 32 requests
  EXPECT_LT(t->l1HitRate(), 0.01);
  EXPECT_LT(t->l2HitRate(), 0.01);
  EXPECT_NEAR(t->dramReadSectors, n * 4 / 32, 0.01 * n * 4 / 32);
}

TEST(SkeletonAddresses, ASmallTableReadByEveryThreadHitsInTheCaches) {
  // Every thread reads the same 64 weights W[0..64) (256 B = 8 sectors) and one X[i]: the first
  // touch of each W sector on an SM misses, every later one hits L1; footprint
  // (n + 64) × 4 B read, n × 4 B written.
  const Skeleton sk = parse(R"(#define N 1048576
float X[N]; float W[64]; float Y[N]
parallel_for(N) : i {
  for k = 0:64 {
    ld W[k]
    comp 2
  }
  ld X[i]
  st Y[i]
}
)");
  const Gpu g = gpu("h100");
  const LoweredLayout low = lower(sk, g);
  Expected<MemoryTraffic> t = analyzeMemory(low.kernel.ir, nullptr, low.launch, g);
  ASSERT_TRUE(t.ok()) << t.error().format();
  const double n = 1048576;
  EXPECT_DOUBLE_EQ(t->compulsoryReadBytes, (n + 64) * 4);
  EXPECT_DOUBLE_EQ(t->compulsoryWriteBytes, n * 4);
  const SiteTraffic* w = nullptr;
  for (const SiteTraffic& s : t->sites) {
    if (low.kernel.ir.blocks[static_cast<size_t>(s.block)].label == "ld W") w = &s;
  }
  ASSERT_NE(w, nullptr);
  // 64 requests of 1 sector per warp (all lanes read the same word): n / 32 × 64 sectors.
  EXPECT_DOUBLE_EQ(w->sectors, n / 32 * 64);
  EXPECT_GT(w->l1Hits / w->sectors, 0.99);
  // Without addresses per execution every one of these sectors went to DRAM.
  EXPECT_LT(t->dramReadSectors, 1.05 * n * 4 / 32);
}

TEST(SkeletonAddresses, MatmulFootprintIsTheThreeMatricesNotTheSampledGrowth) {
  // MatMul 1024³ on the TK1 with 32×8 blocks (4096 blocks): A and B are read (4 MiB each), C
  // written (4 MiB). The engine's window-and-growth estimate from the streams alone gives
  // about 29 MB (every block row's B columns counted as new); the sections give it exactly.
  Expected<Skeleton> sk = parseSkeleton(kMatmul, "matmul.sk", {.macros = {{"N", 1024}, {"K", 1024}, {"M", 1024}}});
  ASSERT_TRUE(sk.ok());
  const Gpu g = gpu("tk1");
  Expected<Characterizer> ch = Characterizer::create(*sk, g, {});
  ASSERT_TRUE(ch.ok());
  Layout l = defaultLayout(*sk, *ch);
  l.block = {8, 32};
  Expected<LoweredLayout> low = lowerLayout(*ch, l);
  ASSERT_TRUE(low.ok());
  EXPECT_EQ(low->launch.blocks(), 4096);
  Expected<MemoryTraffic> t = analyzeMemory(low->kernel.ir, nullptr, low->launch, g);
  ASSERT_TRUE(t.ok()) << t.error().format();
  EXPECT_DOUBLE_EQ(t->compulsoryReadBytes, 2.0 * 1024 * 1024 * 4);
  EXPECT_DOUBLE_EQ(t->compulsoryWriteBytes, 1.0 * 1024 * 1024 * 4);
}

TEST(SkeletonAddresses, IndexDataWithoutASampleIsUnknownToTheEngine) {
  // IspinEx reads B[r][i] with r = I[n] and no sample of I: those loads are charged to DRAM and
  // stay out of the footprint, which is then the engine's estimate (no exact sections).
  Expected<Skeleton> sk = parseSkeleton(kIspinExSplit, "ispinex-split.sk", {});
  ASSERT_TRUE(sk.ok());
  const Gpu g = gpu("h100");
  const LoweredLayout low = lower(*sk, g);
  ASSERT_TRUE(low.kernel.ir.streams);
  EXPECT_FALSE(low.kernel.ir.streams->footprint());
  bool sawB = false;
  for (const BasicBlock& b : low.kernel.ir.blocks) {
    if (b.label != "ld B") continue;
    sawB = true;
    EXPECT_TRUE(b.instructions.front().memory->dataDependent);
  }
  EXPECT_TRUE(sawB);
  const DynamicInstruction d = nthExecution(low.kernel.ir, 1, 0, "ld B", 0);
  EXPECT_TRUE(d.laneAddresses.empty());
}

TEST(SkeletonAddresses, LongLoopsStayCheap) {
  // 1024 threads each walking 2^20 elements of a row: the engine and the emulated windows
  // must not materialise the grid (the stream of one warp is 2^21 instructions).
  const Skeleton sk = parse(R"(#define N 1024
#define K 1048576
float A[N][K]; float S[N]
parallel_for(N) : i {
  stream k = 0:K {
    ld A[i][k]
    comp 1
  }
  st S[i]
}
)");
  const Gpu g = gpu("h100");
  const LoweredLayout low = lower(sk, g);
  const auto start = std::chrono::steady_clock::now();
  Expected<SampledStream> s = low.kernel.ir.streams->sampled(2, 3, {4096, 256});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->instructions.size(), 4096u);
  EXPECT_GT(s->fullLength, 2.0 * 1048576);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 1.0);
}

}  // namespace
}  // namespace foresight::skeleton
