// SPDX-License-Identifier: Apache-2.0
/// \file
/// loadWorkload(): a skeleton means its best layout everywhere (predict, explain, batch, Python,
/// validate), with the block of a launch pinning it; other inputs are loadInput()'s.
#include "foresight/workload/workload.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "foresight/advise/layout_search.h"
#include "foresight/api/requests.h"
#include "foresight/frontend/skeleton/skeleton_frontend.h"
#include "foresight/gpu/presets.h"
#include "test_support.h"
#include "foresight/model/predict.h"

namespace foresight {
namespace {

const std::string kExamples = std::string(FORESIGHT_SOURCE_DIR) + "/examples/";

using testing_support::preset;

TEST(Workload, SkeletonIsItsBestLayout) {
  const Gpu fx = preset("fx5600");
  WorkloadOptions o;
  o.input.gpu = &fx;
  Expected<Workload> w = loadWorkload(kExamples + "skeleton/matmul.sk", o);
  ASSERT_TRUE(w.ok()) << w.error().format();
  EXPECT_EQ(w->frontend, "skeleton");
  ASSERT_EQ(w->kernels.size(), 1u);
  ASSERT_TRUE(w->launch);
  // `foresight predict examples/skeleton/matmul.sk --gpu fx5600`'s layout B=16x32 F=2x25:
  // 32 threads along j (x) and 16 along i, 2x25 tasks per thread over 800x800 -> grid 1x25.
  EXPECT_EQ(w->launch->block, (Dim3{32, 16, 1}));
  EXPECT_EQ(w->launch->grid, (Dim3{1, 25, 1}));
  ASSERT_FALSE(w->notes.empty());
  EXPECT_EQ(w->notes.back(),
            "skeleton: the best layout B=16x32 F=2x25 S=k:32 C={A,B} L=unroll of 19162 feasible on fx5600 "
            "(mwp-cwp/grophecy)");
  // The same kernel the search ranked first: its predicted time is the CLI's (8.768387 ms).
  Expected<Prediction> p = predict(w->kernels[0], *w->launch, fx, ModelOptions{});
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_NEAR(p->seconds, 0.008768387345679012, 1e-15);
  // loadInput() alone gives the default layout (256 threads along j): a different launch.
  Expected<LoadedInput> plain = loadInput(kExamples + "skeleton/matmul.sk", o.input);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->launch->block, (Dim3{256, 1, 1}));
}

TEST(Workload, LaunchBlockPinsTheSkeletonsThreadBlock) {
  const Gpu fx = preset("fx5600");
  WorkloadOptions o;
  o.input.gpu = &fx;
  Launch l;
  l.block = {16, 16, 1};
  l.grid = {7, 7, 1};  // ignored: the grid follows from the layout
  o.input.launch = l;
  Expected<Workload> w = loadWorkload(kExamples + "skeleton/matmul.sk", o);
  ASSERT_TRUE(w.ok()) << w.error().format();
  EXPECT_EQ(w->launch->block, (Dim3{16, 16, 1}));
  EXPECT_NE(w->launch->grid, (Dim3{7, 7, 1}));
  l.block = {16, 4, 2};  // matmul's parallel_for has two dimensions
  o.input.launch = l;
  Expected<Workload> bad = loadWorkload(kExamples + "skeleton/matmul.sk", o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("more dimensions than the skeleton's parallel_for (2)"), std::string::npos);
}

TEST(Workload, SkeletonErrors) {
  const Gpu fx = preset("fx5600");
  WorkloadOptions o;
  Expected<Workload> noGpu = loadWorkload(kExamples + "skeleton/matmul.sk", o);
  ASSERT_FALSE(noGpu.ok());
  EXPECT_NE(noGpu.error().message.find("needs a target GPU"), std::string::npos);
  o.input.gpu = &fx;
  o.input.macros = {{"N", "eight"}};
  Expected<Workload> macro = loadWorkload(kExamples + "skeleton/matmul.sk", o);
  ASSERT_FALSE(macro.ok());
  EXPECT_EQ(macro.error().message, "-D N=eight: a skeleton's macros are integers");
}

TEST(Workload, OtherInputsAreLoadInputs) {
  WorkloadOptions o;
  Expected<Workload> w = loadWorkload(kExamples + "summary/matmul-fx5600.toml", o);
  Expected<LoadedInput> in = loadInput(kExamples + "summary/matmul-fx5600.toml", o.input);
  ASSERT_TRUE(w.ok() && in.ok());
  EXPECT_EQ(w->frontend, in->frontend);
  EXPECT_EQ(w->launch->grid, in->launch->grid);
  EXPECT_EQ(w->notes, in->notes);
}

TEST(Workload, JsonRequestsPredictTheBestLayoutAsTheCliDoes) {
  // batch and the Python module used to lower a skeleton's default layout (issue 13).
  Expected<std::string> r =
      predictRequest(R"({"path": ")" + kExamples + R"(skeleton/matmul.sk", "gpu": "fx5600"})");
  ASSERT_TRUE(r.ok()) << r.error().format();
  const nlohmann::json j = nlohmann::json::parse(*r);
  EXPECT_NEAR(j["time_s"].get<double>(), 0.008768387345679012, 1e-15);
  EXPECT_EQ(j["launch"]["block"], nlohmann::json::array({32, 16, 1}));
}

}  // namespace
}  // namespace foresight
