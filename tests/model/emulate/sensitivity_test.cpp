// SPDX-License-Identifier: Apache-2.0
// Sensitivity analysis on a two-region kernel with no clear winner: elasticities by hand,
// Σ = 1, and region-wise elasticities that add up to the whole-kernel ones.
#include "foresight/model/emulate/sensitivity.h"

#include <gtest/gtest.h>

#include "foresight/gpu/presets.h"

namespace foresight {
namespace {

/// One warp. Line 10: 10 dependent MUFU (H100 sfu L=23). Line 20: 8 independent shared loads,
/// 32-way conflicted (32 wavefronts, shared G=1, L=29).
KernelInput twoRegions() {
  KernelInput k;
  k.ir.name = "two_regions";
  BasicBlock b;
  b.label = "b0";
  for (int i = 0; i < 10; ++i) {
    Instruction in{"MUFU.RCP", InstrClass::Sfu};
    in.src = {0};
    in.dst = {0};
    in.sourceFile = "k.cu";
    in.sourceLine = 10;
    b.instructions.push_back(in);
  }
  for (int i = 0; i < 8; ++i) {
    Instruction in{"LDS", InstrClass::Ldst};
    in.dst = {1 + i};
    MemoryAccess m;
    m.space = MemorySpace::Shared;
    for (int l = 0; l < 32; ++l) m.laneAddresses.push_back(128LL * l);
    in.memory = m;
    in.sourceFile = "k.cu";
    in.sourceLine = 20;
    b.instructions.push_back(in);
  }
  k.ir.blocks = {b};
  return k;
}

TEST(EmulateSensitivity, TwoRegionsNoClearWinner) {
  // The h100 preset with the SFU and shared latencies this test's hand numbers were built on
  // (gpgpu-sim's SFU 23, MT4G's shared 29.88): the preset's measured values (17, 29.04) would
  // make the shared pipe a clear winner, and the test is about two regions that are not.
  Gpu gpu = loadPreset("h100").value();
  gpu.pipelines[static_cast<int>(InstrClass::Sfu)]->latency.value = 23;
  for (MemoryLevel& m : gpu.memory) {
    if (m.name == "shared") m.latency.value = 29.88;
  }
  Launch launch;
  launch.block = {32, 1, 1};
  EmulateOptions o;
  o.launchOverheadCycles = 0;
  Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(twoRegions(), launch, gpu, o);
  ASSERT_TRUE(e.ok()) << e.error().message;
  Expected<SensitivityReport> s = analyzeSensitivity(*e);
  ASSERT_TRUE(s.ok());
  // The MUFU chain issues at 0, 23, ..., 207; the first LDS issues at 208; shared admits the 8
  // loads every 32 cycles from 208, the last done at 208 + 7·32 + 31 + 29.88 = 492.88 (shared
  // latency 29.88, set above).
  // T = 9·L_sfu + 1·issue + (7·32 + 31)·G_shared + L_shared = 207 + 1 + 255 + 29.88 = 492.88.
  EXPECT_DOUBLE_EQ(s->cycles, 492.88);
  auto find = [&](const std::vector<Elasticity>& list, const std::string& unit, BoundMode p,
                  const std::string& region) {
    for (const Elasticity& x : list) {
      if (x.unit == unit && x.parameter == p && x.region == region) return x.elasticity;
    }
    return -99.0;
  };
  EXPECT_NEAR(find(s->entries, "shared", BoundMode::Throughput, ""), 255.0 / 492.88, 1e-9);
  EXPECT_NEAR(find(s->entries, "sfu", BoundMode::Latency, ""), 207.0 / 492.88, 1e-9);
  EXPECT_NEAR(find(s->entries, "shared", BoundMode::Latency, ""), 29.88 / 492.88, 1e-9);
  EXPECT_NEAR(find(s->entries, "issue", BoundMode::Throughput, ""), 1.0 / 492.88, 1e-9);
  EXPECT_NEAR(s->sum, 1.0, 1e-9);
  EXPECT_EQ(s->bound, (Bound{Resource::Shared, BoundMode::Throughput}));
  // 0.421 >= 0.75 x 0.518: no clear winner → per-region analysis of the two significant ones.
  EXPECT_FALSE(s->clearWinner);
  EXPECT_NEAR(find(s->regional, "sfu", BoundMode::Latency, "k.cu:10-10"), 207.0 / 492.88, 1e-9);
  EXPECT_NEAR(find(s->regional, "sfu", BoundMode::Latency, "k.cu:20-20"), 0, 1e-9);
  EXPECT_NEAR(find(s->regional, "shared", BoundMode::Throughput, "k.cu:20-20"), 255.0 / 492.88, 1e-9);
  EXPECT_NEAR(find(s->regional, "shared", BoundMode::Throughput, "k.cu:10-10"), 0, 1e-9);
  // uiCA-style: shared alone needs 8·32·1 = 256 cycles.
  EXPECT_EQ(s->alone.front().unit, "shared");
  EXPECT_DOUBLE_EQ(s->alone.front().cycles, 256);
}

}  // namespace
}  // namespace foresight
