// SPDX-License-Identifier: Apache-2.0
/// \file
/// Physical floors (model/floors.h) with hand numbers, and their application to a prediction.
///
/// GPU of the hand numbers: the h100 preset with the rates the floors read set explicitly, so
/// that a preset update does not move them: 132 SMs x 4 schedulers, 1.5 GHz, issue width 1,
/// gaps fp32 1, fp64 2, int 2, sfu 8, tensor 8 cycles, DRAM peak 3.35 TB/s.
#include "foresight/model/floors.h"

#include <gtest/gtest.h>

#include <cmath>

#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/memory/hierarchy.h"
#include "foresight/model/predict.h"

namespace foresight {
namespace {

Gpu handGpu() {
  Expected<Gpu> g = loadPreset("h100");
  EXPECT_TRUE(g.ok());
  Gpu gpu = *g;
  gpu.smCount.value = 132;
  gpu.schedulersPerSm.value = 4;
  gpu.clockGhz.value = 1.5;
  gpu.issueWidth.value = 1;
  const std::pair<InstrClass, double> gaps[] = {{InstrClass::Fp32, 1}, {InstrClass::Fp64, 2}, {InstrClass::Int, 2},
                                                {InstrClass::Sfu, 8},  {InstrClass::Tensor, 8}};
  for (const auto& [c, gap] : gaps) gpu.pipelines[static_cast<int>(c)]->gap.value = gap;
  for (MemoryLevel& m : gpu.memory) {
    if (m.resource == "dram") m.bandwidth = Param<double>{3350};
  }
  return gpu;
}

Instruction op(InstrClass c, const char* name) {
  Instruction in;
  in.opcode = name;
  in.cls = c;
  return in;
}

/// vecadd, n = 2^20 floats: reads a and b (8 MiB), writes c (4 MiB): 12 MiB compulsory.
MemoryTraffic vecaddTraffic() {
  MemoryTraffic t;
  t.compulsoryReadBytes = 8 << 20;
  t.compulsoryWriteBytes = 4 << 20;
  return t;
}

/// The floors of vecadd's traffic `t` (no instructions) over 4096 blocks of 256 threads.
PhysicalFloors vecaddFloors(const Gpu& gpu, const MemoryTraffic& t) {
  KernelInput k;
  k.ir.name = "vecadd";
  Launch l;
  l.grid.x = 4096;
  l.block.x = 256;
  return computeFloors(k, l, gpu, t);
}

/// DRAM floor = 12,582,912 B / 3.35e12 B/s = 3.7561 us.
TEST(PhysicalFloors, VecaddDramFloorIsTwelveMiBOverPeakBandwidth) {
  const PhysicalFloors f = vecaddFloors(handGpu(), vecaddTraffic());
  EXPECT_DOUBLE_EQ(f.compulsoryBytes, 12582912.0);
  EXPECT_NEAR(f.dramSeconds * 1e6, 3.7561, 1e-4);
  EXPECT_EQ(f.largest().first, "dram");
}

/// The same vecadd with a warm L2 (the launch before left its 12 MiB there, L2 peak 9.8 TB/s
/// set here): nothing must cross DRAM, so the DRAM floor is 0; every byte still passes the L2
/// once: 12,582,912 B / 9.8e12 B/s = 1.2840 us. Cold, the L2 floor is below the DRAM one.
TEST(PhysicalFloors, AWarmL2LeavesTheL2FloorInsteadOfTheDramOne) {
  Gpu gpu = handGpu();
  for (MemoryLevel& m : gpu.memory) {
    if (m.resource == "l2") m.bandwidth = Param<double>{9800};
  }
  gpu.blockDispatchCycles.reset();  // 31 x 157 cycles would be the largest floor of this grid
  MemoryTraffic t = vecaddTraffic();
  const PhysicalFloors cold = vecaddFloors(gpu, t);
  EXPECT_NEAR(cold.l2Seconds * 1e6, 1.2840, 1e-4);
  EXPECT_EQ(cold.largest().first, "dram");
  t.residentBytes = 12 << 20;
  const PhysicalFloors warm = vecaddFloors(gpu, t);
  EXPECT_DOUBLE_EQ(warm.dramSeconds, 0);
  EXPECT_NEAR(warm.l2Seconds * 1e6, 1.2840, 1e-4);
  EXPECT_EQ(warm.largest().first, "l2");
  // Half resident: the other 6 MiB cross DRAM, 6,291,456 B / 3.35e12 B/s = 1.8780 us.
  t.residentBytes = 6 << 20;
  EXPECT_NEAR(vecaddFloors(gpu, t).dramSeconds * 1e6, 1.8780, 1e-4);
}

/// An FMA chain: per warp 1000 executions of {4 FFMA, 1 DFMA, 1 IADD, 1 MUFU, 1 BRA}; grid 528 x
/// 256 threads = 4224 warps.
///   fp32: 4224 x 4000 x 1 / (132 x 4) = 32,000 cycles = 21.333 us at 1.5 GHz
///   fp64: 4224 x 1000 x 2 / 528 = 16,000 cycles = 10.667 us
///   int:  4224 x 1000 x 2 / 528 = 16,000 cycles = 10.667 us
///   sfu:  4224 x 1000 x 8 / 528 = 64,000 cycles = 42.667 us
///   issue: 4224 x 8000 / (528 x 1) = 64,000 cycles = 42.667 us (ties with sfu; sfu is named
///   first in report order)
TEST(PhysicalFloors, PipeAndIssueFloorsOfAnFmaChain) {
  const Gpu gpu = handGpu();
  KernelInput k;
  k.ir.name = "fma_chain";
  BasicBlock b;
  b.executionsPerWarp = 1000;
  for (int i = 0; i < 4; ++i) b.instructions.push_back(op(InstrClass::Fp32, "FFMA"));
  b.instructions.push_back(op(InstrClass::Fp64, "DFMA"));
  b.instructions.push_back(op(InstrClass::Int, "IADD3"));
  b.instructions.push_back(op(InstrClass::Sfu, "MUFU.EX2"));
  b.instructions.push_back(op(InstrClass::Control, "BRA"));
  k.ir.blocks.push_back(b);
  Launch l;
  l.grid.x = 528;
  l.block.x = 256;
  const PhysicalFloors f = computeFloors(k, l, gpu, MemoryTraffic{});
  const auto us = [&](InstrClass c) { return f.pipeSeconds[static_cast<int>(c)] * 1e6; };
  EXPECT_NEAR(us(InstrClass::Fp32), 21.3333, 1e-3);
  EXPECT_NEAR(us(InstrClass::Fp64), 10.6667, 1e-3);
  EXPECT_NEAR(us(InstrClass::Int), 10.6667, 1e-3);
  EXPECT_NEAR(us(InstrClass::Sfu), 42.6667, 1e-3);
  EXPECT_DOUBLE_EQ(us(InstrClass::Tensor), 0.0);
  EXPECT_NEAR(f.issueSeconds * 1e6, 42.6667, 1e-3);
  EXPECT_DOUBLE_EQ(f.dramSeconds, 0.0);
  EXPECT_EQ(f.largest().first, "sfu");
}

/// reduce_shuffle g16384 on the H200 preset: 16384 blocks x 8 warps = 131072 float atomics to
/// one result, applied one after another at 1.66 ns: 217.58 us (measured: 246.8 us). As integer
/// adds, at 0.732 ns: 95.945 us; half and half: 156.762 us. The GPU without the two keys has no
/// atomics floor.
TEST(PhysicalFloors, AtomicsToOneAddressTakeTheL2sTimeEach) {
  const Gpu h200 = loadPreset("h200").value();
  ASSERT_TRUE(h200.memoryForResource("l2")->sameAddressAtomicUs);
  ASSERT_TRUE(h200.memoryForResource("l2")->sameAddressAtomicIntUs);
  MemoryTraffic t;
  t.hotAtomicOps = 131072;
  t.hotAtomicFloatOps = 131072;
  KernelInput k;
  k.ir.name = "reduce_shuffle";
  Launch l;
  l.grid.x = 16384;
  l.block.x = 256;
  const PhysicalFloors f = computeFloors(k, l, h200, t);
  EXPECT_NEAR(f.atomicSeconds * 1e6, 217.5795, 1e-3);
  EXPECT_EQ(f.largest().first, "atomics");
  t.hotAtomicFloatOps = 0;
  EXPECT_NEAR(computeFloors(k, l, h200, t).atomicSeconds * 1e6, 95.9447, 1e-3);
  t.hotAtomicFloatOps = 65536;
  EXPECT_NEAR(computeFloors(k, l, h200, t).atomicSeconds * 1e6, 156.7621, 1e-3);
  Gpu without = h200;
  for (MemoryLevel& m : without.memory) {
    m.sameAddressAtomicUs.reset();
    m.sameAddressAtomicIntUs.reset();
  }
  EXPECT_DOUBLE_EQ(computeFloors(k, l, without, t).atomicSeconds, 0.0);
}

TEST(PhysicalFloors, AtomicsAddTheirShareOfTheirOwnTime) {
  // atomic x min(1, atomic / rest): saturated (atomic >= rest) they add in full, reduce_shuffle's
  // 58 us of atomics on a 30 us sum -> 88 us; below, the share they keep the unit busy: simveit's
  // kernel_3, 128.1 us of atomics in a 1331.2 us read, 128.1 x 128.1 / 1331.2 = 12.33 us.
  EXPECT_DOUBLE_EQ(addedAtomicTime(58, 30), 58.0);
  EXPECT_DOUBLE_EQ(addedAtomicTime(30, 30), 30.0);
  EXPECT_DOUBLE_EQ(addedAtomicTime(15, 30), 7.5);
  EXPECT_NEAR(addedAtomicTime(128.1, 1331.2), 12.327, 1e-3);
  EXPECT_DOUBLE_EQ(addedAtomicTime(0, 30), 0.0);
  EXPECT_DOUBLE_EQ(addedAtomicTime(12, 0), 12.0);  // nothing else to hide behind
}

/// The L2's atomic units on the h100 preset (atomic_unit_op 0.590 ns, sector_rmw 0.0115 ns,
/// same_address_atomic_int 0.733 ns). The busiest unit's 10^6 sector-request lanes: 590 us; all
/// 10^8 lanes over the chip: 1150 us, the longer. With 10^6 integer atomics on one address too
/// (733 us), the units still set the floor; with 2 x 10^6 (1466 us) the address does.
TEST(PhysicalFloors, AtomicUnitsTakeTheirSectorRequestsLanes) {
  const Gpu h100 = loadPreset("h100").value();
  ASSERT_TRUE(h100.memoryForResource("l2")->atomicUnitOpUs);
  MemoryTraffic t;
  t.atomicHotUnitLanes = 1e6;
  t.atomicSectorLanes = 1e6;
  KernelInput k;
  k.ir.name = "histogram";
  Launch l;
  l.grid.x = 65536;
  l.block.x = 256;
  EXPECT_NEAR(computeFloors(k, l, h100, t).atomicSeconds * 1e6, 590, 1e-6);
  t.atomicSectorLanes = 1e8;
  EXPECT_NEAR(computeFloors(k, l, h100, t).atomicSeconds * 1e6, 1150, 1e-6);
  t.hotAtomicOps = 1e6;
  PhysicalFloors f = computeFloors(k, l, h100, t);
  EXPECT_NEAR(f.atomicAddressSeconds * 1e6, 733, 1e-6);
  EXPECT_NEAR(f.atomicSeconds * 1e6, 1150, 1e-6);
  t.hotAtomicOps = 2e6;
  EXPECT_NEAR(computeFloors(k, l, h100, t).atomicSeconds * 1e6, 1466, 1e-6);
  // Without the unit keys, the chip-wide term alone (sector_rmw); without both, none.
  Gpu without = h100;
  t.hotAtomicOps = 0;
  for (MemoryLevel& m : without.memory) m.atomicUnitOpUs.reset();
  EXPECT_NEAR(computeFloors(k, l, without, t).atomicSeconds * 1e6, 1150, 1e-6);
  for (MemoryLevel& m : without.memory) m.sectorRmwUs.reset();
  EXPECT_DOUBLE_EQ(computeFloors(k, l, without, t).atomicSeconds, 0.0);
}

/// Partial writes: transpose_naive 8192 x 8192 (b32x8) writes each 4-B element into a sector of
/// its own per request: 67,108,864 partly written sectors x 0.0115 ns (the h100 preset's L2
/// sector read-modify-write) = 771.75 us. Without `sector_rmw`, no floor.
TEST(PhysicalFloors, PartlyWrittenSectorsTakeTheL2sReadModifyWrite) {
  const Gpu h100 = loadPreset("h100").value();
  ASSERT_TRUE(h100.memoryForResource("l2")->sectorRmwUs);
  MemoryTraffic t;
  t.partialStoreSectors = 8192.0 * 8192.0;
  KernelInput k;
  k.ir.name = "transpose_naive";
  Launch l;
  l.grid = {256, 1024, 1};
  l.block = {32, 8, 1};
  const PhysicalFloors f = computeFloors(k, l, h100, t);
  EXPECT_NEAR(f.partialWriteSeconds * 1e6, 771.7519, 1e-3);
  EXPECT_EQ(f.largest().first, "partial-writes");
  Prediction p;
  p.model = "m";
  p.seconds = 216e-6;
  p.cycles = 216e-6 * 1.98e9;
  applyFloors(p, f, h100);
  EXPECT_NEAR(p.seconds * 1e6, 771.7519, 1e-3);
  EXPECT_EQ(p.bound.resource, Resource::L2);
  Gpu without = h100;
  for (MemoryLevel& m : without.memory) m.sectorRmwUs.reset();
  EXPECT_DOUBLE_EQ(computeFloors(k, l, without, t).partialWriteSeconds, 0.0);
}

/// Block barriers: barrier_heavy/b256 (1056 blocks x 8 warps, 2048 barriers per warp) on the hand
/// GPU with arrival 2, block 0.92, latency 12.75 cycles. Unit: 2048 x 1056 x (0.92 + 2 x 8) / 132
/// = 277,217.28 cycles = 184.811 us at 1.5 GHz; one block's chain 2048 x (12.75 + 16) = 58,880
/// cycles. One block of 32 warps alone: unit 2048 x (0.92 + 64) / 132 = 1,007.1 cycles, chain
/// 2048 x (12.75 + 64) = 157,184 cycles = 104.789 us. Without [barrier], no floor.
TEST(PhysicalFloors, BarriersTakeTheBarrierUnitsCycles) {
  Gpu gpu = handGpu();
  gpu.barrier = BarrierUnit{Param<double>{2}, Param<double>{0.92}, Param<double>{12.75}};
  KernelInput k;
  k.ir.name = "barrier_heavy";
  BasicBlock loop;
  loop.executionsPerWarp = 1024;
  Instruction bar = op(InstrClass::Control, "BAR");
  bar.barrier = true;
  loop.instructions = {op(InstrClass::Fp32, "FADD"), bar, bar};
  k.ir.blocks.push_back(loop);
  Launch l;
  l.grid.x = 1056;
  l.block.x = 256;
  PhysicalFloors f = computeFloors(k, l, gpu, MemoryTraffic{});
  EXPECT_DOUBLE_EQ(f.barriersPerWarp, 2048);
  EXPECT_NEAR(f.barrierSeconds * 1e6, 184.811, 1e-3);
  EXPECT_EQ(f.largest().first, "barriers");
  EXPECT_EQ(floorResource("barriers"), Resource::Barrier);
  EXPECT_EQ(floorResource("atomics"), Resource::L2);
  EXPECT_EQ(floorResource("ldst"), Resource::L1);
  EXPECT_EQ(floorResource("fp64"), Resource::Fp64);
  EXPECT_EQ(floorResource("dram"), Resource::Dram);
  l.grid.x = 1;
  l.block.x = 1024;
  f = computeFloors(k, l, gpu, MemoryTraffic{});
  EXPECT_NEAR(f.barrierSeconds * 1e6, 104.789, 1e-3);
  gpu.barrier.reset();
  EXPECT_DOUBLE_EQ(computeFloors(k, l, gpu, MemoryTraffic{}).barrierSeconds, 0.0);
}

/// Summary inputs: the per-class split of compInsts (compByClass) and all instructions.
/// 100 blocks x 128 threads = 400 warps; per thread 10 tensor instructions, 90 other, 20 memory:
///   tensor: 400 x 10 x 8 / 528 = 60.606 cycles; issue: 400 x 120 / 528 = 90.909 cycles.
/// Block dispatch: 1000 blocks on 132 SMs; the busiest SM gets ceil(1000 / 132) = 8. Its first
/// starts with the launch and the 7 others 157 cycles apart: 7 x 157 = 1099 cycles = 0.732667 us
/// at 1.5 GHz. 132 blocks (one per SM) and a GPU without the key: no floor.
TEST(PhysicalFloors, BlockDispatchSpacesTheBusiestSmsBlocks) {
  Gpu gpu = handGpu();
  gpu.blockDispatchCycles = Param<double>{157};
  KernelInput k;
  k.ir.name = "tiny";
  Launch l;
  l.grid.x = 1000;
  l.block.x = 32;
  const PhysicalFloors f = computeFloors(k, l, gpu, MemoryTraffic{});
  EXPECT_DOUBLE_EQ(f.blocksPerSm, 8);
  EXPECT_NEAR(f.dispatchSeconds * 1e6, 0.732667, 1e-6);
  EXPECT_EQ(f.largest().first, "block-dispatch");
  EXPECT_EQ(floorResource("block-dispatch"), Resource::Parallelism);
  l.grid.x = 132;
  EXPECT_EQ(computeFloors(k, l, gpu, MemoryTraffic{}).dispatchSeconds, 0);
  l.grid.x = 1000;
  gpu.blockDispatchCycles.reset();
  EXPECT_EQ(computeFloors(k, l, gpu, MemoryTraffic{}).dispatchSeconds, 0);
}

TEST(PhysicalFloors, SummaryInputsUseTheWorkloadSummary) {
  const Gpu gpu = handGpu();
  KernelInput k;
  WorkloadSummary s;
  s.compInsts = 100;
  s.compByClass[static_cast<int>(InstrClass::Tensor)] = 10;
  s.compByClass[static_cast<int>(InstrClass::Fp32)] = 90;
  s.mem(AccessClass::Coalesced).insts = 20;
  k.summary = s;
  Launch l;
  l.grid.x = 100;
  l.block.x = 128;
  const PhysicalFloors f = computeFloors(k, l, gpu, MemoryTraffic{});
  EXPECT_NEAR(f.pipeSeconds[static_cast<int>(InstrClass::Tensor)] * 1.5e9, 60.606, 1e-3);
  EXPECT_NEAR(f.issueSeconds * 1.5e9, 90.909, 1e-3);
}

/// A raw time below the largest floor is raised to it, with a warning naming the floor, the raise
/// and the raw time; the floors and the raw time are values.
TEST(PhysicalFloors, ApplyRaisesToTheLargestFloorAndSaysSo) {
  const Gpu gpu = handGpu();
  PhysicalFloors f;
  f.dramSeconds = 3.7561e-6;
  f.issueSeconds = 1e-6;
  Prediction p;
  p.model = "mwp-cwp";
  p.variant = "cgpredict";
  p.seconds = 1.5e-6;
  p.cycles = 2250;  // 1.5 us at 1.5 GHz
  p.resources.push_back({Resource::Dram, 2250, 1.0});
  p.bound = {Resource::Issue, BoundMode::Throughput};
  p.boundExplanation = "compute-bound";
  applyFloors(p, f, gpu);
  // The floor sets the time, so it is the bound; the model's own stays in the sentence.
  EXPECT_EQ(p.bound, (Bound{Resource::Dram, BoundMode::Throughput}));
  EXPECT_EQ(p.boundExplanation, "the dram floor sets the time (the model alone: issue (throughput), 1.5 us: compute-bound)");
  EXPECT_DOUBLE_EQ(p.seconds, 3.7561e-6);
  EXPECT_NEAR(p.cycles, 3.7561e-6 * 1.5e9, 1e-6);
  EXPECT_NEAR(p.resources[0].utilization, 2250 / (3.7561e-6 * 1.5e9), 1e-12);
  ASSERT_NE(p.value("raw_time_us"), nullptr);
  EXPECT_DOUBLE_EQ(p.value("raw_time_us")->value, 1.5);
  ASSERT_NE(p.value("floor_dram_us"), nullptr);
  EXPECT_NEAR(p.value("floor_dram_us")->value, 3.7561, 1e-9);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("dram floor of 3.756 us"), std::string::npos) << p.warnings[0];
  EXPECT_NE(p.warnings[0].find("mwp-cwp/cgpredict model predicted 1.5 us"), std::string::npos) << p.warnings[0];
  EXPECT_NE(p.warnings[0].find("raised by 2.256 us"), std::string::npos) << p.warnings[0];

  // Above every floor: unchanged, no warning, but the floors are still reported.
  Prediction q;
  q.seconds = 5e-6;
  q.cycles = 7500;
  q.bound = {Resource::Issue, BoundMode::Throughput};
  applyFloors(q, f, gpu);
  EXPECT_EQ(q.bound, (Bound{Resource::Issue, BoundMode::Throughput}));
  EXPECT_DOUBLE_EQ(q.seconds, 5e-6);
  EXPECT_TRUE(q.warnings.empty());
  EXPECT_EQ(q.value("raw_time_us"), nullptr);
  EXPECT_NE(q.value("floor_issue_us"), nullptr);
}

/// predict() reports the floors for every model. One warp running 1e6 fp32 instructions, no
/// memory: the fp32 and issue floors are 1e6 / (132 x 4) = 1893.9 cycles = 1.2626 us (the whole
/// GPU's rate: a floor, not a tight bound); Hong & Kim's no-memory case gives 0.25 x 1e6 x N 1 x
/// Rep 1 = 250,000 cycles, above them, so the raw time stands.
TEST(PhysicalFloors, PredictReportsTheFloors) {
  const Gpu gpu = handGpu();
  KernelInput k;
  k.ir.name = "alu";
  WorkloadSummary s;
  s.compInsts = 1e6;
  s.compByClass[static_cast<int>(InstrClass::Fp32)] = 1e6;
  k.summary = s;
  Launch l;
  ModelOptions o;
  o.model = ModelKind::MwpCwp;
  o.variant = MwpCwpVariant::HongKim;
  Expected<Prediction> p = predict(k, l, gpu, o);
  ASSERT_TRUE(p.ok()) << p.error().format();
  ASSERT_NE(p->value("floor_fp32_us"), nullptr);
  EXPECT_NEAR(p->value("floor_fp32_us")->value, 1e6 / 528.0 / 1.5e3, 1e-9);
  EXPECT_NEAR(p->value("floor_issue_us")->value, 1e6 / 528.0 / 1.5e3, 1e-9);
  EXPECT_EQ(p->value("raw_time_us"), nullptr);
}

/// LEAD, to verify after the memory engine lands (the provisional engine reports 0 compulsory
/// bytes, and the test skips): the vecadd example (n = 2^20, grid 4096 x 256) reads a and b and
/// writes c once: 12 MiB compulsory, a DRAM floor of 3.7561 us at 3.35 TB/s.
TEST(PhysicalFloors, VecaddExampleCompulsoryBytesFromTheEngine) {
  const Gpu gpu = handGpu();
  InputOptions io;
  io.gpu = &gpu;
  Launch l;
  l.grid.x = 4096;
  l.block.x = 256;
  l.args["n"] = 1 << 20;
  io.launch = l;
  Expected<LoadedInput> in = loadInput(FORESIGHT_SOURCE_DIR "/tests/frontend/cuda/fixtures/vecadd.sm_90.sass", io);
  ASSERT_TRUE(in.ok()) << in.error().format();
  const KernelInput& k = in->kernels.at(0);
  Expected<MemoryTraffic> t = analyzeMemory(k.ir, k.summary ? &*k.summary : nullptr, l, gpu);
  ASSERT_TRUE(t.ok()) << t.error().format();
  if (t->compulsoryBytes() == 0) GTEST_SKIP() << "provisional memory engine: no compulsory bytes yet";
  EXPECT_DOUBLE_EQ(t->compulsoryBytes(), 12582912.0);
  EXPECT_NEAR(computeFloors(k, l, gpu, *t).dramSeconds * 1e6, 3.7561, 1e-4);
}

}  // namespace
}  // namespace foresight
