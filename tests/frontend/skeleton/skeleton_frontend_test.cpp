// SPDX-License-Identifier: Apache-2.0
/// \file
/// Skeleton files through loadInput(): the default layout lowered for any model, -D macros,
/// sample files read relative to the skeleton, and their errors.
#include "foresight/frontend/skeleton/skeleton_frontend.h"

#include <gtest/gtest.h>

#include "foresight/frontend/input.h"
#include "foresight/model/predict.h"
#include "skeleton_test_util.h"

namespace foresight::skeleton {
namespace {

using namespace testing_util;

const std::string kDir = std::string(FORESIGHT_SOURCE_DIR) + "/examples/skeleton/";

TEST(SkeletonFrontend, LoadInputLowersTheDefaultLayout) {
  const Gpu g = gpu("fx5600");
  InputOptions options;
  options.gpu = &g;
  Expected<LoadedInput> in = loadInput(kDir + "matmul.sk", options);
  ASSERT_TRUE(in.ok()) << in.error().format();
  EXPECT_EQ(in->frontend, "skeleton");
  ASSERT_EQ(in->kernels.size(), 1u);
  ASSERT_TRUE(in->launch);
  EXPECT_EQ(in->launch->block, (Dim3{256, 1, 1}));  // 256 threads along j (threadIdx.x)
  EXPECT_EQ(in->launch->grid, (Dim3{4, 800, 1}));
  ASSERT_TRUE(in->kernels[0].summary);
  // Any model takes it: predict() on the lowered kernel.
  Expected<Prediction> p = predict(in->kernels[0], *in->launch, g, ModelOptions{});
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_GT(p->seconds, 0);
}

TEST(SkeletonFrontend, MacrosFromTheCommandLine) {
  InputOptions options;
  options.macros = {{"N", "64"}};
  Expected<LoadedInput> in = loadInput(kDir + "matmul.sk", options);
  ASSERT_TRUE(in.ok()) << in.error().format();
  EXPECT_EQ(in->launch->grid.y, 64);
  EXPECT_FALSE(in->kernels[0].summary);  // no GPU: summarize() derives it later
  options.macros = {{"N", "big"}};
  EXPECT_FALSE(loadInput(kDir + "matmul.sk", options).ok());
}

TEST(SkeletonFrontend, SampleFilesAreReadRelativeToTheSkeleton) {
  Expected<Skeleton> sk = loadSkeletonFile(kDir + "spinflap.sk");
  ASSERT_TRUE(sk.ok()) << sk.error().format();
  const Array& m = sk->arrays[static_cast<size_t>(sk->findArray("M"))];
  ASSERT_EQ(m.sample.size(), 2048u);  // 512 × 4
  EXPECT_EQ(m.sample[0], 1);          // 0 XOR 1
  // The paper's listing names ".M.txt", which does not exist next to a string: parse only.
  Expected<Skeleton> missing = loadSkeletonFromString(kSpinFlap, "spinflap.sk", kDir);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot read sample file"), std::string::npos);
  EXPECT_EQ(missing.error().line, 3);
}

}  // namespace
}  // namespace foresight::skeleton
