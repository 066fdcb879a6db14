// SPDX-License-Identifier: Apache-2.0
// Representative sampling of warp streams (ir/warp_stream.h sampleStream, subsampleStream;
// model/emulate/stream_sampling.h): what the emulate model replays stands for the whole run.
#include "foresight/model/emulate/stream_sampling.h"

#include <gtest/gtest.h>

#include <memory>

#include "foresight/gpu/presets.h"
#include "foresight/model/predict.h"

namespace foresight {
namespace {

/// An init loop, then a long main loop of another character, as one warp runs them:
/// init: kInit iterations of {STS conflict-free (lane·4), IADD}; main: kMain iterations of
/// {LDS at lane·128 (all 32 lanes in bank 0: 32 wavefronts), FFMA (independent of the loads,
/// so that the loads queue on the shared unit back to back)}.
constexpr long long kInit = 4096;   // 8192 instructions: exactly the former 8192-instruction prefix
constexpr long long kMain = 100000;  // 200,000 instructions

KernelIR initThenMain() {
  KernelIR ir;
  ir.name = "init_then_conflicts";
  BasicBlock init;
  init.label = "init";
  Instruction sts{"STS", InstrClass::Ldst};
  sts.src = {1};
  MemoryAccess st;
  st.space = MemorySpace::Shared;
  st.isStore = true;
  for (int l = 0; l < 32; ++l) st.laneAddresses.push_back(4LL * l);
  sts.memory = st;
  Instruction iadd{"IADD", InstrClass::Int};
  iadd.src = {1};
  iadd.dst = {1};
  init.instructions = {sts, iadd};
  init.executionsPerWarp = kInit;
  BasicBlock main;
  main.label = "main";
  Instruction lds{"LDS", InstrClass::Ldst};
  lds.src = {1};
  lds.dst = {2};
  MemoryAccess ld;
  ld.space = MemorySpace::Shared;
  for (int l = 0; l < 32; ++l) ld.laneAddresses.push_back(128LL * l);
  lds.memory = ld;
  Instruction ffma{"FFMA", InstrClass::Fp32};
  ffma.src = {3};
  ffma.dst = {3};
  main.instructions = {lds, ffma};
  main.executionsPerWarp = kMain;
  ir.blocks = {init, main};
  return ir;
}

/// The exact stream of every warp: the init loop then the main loop.
class InitThenMainSource final : public WarpStreamSource {
 public:
  [[nodiscard]] Expected<std::vector<DynamicInstruction>> stream(long long, int) const override {
    std::vector<DynamicInstruction> s;
    for (long long i = 0; i < kInit; ++i) {
      s.push_back({0, 0});
      s.push_back({0, 1});
    }
    for (long long i = 0; i < kMain; ++i) {
      s.push_back({1, 0});
      s.push_back({1, 1});
    }
    return s;
  }
};

std::vector<DynamicInstruction> numbered(int n) {
  std::vector<DynamicInstruction> s(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) s[static_cast<size_t>(i)].index = i;  // index = position in the stream
  return s;
}

TEST(StreamSampling, WindowsFromTheMiddleOfEqualStrata) {
  // 10,000 instructions, budget 1,000 in windows of 100: 10 strata of 1,000, window k at
  // [1000k + 450, 1000k + 550), each standing for 1,000 instructions (weight 10).
  const SampledStream s = sampleStream(numbered(10000), {1000, 100});
  ASSERT_EQ(s.instructions.size(), 1000u);
  ASSERT_EQ(s.windows.size(), 10u);
  EXPECT_DOUBLE_EQ(s.fullLength, 10000);
  EXPECT_DOUBLE_EQ(s.scale, 10);
  for (int k = 0; k < 10; ++k) {
    EXPECT_EQ(s.instructions[static_cast<size_t>(100 * k)].index, 1000 * k + 450);
    EXPECT_DOUBLE_EQ(s.windows[static_cast<size_t>(k)].origin, 1000.0 * k + 450);
    EXPECT_DOUBLE_EQ(s.windows[static_cast<size_t>(k)].weight, 10);
  }
  // Within the budget: the whole stream, one window of weight 1.
  const SampledStream whole = sampleStream(numbered(500), {1000, 100});
  EXPECT_EQ(whole.instructions.size(), 500u);
  ASSERT_EQ(whole.windows.size(), 1u);
  EXPECT_DOUBLE_EQ(whole.scale, 1);
}

TEST(StreamSampling, SubsampleKeepsWindowsSpreadOverTheWholeRun) {
  // The 10 windows above cut to 250 instructions in windows of 50: 20 chunks of 50 (two per
  // window), 5 kept: the middle chunk ((4k + 4k + 3) / 2 = 4k + 1) of each group of 4, i.e.
  // the second half of windows 0, 2, 4, 6, 8 (origin 1000·2k + 450 + 50), each standing for
  // 4 chunks x 500 = 2,000 instructions (weight 40).
  const SampledStream s = subsampleStream(sampleStream(numbered(10000), {1000, 100}), {250, 50});
  ASSERT_EQ(s.instructions.size(), 250u);
  ASSERT_EQ(s.windows.size(), 5u);
  EXPECT_DOUBLE_EQ(s.scale, 40);
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(s.instructions[static_cast<size_t>(50 * k)].index, 2000 * k + 500);
    EXPECT_DOUBLE_EQ(s.windows[static_cast<size_t>(k)].origin, 2000.0 * k + 500);
    EXPECT_DOUBLE_EQ(s.windows[static_cast<size_t>(k)].weight, 40);
  }
}

TEST(StreamSampling, PrefixVersusSteadyStateReportsTheMainLoop) {
  // Issue 11: the emulated window was the prefix (the init loop) scaled to the whole kernel,
  // so a kernel with 32-way conflicts in its main loop read as 1 wavefront per request.
  KernelInput k;
  k.ir = initThenMain();
  k.ir.streams = std::make_shared<InitThenMainSource>();
  Launch one;
  one.grid = {1, 1, 1};
  one.block = {32, 1, 1};
  const Gpu gpu = loadPreset("h100").value();
  EmulateOptions o;
  o.launchOverheadCycles = 0;
  Expected<Prediction> p = predict(k, one, gpu, {.model = ModelKind::Emulate, .emulate = o});
  ASSERT_TRUE(p.ok()) << p.error().message;
  // The warp's 208,192 instructions sampled as 32 windows of 256 (one per stratum of 6,506):
  // the window of stratum 0 ([3,125, 3,381)) is in the init loop, the 31 others in the main
  // loop; 128 shared requests per window: (128·1 + 31·128·32) / (32·128) = 993/32 wavefronts
  // per request (the whole run: (4,096 + 3,200,000) / 104,096 = 30.78).
  ASSERT_NE(p->value("wavefronts_per_shared_request"), nullptr);
  EXPECT_DOUBLE_EQ(p->value("wavefronts_per_shared_request")->value, 993.0 / 32);
  ASSERT_NE(p->value("stream_scale"), nullptr);
  EXPECT_DOUBLE_EQ(p->value("stream_scale")->value, 208192.0 / 8192);
  EXPECT_EQ(p->bound, (Bound{Resource::Shared, BoundMode::Throughput}));
  // H100 shared: 1 cycle per wavefront (128 B / 128 B per cycle), so the main loop alone keeps
  // shared memory busy 100,000 x 32 = 3.2 M cycles; the init loop adds ~8 k (2 instructions per
  // iteration at one issue per cycle). The prefix scaled by 25.4 gave ~0.2 M.
  EXPECT_GE(p->cycles, 3.2e6);
  EXPECT_LE(p->cycles, 3.2e6 * 1.03);
}

}  // namespace
}  // namespace foresight
