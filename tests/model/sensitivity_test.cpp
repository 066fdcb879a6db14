// SPDX-License-Identifier: Apache-2.0
/// \file
/// The shared elasticity method (hand values on known functions) and the GPU-parameter
/// sensitivity of any model: Euler's Σ e = 1 for the paper variants, and GROPHECY's matmul on
/// the FX 5600 by hand.
#include "foresight/model/sensitivity.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "foresight/frontend/input.h"
#include "foresight/model/predict.h"
#include "test_support.h"

namespace foresight {
namespace {

using testing_support::preset;

const Elasticity* find(const SensitivityReport& r, const std::string& unit, BoundMode mode) {
  for (const Elasticity& e : r.entries) {
    if (e.unit == unit && e.parameter == mode) return &e;
  }
  return nullptr;
}

TEST(Sensitivity, MethodOnKnownFunctions) {
  SensitivityOptions o;
  EXPECT_EQ(sensitivityMethod(o), "slope over ±10%, ±20%");
  // relative(d) = d + d²: the least-squares slope through the origin over ±0.1, ±0.2 is
  // Σ d(d + d²) / Σ d² = 1 (the cubes cancel); ±0.1 alone: (0.11 − (−0.09)) / 0.2 = 1; +0.1
  // alone: 0.11 / 0.1 = 1.1.
  const auto quadratic = [](double d) -> Expected<double> { return d + d * d; };
  EXPECT_NEAR(*elasticityOf(quadratic, o), 1.0, 1e-12);
  o.fit = false;
  EXPECT_EQ(sensitivityMethod(o), "±10%");
  EXPECT_NEAR(*elasticityOf(quadratic, o), 1.0, 1e-12);
  o.central = false;
  EXPECT_EQ(sensitivityMethod(o), "+10%");
  EXPECT_NEAR(*elasticityOf(quadratic, o), 1.1, 1e-12);
  const auto failing = [](double) -> Expected<double> { return makeError("no"); };
  EXPECT_FALSE(elasticityOf(failing, o).ok());
}

TEST(Sensitivity, StepsRunApartCombineAsElasticityOf) {
  // The steps a caller runs one by one (the emulate sensitivity spreads them over the cores)
  // and their combination: relative(d) = d + d² gives the same slopes as above.
  SensitivityOptions o;
  const std::vector<double> steps = elasticitySteps(o);
  ASSERT_EQ(steps, (std::vector<double>{-0.2, -0.1, 0.1, 0.2}));
  std::vector<double> relatives;
  for (double d : steps) relatives.push_back(d + d * d);
  EXPECT_NEAR(elasticityFrom(steps, relatives, o), 1.0, 1e-12);
  // Σ d·r / Σ d² with r = 0.5·d except +0.2 → 0.3: (0.02 + 0.005 + 0.005 + 0.06) / 0.1 = 0.9.
  EXPECT_NEAR(elasticityFrom(steps, {-0.1, -0.05, 0.05, 0.3}, o), 0.9, 1e-12);
  o.fit = false;
  EXPECT_EQ(elasticitySteps(o), (std::vector<double>{-0.1, 0.1}));
  o.central = false;
  EXPECT_EQ(elasticitySteps(o), (std::vector<double>{0.1}));
  EXPECT_NEAR(elasticityFrom({0.1}, {0.11}, o), 1.1, 1e-12);
}

TEST(Sensitivity, OuterStepsScreenOutParametersThatDoNotMoveT) {
  // The fit runs ±0.2 first (screeningSteps()); where T moves at neither, ±0.1 are not run and
  // the elasticity is 0 — even for a T that moves at ±0.1 alone (a bump inside the range).
  SensitivityOptions o;
  EXPECT_EQ(screeningSteps(o), (std::vector<size_t>{0, 3}));
  std::vector<double> asked;
  const auto bump = [&](double d) -> Expected<double> {
    asked.push_back(d);
    return std::abs(d) < 0.15 ? 0.05 : 0.0;
  };
  EXPECT_EQ(*elasticityOf(bump, o), 0.0);
  EXPECT_EQ(asked, (std::vector<double>{-0.2, 0.2}));
  // T moves at +0.2: every step runs, the outer ones first, and the slope is the fit's:
  // r = (0, 0, 0, 0.02) → 0.2 · 0.02 / 0.1 = 0.04.
  asked.clear();
  const auto late = [&](double d) -> Expected<double> {
    asked.push_back(d);
    return d > 0.15 ? 0.02 : 0.0;
  };
  EXPECT_NEAR(*elasticityOf(late, o), 0.04, 1e-12);
  EXPECT_EQ(asked, (std::vector<double>{-0.2, 0.2, -0.1, 0.1}));
  // Without the fit every step screens: nothing is skipped.
  o.fit = false;
  EXPECT_EQ(screeningSteps(o), (std::vector<size_t>{0, 1}));
}

TEST(Sensitivity, RankingSumsOrdersAndWarns) {
  SensitivityReport r;
  r.entries = {{"dram", Resource::Dram, BoundMode::Latency, 0.2, ""}, {"issue", Resource::Issue, BoundMode::Throughput, 0.5, ""}};
  rankElasticities(r, SensitivityOptions{}, "why");
  EXPECT_EQ(r.entries.front().unit, "issue");
  EXPECT_NEAR(r.sum, 0.7, 1e-12);
  EXPECT_EQ(r.boundUnit, "issue");
  EXPECT_EQ(r.bound.mode, BoundMode::Throughput);
  EXPECT_TRUE(r.clearWinner);  // 0.2 < 0.75 x 0.5
  // |0.7 − 1| > 0.2: the sum is off.
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "sensitivity: elasticities sum to 0.70, not 1: why; read them as a ranking");
  SensitivityReport tie;
  tie.entries = {{"dram", Resource::Dram, BoundMode::Latency, 0.4, ""}, {"issue", Resource::Issue, BoundMode::Throughput, 0.5, ""}};
  rankElasticities(tie, SensitivityOptions{}, "why");
  EXPECT_FALSE(tie.clearWinner);  // 0.4 >= 0.375
  EXPECT_TRUE(tie.warnings.empty());  // |0.9 − 1| <= 0.2
}

TEST(Sensitivity, GrophecysMatmulByHand) {
  const Gpu fx = preset("fx5600");
  Expected<LoadedInput> in = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/matmul-fx5600.toml");
  ASSERT_TRUE(in.ok()) << in.error().format();
  ModelOptions grophecy;
  grophecy.model = ModelKind::MwpCwp;
  Expected<SensitivityReport> r = analyzeModelSensitivity(in->kernels[0], *in->launch, fx, grophecy);
  ASSERT_TRUE(r.ok()) << r.error().format();
  // The README's prediction: T = 12015208.33 cycles, compute-bound, Exec = (Mem_L +
  // Comp_cycles × N) × Rep = (420 + 9328 × 24) × 52.0833, + Synch_cost 333333; the computation
  // is 9328 × 24 × 52.0833 = 11660000 cycles of it.
  // Comp_cycles is issue cycles per instruction × instructions, so the issue gap's elasticity is
  // the computation's share of T: 11660000 / 12015208.33 = 0.970437.
  EXPECT_NEAR(r->cycles, 12015208.333, 0.001);
  const Elasticity* issue = find(*r, "issue", BoundMode::Throughput);
  ASSERT_NE(issue, nullptr);
  EXPECT_NEAR(issue->elasticity, 11660000.0 / 12015208.333333, 1e-6);
  EXPECT_EQ(r->boundUnit, "issue");
  EXPECT_EQ(r->bound.resource, Resource::Issue);
  // Every term is a latency or gap times a count: homogeneous of degree 1 (Euler), Σ e = 1.
  EXPECT_NEAR(r->sum, 1.0, 1e-6);
  EXPECT_TRUE(r->warnings.empty());
}

TEST(Sensitivity, EveryMwpCwpVariantIsHomogeneousOnAStream) {
  const Gpu h100 = preset("h100");
  Expected<LoadedInput> in = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/vecadd-h100.toml");
  ASSERT_TRUE(in.ok()) << in.error().format();
  for (MwpCwpVariant v : {MwpCwpVariant::HongKim, MwpCwpVariant::Grophecy, MwpCwpVariant::Modern}) {
    ModelOptions m;
    m.model = ModelKind::MwpCwp;
    m.variant = v;
    Expected<SensitivityReport> r = analyzeModelSensitivity(in->kernels[0], *in->launch, h100, m);
    ASSERT_TRUE(r.ok()) << r.error().format();
    // 2^26-float vecadd: DRAM timing carries the time (latency-limited MWP at these sizes).
    EXPECT_EQ(r->bound.resource, Resource::Dram) << mwpCwpVariantName(v);
    // modern is homogeneous too (its memory-engine traffic and microsecond launch overhead are
    // perturbed with the rest), but its time is the larger of two terms per wave of blocks: the
    // warps' latency path plus the block overhead (3 x 834.5 + 3 + 374 = 2,881 cycles on the H100
    // preset) and the DRAM service time plus the turnover loss (64 x 31.56 + 649.5 = 2,669).
    // Perturbing the DRAM latency by -10 % and -20 % crosses from one to the other, so the
    // one-at-a-time slopes straddle that kink and sum to 0.973 (Euler's theorem needs a
    // differentiable time): within 3 %.
    EXPECT_NEAR(r->sum, 1.0, v == MwpCwpVariant::Modern ? 0.03 : 1e-6) << mwpCwpVariantName(v);
  }
}

}  // namespace
}  // namespace foresight
