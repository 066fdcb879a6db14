// SPDX-License-Identifier: Apache-2.0
/// \file
/// `predict` and `explain` report the same time for the same input and options (issue 11, item
/// 5): both resolve the model through defaultModel() and the physical floors. Runs the CLI with
/// --json on a summary, a SASS fixture (the tiled SGEMM they disagreed on by 6x), a skeleton, and
/// with explicit models.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <ostream>
#include <string>

namespace foresight {
namespace {

nlohmann::json runJson(const std::string& args) {
  const std::string command =
      "cd '" FORESIGHT_SOURCE_DIR "' && '" FORESIGHT_CLI_PATH "' " + args + " --json 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  while (pipe && std::fgets(buf, sizeof buf, pipe)) out += buf;
  if (pipe) {
    EXPECT_EQ(::pclose(pipe), 0) << args;
  }
  return nlohmann::json::parse(out, nullptr, false);
}

struct Case {
  const char* name;
  const char* args;
  const char* model;  ///< the model both must name
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class PredictExplain : public ::testing::TestWithParam<Case> {};

TEST_P(PredictExplain, SameTime) {
  const Case& c = GetParam();
  const nlohmann::json p = runJson(std::string("predict ") + c.args);
  const nlohmann::json e = runJson(std::string("explain ") + c.args);
  ASSERT_TRUE(p.is_object() && e.is_object()) << c.args;
  EXPECT_DOUBLE_EQ(p["time_s"].get<double>(), e["time_s"].get<double>()) << c.args;
  EXPECT_EQ(p["model"].get<std::string>() + "/" + p["variant"].get<std::string>(), c.model);
  EXPECT_EQ(e["model"].get<std::string>() + "/" + e["variant"].get<std::string>(), c.model);
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, PredictExplain,
    ::testing::Values(
        Case{"summary", "examples/summary/vecadd-h100.toml --gpu h100", "mwp-cwp/grophecy"},
        Case{"sass_tiled_sgemm", "tests/frontend/cuda/fixtures/matmul.sm_90.sass --kernel matmul_tiled --gpu h100 --grid 64,64 "
             "--block 16,16 --arg n=1024",
             "mwp-cwp/modern"},  // the CUDA default (model/default_model.cpp)
        Case{"skeleton", "examples/skeleton/hotspot.sk --gpu fx5600", "mwp-cwp/grophecy"},
        Case{"hong_kim", "examples/summary/matmul-fx5600.toml --gpu fx5600 --variant hong-kim", "mwp-cwp/hong-kim"},
        Case{"modern", "examples/summary/vecadd-h100.toml --gpu h100 --variant modern", "mwp-cwp/modern"},
        Case{"emulate", "examples/summary/vecadd-h100.toml --gpu h100 --model emulate", "emulate/modern"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace foresight
