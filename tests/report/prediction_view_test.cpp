// SPDX-License-Identifier: Apache-2.0
/// \file
/// The report views: PredictionView's JSON keys (the `--json` contract of ARCHITECTURE.md) and
/// text lines for GROPHECY's tiled MatMul on fx5600, and GpuListView's table.
#include "foresight/report/prediction_view.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "foresight/frontend/summary/summary_frontend.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/predict.h"
#include "foresight/report/gpu_views.h"

namespace foresight {
namespace {

constexpr const char* kExample = FORESIGHT_SOURCE_DIR "/examples/summary/matmul-fx5600.toml";

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// The first line starting with `prefix`, or "".
std::string lineStartingWith(const std::string& text, const std::string& prefix) {
  for (const std::string& line : splitLines(text)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

/// The number on the headline line "NAME       value" of the text report; NaN when absent.
double headlineValue(const std::string& text, const std::string& name) {
  const std::string line = lineStartingWith(text, name + " ");
  EXPECT_FALSE(line.empty()) << "no line for " << name << " in\n" << text;
  if (line.empty()) return std::nan("");
  EXPECT_EQ(line.find_first_not_of(' ', name.size()), 11u) << line;  // value in column 12
  return std::stod(line.substr(name.size()));
}

class MatmulView : public ::testing::Test {
 protected:
  void SetUp() override {
    Expected<LoadedInput> input = loadSummaryFile(kExample);
    ASSERT_TRUE(input.ok()) << input.error().format();
    Expected<Gpu> gpu = loadPreset("fx5600");
    ASSERT_TRUE(gpu.ok()) << gpu.error().format();
    gpu_ = *gpu;
    Expected<Prediction> p = predict(input->kernels[0], *input->launch, gpu_, ModelOptions{});
    ASSERT_TRUE(p.ok()) << p.error().format();
    prediction_ = *p;
    context_.input = "examples/summary/matmul-fx5600.toml";
    context_.frontend = input->frontend;
    context_.kernel = input->kernels[0].ir.name;
    context_.gpu = &gpu_;
    context_.launch = *input->launch;
  }

  Gpu gpu_;
  Prediction prediction_;
  PredictionContext context_;
};

TEST_F(MatmulView, JsonHasTheDocumentedKeys) {
  const PredictionView view(context_, prediction_);
  EXPECT_EQ(view.name(), "prediction");
  const nlohmann::json j = view.toJson();
  EXPECT_EQ(j.at("input"), "examples/summary/matmul-fx5600.toml");
  EXPECT_EQ(j.at("frontend"), "summary");
  EXPECT_EQ(j.at("kernel"), "matmul_tiled");
  EXPECT_EQ(j.at("gpu"), "fx5600");
  EXPECT_EQ(j.at("model"), "mwp-cwp");
  EXPECT_EQ(j.at("variant"), "grophecy");
  EXPECT_EQ(j.at("launch").at("grid"), nlohmann::json::array({50, 50, 1}));
  EXPECT_EQ(j.at("launch").at("block"), nlohmann::json::array({16, 16, 1}));
  EXPECT_EQ(j.at("occupancy").at("blocks_per_sm"), 3);   // 24 warps / 8 per block
  EXPECT_EQ(j.at("occupancy").at("warps_per_sm"), 24);
  EXPECT_EQ(j.at("occupancy").at("limiter"), "warps");
  EXPECT_NEAR(j.at("cycles").get<double>(), 12015208.333, 0.01);  // predict_test.cpp's hand total
  EXPECT_NEAR(j.at("time_s").get<double>(), 8.900154e-3, 1e-9);   // / 1.35 GHz
  EXPECT_EQ(j.at("bound").at("resource"), "issue");
  EXPECT_EQ(j.at("bound").at("mode"), "throughput");
  ASSERT_TRUE(j.at("resources").is_array());
  ASSERT_EQ(j.at("resources").size(), 2u);
  EXPECT_EQ(j.at("resources")[0].at("name"), "issue");
  EXPECT_NEAR(j.at("resources")[0].at("utilization").get<double>(), 0.970437, 1e-6);  // 11.66M / 12.015M
  EXPECT_EQ(j.at("resources")[1].at("name"), "dram");
  EXPECT_NEAR(j.at("resources")[1].at("utilization").get<double>(), 0.191008, 1e-6);  // 2.295M / 12.015M
  ASSERT_TRUE(j.at("values").is_object());
  EXPECT_NEAR(j.at("values").at("MWP").get<double>(), 11.6667, 1e-4);  // 76.8 / (0.41143 x 16)
  EXPECT_NEAR(j.at("values").at("CWP").get<double>(), 3.2963, 1e-4);   // 30748 / 9328
  EXPECT_EQ(j.at("values").at("N"), 24.0);
  EXPECT_EQ(j.at("values").size(), prediction_.values.size());  // one key per model value
  ASSERT_TRUE(j.at("warnings").is_array());
  ASSERT_EQ(j.at("warnings").size(), 1u);
  EXPECT_EQ(j.at("warnings")[0], "registers per thread unknown: occupancy ignores the register limit");
}

TEST_F(MatmulView, TextHasTimeBoundAndMwpLines) {
  const PredictionView view(context_, prediction_);
  std::ostringstream os;
  view.printText(os);
  const std::string text = os.str();
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(lineStartingWith(text, "input "),
            "input      examples/summary/matmul-fx5600.toml (summary frontend)");
  EXPECT_EQ(lineStartingWith(text, "kernel "), "kernel     matmul_tiled");
  EXPECT_EQ(lineStartingWith(text, "gpu "), "gpu        fx5600: NVIDIA Quadro FX 5600, 16 SMs at 1.350 GHz");
  EXPECT_EQ(lineStartingWith(text, "model "), "model      mwp-cwp (grophecy variant)");
  EXPECT_EQ(lineStartingWith(text, "launch "),
            "launch     grid 50x50x1, block 16x16x1: 2500 blocks of 256 threads");
  // 12,015,208.3 cycles → "12015208"; 8.900154 ms → "8.900 ms".
  EXPECT_EQ(lineStartingWith(text, "time "), "time       8.900 ms (12015208 cycles)");
  EXPECT_EQ(lineStartingWith(text, "occupancy "),
            "occupancy  3 blocks/SM, 24 warps/SM (100.0%), limited by warps");
  EXPECT_EQ(lineStartingWith(text, "bound "),
            "bound      issue (throughput): CWP-1 is the smallest of MWP, CWP-1 and N-1: compute-bound");
  // Headline values: the name, then the number in the view's short format (its digits are the
  // view's choice, so the number is parsed and compared to the hand value).
  EXPECT_NEAR(headlineValue(text, "MWP"), 11.6667, 0.005);  // 76.8 / (0.41143 x 16)
  EXPECT_NEAR(headlineValue(text, "CWP"), 3.2963, 0.005);   // 30748 / 9328
  EXPECT_NE(text.find("\nwarnings\n  - registers per thread unknown"), std::string::npos) << text;
}

TEST_F(MatmulView, InfiniteValuesBecomeNullAndInf) {
  // A compute-only kernel has MWP = +inf; JSON has no infinity, so it is null; text says "inf".
  Prediction p = prediction_;
  p.values = {{"MWP", std::numeric_limits<double>::infinity(), "memory warp parallelism"},
              {"CWP", 1, "computation warp parallelism"}};
  p.warnings.clear();
  const PredictionView view(context_, p);
  const nlohmann::json j = view.toJson();
  EXPECT_TRUE(j.at("values").at("MWP").is_null());
  EXPECT_EQ(j.at("values").at("CWP"), 1.0);
  EXPECT_TRUE(j.at("warnings").is_array());
  EXPECT_TRUE(j.at("warnings").empty());
  std::ostringstream os;
  view.printText(os);
  EXPECT_EQ(lineStartingWith(os.str(), "MWP "), "MWP        inf");
  EXPECT_EQ(lineStartingWith(os.str(), "CWP "), "CWP        1");
  EXPECT_EQ(os.str().find("warnings"), std::string::npos);  // no section without warnings
}

TEST_F(MatmulView, TimeUnitFollowsMagnitude) {
  Prediction p = prediction_;
  p.seconds = 2.5e-6;  // 2.500 us
  p.cycles = 3375;
  std::ostringstream os;
  PredictionView(context_, p).printText(os);
  EXPECT_EQ(lineStartingWith(os.str(), "time "), "time       2.500 us (3375 cycles)");
  p.seconds = 1.25;
  std::ostringstream os2;
  PredictionView(context_, p).printText(os2);
  EXPECT_EQ(lineStartingWith(os2.str(), "time "), "time       1.250 s (3375 cycles)");
}

TEST_F(MatmulView, ProgramViewSumsKernelsTimesLaunches) {
  // matmul on fx5600 is 8.900154 ms; as two kernels launched 1 and 2.5 times per run:
  // 8.900154 x 3.5 = 31.150540 ms.
  using K = ProgramPredictionView::Kernel;
  const ProgramPredictionView program("prog.c", {K{PredictionView(context_, prediction_), 1},
                                                 K{PredictionView(context_, prediction_), 2.5}});
  EXPECT_NEAR(program.programSeconds(), 3.5 * 0.0089001543209876547, 1e-12);
  std::ostringstream os;
  program.printText(os);
  EXPECT_EQ(lineStartingWith(os.str(), "program "),
            "program    31.151 ms per run (matmul_tiled 8.900 ms x 1, matmul_tiled 8.900 ms x 2.5)");
  const nlohmann::json j = program.toJson();
  EXPECT_EQ(j["input"], "prog.c");
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][1]["launches_per_run"], 2.5);
  EXPECT_NEAR(j["program_time_s"].get<double>(), 0.031150540123456792, 1e-12);
  // One kernel launched once: its own report, with launches_per_run.
  const ProgramPredictionView one("prog.c", {K{PredictionView(context_, prediction_), 1}});
  std::ostringstream os1;
  one.printText(os1);
  EXPECT_EQ(os1.str().find("program "), std::string::npos);
  EXPECT_EQ(one.toJson()["launches_per_run"], 1);
  EXPECT_EQ(one.toJson()["kernel"], "matmul_tiled");
}

TEST(GpuListView, OneLinePerGpuPlusHeader) {
  Expected<Gpu> fx = loadPreset("fx5600");
  ASSERT_TRUE(fx.ok()) << fx.error().format();
  // A second, edited GPU with a 6 MiB L2 to exercise the L2 column.
  Gpu other = *fx;
  other.name = "fx-l2";
  MemoryLevel l2;
  l2.name = "l2";
  l2.resource = "l2";
  l2.size.value = 6LL * 1024 * 1024;
  other.memory.push_back(l2);
  const GpuListView view({*fx, other});
  EXPECT_EQ(view.name(), "gpus");
  std::ostringstream os;
  view.printText(os);
  const std::vector<std::string> lines = splitLines(os.str());
  ASSERT_EQ(lines.size(), 3u);  // header + 2 GPUs
  EXPECT_EQ(lines[0].rfind("name", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("architecture"), std::string::npos);
  EXPECT_NE(lines[0].find("DRAM (GB/s)"), std::string::npos);
  // name (10) arch (12) cc (4) SMs (>4) clock (>11, 3 decimals) DRAM (>11, 1 decimal) L2 (>8).
  EXPECT_EQ(lines[1],
            "fx5600     tesla        1.0    16       1.350        76.8        -  paper:000    NVIDIA Quadro FX 5600");
  EXPECT_EQ(lines[2],
            "fx-l2      tesla        1.0    16       1.350        76.8     6.00  paper:000    NVIDIA Quadro FX 5600");
}

TEST(GpuListView, Json) {
  Expected<Gpu> fx = loadPreset("fx5600");
  ASSERT_TRUE(fx.ok()) << fx.error().format();
  const nlohmann::json j = GpuListView({*fx}).toJson();
  ASSERT_EQ(j.at("gpus").size(), 1u);
  const nlohmann::json& g = j.at("gpus")[0];
  EXPECT_EQ(g.at("name"), "fx5600");
  EXPECT_EQ(g.at("compute_capability"), "1.0");
  EXPECT_EQ(g.at("sm_count"), 16);
  EXPECT_DOUBLE_EQ(g.at("clock_ghz").get<double>(), 1.35);
  EXPECT_EQ(g.at("clock_source"), "paper:000");
  EXPECT_DOUBLE_EQ(g.at("dram_bandwidth_gbs").get<double>(), 76.8);
  EXPECT_EQ(g.at("dram_bandwidth_source"), "paper:000");
  EXPECT_TRUE(g.at("l2_bytes").is_null());  // G80 has no L2
}

TEST(GpuListView, EmptyListIsJustTheHeader) {
  std::ostringstream os;
  GpuListView({}).printText(os);
  EXPECT_EQ(splitLines(os.str()).size(), 1u);
  EXPECT_TRUE(GpuListView({}).toJson().at("gpus").empty());
}

}  // namespace
}  // namespace foresight
