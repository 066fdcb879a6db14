// SPDX-License-Identifier: Apache-2.0
// The emulate model end to end on small kernels with hand-computed times.
#include "foresight/model/emulate/emulate_model.h"

#include <gtest/gtest.h>

#include "foresight/advise/whatif.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/ir/warp_stream.h"
#include "foresight/model/emulate/sensitivity.h"
#include "foresight/model/predict.h"

namespace foresight {
namespace {

/// One warp: 10 dependent shared loads at a stride of 32 words (all lanes in bank 0).
KernelInput conflictChain() {
  KernelInput k;
  k.ir.name = "lds_chain";
  BasicBlock b;
  b.label = "b0";
  for (int i = 0; i < 10; ++i) {
    Instruction in{"LDS", InstrClass::Ldst};
    in.src = {0};
    in.dst = {0};
    MemoryAccess m;
    m.space = MemorySpace::Shared;
    for (int l = 0; l < 32; ++l) m.laneAddresses.push_back(128LL * l);
    in.memory = m;
    b.instructions.push_back(in);
  }
  k.ir.blocks = {b};
  return k;
}

Launch oneWarp() {
  Launch l;
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  return l;
}

TEST(EmulateModel, BankConflictChainAndWhatIf) {
  const Gpu gpu = loadPreset("h100").value();
  EmulateOptions o;
  o.launchOverheadCycles = 0;
  // H100: shared L=29.04 (measured 2026-11-26, docs/gpu-presets.md), G = 128 B / 128 B/cycle =
  // 1 per wavefront; 32 wavefronts per load: done = admit + 31·1 + 29.04 = +60.04 (the LSU pipe's
  // 4 is hidden); 10 in a chain → 600.4.
  Expected<Prediction> p = predict(conflictChain(), oneWarp(), gpu, {.model = ModelKind::Emulate, .emulate = o});
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_DOUBLE_EQ(p->cycles, 600.4);
  EXPECT_EQ(p->model, "emulate");
  // T = 10·(31 G + L): e_G = 310/600.4 = 0.516, e_L = 290.4/600.4 = 0.484 → shared, throughput.
  EXPECT_EQ(p->bound, (Bound{Resource::Shared, BoundMode::Throughput}));
  Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(conflictChain(), oneWarp(), gpu, o);
  ASSERT_TRUE(e.ok());
  Expected<SensitivityReport> s = analyzeSensitivity(*e);
  ASSERT_TRUE(s.ok());
  EXPECT_NEAR(s->entries[0].elasticity, 310.0 / 600.4, 1e-9);
  EXPECT_EQ(s->entries[0].unit, "shared");
  EXPECT_NEAR(s->entries[1].elasticity, 290.4 / 600.4, 1e-9);
  EXPECT_NEAR(s->sum, 1.0, 1e-9);
  // Conflict-free: 1 wavefront → 29.04 per load → 290.4; the conflicts cost 310 cycles.
  Expected<std::vector<WhatIfResult>> w = analyzeWhatIf(conflictChain(), oneWarp(), gpu, o, p->cycles);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ((*w)[0].name, "conflict-free-shared");
  EXPECT_DOUBLE_EQ((*w)[0].cycles, 290.4);
  EXPECT_DOUBLE_EQ((*w)[0].penalty, 310);
  EXPECT_EQ((*w)[1].name, "conflict-free-registers");
  EXPECT_DOUBLE_EQ((*w)[1].penalty, 0);  // no FFMA
  EXPECT_EQ((*w)[2].name, "perfect-coalescing");
  EXPECT_DOUBLE_EQ((*w)[2].penalty, 0);  // no global access
}

TEST(EmulateModel, AtomicsToOneAddressAddAfterTheSmTime) {
  // The bank-conflict chain above (600.4 cycles) with 1,000 f32 atomics to one address in its
  // traffic: the H100's L2 applies them one after another at 1.72 ns each, 1.72 us x 1.98 GHz =
  // 3405.6 cycles, added: 4006.0. Only the L2's gap moves them: e_l2,gap = 3405.6 / 4006 (the
  // bound), the shared gap and latency 310 / 4006 and 290.4 / 4006; the sum stays 1.
  const Gpu gpu = loadPreset("h100").value();
  auto traffic = std::make_shared<MemoryTraffic>();
  traffic->hotAtomicOps = 1000;
  traffic->hotAtomicFloatOps = 1000;
  EmulateOptions o;
  o.launchOverheadCycles = 0;
  o.memory = traffic;
  Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(conflictChain(), oneWarp(), gpu, o);
  ASSERT_TRUE(e.ok()) << e.error().message;
  Expected<emu::KernelTiming> t = e->run();
  ASSERT_TRUE(t.ok());
  EXPECT_NEAR(t->atomicCycles, 3405.6, 1e-9);
  EXPECT_NEAR(t->cycles, 4006.0, 1e-9);
  Expected<SensitivityReport> s = analyzeSensitivity(*e);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->entries[0].unit, "l2");
  EXPECT_EQ(s->entries[0].parameter, BoundMode::Throughput);
  EXPECT_NEAR(s->entries[0].elasticity, 3405.6 / 4006.0, 1e-9);
  EXPECT_NEAR(s->sum, 1.0, 1e-9);
  // With infinite bandwidth (the what-if) the L2 applies them at once.
  o.whatIf.infiniteBandwidth = true;
  Expected<emu::KernelEmulation> fast = emu::KernelEmulation::create(conflictChain(), oneWarp(), gpu, o);
  ASSERT_TRUE(fast.ok());
  EXPECT_EQ(fast->run()->atomicCycles, 0.0);
  // The saake variant has none.
  o.whatIf.infiniteBandwidth = false;
  o.variant = EmulateVariant::Saake;
  Expected<emu::KernelEmulation> paper = emu::KernelEmulation::create(conflictChain(), oneWarp(), gpu, o);
  ASSERT_TRUE(paper.ok());
  EXPECT_EQ(paper->run()->atomicCycles, 0.0);
}

TEST(EmulateModel, VecaddSummaryIsDramThroughputBound) {
  Expected<LoadedInput> in = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/vecadd-h100.toml");
  ASSERT_TRUE(in.ok());
  const Gpu gpu = loadPreset("h100").value();
  Expected<Prediction> p = predict(in->kernels[0], *in->launch, gpu, {.model = ModelKind::Emulate});
  ASSERT_TRUE(p.ok()) << p.error().message;
  // 2^21 warps x 3 requests x 4 sectors x 32 B = 805.3 MB; at 3.35 TB/s: 240.4 us =
  // 475,963 cycles at 1.98 GHz, + 3000 launch overhead = 478,963. That is a floor: DRAM cannot
  // go faster. Block refill and the latency ramp add to it (834.5-cycle DRAM latency, MT4G); the
  // DRAM unit streams at the preset's read rate for an H100 SXM, 3180 GB/s (BabelStream Dot,
  // docs/gpu-presets.md): 805,306,368 B / 3180 GB/s = 253.24 us = 501,416 cycles, + the preset's
  // 2.43 us launch overhead (4,811 cycles) = 506,227. Each warp issues only 3 loads, so blocks
  // retire and refill every ~3 DRAM latencies: 262,144 blocks / (132 SMs x 8 slots) = 248.2
  // refills per slot, each at worst unhidden for the block overhead (374 cycles) and one DRAM
  // latency before its first data (834.5): 248.2 x 1,208.5 = 299,950 cycles. Ceiling 501,416 +
  // 299,950 + 4,811 = 806,177 (the emulator gives 698,761: 39 % above the stream, which 64 warps
  // per SM with one load in flight each cannot keep busy at 3.18 TB/s).
  EXPECT_GE(p->cycles, 478963.0 * 0.999);
  EXPECT_LE(p->cycles, 806177.0);
  EXPECT_EQ(p->bound, (Bound{Resource::Dram, BoundMode::Throughput}));
}

TEST(EmulateModel, ElasticitiesSumToOne) {
  // Σ over every latency, gap, the issue gap and the launch overhead (central differences).
  for (const char* name : {"h100", "a100", "fx5600"}) {
    Expected<LoadedInput> in = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/vecadd-h100.toml");
    ASSERT_TRUE(in.ok());
    const Gpu gpu = loadPreset(name).value();
    Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(in->kernels[0], *in->launch, gpu, {});
    ASSERT_TRUE(e.ok()) << e.error().message;
    Expected<SensitivityReport> s = analyzeSensitivity(*e);
    ASSERT_TRUE(s.ok());
    // Euler: T is homogeneous of degree 1 in all latencies, gaps, the issue gap and the launch
    // overhead; ±10/20% steps of a piecewise-linear T (block refills shift by whole ops) stay
    // within 8 % of it.
    EXPECT_NEAR(s->sum, 1.0, 0.08) << name;
    EXPECT_TRUE(s->warnings.empty());
  }
  // The barrier-phased matmul summary on GPUs where its schedule is regular enough.
  Expected<LoadedInput> mm = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/matmul-fx5600.toml");
  ASSERT_TRUE(mm.ok());
  for (const char* name : {"fx5600", "a100"}) {
    const Gpu gpu = loadPreset(name).value();
    Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(mm->kernels[0], *mm->launch, gpu, {});
    ASSERT_TRUE(e.ok());
    Expected<SensitivityReport> s = analyzeSensitivity(*e);
    ASSERT_TRUE(s.ok());
    EXPECT_NEAR(s->sum, 1.0, 0.15) << name;
  }
}

TEST(EmulateModel, SaakeVariantUsesOneGlobalMemoryResource) {
  Expected<LoadedInput> in = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/vecadd-h100.toml");
  ASSERT_TRUE(in.ok());
  const Gpu gpu = loadPreset("h100").value();
  EmulateOptions o;
  o.variant = EmulateVariant::Saake;
  Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(in->kernels[0], *in->launch, gpu, o);
  ASSERT_TRUE(e.ok());
  bool gm = false;
  for (const emu::UnitSpec& u : e->units()) gm = gm || u.name == "gm";
  EXPECT_TRUE(gm);
  // SAAKE: coalesced = one 128-B transaction; gap = 128 / (3350 / (132·1.98)) = 9.983 cycles
  // per SM. One wave (8 blocks, 64 warps x 3 requests) takes 192 x 9.983 of GM gap plus the
  // last request's 834.5 latency (MT4G H100 SXM) = 2751.3; ceil(262144 / (8·132)) = 249 waves
  // → 685,071.
  Expected<Prediction> p = predict(in->kernels[0], *in->launch, gpu, {.model = ModelKind::Emulate, .emulate = o});
  ASSERT_TRUE(p.ok());
  EXPECT_NEAR(p->cycles / 685071.0, 1.0, 0.02);
  EXPECT_EQ(p->variant, "saake");
}

/// One warp: a global load (8 B per lane, coalesced), then an add that uses it; the stream
/// source runs the load with `mask` (0: every lane predicated off, as `@P1 LDG` with P1 false).
class PredicatedLoadSource final : public WarpStreamSource {
 public:
  explicit PredicatedLoadSource(std::uint32_t mask) : mask_(mask) {}
  [[nodiscard]] Expected<std::vector<DynamicInstruction>> stream(long long, int) const override {
    DynamicInstruction load{0, 0, mask_, {}};
    if (mask_ != 0) {
      for (int l = 0; l < 32; ++l) load.laneAddresses.push_back((1LL << 30) + 8LL * l);
    }
    return std::vector<DynamicInstruction>{load, DynamicInstruction{0, 1}};
  }

 private:
  std::uint32_t mask_;
};

TEST(EmulateModel, APredicatedOffLoadMovesNoData) {
  KernelInput k;
  k.ir.name = "predicated_load";
  BasicBlock b;
  b.label = "b0";
  Instruction ldg{"LDG.E.64", InstrClass::Ldst};
  ldg.dst = {0};
  MemoryAccess m;
  m.space = MemorySpace::Global;
  m.widthBytes = 8;
  m.pattern = AccessClass::Coalesced;
  ldg.memory = m;
  Instruction add{"IADD3", InstrClass::Int};
  add.src = {0};
  add.dst = {1};
  b.instructions = {ldg, add};
  k.ir.blocks = {b};
  const Gpu gpu = loadPreset("h100").value();
  EmulateOptions o;
  o.launchOverheadCycles = 0;
  auto cycles = [&](std::uint32_t mask) {
    k.ir.streams = std::make_shared<PredicatedLoadSource>(mask);
    Expected<Prediction> p = predict(k, oneWarp(), gpu, {.model = ModelKind::Emulate, .emulate = o});
    EXPECT_TRUE(p.ok()) << p.error().message;
    return p.ok() ? p->cycles : 0.0;
  };
  // Executed, the load's 8 sectors come from DRAM (H100: 834.5 cycles) before the add may issue.
  EXPECT_GT(cycles(0xffffffffu), 834.5);
  // Predicated off, it only issues: the LD/ST pipe's 4 cycles, then the add's 4.12 = 8.12.
  EXPECT_NEAR(cycles(0), 8.12, 1e-9);
}

}  // namespace
}  // namespace foresight

namespace foresight {
namespace {

double unitGap(const emu::KernelEmulation& e, const std::string& name) {
  for (const emu::UnitSpec& u : e.units()) {
    if (u.name == name) return u.gap;
  }
  return -1;
}

TEST(EmulateModel, PresetGapsMatchTheDigestsPerSmShares) {
  // saake.md §2.3 / §10.4: per-SM DRAM gap per 32-B sector = 32 / (bandwidth / (SMs x clock)),
  // at the achievable read bandwidth of a read-only stream (the summary has no stores):
  // H100 SXM 32 / (3180 / (132 x 1.98)) = 2.630; H100 PCIe 32 / (1972.1 / (114 x 1.755)) =
  // 3.246; H200 32 / (3888.8 / (132 x 1.98)) = 2.151. Shared: 128 B wavefront / 128 B/cycle =
  // 1; L1: 32 B / 128 B/cycle = 0.25.
  Expected<LoadedInput> in = loadInput(std::string(FORESIGHT_SOURCE_DIR) + "/examples/summary/vecadd-h100.toml");
  ASSERT_TRUE(in.ok());
  const struct {
    const char* gpu;
    double dram;
  } cases[] = {{"h100", 2.630}, {"h100-pcie", 3.246}, {"h200", 2.151}};
  for (const auto& c : cases) {
    const Gpu gpu = loadPreset(c.gpu).value();
    Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(in->kernels[0], *in->launch, gpu, {});
    ASSERT_TRUE(e.ok());
    EXPECT_NEAR(unitGap(*e, "dram"), c.dram, 0.01) << c.gpu;
    EXPECT_NEAR(unitGap(*e, "shared"), 1.0, 1e-9) << c.gpu;
    EXPECT_NEAR(unitGap(*e, "l1"), 0.25, 1e-9) << c.gpu;
  }
}

}  // namespace
}  // namespace foresight

namespace foresight {
namespace {

/// One block of W warps passing 10 bare barriers, on the H100 preset ([barrier]: arrival 2,
/// latency 12.75): the warps' barrier ops take the SM's barrier unit 2 cycles each, so the last
/// of W is admitted 2 (W - 1) cycles after the first and done 12.75 + 2 later: 12.75 + 2 W
/// cycles per barrier, as measured (raw/2026-11-26-h100-b: 14.75, 28.75, 76.79 for W = 1, 8, 32).
/// W = 8: 10 x 28.75 = 287.5 cycles.
TEST(EmulateModel, BarriersTakeTheBarrierUnit) {
  const Gpu gpu = loadPreset("h100").value();
  ASSERT_TRUE(gpu.barrier);
  KernelInput k;
  k.ir.name = "bare_barriers";
  BasicBlock b;
  b.label = "b0";
  Instruction bar{"BAR", InstrClass::Control};
  bar.barrier = true;
  for (int i = 0; i < 10; ++i) b.instructions.push_back(bar);
  k.ir.blocks = {b};
  Launch l;
  l.grid = {1, 1, 1};
  l.block = {256, 1, 1};
  EmulateOptions o;
  o.launchOverheadCycles = 0;
  // The emulation itself (predict() would also apply the barriers floor, which is 287.5 here).
  Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(k, l, gpu, o);
  ASSERT_TRUE(e.ok()) << e.error().message;
  Expected<emu::KernelTiming> t = e->run({});
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_DOUBLE_EQ(t->cycles, 287.5);
  Expected<Prediction> p = predict(k, l, gpu, {.model = ModelKind::Emulate, .emulate = o});
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->bound.resource, Resource::Barrier);
  // Without [barrier], the barriers release as soon as the warps' control ops are done.
  Gpu without = gpu;
  without.barrier.reset();
  Expected<emu::KernelEmulation> e0 = emu::KernelEmulation::create(k, l, without, o);
  ASSERT_TRUE(e0.ok());
  EXPECT_LT(e0->run({})->cycles, 100);
}

}  // namespace
}  // namespace foresight
