// SPDX-License-Identifier: Apache-2.0
/// \file
/// predictWorkload() and explainWorkload(): every input kind through one entry point — a C
/// program's runs, a skeleton's layouts, a summary on several GPUs — with the numbers the CLI's
/// goldens print for the same inputs.
#include "foresight/workload/run_workload.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "foresight/frontend/cloop/program.h"
#include "foresight/gpu/presets.h"
#include "test_support.h"

namespace foresight {
namespace {

const std::string kExamples = std::string(FORESIGHT_SOURCE_DIR) + "/examples/";

using testing_support::preset;

bool hasWarning(const Prediction& p, const std::string& start) {
  return std::any_of(p.warnings.begin(), p.warnings.end(), [&](const std::string& w) { return w.rfind(start, 0) == 0; });
}

TEST(RunWorkload, ProgramPredictsEveryKernelOfARun) {
  if (!cloop::cloopAvailable()) GTEST_SKIP() << "no LLVM for the C loop frontend";
  const Gpu tk1 = preset("tk1");
  PredictOptions o;
  o.gpus = {&tk1};
  Expected<WorkloadPrediction> r = predictWorkload(kExamples + "cloop/atax.c", o);
  ASSERT_TRUE(r.ok()) << r.error().format();
  ASSERT_EQ(r->gpus.size(), 1u);
  const GpuPrediction& g = r->gpus[0];
  EXPECT_TRUE(g.program);
  EXPECT_EQ(g.frontend, "cloop");
  ASSERT_EQ(g.kernels.size(), 2u);
  // tests/golden/cloop/predict-atax-tk1.out: atax_tmp 198.161 ms, atax_y 13.553 ms, once per run,
  // each on grid 16, block 256, each with its own frontend note.
  EXPECT_EQ(g.kernels[0].kernel, "atax_tmp");
  EXPECT_EQ(g.kernels[1].kernel, "atax_y");
  EXPECT_NEAR(g.kernels[0].prediction.seconds, 198.161e-3, 0.0005e-3);
  EXPECT_NEAR(g.kernels[1].prediction.seconds, 13.553e-3, 0.0005e-3);
  EXPECT_EQ(g.kernels[1].launchesPerRun, 1);
  EXPECT_EQ(g.kernels[1].launch.grid, (Dim3{16, 1, 1}));
  EXPECT_TRUE(hasWarning(g.kernels[0].prediction, "cloop: kernel 'atax_tmp'"));
  EXPECT_FALSE(hasWarning(g.kernels[0].prediction, "cloop: kernel 'atax_y'"));
  // --kernel: that kernel's run only; an unknown name is the frontend's error.
  o.workload.input.kernel = "atax_y";
  Expected<WorkloadPrediction> one = predictWorkload(kExamples + "cloop/atax.c", o);
  ASSERT_TRUE(one.ok()) << one.error().format();
  ASSERT_EQ(one->gpus[0].kernels.size(), 1u);
  EXPECT_EQ(one->gpus[0].kernels[0].kernel, "atax_y");
  EXPECT_NEAR(one->gpus[0].kernels[0].prediction.seconds, 13.553e-3, 0.0005e-3);
  // explain takes one kernel (workloadRun()): a program of two needs a name.
  ExplainWorkloadOptions eo;
  eo.gpu = &tk1;
  eo.workload = o.workload;
  eo.workload.input.kernel.clear();
  Expected<WorkloadExplanation> two = explainWorkload(kExamples + "cloop/atax.c", eo);
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.error().message.rfind("the input has 2 kernels; choose one with --kernel", 0), 0u) << two.error().message;
}

TEST(RunWorkload, SkeletonKeepsItsLayoutsAndPredictsTheWinner) {
  const Gpu fx = preset("fx5600");
  PredictOptions o;
  o.gpus = {&fx};
  Expected<WorkloadPrediction> r = predictWorkload(kExamples + "skeleton/matmul.sk", o);
  ASSERT_TRUE(r.ok()) << r.error().format();
  const GpuPrediction& g = r->gpus[0];
  ASSERT_TRUE(g.layouts);
  EXPECT_FALSE(g.program);
  // `foresight predict examples/skeleton/matmul.sk --gpu fx5600`: 19162 feasible layouts, the best
  // B=16x32 F=2x25 at 8.768387 ms, predicted by GROPHECY's variant.
  EXPECT_EQ(g.layouts->report.result.layouts.size(), 19162u);
  EXPECT_NEAR(g.layouts->report.best.seconds, 0.008768387345679012, 1e-15);
  ASSERT_EQ(g.kernels.size(), 1u);
  EXPECT_EQ(g.kernels[0].prediction.seconds, g.layouts->report.best.seconds);
  EXPECT_EQ(g.model.variant, MwpCwpVariant::Grophecy);
  EXPECT_TRUE(hasWarning(g.kernels[0].prediction, "skeleton: the best layout B=16x32 F=2x25"));
  EXPECT_FALSE(hasWarning(g.layouts->report.best, "skeleton:"));  // the search's report carries no notes
  // A grid does not apply (it follows from the layout); a block pins the layout's.
  o.workload.launch.grid = Dim3{7, 7, 1};
  Expected<WorkloadPrediction> grid = predictWorkload(kExamples + "skeleton/matmul.sk", o);
  ASSERT_FALSE(grid.ok());
  EXPECT_NE(grid.error().message.find("a grid does not apply to skeletons"), std::string::npos);
  o.workload.launch.grid.reset();
  o.workload.launch.block = Dim3{16, 16, 1};
  Expected<WorkloadPrediction> pinned = predictWorkload(kExamples + "skeleton/matmul.sk", o);
  ASSERT_TRUE(pinned.ok()) << pinned.error().format();
  EXPECT_EQ(pinned->gpus[0].kernels[0].launch.block, (Dim3{16, 16, 1}));
}

TEST(RunWorkload, SeveralGpusInTheOrderGiven) {
  const Gpu fx = preset("fx5600");
  const Gpu h100 = preset("h100");
  PredictOptions o;
  o.gpus = {&fx, &h100};
  Expected<WorkloadPrediction> r = predictWorkload(kExamples + "summary/matmul-fx5600.toml", o);
  ASSERT_TRUE(r.ok()) << r.error().format();
  ASSERT_EQ(r->gpus.size(), 2u);
  EXPECT_EQ(r->gpus[0].gpu, &fx);
  EXPECT_EQ(r->gpus[1].gpu, &h100);
  // tests/golden/predict/matmul-fx5600.out: 8.900 ms (the README's first command).
  EXPECT_NEAR(r->gpus[0].kernels[0].prediction.seconds, 8.900e-3, 0.0005e-3);
  EXPECT_LT(r->gpus[1].kernels[0].prediction.seconds, r->gpus[0].kernels[0].prediction.seconds);
}

TEST(RunWorkload, Errors) {
  const Gpu fx = preset("fx5600");
  PredictOptions o;
  Expected<WorkloadPrediction> none = predictWorkload(kExamples + "summary/matmul-fx5600.toml", o);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "predict needs at least one GPU");
  // A model's error names the input and the GPU.
  o.gpus = {&fx};
  o.workload.launch.block = Dim3{2048, 1, 1};
  Expected<WorkloadPrediction> big = predictWorkload(kExamples + "summary/matmul-fx5600.toml", o);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().file, kExamples + "summary/matmul-fx5600.toml");
  EXPECT_EQ(big.error().message.rfind("on GPU 'fx5600': block 2048,1,1 exceeds CUDA's block limits", 0), 0u)
      << big.error().message;
  // A kernel binary without a launch.
  const Gpu h100 = preset("h100");
  o.gpus = {&h100};
  o.workload.launch = {};
  const std::string sass = std::string(FORESIGHT_SOURCE_DIR) + "/tests/frontend/cuda/fixtures/vecadd.sm_90.sass";
  Expected<WorkloadPrediction> noLaunch = predictWorkload(sass, o);
  ASSERT_FALSE(noLaunch.ok());
  // The CUDA frontend's own message (a summary without a launch gets workloadRuns()'s).
  EXPECT_EQ(noLaunch.error().message, "CUDA inputs need a launch; pass --grid and --block");
}

TEST(RunWorkload, ExplainsASkeletonsBestLayout) {
  const Gpu fx = preset("fx5600");
  ExplainWorkloadOptions o;
  o.gpu = &fx;
  Expected<WorkloadExplanation> r = explainWorkload(kExamples + "skeleton/matmul.sk", o);
  ASSERT_TRUE(r.ok()) << r.error().format();
  EXPECT_EQ(r->frontend, "skeleton");
  EXPECT_EQ(r->launch.block, (Dim3{32, 16, 1}));  // the layout predict reports
  EXPECT_NEAR(r->result.prediction.seconds, 0.008768387345679012, 1e-15);
  EXPECT_TRUE(hasWarning(r->result.prediction, "skeleton: the best layout B=16x32 F=2x25"));
  EXPECT_FALSE(r->result.sensitivity.entries.empty());
  ExplainWorkloadOptions noGpu;
  EXPECT_FALSE(explainWorkload(kExamples + "skeleton/matmul.sk", noGpu).ok());
}

}  // namespace
}  // namespace foresight
