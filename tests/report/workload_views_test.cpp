// SPDX-License-Identifier: Apache-2.0
/// \file
/// WorkloadPredictionView picks the report that fits predictWorkload()'s result — the same one
/// for the CLI, batch and Python — and WorkloadLayoutsView ranks a skeleton's layouts.
#include "foresight/report/workload_views.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "foresight/gpu/presets.h"

namespace foresight {
namespace {

const std::string kExamples = std::string(FORESIGHT_SOURCE_DIR) + "/examples/";

WorkloadPrediction predicted(const std::string& path, std::vector<const Gpu*> gpus) {
  PredictOptions o;
  o.gpus = std::move(gpus);
  Expected<WorkloadPrediction> r = predictWorkload(kExamples + path, o);
  EXPECT_TRUE(r.ok()) << r.error().format();
  return r.ok() ? std::move(*r) : WorkloadPrediction{};
}

TEST(WorkloadViews, TheViewFollowsTheResultsShape) {
  const Gpu fx = *loadPreset("fx5600");
  const Gpu h100 = *loadPreset("h100");
  const WorkloadPredictionView one(predicted("summary/matmul-fx5600.toml", {&fx}));
  EXPECT_EQ(one.name(), "prediction");
  EXPECT_NEAR(one.toJson()["time_s"].get<double>(), 8.900e-3, 0.0005e-3);
  const WorkloadPredictionView two(predicted("summary/matmul-fx5600.toml", {&fx, &h100}));
  EXPECT_EQ(two.name(), "gpu_comparison");
  ASSERT_TRUE(two.toJson().is_array());
  EXPECT_EQ(two.toJson().size(), 2u);
  const WorkloadPredictionView sk(predicted("skeleton/matmul.sk", {&fx}));
  EXPECT_EQ(sk.name(), "skeleton_prediction");
  const nlohmann::json j = sk.toJson();
  EXPECT_NEAR(j["time_s"].get<double>(), 0.008768387345679012, 1e-15);
  EXPECT_TRUE(j.contains("layout") && j.contains("search"));
  std::ostringstream text;
  sk.printText(text);  // the view points at the skeleton it keeps
  EXPECT_NE(text.str().find("B=16x32"), std::string::npos);
}

TEST(WorkloadViews, LayoutsRankedFromTheSameResult) {
  const Gpu fx = *loadPreset("fx5600");
  WorkloadPrediction r = predicted("skeleton/matmul.sk", {&fx});
  ASSERT_TRUE(hasLayouts(r));
  const WorkloadLayoutsView view(std::move(r), 3);
  EXPECT_EQ(view.name(), "layout_ranking");
  std::ostringstream csv;
  view.printCsv(csv);
  // A header and the first three of 19162 layouts.
  const std::string rows = csv.str();
  EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 4);
  EXPECT_FALSE(hasLayouts(predicted("summary/matmul-fx5600.toml", {&fx})));
}

}  // namespace
}  // namespace foresight
