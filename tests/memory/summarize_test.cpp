// SPDX-License-Identifier: Apache-2.0
/// \file
/// KernelIR → WorkloadSummary on a hand-built kernel: an entry block run once per warp with a
/// stride-2-word global store, and a loop block run 100 times per warp with a unit-stride global
/// load, an FFMA, a shared load and a barrier. Counted under the CC 1.0 half-warp rule (fx5600),
/// the CC 1.2/1.3 segment rule, and the sm_70+ sector rule (fx5600 edited to CC 9.0 with a
/// 32-byte DRAM sector), with the arithmetic next to each assertion.
#include "foresight/memory/summarize.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "foresight/gpu/presets.h"
#include "foresight/memory/coalescing.h"

namespace foresight {
namespace {

/// Byte addresses of 32 lanes: lane l reads `base + stride * l`.
std::vector<long long> lanes(long long stride, long long base = 0) {
  std::vector<long long> out;
  for (long long l = 0; l < 32; ++l) out.push_back(base + stride * l);
  return out;
}

Instruction memoryInst(std::string opcode, MemorySpace space, bool store, std::vector<long long> addresses) {
  Instruction i;
  i.opcode = std::move(opcode);
  i.cls = InstrClass::Ldst;
  MemoryAccess m;
  m.space = space;
  m.isStore = store;
  m.widthBytes = 4;
  m.laneAddresses = std::move(addresses);
  i.memory = m;
  return i;
}

/// entry (×1):  STG [8*l]          stride 2 words (8 B), 4-byte store
/// loop (×100): LDG [4*l]          unit stride, 4-byte load
///              FFMA                2 flops
///              LDS [4*l]           shared load: computation (GROPHECY §7.2)
///              BAR.SYNC            barrier: computation and synchronisation
KernelIR handKernel() {
  KernelIR k;
  k.name = "hand";
  BasicBlock entry;
  entry.label = "entry";
  entry.executionsPerWarp = 1;
  entry.instructions.push_back(memoryInst("STG.E", MemorySpace::Global, true, lanes(8)));
  BasicBlock loop;
  loop.label = "loop";
  loop.executionsPerWarp = 100;
  loop.instructions.push_back(memoryInst("LDG.E", MemorySpace::Global, false, lanes(4)));
  Instruction ffma;
  ffma.opcode = "FFMA";
  ffma.cls = InstrClass::Fp32;
  ffma.flops = 2;
  loop.instructions.push_back(ffma);
  loop.instructions.push_back(memoryInst("LDS", MemorySpace::Shared, false, lanes(4)));
  Instruction bar;
  bar.opcode = "BAR.SYNC";
  bar.cls = InstrClass::Control;
  bar.barrier = true;
  loop.instructions.push_back(bar);
  entry.successors = {1};
  loop.successors = {1};
  k.blocks = {entry, loop};
  k.loops.push_back(Loop{1, {1}, 100, TripCountSource::Known});
  return k;
}

Gpu fx5600() {
  Expected<Gpu> gpu = loadPreset("fx5600");
  EXPECT_TRUE(gpu.ok()) << gpu.error().format();
  return gpu.ok() ? *gpu : Gpu{};
}

/// fx5600 edited to compute capability `major.minor`, with the DRAM serialization rule the
/// presets give such GPUs: segment-cc1.0 (1.0/1.1), segment-cc1.2 (1.2/1.3), else 32-B-style
/// sectors of `sector` bytes.
Gpu edited(int major, int minor, long long sector) {
  Gpu gpu = fx5600();
  gpu.ccMajor = major;
  gpu.ccMinor = minor;
  for (MemoryLevel& level : gpu.memory) {
    if (level.resource != "dram") continue;
    if (major == 1) {
      level.serialization = minor < 2 ? Serialization::SegmentCc10 : Serialization::SegmentCc12;
    } else {
      level.serialization = Serialization::Sector;
      level.sector = Param<long long>{sector > 0 ? sector : 32, Provenance{Provenance::Kind::Estimate, "test"}, "B"};
    }
  }
  return gpu;
}

/// The counts that do not depend on the coalescing rule.
void expectRuleIndependentCounts(const WorkloadSummary& s) {
  EXPECT_DOUBLE_EQ(s.compInsts, 300);   // 100 x (FFMA + LDS + BAR)
  EXPECT_DOUBLE_EQ(s.synchInsts, 100);  // 100 x BAR
  EXPECT_DOUBLE_EQ(s.compByClass[static_cast<int>(InstrClass::Fp32)], 100);     // FFMA
  EXPECT_DOUBLE_EQ(s.compByClass[static_cast<int>(InstrClass::Ldst)], 100);     // LDS only
  EXPECT_DOUBLE_EQ(s.compByClass[static_cast<int>(InstrClass::Control)], 100);  // BAR
  EXPECT_DOUBLE_EQ(s.compByClass[static_cast<int>(InstrClass::Int)], 0);
  EXPECT_DOUBLE_EQ(s.flopsPerThread, 200);  // 100 x 2
  EXPECT_DOUBLE_EQ(s.mem(AccessClass::Coalesced).insts, 100);   // LDG x 100
  EXPECT_DOUBLE_EQ(s.mem(AccessClass::Uncoalesced).insts, 1);   // STG x 1
  EXPECT_DOUBLE_EQ(s.mem(AccessClass::Constant).insts, 0);
  EXPECT_DOUBLE_EQ(s.memInsts(), 101);
  EXPECT_DOUBLE_EQ(s.totalInsts(), 401);  // 300 + 101
  // Every lane active, 4 B each: (100 x 128 + 1 x 128) / 101 = 128 B per warp request.
  EXPECT_DOUBLE_EQ(s.loadBytesPerWarp, 128);
}

TEST(Summarize, HandKernelOnCc10) {
  const Gpu gpu = fx5600();
  ASSERT_EQ(gpu.computeCapability(), "1.0");
  Expected<WorkloadSummary> s = summarize(handKernel(), gpu);
  ASSERT_TRUE(s.ok()) << s.error().format();
  expectRuleIndependentCounts(*s);
  // Unit stride: each half-warp's lane k reads word k of one 64-B-aligned segment → one 64-B
  // transaction per half-warp → 2.
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Coalesced).transactionsPerInst, 2);
  // Stride 2 words: lane k reads word 2k, not word k → every active lane its own 32-B
  // transaction → 16 per half-warp → 32.
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).transactionsPerInst, 32);
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Constant).transactionsPerInst, 1);  // default, no insts
}

TEST(Summarize, HandKernelOnCc90With32ByteSectors) {
  const Gpu gpu = edited(9, 0, 32);
  Expected<WorkloadSummary> s = summarize(handKernel(), gpu);
  ASSERT_TRUE(s.ok()) << s.error().format();
  expectRuleIndependentCounts(*s);
  // Unit stride: bytes 0..127 → 128 / 32 = 4 sectors = minSectors → coalesced.
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Coalesced).transactionsPerInst, 4);
  // Stride 8 B: bytes 0..251 → sectors 0..7 = 8 > minSectors 4 → uncoalesced.
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).transactionsPerInst, 8);
}

TEST(Summarize, ModernRuleReadsTheDramSector) {
  // Same kernel with 64-B sectors: unit stride 128 B → 2 sectors (= minimum, coalesced);
  // stride 8 B over bytes 0..251 → 4 sectors > minimum ceil(128 / 64) = 2 (uncoalesced).
  Expected<WorkloadSummary> s = summarize(handKernel(), edited(9, 0, 64));
  ASSERT_TRUE(s.ok()) << s.error().format();
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Coalesced).transactionsPerInst, 2);
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).transactionsPerInst, 4);
}

TEST(Summarize, HandKernelOnCc13) {
  // CC 1.2/1.3 segment rule: unit stride, each half-warp's 64 B lie in one 128-B segment,
  // shrunk to 64 B → 1 per half-warp → 2. Stride 8 B: half-warp 0 spans bytes 0..123, half-warp 1
  // bytes 128..251 → one 128-B segment each → 2 transactions, which equals the aligned minimum
  // (ceil(64 / 128) = 1 per half-warp), so the store counts as coalesced on CC 1.3.
  Expected<WorkloadSummary> s = summarize(handKernel(), edited(1, 3, 0));
  ASSERT_TRUE(s.ok()) << s.error().format();
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Coalesced).insts, 101);  // LDG x 100 + STG x 1
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).insts, 0);
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Coalesced).transactionsPerInst, 2);  // (100 x 2 + 2) / 101
}

TEST(Summarize, TransactionsAreWeightedByExecutions) {
  // CC 9.0, 32-B sectors. Two uncoalesced instructions with different counts:
  //   entry (x3):   STG stride 8 B from 0        → 8 sectors (bytes 0..251)
  //   loop  (x100): STG unit stride from byte 16 → bytes 16..143 → sectors 0..4 = 5 > minimum 4
  // Uncoalesced insts = 3 + 100 = 103; transactions = (3 x 8 + 100 x 5) / 103 = 524 / 103.
  KernelIR k = handKernel();
  k.blocks[0].executionsPerWarp = 3;
  k.blocks[1].instructions.push_back(memoryInst("STG.E", MemorySpace::Global, true, lanes(4, 16)));
  Expected<WorkloadSummary> s = summarize(k, edited(9, 0, 32));
  ASSERT_TRUE(s.ok()) << s.error().format();
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Coalesced).insts, 100);  // the LDG
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Coalesced).transactionsPerInst, 4);
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).insts, 103);
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).transactionsPerInst, 524.0 / 103.0);
  EXPECT_DOUBLE_EQ(s->memInsts(), 203);
}

TEST(Summarize, InactiveLanesReduceBytesPerWarp) {
  // Half the store's lanes inactive: 16 x 4 = 64 B; with the load's 128 B x 100:
  // (100 x 128 + 64) / 101 = 12864 / 101 = 127.366...
  KernelIR k = handKernel();
  std::vector<long long>& a = k.blocks[0].instructions[0].memory->laneAddresses;
  for (int l = 16; l < 32; ++l) a[l] = kInactiveLane;
  Expected<WorkloadSummary> s = summarize(k, fx5600());
  ASSERT_TRUE(s.ok()) << s.error().format();
  EXPECT_DOUBLE_EQ(s->loadBytesPerWarp, 12864.0 / 101.0);
  // CC 1.0: half-warp 0 is still stride 2 (16 transactions), half-warp 1 issues nothing.
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).transactionsPerInst, 16);
}

TEST(Summarize, BroadcastIsConstantClass) {
  // Every lane reads byte 256 of constant memory: class Constant, one transaction.
  KernelIR k = handKernel();
  k.blocks[0].instructions[0] = memoryInst("LDC", MemorySpace::Constant, false, std::vector<long long>(32, 256));
  Expected<WorkloadSummary> s = summarize(k, fx5600());
  ASSERT_TRUE(s.ok()) << s.error().format();
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Constant).insts, 1);
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Constant).transactionsPerInst, 1);
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).insts, 0);
}

TEST(Summarize, PatternWithoutAddresses) {
  // Only a pattern: Uncoalesced without a count → one transaction per lane (warp size 32);
  // bytes per warp = 32 lanes x 8 B = 256. An explicit count overrides.
  KernelIR k;
  k.name = "pat";
  BasicBlock b;
  b.label = "body";
  b.executionsPerWarp = 2;
  Instruction i = memoryInst("ld.global.f64", MemorySpace::Global, false, {});
  i.memory->widthBytes = 8;
  i.memory->pattern = AccessClass::Uncoalesced;
  b.instructions.push_back(i);
  k.blocks.push_back(b);
  Expected<WorkloadSummary> s = summarize(k, fx5600());
  ASSERT_TRUE(s.ok()) << s.error().format();
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).insts, 2);
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).transactionsPerInst, 32);
  EXPECT_DOUBLE_EQ(s->loadBytesPerWarp, 256);
  EXPECT_DOUBLE_EQ(s->compInsts, 0);

  k.blocks[0].instructions[0].memory->transactionsPerInst = 6;
  s = summarize(k, fx5600());
  ASSERT_TRUE(s.ok()) << s.error().format();
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).transactionsPerInst, 6);
}

TEST(Summarize, PatternOverridesTheCountedClass) {
  // The unit-stride load declared Uncoalesced keeps its counted 2 transactions (CC 1.0).
  KernelIR k = handKernel();
  k.blocks[1].instructions[0].memory->pattern = AccessClass::Uncoalesced;
  Expected<WorkloadSummary> s = summarize(k, fx5600());
  ASSERT_TRUE(s.ok()) << s.error().format();
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Coalesced).insts, 0);
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).insts, 101);
  // (100 x 2 + 1 x 32) / 101 = 232 / 101
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).transactionsPerInst, 232.0 / 101.0);
}

TEST(Summarize, LocalAccessCountsAsComputation) {
  KernelIR k = handKernel();
  k.blocks[0].instructions[0].memory->space = MemorySpace::Local;  // the STG becomes STL
  Expected<WorkloadSummary> s = summarize(k, fx5600());
  ASSERT_TRUE(s.ok()) << s.error().format();
  EXPECT_DOUBLE_EQ(s->compInsts, 301);  // 300 + 1 local store
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Uncoalesced).insts, 0);
  EXPECT_DOUBLE_EQ(s->memInsts(), 100);
}

TEST(Summarize, AccessWithoutAddressesOrPatternNamesKernelBlockOpcode) {
  KernelIR k = handKernel();
  k.blocks[1].instructions[0].memory->laneAddresses.clear();
  Expected<WorkloadSummary> s = summarize(k, fx5600());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "kernel 'hand', block 'loop', instruction 'LDG.E': a global access has neither lane "
            "addresses nor a pattern");
}

TEST(Summarize, MisalignedAccessOnCc10NamesTheInstruction) {
  // Lane addresses 4*l + 2 are not 4-byte aligned: CC 1.x rejects them.
  KernelIR k = handKernel();
  k.blocks[1].instructions[0].memory->laneAddresses = lanes(4, 2);
  Expected<WorkloadSummary> s = summarize(k, fx5600());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "kernel 'hand', block 'loop', instruction 'LDG.E': lane 0 address 2 is not aligned to "
            "its 4-byte access (required on CC 1.x)");
}

TEST(Summarize, EmptyKernelIsAnError) {
  KernelIR k;
  k.name = "empty";
  Expected<WorkloadSummary> s = summarize(k, fx5600());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "kernel 'empty' executes no instructions");
}

}  // namespace
}  // namespace foresight
