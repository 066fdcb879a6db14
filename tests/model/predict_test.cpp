// SPDX-License-Identifier: Apache-2.0
/// \file
/// predict() end to end on GROPHECY's tiled MatMul (examples/summary/matmul-fx5600.toml) on the
/// fx5600 preset: occupancy, MWP-CWP values, time and bound for the grophecy and hong-kim
/// variants, wave quantisation, and the errors for a missing CGPredict parameter and an
/// oversized block. Numbers are worked by hand below from grophecy.md §10.3 and Table 5.
///
/// Hand calculation (fx5600: 16 SMs, 1.35 GHz, Mem_LD 420, dd_coal 4, Issue_cycles 4, 76.8 GB/s):
///   occupancy: 256 threads = 8 warps; warps 24/8 = 3, threads 768/256 = 3, shared
///     16384/2048 = 8, blocks 8, registers unknown → 3 blocks (limiter warps, first on ties)
///   N = 3 x 8 = 24; Active_SMs = 16; Rep = 2500 / (3 x 16) = 52.0833
///   Comp_cycles = 4 x (2281 + 51) = 9328; Mem_L = 420; Departure_delay = 4
///   MWP_without_BW = 420/4 = 105; BW_per_warp = 1.35 x 128 / 420 = 0.41143 GB/s;
///   MWP_peak_BW = 76.8 / (0.41143 x 16) = 11.6667; MWP = min(105, 11.6667, 24) = 11.6667
///   Mem_cycles = 420 x 51 = 21420; CWP = (21420 + 9328) / 9328 = 3.2963
///   MWP > CWP and Comp < Mem → compute case: Exec = (420 + 9328 x 24) x 52.0833 = 11,681,875
///   Synch = 4 x (11.6667 - 1) x 50 x 3 x 52.0833 = 333,333.3
///   total = 12,015,208.3 cycles / 1.35 GHz = 8.9002 ms
#include "foresight/model/predict.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "foresight/frontend/summary/summary_frontend.h"
#include "foresight/gpu/presets.h"

namespace foresight {
namespace {

constexpr const char* kExample = FORESIGHT_SOURCE_DIR "/examples/summary/matmul-fx5600.toml";

class PredictMatmul : public ::testing::Test {
 protected:
  void SetUp() override {
    Expected<LoadedInput> input = loadSummaryFile(kExample);
    ASSERT_TRUE(input.ok()) << input.error().format();
    ASSERT_EQ(input->kernels.size(), 1u);
    ASSERT_TRUE(input->launch.has_value());
    kernel_ = input->kernels[0];
    launch_ = *input->launch;
    Expected<Gpu> gpu = loadPreset("fx5600");
    ASSERT_TRUE(gpu.ok()) << gpu.error().format();
    gpu_ = *gpu;
  }

  double value(const Prediction& p, const std::string& name) {
    const NamedValue* v = p.value(name);
    EXPECT_NE(v, nullptr) << "no value " << name;
    return v ? v->value : std::nan("");
  }

  KernelInput kernel_;
  Launch launch_;
  Gpu gpu_;
};

TEST_F(PredictMatmul, GrophecyVariantGives8Point90Ms) {
  Expected<Prediction> p = predict(kernel_, launch_, gpu_, ModelOptions{});
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_EQ(p->model, "mwp-cwp");
  EXPECT_EQ(p->variant, "grophecy");  // the ModelOptions default
  EXPECT_NEAR(p->seconds * 1e3, 8.90, 0.05);                // GROPHECY's 8.90 ms
  EXPECT_NEAR(p->seconds, 12015208.333 / 1.35e9, 1e-9);     // the hand total above
  EXPECT_NEAR(p->cycles, 12015208.333, 0.01);
  // Occupancy.
  EXPECT_EQ(p->occupancy.blocksPerSm, 3);
  EXPECT_EQ(p->occupancy.warpsPerBlock, 8);
  EXPECT_EQ(p->occupancy.warpsPerSm, 24);
  EXPECT_EQ(p->occupancy.limiter, OccupancyLimiter::Warps);
  EXPECT_DOUBLE_EQ(p->occupancy.fraction, 1.0);  // 24 / 24
  // Model values.
  EXPECT_DOUBLE_EQ(value(*p, "N"), 24);
  EXPECT_DOUBLE_EQ(value(*p, "Active_blocks_per_SM"), 3);  // min(3, ceil(2500/16) = 157)
  EXPECT_DOUBLE_EQ(value(*p, "Active_SMs"), 16);
  EXPECT_NEAR(value(*p, "Rep"), 52.0833, 1e-4);
  EXPECT_DOUBLE_EQ(value(*p, "Mem_L"), 420);
  EXPECT_DOUBLE_EQ(value(*p, "Departure_delay"), 4);
  EXPECT_DOUBLE_EQ(value(*p, "MWP_Without_BW_full"), 105);
  EXPECT_NEAR(value(*p, "BW_per_warp"), 0.411429, 1e-6);
  EXPECT_NEAR(value(*p, "MWP_peak_BW"), 11.6667, 1e-4);
  EXPECT_NEAR(value(*p, "MWP"), 11.6667, 1e-4);
  EXPECT_DOUBLE_EQ(value(*p, "Comp_cycles"), 9328);
  EXPECT_DOUBLE_EQ(value(*p, "Mem_cycles"), 21420);
  EXPECT_NEAR(value(*p, "CWP"), 3.2963, 1e-4);
  EXPECT_NEAR(value(*p, "Exec_cycles"), 11681875, 0.01);
  EXPECT_NEAR(value(*p, "Synch_cost"), 333333.33, 0.01);
  // GROPHECY's label: min(MWP 11.67, CWP-1 2.30, N-1 23) = CWP-1 → compute (issue) bound.
  EXPECT_EQ(p->bound, (Bound{Resource::Issue, BoundMode::Throughput}));
  EXPECT_EQ(p->boundExplanation, "CWP-1 is the smallest of MWP, CWP-1 and N-1: compute-bound");
  // Resources: issue busy = 9328 x (2500 x 8 warps) / 16 SMs = 11,660,000 cycles (97.04 %);
  // dram busy = 51 x 128 B x 20000 warps / (76.8 / 1.35 B/cycle) = 2,295,000 cycles (19.10 %).
  ASSERT_EQ(p->resources.size(), 2u);
  EXPECT_EQ(p->resources[0].resource, Resource::Issue);
  EXPECT_NEAR(p->resources[0].busyCycles, 11660000, 1e-3);
  EXPECT_NEAR(p->resources[0].utilization, 0.970437, 1e-6);
  EXPECT_EQ(p->resources[1].resource, Resource::Dram);
  EXPECT_NEAR(p->resources[1].busyCycles, 2295000, 1e-3);
  EXPECT_NEAR(p->resources[1].utilization, 0.191008, 1e-6);
  // The example gives no register count.
  ASSERT_EQ(p->warnings.size(), 1u);
  EXPECT_EQ(p->warnings[0], "registers per thread unknown: occupancy ignores the register limit");
}

/// A launch timed alone adds the GPU's launch_latency once, after the floors: 8.9002 ms + 3.5 us
/// (a latency given to fx5600 here; its cycles at 1.35 GHz: 4725). Timed in a stream, or on a GPU
/// without the figure, nothing changes.
TEST_F(PredictMatmul, ALaunchTimedAloneAddsTheLaunchLatency) {
  Expected<Prediction> stream = predict(kernel_, launch_, gpu_, ModelOptions{});
  ASSERT_TRUE(stream.ok()) << stream.error().format();
  Launch alone = launch_;
  alone.timing = LaunchTiming::Alone;
  Expected<Prediction> unknown = predict(kernel_, alone, gpu_, ModelOptions{});
  ASSERT_TRUE(unknown.ok());
  EXPECT_DOUBLE_EQ(unknown->seconds, stream->seconds);
  EXPECT_EQ(unknown->value("launch_latency_us"), nullptr);
  Gpu gpu = gpu_;
  gpu.launchLatencyUs = Param<double>{3.5};
  Expected<Prediction> p = predict(kernel_, alone, gpu, ModelOptions{});
  ASSERT_TRUE(p.ok());
  EXPECT_NEAR(p->seconds, stream->seconds + 3.5e-6, 1e-15);
  EXPECT_NEAR(p->seconds * 1e3, 8.9002 + 0.0035, 1e-4);
  EXPECT_NEAR(p->cycles, stream->cycles + 4725, 1e-6);
  EXPECT_DOUBLE_EQ(value(*p, "launch_latency_us"), 3.5);
  Expected<Prediction> streamed = predict(kernel_, launch_, gpu, ModelOptions{});
  ASSERT_TRUE(streamed.ok());
  EXPECT_DOUBLE_EQ(streamed->seconds, stream->seconds);
}

TEST_F(PredictMatmul, HongKimVariantGivesTheSameTime) {
  Expected<Prediction> grophecy = predict(kernel_, launch_, gpu_, ModelOptions{});
  Expected<Prediction> hk =
      predict(kernel_, launch_, gpu_, ModelOptions{.variant = MwpCwpVariant::HongKim});
  ASSERT_TRUE(grophecy.ok()) << grophecy.error().format();
  ASSERT_TRUE(hk.ok()) << hk.error().format();
  EXPECT_EQ(hk->variant, "hong-kim");
  // Same equations for time; only the bound label differs in general.
  EXPECT_DOUBLE_EQ(hk->cycles, grophecy->cycles);
  EXPECT_NEAR(hk->seconds * 1e3, 8.90, 0.05);
  // Hong & Kim: MWP 11.67 > CWP 3.30 and Comp 9328 < Mem 21420 → compute case → issue.
  EXPECT_EQ(hk->bound, (Bound{Resource::Issue, BoundMode::Throughput}));
  EXPECT_EQ(hk->boundExplanation, "MWP > CWP: compute-bound, memory latency hidden by other warps' computation");
}

TEST_F(PredictMatmul, CGPredictNeedsL2Latency) {
  Expected<Prediction> p =
      predict(kernel_, launch_, gpu_, ModelOptions{.variant = MwpCwpVariant::CGPredict});
  ASSERT_FALSE(p.ok());
  // l2_latency is the first of the four CGPredict keys checked; fx5600 has no L2 at all.
  EXPECT_EQ(p.error().message,
            "the cgpredict variant needs mwp_cwp.l2_latency, which GPU 'fx5600' does not give");
  EXPECT_EQ(p.error().file, "gpus/fx5600.toml");
}

TEST_F(PredictMatmul, BlockAboveThreadLimit) {
  launch_.block = Dim3{32, 32, 1};  // 1024 threads; G80 allows 512 per block
  launch_.grid = Dim3{25, 25, 1};
  Expected<Prediction> p = predict(kernel_, launch_, gpu_, ModelOptions{});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message, "threads per block: the block has 1024, above the limit of 512");
}

TEST_F(PredictMatmul, QuantizedWavesRoundRepUp) {
  Expected<Prediction> p = predict(kernel_, launch_, gpu_, ModelOptions{.quantizeWaves = true});
  ASSERT_TRUE(p.ok()) << p.error().format();
  // Rep = ceil(52.083) = 53. Exec = (420 + 9328 x 24) x 53 = 224292 x 53 = 11,887,476;
  // Synch = 4 x (35/3 - 1) x 50 x 3 x 53 = 6400 x 53 = 339,200; total 12,226,676 cycles
  // = 9.0568 ms at 1.35 GHz.
  EXPECT_DOUBLE_EQ(value(*p, "Rep"), 53);
  EXPECT_NEAR(value(*p, "Exec_cycles"), 11887476, 1e-3);
  EXPECT_NEAR(value(*p, "Synch_cost"), 339200, 1e-3);
  EXPECT_NEAR(p->cycles, 12226676, 1e-3);
  EXPECT_NEAR(p->seconds, 12226676 / 1.35e9, 1e-12);
  // Both terms scale by Rep, so the time scales by 53 / 52.0833 = 1.01760.
  Expected<Prediction> fractional = predict(kernel_, launch_, gpu_, ModelOptions{});
  ASSERT_TRUE(fractional.ok());
  EXPECT_NEAR(p->cycles / fractional->cycles, 53 / (2500.0 / 48), 1e-12);
}

TEST_F(PredictMatmul, RegisterCountRemovesTheWarning) {
  // 10 registers: per block roundUp(roundUp(8, 2) x 32 x 10, 256) = 2560 → 8192 / 2560 = 3
  // blocks, tying warps and threads at 3: the same prediction, without the warning.
  kernel_.ir.resources.registers = 10;
  Expected<Prediction> p = predict(kernel_, launch_, gpu_, ModelOptions{});
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_EQ(p->occupancy.blocksPerSm, 3);
  EXPECT_NEAR(p->cycles, 12015208.333, 0.01);
  EXPECT_TRUE(p->warnings.empty());
}

TEST_F(PredictMatmul, EmptyLaunchIsAnError) {
  launch_.grid = Dim3{0, 1, 1};
  Expected<Prediction> p = predict(kernel_, launch_, gpu_, ModelOptions{});
  ASSERT_FALSE(p.ok());
  // checkLaunchLimits() (launch.h) guards every model's input.
  EXPECT_EQ(p.error().message, "grid 0,1,1 has an extent below 1");
}

TEST_F(PredictMatmul, WithoutSummaryTheIrIsSummarised) {
  // No summary and an IR without blocks: summarize()'s error comes back unchanged.
  KernelInput bare;
  bare.ir.name = "matmul_tiled";
  Expected<Prediction> p = predict(bare, launch_, gpu_, ModelOptions{});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message, "kernel 'matmul_tiled' executes no instructions");
}

TEST_F(PredictMatmul, IrPathMatchesTheEquivalentSummary) {
  // One block run 10 times per warp: 9 FFMA + 1 unit-stride global load. On CC 1.0 that is
  // comp 90, 10 coalesced loads with 2 transactions, 128 B per request. The IR path and a
  // hand-written summary with those numbers must predict the same cycles.
  KernelInput ir;
  ir.ir.name = "k";
  BasicBlock b;
  b.label = "body";
  b.executionsPerWarp = 10;
  Instruction ffma;
  ffma.opcode = "FFMA";
  ffma.cls = InstrClass::Fp32;
  for (int i = 0; i < 9; ++i) b.instructions.push_back(ffma);
  Instruction ld;
  ld.opcode = "LDG";
  ld.cls = InstrClass::Ldst;
  ld.memory = MemoryAccess{};
  for (long long l = 0; l < 32; ++l) ld.memory->laneAddresses.push_back(4 * l);
  b.instructions.push_back(ld);
  ir.ir.blocks.push_back(b);
  KernelInput summary;
  summary.ir.name = "k";
  WorkloadSummary s;
  s.compInsts = 90;
  s.loadBytesPerWarp = 128;
  s.mem(AccessClass::Coalesced).insts = 10;
  s.mem(AccessClass::Coalesced).transactionsPerInst = 2;
  summary.summary = s;
  Expected<Prediction> a = predict(ir, launch_, gpu_, ModelOptions{});
  Expected<Prediction> c = predict(summary, launch_, gpu_, ModelOptions{});
  ASSERT_TRUE(a.ok()) << a.error().format();
  ASSERT_TRUE(c.ok()) << c.error().format();
  EXPECT_GT(a->cycles, 0);
  EXPECT_DOUBLE_EQ(a->cycles, c->cycles);
  EXPECT_DOUBLE_EQ(value(*a, "Comp_cycles"), 400);  // 4 x (90 + 10)
}

}  // namespace
}  // namespace foresight
