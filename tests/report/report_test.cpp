// SPDX-License-Identifier: Apache-2.0
/// \file
/// Report parts and their printers: the text printer leaves out parts with nothing to show and
/// puts one blank line between the others; the JSON printer merges the parts' keys and refuses a
/// key two parts give. PredictionView and ExplainView are lists of named parts whose keys
/// partition the report's JSON (what an HTML printer walks).
#include "foresight/report/report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "foresight/report/explain_view.h"
#include "foresight/workload/run_workload.h"
#include "test_support.h"

namespace foresight {
namespace {

std::shared_ptr<const ReportPart> linePart(const std::string& name, const std::string& text,
                                           nlohmann::json keys) {
  return makeReportPart(
      name, [text](std::ostream& os) { os << text; }, [keys] { return keys; });
}

std::string textOf(const ReportParts& parts) {
  std::ostringstream os;
  printReportText(parts, os);
  return os.str();
}

std::vector<std::string> namesOf(const Report& r) {
  std::vector<std::string> names;
  for (const auto& p : r.parts()) names.push_back(p->name());
  return names;
}

TEST(Report, TextSkipsEmptyPartsAndSeparatesTheOthersByABlankLine) {
  const ReportParts parts = {linePart("a", "first\n", nlohmann::json::object()),
                             linePart("b", "", nlohmann::json::object()),
                             linePart("c", "second\nthird\n", nlohmann::json::object()),
                             linePart("d", "", nlohmann::json::object())};
  EXPECT_EQ(textOf(parts), "first\n\nsecond\nthird\n");
  EXPECT_EQ(textOf({parts[1], parts[2]}),
            "second\nthird\n");  // no blank line before the first shown
  EXPECT_EQ(textOf({}), "");
}

TEST(Report, JsonMergesEachPartsKeysAndRefusesAKeyGivenTwice) {
  const ReportParts parts = {linePart("a", "", {{"x", 1}, {"y", {1, 2}}}),
                             linePart("b", "", nullptr), linePart("c", "", {{"z", "three"}})};
  EXPECT_EQ(reportJson(parts), (nlohmann::json{{"x", 1}, {"y", {1, 2}}, {"z", "three"}}));
  EXPECT_THROW((void)reportJson({parts[0], linePart("twice", "", {{"x", 2}})}), std::logic_error);
  EXPECT_THROW((void)reportJson({linePart("array", "", nlohmann::json::array({1}))}),
               std::logic_error);
  const Report report("r", parts);
  EXPECT_EQ(report.name(), "r");
  EXPECT_EQ(report.toJson(), reportJson(parts));
}

TEST(Report, ExplainIsThePredictionsPartsThenItsOwn) {
  const Gpu fx = testing_support::preset("fx5600");
  ExplainWorkloadOptions o;
  o.gpu = &fx;
  Expected<WorkloadExplanation> e = explainWorkload(
      std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/matmul-fx5600.toml", o);
  ASSERT_TRUE(e.ok()) << e.error().format();
  const ExplainView view(std::move(*e));
  EXPECT_EQ(namesOf(view),
            (std::vector<std::string>{"context", "summary", "values", "resources", "warnings", "roofline",
                                      "timing_sensitivity", "timing_whatif", "sensitivity", "regions", "alone",
                                      "whatif", "register_bank_conflicts", "fixes", "lines", "occupancy_by_block",
                                      "timeline"}));
  // Every key of the report comes from exactly one part (reportJson() would have thrown
  // otherwise); the sensitivity part owns the bottleneck, the context part the model.
  std::set<std::string> keys;
  for (const auto& part : view.parts()) {
    const nlohmann::json pj = part->toJson();
    for (const auto& [key, value] : pj.items()) keys.insert(key);
  }
  const nlohmann::json j = view.toJson();
  EXPECT_EQ(keys.size(), j.size());
  for (const auto& part : view.parts()) {
    const nlohmann::json pj = part->toJson();
    if (part->name() == "sensitivity") {
      EXPECT_EQ(pj.size(), 4u);
      EXPECT_TRUE(pj.contains("bottleneck"));
    }
    if (part->name() == "context") {
      EXPECT_EQ(pj.at("model"), "mwp-cwp");
      EXPECT_EQ(pj.at("variant"), "grophecy");
    }
  }
  // The timing model is MWP-CWP (GROPHECY's variant): its own sensitivity section is printed, its
  // issue gap's elasticity 0.970437 = 9328 x 24 x 52.0833 / 12015208.33
  // (tests/model/sensitivity_test.cpp).
  std::ostringstream os;
  view.printText(os);
  EXPECT_NE(os.str().find("\n\ntiming model's sensitivity (mwp-cwp/grophecy:"), std::string::npos)
      << os.str();
  EXPECT_EQ(j.at("timing_sensitivity").at("largest").at("resource"), "issue");
}

}  // namespace
}  // namespace foresight
