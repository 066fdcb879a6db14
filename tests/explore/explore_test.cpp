// SPDX-License-Identifier: Apache-2.0
#include "foresight/explore/explore.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "foresight/frontend/cuda/fixture_toolchain.h"
#include "foresight/frontend/cuda/system_toolchain.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/default_model.h"
#include "foresight/model/predict.h"
#include "foresight/report/explore_view.h"

namespace foresight {
namespace {

const std::string kFixtures = std::string(FORESIGHT_SOURCE_DIR) + "/tests/frontend/cuda/fixtures/";

/// vecadd's stored SASS over block sizes 64..2048 (2048 is over CUDA's 1024 limit), grid
/// cdiv(N, TX), n = N.
ExploreOptions vecaddSearch(const Gpu& gpu) {
  ExploreOptions o;
  o.input = kFixtures + "vecadd.sm_90.sass";
  o.inputOptions.gpu = &gpu;
  o.inputOptions.macros = {{"N", "1048576"}};
  EXPECT_TRUE(parseSpace("TX=64..2048:pow2", o.space));
  o.launch.grid = {"cdiv(N, TX)"};
  o.launch.block = {"TX"};
  o.launch.args = {{"n", "N"}};
  o.model = resolveDefaultModel(ModelOptions{}, InputKind::Cuda, &gpu);
  return o;
}

TEST(Explore, RanksEveryLaunchVariantWithPredictsOwnTimes) {
  const Gpu gpu = *loadPreset("h100");
  ExploreOptions o = vecaddSearch(gpu);
  long long told = 0;
  o.onVariant = [&](const ExploredVariant&, long long done, long long total) {
    EXPECT_EQ(total, 6);
    told = std::max(told, done);
  };
  Expected<ExploreResult> r = explore(o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(told, 6);
  EXPECT_EQ(r->spaceSize, 6);
  ASSERT_EQ(r->predicted, 5);  // 64 … 1024
  ASSERT_EQ(r->variants.size(), 6u);
  for (int i = 0; i + 1 < 5; ++i) {
    EXPECT_LE(r->variants[i].prediction->seconds, r->variants[i + 1].prediction->seconds);
  }
  // The infeasible block comes last with the launch-limit reason.
  const ExploredVariant& bad = r->variants.back();
  EXPECT_EQ(bad.values.at("TX"), 2048);
  EXPECT_FALSE(bad.prediction);
  EXPECT_NE(bad.error.find("1024"), std::string::npos) << bad.error;
  // Every ranked time is predict()'s for the same kernel and launch: grid 1048576 / TX.
  for (const ExploredVariant& v : r->variants) {
    if (!v.prediction) continue;
    const long long tx = v.values.at("TX");
    InputOptions io;
    io.gpu = &gpu;
    io.launch = *v.launch;
    Expected<LoadedInput> in = loadInput(o.input, io);
    ASSERT_TRUE(in) << in.error().format();
    EXPECT_EQ(v.launch->grid.x, 1048576 / tx);
    EXPECT_EQ(v.launch->block.x, tx);
    EXPECT_EQ(v.launch->args.at("n").integer, 1048576);
    Expected<Prediction> p = predict(in->kernels.front(), *v.launch, gpu, o.model);
    ASSERT_TRUE(p);
    EXPECT_DOUBLE_EQ(p->seconds, v.prediction->seconds) << "TX=" << tx;
  }
}

TEST(Explore, ArrayContentsAreExpressionsOfTheSpace) {
  // spmv's row_ptr = csr_rowptr:K per variant: K entries per row, no trip hint. The launch
  // each variant carries holds its contents (element 1 = K), and more entries take longer.
  const Gpu gpu = *loadPreset("h100");
  ExploreOptions o;
  o.input = kFixtures + "spmv_csr.sm_90.sass";
  o.inputOptions.gpu = &gpu;
  EXPECT_TRUE(parseSpace("K=4,16", o.space));
  o.launch.grid = {"256"};
  o.launch.block = {"128"};
  o.launch.args = {{"rows", "32768"}};
  o.launch.data = {{"row_ptr", "i32:csr_rowptr:K"}};
  o.model = resolveDefaultModel(ModelOptions{}, InputKind::Cuda, &gpu);
  Expected<ExploreResult> r = explore(o);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->predicted, 2) << r->variants[0].error;
  EXPECT_EQ(r->variants[0].values.at("K"), 4);  // ranked: fewer entries first
  for (const ExploredVariant& v : r->variants) {
    EXPECT_EQ(v.launch->arrayData.at("row_ptr").read(4, 4), static_cast<std::uint64_t>(v.values.at("K")));
  }
  // Contents without the grid and block expressions: no variant predicts, and the error says why.
  o.launch.grid.clear();
  o.launch.block.clear();
  Expected<ExploreResult> none = explore(o);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("--data needs the grid and block expressions (the launch whose arrays it fills)"),
            std::string::npos)
      << none.error().message;
}

TEST(Explore, TheRankingDoesNotDependOnTheThreads) {
  const Gpu gpu = *loadPreset("h100");
  ExploreOptions o = vecaddSearch(gpu);
  o.threads = 1;
  Expected<ExploreResult> one = explore(o);
  o.threads = 3;
  Expected<ExploreResult> three = explore(o);
  ASSERT_TRUE(one && three);
  ASSERT_EQ(one->variants.size(), three->variants.size());
  for (size_t i = 0; i < one->variants.size(); ++i) {
    EXPECT_EQ(one->variants[i].index, three->variants[i].index);
    EXPECT_EQ(one->variants[i].error, three->variants[i].error);
  }
}

TEST(Explore, RefusesLargeSpacesAndReportsWhenNothingPredicts) {
  const Gpu gpu = *loadPreset("h100");
  ExploreOptions o = vecaddSearch(gpu);
  o.maxVariants = 5;
  Expected<ExploreResult> big = explore(o);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().message, "the space has 6 variants, more than --max-variants 5 allows: narrow it, raise the limit or split it with --shard");
  // Every variant failing (a launch expression dividing by zero) is an Error with the reason.
  o = vecaddSearch(gpu);
  o.launch.grid = {"N / (TX - TX)"};
  Expected<ExploreResult> none = explore(o);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no variant could be predicted; the first: grid: "), std::string::npos)
      << none.error().message;
  // Grid without block.
  o = vecaddSearch(gpu);
  o.launch.block.clear();
  Expected<ExploreResult> half = explore(o);
  ASSERT_FALSE(half);
  EXPECT_NE(half.error().message.find("both the grid and the block"), std::string::npos) << half.error().message;
}

TEST(Explore, ReadsEachVariantAsEveryCommandReadsTheInput) {
  // A skeleton is its best layout for explore as for predict (loadWorkload()): GROPHECY's matmul
  // on the FX 5600 is 8.768387 ms (tests/workload/run_workload_test.cpp), whatever the (here
  // unused) parameter; loadInput() alone would have lowered the default layout.
  const Gpu fx = *loadPreset("fx5600");
  ExploreOptions o;
  o.input = std::string(FORESIGHT_SOURCE_DIR) + "/examples/skeleton/matmul.sk";
  o.inputOptions.gpu = &fx;
  EXPECT_TRUE(parseSpace("X=1,2", o.space));
  o.model = resolveDefaultModel(ModelOptions{}, InputKind::Skeleton, &fx);
  Expected<ExploreResult> r = explore(o);
  ASSERT_TRUE(r) << r.error().format();
  ASSERT_EQ(r->predicted, 2);
  EXPECT_EQ(r->frontend, "skeleton");
  for (const ExploredVariant& v : r->variants) {
    EXPECT_NEAR(v.prediction->seconds, 0.008768387345679012, 1e-15);
    EXPECT_EQ(v.launch->block, (Dim3{32, 16, 1}));
  }
  // A parameter that is also a fixed macro is refused by the library, for every caller.
  const Gpu h100 = *loadPreset("h100");
  ExploreOptions twice = vecaddSearch(h100);
  twice.inputOptions.macros.emplace_back("TX", "128");
  Expected<ExploreResult> refused = explore(twice);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "'TX' is both a -D macro and a --space parameter");
}

TEST(Explore, CompilesEachMacroVariantOfACudaSource) {
  auto tc = cuda::createSystemToolchain();
  if (tc->describe().nvcc.empty()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit or set CUDA_HOME)";
  const Gpu gpu = *loadPreset("h100");
  ExploreOptions o;
  o.input = std::string(FORESIGHT_SOURCE_DIR) + "/tests/explore/fixtures/scale_coarsened.cu";
  o.inputOptions.gpu = &gpu;
  o.inputOptions.macros = {{"N", "4194304"}};
  ASSERT_TRUE(parseSpace("COARSEN=1,4", o.space));
  o.launch.grid = {"cdiv(N, 256 * COARSEN)"};
  o.launch.block = {"256"};
  o.launch.args = {{"n", "N"}, {"a", "2.5"}};
  o.model = resolveDefaultModel(ModelOptions{}, InputKind::Cuda, &gpu);
  Expected<ExploreResult> r = explore(o);
  ASSERT_TRUE(r) << r.error().format();
  ASSERT_EQ(r->predicted, 2) << r->variants.back().error;
  EXPECT_EQ(r->variants[0].frontend, "cuda");
  EXPECT_EQ(r->variants[0].kernel, "scale");
  // Coarsening by 4 launches a quarter of the blocks; each variant's time is predict()'s on the
  // source compiled with its macro.
  for (const ExploredVariant& v : r->variants) {
    const long long c = v.values.at("COARSEN");
    EXPECT_EQ(v.launch->grid.x, 4194304 / (256 * c));
    EXPECT_TRUE(v.launch->args.at("a").isReal);
    InputOptions io = o.inputOptions;
    io.macros.emplace_back("COARSEN", std::to_string(c));
    io.launch = *v.launch;
    Expected<LoadedInput> in = loadInput(o.input, io);
    ASSERT_TRUE(in) << in.error().format();
    Expected<Prediction> p = predict(in->kernels.front(), *v.launch, gpu, o.model);
    ASSERT_TRUE(p);
    EXPECT_DOUBLE_EQ(p->seconds, v.prediction->seconds) << "COARSEN=" << c;
  }
}

TEST(Explore, DefineLine) {
  EXPECT_EQ(defineLine({{"TX", 256}, {"UNROLL", 2}}), "-D TX=256 -D UNROLL=2");
  EXPECT_EQ(defineLine({}), "");
}

}  // namespace
}  // namespace foresight

namespace foresight {
namespace {

/// The --json report of one search (or shard) of vecadd over block and problem sizes.
nlohmann::json report(const Gpu& gpu, long long shard, long long shards) {
  ExploreOptions o = vecaddSearch(gpu);
  o.space = {};
  o.inputOptions.macros.clear();
  EXPECT_TRUE(parseSpace("TX=32..2048:pow2,N=1048576,2097152,4194304", o.space));  // block and problem size
  o.shard = shard;
  o.shards = shards;
  Expected<ExploreResult> r = explore(o);
  EXPECT_TRUE(r) << r.error().message;
  return ExploreView(o.input, &gpu, o.space, std::move(*r), 0).toJson();
}

TEST(ExploreShards, TwoShardsMergeIntoTheUnsplitSearch) {
  const Gpu gpu = *loadPreset("h100");
  const nlohmann::json whole = report(gpu, 0, 1);
  const nlohmann::json a = report(gpu, 0, 2), b = report(gpu, 1, 2);
  // 7 x 3 = 21 variants: indices 0, 2, …, 20 (11) and 1, 3, …, 19 (10).
  EXPECT_EQ(a["variants"].size(), 11u);
  EXPECT_EQ(b["variants"].size(), 10u);
  EXPECT_EQ(a["shard"], nlohmann::json({0, 2}));
  Expected<nlohmann::json> merged = mergeExploreReports({b, a});
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_EQ(*merged, whole);  // every key: ranking, ranks, best, counts
  std::ostringstream x, y;
  printExploreText(*merged, 5, x);
  printExploreText(whole, 5, y);
  EXPECT_EQ(x.str(), y.str());
}

TEST(ExploreShards, MergeRefusesIncompleteOrForeignShards) {
  const Gpu gpu = *loadPreset("h100");
  const nlohmann::json a = report(gpu, 0, 2), b = report(gpu, 1, 2);
  EXPECT_EQ(mergeExploreReports({a}).error().message, "shard 1 of 2 is missing");
  EXPECT_EQ(mergeExploreReports({a, a}).error().message, "shard 0 is given twice");
  nlohmann::json other = b;
  other["gpu"] = "a100";
  EXPECT_EQ(mergeExploreReports({a, other}).error().message, "report 2 is of another search: its 'gpu' differs from the first's");
  EXPECT_EQ(mergeExploreReports({report(gpu, 0, 1)}).error().message,
            "report 1 is not the --json report of `explore --shard i/n`");
  nlohmann::json cut = b;
  cut.erase("gpu_full_name");
  EXPECT_EQ(mergeExploreReports({a, cut}).error().message, "report 2 lacks 'gpu_full_name' (not a report of this foresight?)");
  cut = b;
  cut["variants"][0].erase("time_s");
  EXPECT_EQ(mergeExploreReports({a, cut}).error().message, "report 2 has a malformed variant");
  ExploreOptions o = vecaddSearch(gpu);
  o.shard = 2;
  o.shards = 2;
  EXPECT_EQ(explore(o).error().message, "shard 2/2: the shard index runs from 0 to the shard count - 1");
}

}  // namespace
}  // namespace foresight
