// SPDX-License-Identifier: Apache-2.0
/// \file
/// The what-if switches any model answers (analyzeModelWhatIf()), checked by hand on Hong &
/// Kim's equations as GROPHECY's variant evaluates them.
#include "foresight/advise/whatif.h"

#include <gtest/gtest.h>

#include "foresight/frontend/input.h"
#include "foresight/model/predict.h"
#include "test_support.h"

namespace foresight {
namespace {

using testing_support::preset;

std::vector<WhatIfResult> modelWhatIf(const char* summary, const char* gpuName, MwpCwpVariant variant) {
  const Gpu gpu = preset(gpuName);
  Expected<LoadedInput> in = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/" + summary);
  EXPECT_TRUE(in.ok());
  if (!in) return {};
  ModelOptions m;
  m.model = ModelKind::MwpCwp;
  m.variant = variant;
  Expected<Prediction> base = predict(in->kernels[0], *in->launch, gpu, m);
  EXPECT_TRUE(base.ok());
  if (!base) return {};
  Expected<std::vector<WhatIfResult>> w = analyzeModelWhatIf(in->kernels[0], *in->launch, gpu, m, base->cycles);
  EXPECT_TRUE(w.ok()) << w.error().format();
  return w.ok() ? *w : std::vector<WhatIfResult>{};
}

/// The switch named `name`.
const WhatIfResult& named(const std::vector<WhatIfResult>& w, const std::string& name) {
  for (const WhatIfResult& r : w) {
    if (r.name == name) return r;
  }
  static const WhatIfResult none{"(missing)", "", 0, 0, 0};
  ADD_FAILURE() << "no switch " << name;
  return none;
}

TEST(WhatIf, RebaseTakesPenaltyAndSpeedupAgainstTheNewBase) {
  // Switch times run before the base was known (explain runs them beside the sensitivity):
  // against a base of 1000 cycles, 800 saves 200 (1.25x); 1250 costs 250 (0.8x); a switch
  // that takes no time keeps 1x.
  std::vector<WhatIfResult> w{{"a", "", 800, 0, 1}, {"b", "", 1250, 0, 1}, {"c", "", 0, 0, 7}};
  rebaseWhatIf(w, 1000);
  EXPECT_EQ(w[0].name, "a");
  EXPECT_DOUBLE_EQ(w[0].penalty, 200);
  EXPECT_DOUBLE_EQ(w[0].speedup, 1.25);
  EXPECT_DOUBLE_EQ(w[1].penalty, -250);
  EXPECT_DOUBLE_EQ(w[1].speedup, 0.8);
  EXPECT_DOUBLE_EQ(w[2].speedup, 1);
  EXPECT_DOUBLE_EQ(w[2].cycles, 0);
}

TEST(ModelWhatIf, GrophecysMatmulByHand) {
  const std::vector<WhatIfResult> all = modelWhatIf("matmul-fx5600.toml", "fx5600", MwpCwpVariant::Grophecy);
  // Every switch but no-address-arithmetic (the emulation's alone), in the emulation's order.
  ASSERT_EQ(all.size(), 7u);
  const char* order[] = {"conflict-free-shared", "conflict-free-registers", "perfect-coalescing", "infinite-bandwidth",
                         "all-l1-hits",          "all-l2-hits",             "full-occupancy"};
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].name, order[i]);
  const std::vector<WhatIfResult> w = {named(all, "infinite-bandwidth"), named(all, "all-l1-hits"),
                                       named(all, "all-l2-hits"), named(all, "full-occupancy")};
  // Compute-bound case: T = (Mem_L + Comp_cycles × N) × Rep + Synch_cost
  //   = (420 + 9328 × 24) × 52.0833 + 4 × (11.667 − 1) × 50 × 3 × 52.0833
  //   = 11681875 + 333333.3 = 12015208.3 cycles.
  // Without a departure delay Synch_cost vanishes; MWP = N = 24 > CWP keeps the case.
  EXPECT_NEAR(w[0].cycles, 11681875.0, 0.01);
  EXPECT_NEAR(w[0].penalty, 333333.333, 0.01);
  EXPECT_NEAR(w[0].speedup, 12015208.333 / 11681875.0, 1e-9);
  // GROPHECY's variant reads no cache hit rates, and 3 blocks of 8 warps already fill the SM's
  // 24 warps: those switches change nothing.
  for (size_t i = 1; i < 4; ++i) EXPECT_EQ(w[i].penalty, 0) << w[i].name;
}

TEST(ModelWhatIf, NotEnoughWarpsIgnoresBandwidthAndModernReadsTheCaches) {
  // vecadd on the H100 with GROPHECY: MWP = CWP = N = 64, T = (Mem_cycles + Comp_cycles +
  // compP (MWP − 1)) × Rep, no departure delay in it: infinite bandwidth saves nothing.
  const std::vector<WhatIfResult> paper = modelWhatIf("vecadd-h100.toml", "h100", MwpCwpVariant::Grophecy);
  EXPECT_EQ(named(paper, "infinite-bandwidth").penalty, 0);
  // modern charges each load sector to the level that serves it (every one to DRAM here): with
  // all loads hitting L1 or L2 the latency mix falls and the time with it, L1 more than L2.
  const std::vector<WhatIfResult> modern = modelWhatIf("vecadd-h100.toml", "h100", MwpCwpVariant::Modern);
  EXPECT_GT(named(modern, "all-l1-hits").speedup, named(modern, "all-l2-hits").speedup);
  EXPECT_GT(named(modern, "all-l2-hits").speedup, 1.5);
}

}  // namespace
}  // namespace foresight
