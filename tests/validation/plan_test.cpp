// SPDX-License-Identifier: Apache-2.0
/// \file
/// The plan the library writes is the plan the runner reads: writePlan → runner::parsePlan on a
/// manifest exercising every record, and on the whole shipped corpus.
#include "foresight/validation/plan.h"

#include <gtest/gtest.h>

#include "host/plan_reader.h"

namespace foresight {
namespace {

ResolvedExperiment sample() {
  ResolvedExperiment e;
  e.experiment = "mm";
  e.variant = "t16";
  e.source = "validation/matmul/mm.cu";
  e.rotate = false;
  e.flush = true;
  e.defines = {{"N", 64}, {"TILE", 16}};
  e.buffers.push_back({"A", ElemType::F32, 4096, "random", {}, 0, BufferRole::Input});
  e.buffers.push_back({"rp", ElemType::I32, 65, "csr_rowptr", {4}, 0, BufferRole::Input});
  e.buffers.push_back({"c", ElemType::F64, 2, "constant", {}, 0.25, BufferRole::InOut});
  e.buffers.push_back({"C", ElemType::F32, 4096, "poison", {}, 0, BufferRole::Output});
  e.scalars.push_back({"n", ElemType::I32, 64, 0});
  e.scalars.push_back({"alpha", ElemType::F32, 0, 1.5});
  ResolvedLaunch l;
  l.kernel = "mm";
  l.launch.grid = {4, 4, 1};
  l.launch.block = {16, 16, 1};
  l.launch.dynamicSharedBytes = 2048;
  l.repeat = 3;
  l.args = {"A", "C", "n", "alpha"};
  e.launches.push_back(l);
  l.launch.carveoutPercent = 9;
  l.repeat = 1;
  e.launches.push_back(l);
  e.check = ResolvedCheck{"gemm", "C", {"A", "A"}, {64, 64, 64}, 1e-4};
  return e;
}

TEST(Plan, WrittenTextIsDocumented) {
  EXPECT_EQ(writePlan({sample()}),
            "foresight-plan 1\n"
            "experiment mm t16\n"
            "source validation/matmul/mm.cu\n"
            "rotate 0\n"
            "reinit 0\n"
            "flush 1\n"
            "define N 64\n"
            "define TILE 16\n"
            "buffer A f32 4096 input random\n"
            "buffer rp i32 65 input csr_rowptr 4\n"
            "buffer c f64 2 inout constant 0.25\n"
            "buffer C f32 4096 output poison\n"
            "scalar n i32 64\n"
            "scalar alpha f32 1.5\n"
            "launch mm 4 4 1 16 16 1 2048 3 A C n alpha\n"
            "launch mm 4 4 1 16 16 1 2048 1 A C n alpha\n"
            "carveout 9\n"
            "check gemm C 0.0001 inputs A A params 64 64 64\n"
            "end\n");
}

TEST(Plan, RunnerReadsWhatTheLibraryWrites) {
  std::vector<runner::PlanExperiment> plan;
  std::string error;
  ASSERT_TRUE(runner::parsePlan(writePlan({sample(), sample()}), plan, error)) << error;
  ASSERT_EQ(plan.size(), 2u);
  const runner::PlanExperiment& e = plan[0];
  EXPECT_EQ(e.name, "mm");
  EXPECT_EQ(e.variant, "t16");
  EXPECT_FALSE(e.rotate);
  EXPECT_FALSE(e.reinit);
  EXPECT_TRUE(e.flush);
  ASSERT_EQ(e.defines.size(), 2u);
  EXPECT_EQ(e.defines[1], (std::pair<std::string, long long>{"TILE", 16}));
  ASSERT_EQ(e.buffers.size(), 4u);
  EXPECT_EQ(e.buffers[1].params, std::vector<long long>{4});
  EXPECT_DOUBLE_EQ(e.buffers[2].value, 0.25);
  EXPECT_EQ(e.buffers[3].role, "output");
  EXPECT_EQ(e.totalBytes(), 4096 * 4 + 65 * 4 + 2 * 8 + 4096 * 4);
  EXPECT_DOUBLE_EQ(e.scalar("alpha")->floatValue, 1.5);
  EXPECT_EQ(e.scalar("n")->intValue, 64);
  ASSERT_EQ(e.launches.size(), 2u);
  EXPECT_EQ(e.launches[0].carveout, -1);  // none written: the driver's choice
  EXPECT_EQ(e.launches[1].carveout, 9);
  EXPECT_EQ(e.launches[0].grid[1], 4);
  EXPECT_EQ(e.launches[0].block[0], 16);
  EXPECT_EQ(e.launches[0].sharedBytes, 2048);
  EXPECT_EQ(e.launches[0].repeat, 3);
  EXPECT_EQ(e.launches[0].args, (std::vector<std::string>{"A", "C", "n", "alpha"}));
  ASSERT_TRUE(e.hasCheck);
  EXPECT_EQ(e.check.params, (std::vector<long long>{64, 64, 64}));
  EXPECT_DOUBLE_EQ(e.check.tolerance, 1e-4);
}

TEST(Plan, RunnerRejectsMalformedPlans) {
  std::vector<runner::PlanExperiment> plan;
  std::string error;
  EXPECT_FALSE(runner::parsePlan("", plan, error));
  EXPECT_EQ(error, "line 0: empty plan");
  EXPECT_FALSE(runner::parsePlan("foresight-plan 2\n", plan, error));
  EXPECT_EQ(error, "line 1: not a foresight-plan 1 file");
  EXPECT_FALSE(runner::parsePlan(
      "foresight-plan 1\nexperiment a b\nsource x.cu\nbuffer A f16 4 input zero\n", plan, error));
  EXPECT_EQ(error, "line 4: unknown type 'f16'");
  EXPECT_FALSE(runner::parsePlan(
      "foresight-plan 1\nexperiment a b\nsource x.cu\nlaunch k 1 1 1 32 1 1 0 1 B\nend\n", plan,
      error));
  EXPECT_EQ(error, "line 5: launch argument 'B' is neither a buffer nor a scalar");
  EXPECT_FALSE(runner::parsePlan("foresight-plan 1\nexperiment a b\nsource x.cu\n", plan, error));
  EXPECT_EQ(error, "line 3: missing 'end'");
  EXPECT_FALSE(runner::parsePlan("foresight-plan 1\nexperiment a b\nsource x.cu\ncarveout 9\nend\n", plan, error));
  EXPECT_EQ(error, "line 4: 'carveout' must follow the launch it applies to");
  EXPECT_FALSE(runner::parsePlan(
      "foresight-plan 1\nexperiment a b\nsource x.cu\nlaunch k 1 1 1 32 1 1 0 1\ncarveout 101\nend\n", plan, error));
  EXPECT_EQ(error, "line 5: bad carveout '101' (a percentage in 0..100)");
  // Found by the plan fuzz target: counts × 4 bytes overflowed in totalBytes().
  EXPECT_FALSE(runner::parsePlan(
      "foresight-plan 1\nexperiment a b\nsource x.cu\nbuffer A f32 9223372036854775807 input zero\nend\n", plan, error));
  EXPECT_EQ(error, "line 4: bad buffer count '9223372036854775807'");
}

TEST(Plan, WholeCorpusRoundTrips) {
  Expected<std::vector<Manifest>> corpus =
      loadCorpus(std::string(FORESIGHT_SOURCE_DIR) + "/validation");
  ASSERT_TRUE(corpus.ok()) << corpus.error().format();
  std::vector<ResolvedExperiment> all;
  for (const Manifest& m : *corpus) {
    for (const VariantSpec& v : m.variants) {
      Expected<ResolvedExperiment> r = resolveVariant(m, v);
      ASSERT_TRUE(r.ok()) << r.error().format();
      all.push_back(*r);
    }
  }
  std::vector<runner::PlanExperiment> plan;
  std::string error;
  ASSERT_TRUE(runner::parsePlan(writePlan(all), plan, error)) << error;
  ASSERT_EQ(plan.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(plan[i].totalBytes(), all[i].totalBytes()) << all[i].experiment;
    EXPECT_EQ(plan[i].launches.size(), all[i].launches.size());
  }
}

}  // namespace
}  // namespace foresight
