// SPDX-License-Identifier: Apache-2.0
/// \file
/// Lowering layouts to KernelIR: the IR, summarised by the generic summarize() on the same GPU,
/// gives the characterizer's Table 2 counts, so any model sees the same kernel.
#include "foresight/frontend/skeleton/lowering.h"

#include <gtest/gtest.h>

#include "foresight/memory/summarize.h"
#include "skeleton_test_util.h"

namespace foresight::skeleton {
namespace {

using namespace testing_util;

class Lowering : public testing::TestWithParam<const char*> {};

TEST_P(Lowering, SummarizeReproducesTheCharacterizedCounts) {
  const Skeleton sk = matmul();
  const Gpu g = gpu(GetParam());
  Expected<Characterizer> ch = Characterizer::create(sk, g, {});
  ASSERT_TRUE(ch.ok());
  for (std::uint64_t cached : {0u, 3u}) {
    Layout l;
    l.block = {16, 16};
    l.fold = {1, 1};
    l.stage = {cached ? 16 : 0};
    l.cached = cached;
    Expected<LoweredLayout> low = lowerLayout(*ch, l, /*withSummary=*/false);
    ASSERT_TRUE(low.ok()) << low.error().format();
    EXPECT_FALSE(low->kernel.summary);
    EXPECT_EQ(low->launch.grid, (Dim3{50, 50, 1}));
    EXPECT_EQ(low->launch.block, (Dim3{16, 16, 1}));
    Expected<WorkloadSummary> w = summarize(low->kernel.ir, g);
    ASSERT_TRUE(w.ok()) << w.error().format();
    const LayoutStats& s = low->stats;
    EXPECT_DOUBLE_EQ(w->compInsts, s.compInsts);
    EXPECT_DOUBLE_EQ(w->synchInsts, s.synchInsts);
    EXPECT_DOUBLE_EQ(w->memInsts(), s.memInsts());
    EXPECT_DOUBLE_EQ(w->mem(AccessClass::Uncoalesced).insts, s.uncoalMemInsts);
    EXPECT_EQ(low->kernel.ir.resources.staticSharedBytes, s.sharedBytesPerBlock);
  }
}

INSTANTIATE_TEST_SUITE_P(Gpus, Lowering, testing::Values("fx5600", "c1060"));

TEST(Lowering, DefaultLayoutFillsTheLastDimensionFirst) {
  const Skeleton sk = matmul();
  Expected<Characterizer> ch = Characterizer::create(sk, gpu("fx5600"), {});
  ASSERT_TRUE(ch.ok());
  const Layout l = defaultLayout(sk, *ch);
  EXPECT_EQ(l.block, (std::vector<int>{1, 256}));
  EXPECT_EQ(l.stage, (std::vector<long long>{0}));
}

}  // namespace
}  // namespace foresight::skeleton
