// SPDX-License-Identifier: Apache-2.0
/// \file
/// validate(): scoring on synthetic rows worked by hand, and the whole path on the fixture corpus
/// and measurements under tests/validation/fixtures/ (never validation/measurements/, which holds
/// real runs only) with a fake predictor and with the real one.
#include "foresight/validation/validate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "foresight/gpu/presets.h"
#include "foresight/validation/manifest.h"
#include "foresight/validation/measurement.h"

namespace foresight {
namespace {

const std::string kFixtures = std::string(FORESIGHT_SOURCE_DIR) + "/tests/validation/fixtures";

ValidationRow row(const std::string& gpu, const std::string& exp, const std::string& group,
                  const std::string& model, double measured, std::optional<double> predicted) {
  ValidationRow r{
      gpu, exp, "v", group, model, measured, predicted, {}, predicted ? "" : "no frontend"};
  if (predicted) r.error = (*predicted - measured) / measured;
  return r;
}

TEST(ValidateScore, HandWorkedSummary) {
  // Model m on one GPU: group g with four variants, group h with one, one unpredicted row.
  //   g: measured 1, 2, 3, 4; predicted 1.1, 1.8, 3.6, 3.0 → errors +10 %, -10 %, +20 %, -25 %
  //   h: measured 5, predicted 5.5 → +10 %
  //   |e| = 0.1, 0.1, 0.2, 0.25, 0.1
  //   geomean = (0.1 x 0.1 x 0.2 x 0.25 x 0.1)^(1/5) = (5e-5)^(1/5) = exp(-9.90349 / 5) = 0.137973
  //   median of 0.1 0.1 0.1 0.2 0.25 = 0.1
  //   g ranks: measured 1 2 3 4; predicted 1.1 1.8 3.6 3.0 → 1 2 4 3: sum d² = 2 →
  //   rho = 1 - 6 x 2 / (4 x 15) = 0.8. Group h has one variant only: no correlation.
  std::vector<ValidationRow> rows = {row("h100", "a", "g", "m", 1, 1.1),
                                     row("h100", "b", "g", "m", 2, 1.8),
                                     row("h100", "c", "g", "m", 3, 3.6),
                                     row("h100", "d", "g", "m", 4, 3.0),
                                     row("h100", "e", "h", "m", 5, 5.5),
                                     row("h100", "f", "g", "m", 6, std::nullopt),
                                     row("h100", "a", "g", "other", 1, std::nullopt)};
  const std::vector<ModelSummary> s = scoreRows(rows, {"m", "other"});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].predicted, 5);
  EXPECT_EQ(s[0].notPredicted, 1);
  EXPECT_NEAR(*s[0].geomeanAbsError, std::pow(0.1 * 0.1 * 0.2 * 0.25 * 0.1, 0.2), 1e-12);
  EXPECT_NEAR(*s[0].geomeanAbsError, 0.137973, 1e-6);
  EXPECT_NEAR(*s[0].medianAbsError, 0.1, 1e-12);  // 0.1 0.1 0.1 0.2 0.25
  ASSERT_EQ(s[0].worst.size(), 3u);
  EXPECT_EQ(s[0].worst[0].experiment, "d");  // -25 %
  EXPECT_EQ(s[0].worst[1].experiment, "c");  // +20 %
  ASSERT_EQ(s[0].groups.size(), 1u);         // h has a single variant
  EXPECT_EQ(s[0].groups[0].group, "g");
  EXPECT_EQ(s[0].groups[0].n, 4);
  EXPECT_NEAR(*s[0].groups[0].rho, 0.8, 1e-12);
  EXPECT_NEAR(*s[0].meanRho, 0.8, 1e-12);
  // a is predicted fastest (1.1) and measured fastest (1): regret 1.
  EXPECT_NEAR(*s[0].groups[0].regret, 1.0, 1e-12);
  EXPECT_NEAR(*s[0].meanRegret, 1.0, 1e-12);
  EXPECT_NEAR(*s[0].maxRegret, 1.0, 1e-12);
  EXPECT_EQ(s[1].predicted, 0);
  EXPECT_EQ(s[1].notPredicted, 1);
  EXPECT_FALSE(s[1].geomeanAbsError.has_value());
  EXPECT_FALSE(s[1].meanRho.has_value());
}

TEST(ValidateScore, GroupsAreSeparatedByGpuAndTiesGiveNoRho) {
  std::vector<ValidationRow> rows = {
      row("a100", "x", "g", "m", 1, 2), row("a100", "y", "g", "m", 2, 2),
      row("h100", "x", "g", "m", 1, 1), row("h100", "y", "g", "m", 2, 3)};
  const std::vector<ModelSummary> s = scoreRows(rows, {"m"});
  ASSERT_EQ(s[0].groups.size(), 2u);
  EXPECT_EQ(s[0].groups[0].gpu, "a100");
  EXPECT_FALSE(s[0].groups[0].rho.has_value());  // both predictions 2: tied
  EXPECT_NEAR(*s[0].groups[1].rho, 1.0, 1e-12);
  EXPECT_NEAR(*s[0].meanRho, 1.0, 1e-12);  // mean over defined rhos only
  // a100: both predicted 2, the slower (2 / 1) counts; h100: x predicted and measured fastest.
  EXPECT_NEAR(*s[0].groups[0].regret, 2.0, 1e-12);
  EXPECT_NEAR(*s[0].groups[1].regret, 1.0, 1e-12);
  EXPECT_NEAR(*s[0].meanRegret, std::sqrt(2.0), 1e-12);  // geometric mean
  EXPECT_NEAR(*s[0].maxRegret, 2.0, 1e-12);
}

TEST(ValidateScore, RegretCountsOnlyAlternatives) {
  // Group g: x and y are alternatives (x predicted fastest at 1, measured 3 against y's 2:
  // regret 1.5); z is a different problem (alternatives = "no"), measured fastest and predicted
  // slowest: it moves rho but not the regret. Group h has one alternative only: no regret.
  std::vector<ValidationRow> rows = {row("h100", "x", "g", "m", 3, 1), row("h100", "y", "g", "m", 2, 2),
                                     row("h100", "z", "g", "m", 1, 3), row("h100", "u", "h", "m", 1, 1),
                                     row("h100", "w", "h", "m", 2, 2)};
  rows[2].alternative = false;
  rows[4].alternative = false;
  const std::vector<ModelSummary> s = scoreRows(rows, {"m"});
  ASSERT_EQ(s[0].groups.size(), 2u);
  EXPECT_NEAR(*s[0].groups[0].regret, 1.5, 1e-12);
  EXPECT_NEAR(*s[0].groups[0].rho, -1.0, 1e-12);  // measured 3 2 1, predicted 1 2 3
  EXPECT_FALSE(s[0].groups[1].regret.has_value());
  EXPECT_NEAR(*s[0].meanRegret, 1.5, 1e-12);
}

TEST(ValidateScore, BySourceGpuAndModelCountsPointsBeyondTwice) {
  // Source s1 on a100: errors +10 %, -60 % (less than half), +150 % (more than twice); one
  // refused. Source s2 on a100: -10 %. A row without a source is one of ours: source "ours"
  // (+200 %), first in (source, GPU) order.
  auto sourced = [](ValidationRow r, const std::string& source) {
    r.source = source;
    return r;
  };
  std::vector<ValidationRow> rows = {sourced(row("a100", "a", "g", "m", 1, 1.1), "s1"),
                                     sourced(row("a100", "b", "g", "m", 1, 0.4), "s1"),
                                     sourced(row("a100", "c", "g", "m", 2, 5), "s1"),
                                     sourced(row("a100", "d", "g", "m", 2, std::nullopt), "s1"),
                                     sourced(row("a100", "e", "g", "m", 1, 0.9), "s2"),
                                     row("a100", "f", "g", "m", 1, 3)};
  const std::vector<SourceSummary> s = scoreBySource(rows, {"m"});
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].source, "ours");
  EXPECT_EQ(s[0].predicted, 1);
  EXPECT_EQ(s[0].beyond2x, 1);
  EXPECT_NEAR(*s[0].geomeanAbsError, 2.0, 1e-12);
  EXPECT_EQ(s[1].source, "s1");
  EXPECT_EQ(s[1].gpu, "a100");
  EXPECT_EQ(s[1].predicted, 3);
  EXPECT_EQ(s[1].notPredicted, 1);
  EXPECT_EQ(s[1].beyond2x, 2);
  // (0.1 * 0.6 * 1.5)^(1/3) = 0.09^(1/3) = 0.448140
  EXPECT_NEAR(*s[1].geomeanAbsError, 0.448140, 1e-6);
  EXPECT_NEAR(*s[1].medianAbsError, 0.6, 1e-12);
  EXPECT_EQ(s[2].source, "s2");
  EXPECT_EQ(s[2].beyond2x, 0);
  EXPECT_NEAR(*s[2].geomeanAbsError, 0.1, 1e-12);
  EXPECT_TRUE(scoreBySource({}, {"m"}).empty());
}

TEST(ValidateRun, FixturesWithAFakePredictor) {
  ValidateOptions o;
  o.corpusDir = kFixtures + "/corpus";
  o.measurementsDir = kFixtures + "/measurements";
  o.models = {"mwp-cwp/grophecy"};
  // tiled → 9 ms, naive → 50 ms, cuda → refused.
  PredictFn fake = [](const ResolvedExperiment& e, const std::vector<ModelChoice>& models,
                      const Gpu&) {
    std::vector<Expected<double>> out;
    for (size_t i = 0; i < models.size(); ++i) {
      if (e.experiment == "tiled")
        out.emplace_back(9e-3);
      else if (e.experiment == "naive")
        out.emplace_back(50e-3);
      else
        out.emplace_back(makeError("no frontend for this"));
    }
    return out;
  };
  Expected<ValidationReport> r = validate(o, fake);
  ASSERT_TRUE(r.ok()) << r.error().format();
  EXPECT_EQ(r->experiments, 3);
  EXPECT_EQ(r->variants, 4);  // tiled, naive, cuda/b128, cuda/b256
  EXPECT_EQ(r->measurements, 4);
  EXPECT_EQ(r->superseded, 1);  // tiled's first run
  EXPECT_EQ(r->gpus, std::vector<std::string>{"fx5600"});
  ASSERT_EQ(r->rows.size(), 4u);
  // tiled: latest samples 10.5, 9, 10, 11 → median 10.25 ms; (9 - 10.25) / 10.25 = -0.121951
  EXPECT_EQ(r->rows[0].experiment, "tiled");
  EXPECT_DOUBLE_EQ(r->rows[0].measuredSeconds, 10.25e-3);
  EXPECT_NEAR(*r->rows[0].error, -1.25 / 10.25, 1e-12);
  // naive: (50 - 40) / 40 = +0.25
  EXPECT_NEAR(*r->rows[1].error, 0.25, 1e-12);
  EXPECT_EQ(r->rows[2].reason, "no frontend for this");
  EXPECT_EQ(r->rows[3].experiment, "ghost");
  EXPECT_EQ(r->rows[3].reason, "experiment not in the corpus");
  const ModelSummary& s = r->summaries.at(0);
  EXPECT_EQ(s.predicted, 2);
  EXPECT_EQ(s.notPredicted, 2);
  // sqrt(0.121951 x 0.25) = 0.174608
  EXPECT_NEAR(*s.geomeanAbsError, std::sqrt(1.25 / 10.25 * 0.25), 1e-12);
  EXPECT_NEAR(*s.medianAbsError, (1.25 / 10.25 + 0.25) / 2, 1e-12);
  ASSERT_EQ(s.groups.size(), 1u);  // group "mm": tiled < naive in both → rho 1
  EXPECT_NEAR(*s.groups[0].rho, 1.0, 1e-12);
}

/// The runner times each sample as one sequence with CUDA events around it: validate() predicts
/// its first launch timed alone (LaunchTiming::Alone), the rest back to back. A published time
/// (a measurement with a source) keeps every launch in the stream. The fake predictor answers
/// 1 ms for a first launch timed alone, 2 ms otherwise.
TEST(ValidateRun, RunnerSequencesTimeTheirFirstLaunchAlone) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("foresight-timing-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "fx5600.jsonl");
    f << R"({"experiment":"tiled","variant":"default","gpu":"Synthetic FX5600","date":"2026-01-02T00:00:00Z","samples_ms":[4.0]})" "\n";
    f << R"({"experiment":"naive","variant":"default","gpu":"Synthetic FX5600","date":"2026-01-02T00:00:00Z","samples_ms":[4.0],"source":"someone/benchmarks"})" "\n";
  }
  ValidateOptions o;
  o.corpusDir = kFixtures + "/corpus";
  o.measurementsDir = dir.string();
  o.models = {"mwp-cwp/grophecy"};
  PredictFn fake = [](const ResolvedExperiment& e, const std::vector<ModelChoice>& models, const Gpu&) {
    bool laterAlone = false;
    for (size_t i = 1; i < e.launches.size(); ++i) laterAlone = laterAlone || e.launches[i].launch.timing == LaunchTiming::Alone;
    const bool alone = !e.launches.empty() && e.launches.front().launch.timing == LaunchTiming::Alone;
    EXPECT_FALSE(laterAlone) << e.experiment;
    return std::vector<Expected<double>>(models.size(), Expected<double>(alone ? 1e-3 : 2e-3));
  };
  Expected<ValidationReport> r = validate(o, fake);
  fs::remove_all(dir);
  ASSERT_TRUE(r.ok()) << r.error().format();
  ASSERT_EQ(r->rows.size(), 2u);
  EXPECT_EQ(r->rows[0].experiment, "tiled");
  EXPECT_DOUBLE_EQ(*r->rows[0].predictedSeconds, 1e-3);  // the runner's: timed alone
  EXPECT_EQ(r->rows[1].experiment, "naive");
  EXPECT_DOUBLE_EQ(*r->rows[1].predictedSeconds, 2e-3);  // published: back to back
}

TEST(ValidateRun, FixturesWithTheRealModels) {
  ValidateOptions o;
  o.corpusDir = kFixtures + "/corpus";
  o.measurementsDir = kFixtures + "/measurements";
  Expected<ValidationReport> r = validate(o);
  ASSERT_TRUE(r.ok()) << r.error().format();
  // the default, four MWP-CWP variants, two emulate variants
  ASSERT_EQ(r->models.size(), 7u);
  ASSERT_EQ(r->rows.size(), 28u);  // 4 measurements x 7 models, none dropped
  // GROPHECY's tiled MatMul on fx5600 predicts 8.9002 ms (tests/model/predict_test.cpp);
  // measured 10.25 ms → -13.17 %.
  const ValidationRow& tiled = r->rows[2];
  EXPECT_EQ(tiled.model, "mwp-cwp/grophecy");
  ASSERT_TRUE(tiled.predictedSeconds.has_value()) << tiled.reason;
  EXPECT_NEAR(*tiled.predictedSeconds, 8.9002e-3, 1e-6);
  EXPECT_NEAR(*tiled.error, (8.9002 - 10.25) / 10.25, 1e-4);
  // The default model of a summary input is mwp-cwp/grophecy today (model/default_model.cpp).
  EXPECT_EQ(r->rows[0].model, "default");
  ASSERT_TRUE(r->rows[0].predictedSeconds.has_value()) << r->rows[0].reason;
  EXPECT_DOUBLE_EQ(*r->rows[0].predictedSeconds, *tiled.predictedSeconds);
  // cgpredict needs L2 parameters fx5600 does not have: a reason, not a drop.
  EXPECT_FALSE(r->rows[3].predictedSeconds.has_value());
  EXPECT_NE(r->rows[3].reason.find("l2_latency"), std::string::npos) << r->rows[3].reason;
  // The emulate variants predict the summary experiments too.
  EXPECT_EQ(r->rows[5].model, "emulate/modern");
  EXPECT_TRUE(r->rows[5].predictedSeconds.has_value()) << r->rows[5].reason;
  EXPECT_EQ(r->rows[6].model, "emulate/saake");
  EXPECT_TRUE(r->rows[6].predictedSeconds.has_value()) << r->rows[6].reason;
  // The .cu experiment (third measurement) is listed with the frontend's reason.
  EXPECT_EQ(r->rows[14].experiment, "cuda");
  EXPECT_FALSE(r->rows[14].predictedSeconds.has_value());
  EXPECT_FALSE(r->rows[14].reason.empty());
}

TEST(ValidateRun, UnrotatedSamplesAndRepeatsStartWithAWarmL2) {
  // The public set's SCALE kernel over 1036569 doubles in blocks of 1024 (16.6 MB, in the H200's
  // 50 MiB L2). Rotated copies: each sample starts cold. Samples back to back over the same
  // buffers: warm, faster (its reads hit in L2, nothing is written back). Three launches in a
  // row with rotation: one cold, then two warm. A flush between samples, or re-uploaded inputs,
  // start cold again.
  Expected<std::vector<Manifest>> corpus = loadCorpus(std::string(FORESIGHT_SOURCE_DIR) + "/validation/public");
  ASSERT_TRUE(corpus.ok()) << corpus.error().format();
  const auto m = std::find_if(corpus->begin(), corpus->end(), [](const Manifest& x) { return x.name == "small_scale_n1036569"; });
  ASSERT_NE(m, corpus->end());
  const auto v = std::find_if(m->variants.begin(), m->variants.end(), [](const VariantSpec& x) { return x.name == "b1024"; });
  ASSERT_NE(v, m->variants.end());
  Expected<ResolvedExperiment> resolved = resolveVariant(*m, *v);
  ASSERT_TRUE(resolved.ok()) << resolved.error().format();
  ResolvedExperiment e = *resolved;
  e.rotate = true;
  Expected<Gpu> h200 = loadPreset("h200");
  ASSERT_TRUE(h200.ok());
  const std::vector<ModelChoice> models = {applicableModels().at(0)};  // the default
  auto seconds = [&](const ResolvedExperiment& x) {
    std::vector<Expected<double>> s = predictExperiment(x, models, *h200);
    EXPECT_TRUE(s.at(0).ok()) << s.at(0).error().format();
    return s.at(0).ok() ? *s.at(0) : 0.0;
  };
  const double cold = seconds(e);
  if (cold == 0) GTEST_SKIP() << "no CUDA toolchain";
  ResolvedExperiment unrotated = e;
  unrotated.rotate = false;
  const double warm = seconds(unrotated);
  EXPECT_LT(warm, cold);
  ResolvedExperiment repeated = e;
  repeated.launches.at(0).repeat = 3;
  EXPECT_NEAR(seconds(repeated), cold + 2 * warm, 1e-12);
  repeated.rotate = false;
  EXPECT_NEAR(seconds(repeated), 3 * warm, 1e-12);
  ResolvedExperiment flushed = unrotated;
  flushed.flush = true;
  EXPECT_DOUBLE_EQ(seconds(flushed), cold);
  ResolvedExperiment reuploaded = unrotated;
  reuploaded.reinit = true;
  EXPECT_DOUBLE_EQ(seconds(reuploaded), cold);
  // Timed alone (the runner's sequences): the H200's launch_latency, 3.92 us, once, on the
  // first run only: cold + 3.92 us + 2 warm.
  ResolvedExperiment alone = e;
  alone.launches.at(0).repeat = 3;
  alone.launches.at(0).launch.timing = LaunchTiming::Alone;
  EXPECT_NEAR(seconds(alone), cold + 3.92e-6 + 2 * warm, 1e-12);
}

TEST(ValidateRun, NoMeasurementsIsNotAnError) {
  ValidateOptions o;
  o.corpusDir = kFixtures + "/corpus";
  o.measurementsDir = kFixtures + "/no-such-dir";
  Expected<ValidationReport> r = validate(o);
  ASSERT_TRUE(r.ok()) << r.error().format();
  EXPECT_EQ(r->measurements, 0);
  EXPECT_TRUE(r->rows.empty());
  ASSERT_EQ(r->summaries.size(), 7u);
  EXPECT_EQ(r->summaries[0].predicted, 0);
}

TEST(ValidateRun, BadInputIsAnError) {
  ValidateOptions o;
  o.corpusDir = kFixtures + "/corpus";
  o.models = {"mwp-cwp/grophecyy"};
  Expected<ValidationReport> r = validate(o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "unknown model 'mwp-cwp/grophecyy'; did you mean 'mwp-cwp/grophecy'?");
  o.models.clear();
  o.corpusDir = kFixtures + "/missing";
  EXPECT_FALSE(validate(o).ok());
}

TEST(Measurements, LinesAndErrors) {
  Expected<Measurement> m = parseMeasurementLine(
      R"({"experiment":"a","variant":"v","gpu":"G","date":"2026-01-01","samples_ms":[3,1,2],"extra":1})",
      "f.jsonl", 7);
  ASSERT_TRUE(m.ok()) << m.error().format();
  EXPECT_DOUBLE_EQ(m->medianSeconds, 2e-3);
  EXPECT_EQ(m->check, "none");
  EXPECT_EQ(m->line, 7);
  auto error = [](const std::string& line) {
    Expected<Measurement> e = parseMeasurementLine(line, "f.jsonl", 3);
    return e.ok() ? std::string("ok") : e.error().format();
  };
  // Found by the manifest fuzz target: a number beyond double's range threw out_of_range.
  EXPECT_EQ(error(R"({"samples_ms":[1e99999999]})").rfind("f.jsonl:3: error: not a JSON object: ", 0), 0u);
  EXPECT_EQ(error(R"({"experiment":"a","variant":"v","gpu":"G","date":"d","samples_ms":[]})"),
            "f.jsonl:3: error: 'samples_ms' must be a non-empty array of times in milliseconds");
  EXPECT_EQ(error(R"({"experiment":"a","variant":"v","gpu":"G","date":"d","samples_ms":[1,-2]})"),
            "f.jsonl:3: error: 'samples_ms' must hold positive numbers");
  EXPECT_EQ(error(R"({"variant":"v","gpu":"G","date":"d","samples_ms":[1]})"),
            "f.jsonl:3: error: 'experiment' must be present and a string");
  EXPECT_EQ(
      error(
          R"({"experiment":"a","variant":"v","gpu":"G","date":"d","samples_ms":[1],"sm_clock_mhz":"x"})"),
      "f.jsonl:3: error: 'sm_clock_mhz' must be a number");
  EXPECT_EQ(error("[1]"), "f.jsonl:3: error: a measurement line must be a JSON object");
}

TEST(Measurements, ShippedDirectoryHoldsRealRunsOnly) {
  // validation/measurements/ may hold only runner output: every line must parse and carry the
  // runner's provenance fields.
  Expected<std::vector<MeasurementFile>> files =
      loadMeasurements(std::string(FORESIGHT_SOURCE_DIR) + "/validation/measurements");
  ASSERT_TRUE(files.ok()) << files.error().format();
  for (const MeasurementFile& f : *files) {
    for (const Measurement& m : f.measurements) {
      EXPECT_FALSE(m.driver.empty()) << f.path << ":" << m.line;
      EXPECT_GE(m.samplesMs.size(), 10u) << f.path << ":" << m.line;
      EXPECT_NE(m.device.find("Synthetic"), 0u) << f.path << ":" << m.line;
    }
  }
}

}  // namespace
}  // namespace foresight
