// SPDX-License-Identifier: Apache-2.0
/// \file
/// KernelIR::streams of CUDA kernels (cuda_streams.h): per-warp dynamic streams from the SASS or
/// PTX run, mapped onto the KernelIR, with per-execution lane addresses. Counts are the SASS
/// hand counts of cuda_frontend_test.cpp; addresses follow from the synthetic pointer bases
/// (WarpInterpreter::pointerBase: (ordinal + 1) << 40).
#include "foresight/frontend/cuda/cuda_streams.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "fixture_paths.h"
#include "foresight/ir/warp_stream.h"

namespace foresight::cuda {
namespace {

using testing::analyse;
using testing::launch;

const Instruction& at(const KernelIR& ir, const DynamicInstruction& d) { return ir.blocks[d.block].instructions[d.index]; }

TEST(CudaStreams, VecaddSassStreamWithAddresses) {
  // sm_90 vecadd: 20 SASS instructions per in-range warp (CudaFrontendSass.VecaddStreamIsSass).
  // Block 3, warp 2: i = 3·256 + 64 + lane; a[i] at base(0) + 4i, b[i] at base(1) + 4i, c[i]
  // at base(2) + 4i, each from the 64-bit IMAD.WIDE / carry arithmetic of the SASS itself.
  Expected<CudaProgram> p = analyse("vecadd.cu", "", launch({4096, 1, 1}, {256, 1, 1}, {{"n", 1 << 20}}), "sm_90", {}, true);
  ASSERT_TRUE(p) << p.error().format();
  const KernelIR& ir = p->kernels[0].ir;
  ASSERT_TRUE(ir.streams);
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(3, 2);
  ASSERT_TRUE(s) << s.error().format();
  ASSERT_EQ(s->size(), 20u);
  int memory = 0;
  for (const DynamicInstruction& d : *s) {
    const Instruction& inst = at(ir, d);
    if (!inst.memory) continue;
    ASSERT_EQ(d.laneAddresses.size(), 32u) << inst.opcode;
    const long long base = static_cast<long long>(memory + 1) << 40;  // a, b, then c
    for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(d.laneAddresses[lane], base + 4LL * (3 * 256 + 64 + lane)) << inst.opcode;
    ++memory;
  }
  EXPECT_EQ(memory, 3);
  EXPECT_FALSE(ir.streams->stream(4096, 0));  // outside the grid
  EXPECT_FALSE(ir.streams->stream(0, 8));     // outside the block
}

TEST(CudaStreams, StreamCountsMatchTheIrBlocks) {
  // matmul_tiled sm_90, n = 1024: every warp runs 3241 SASS instructions; the stream visits each
  // KernelIR block exactly executionsPerWarp times (all warps are alike).
  Expected<CudaProgram> p = analyse("matmul.cu", "matmul_tiled", launch({64, 64, 1}, {16, 16, 1}, {{"n", 1024}}), "sm_90", {}, true);
  ASSERT_TRUE(p) << p.error().format();
  const KernelIR& ir = p->kernels[0].ir;
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(4095, 7);
  ASSERT_TRUE(s) << s.error().format();
  EXPECT_EQ(s->size(), 3241u);
  std::vector<long long> perBlock(ir.blocks.size(), 0);
  for (const DynamicInstruction& d : *s) ++perBlock[d.block];
  for (size_t b = 0; b < ir.blocks.size(); ++b) {
    EXPECT_DOUBLE_EQ(static_cast<double>(perBlock[b]) / static_cast<double>(ir.blocks[b].instructions.size()),
                     ir.blocks[b].executionsPerWarp)
        << ir.blocks[b].label;
  }
  // Shared accesses have addresses in the block's shared window (below 2^32).
  int shared = 0;
  for (const DynamicInstruction& d : *s) {
    const Instruction& inst = at(ir, d);
    if (!inst.memory || inst.memory->space != MemorySpace::Shared) continue;
    ++shared;
    ASSERT_EQ(d.laneAddresses.size(), 32u);
    for (long long a : d.laneAddresses) EXPECT_LT(a, 1LL << 32);
  }
  EXPECT_GT(shared, 0);
}

TEST(CudaStreams, SpmvDataDependentAccessesKeepTheStaticPattern) {
  // --trip spmv_csr.cu:11=16: 149 SASS instructions (CudaFrontendSass.SpmvTripHintDrivesTheSassRun);
  // val[j] and col[j] (j = 16·row + k) have lane addresses 64 B apart; x[col[j]] has none.
  Expected<CudaProgram> p = analyse("spmv_csr.cu", "", launch({256, 1, 1}, {128, 1, 1}, {{"rows", 32768}}), "sm_90",
                                    {{"spmv_csr.cu", 11, 16}}, true);
  ASSERT_TRUE(p) << p.error().format();
  const KernelIR& ir = p->kernels[0].ir;
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(1, 0);
  ASSERT_TRUE(s) << s.error().format();
  EXPECT_EQ(s->size(), 149u);
  int known = 0, dataDependent = 0;
  for (const DynamicInstruction& d : *s) {
    const Instruction& inst = at(ir, d);
    if (!inst.memory || inst.memory->isStore) continue;
    if (d.laneAddresses.empty()) {
      ++dataDependent;
      EXPECT_TRUE(inst.memory->dataDependent) << inst.opcode;
    } else {
      // row_ptr[row], row_ptr[row + 1]: consecutive rows 4 B apart; val[j], col[j]: 16 × 4 B.
      EXPECT_EQ(d.laneAddresses[1] - d.laneAddresses[0], known < 2 ? 4 : 64) << inst.opcode << " #" << known;
      ++known;
    }
  }
  EXPECT_EQ(dataDependent, 16);  // x[col[j]] in the 16-way loop
  EXPECT_EQ(known, 2 + 32);      // row_ptr[row], row_ptr[row+1], then val and col × 16
}

TEST(CudaStreams, PtxStreamWhenTheIrIsPtx) {
  // The PTX stream of vecadd with n = 100 (CudaFrontend.LazyPerWarpStreams): warp 3 has 22
  // instructions; its loads touch lanes 0..3 only (i = 96..99).
  Expected<CudaProgram> p = analyse("vecadd.cu", "", launch({4, 1, 1}, {256, 1, 1}, {{"n", 100}}));
  ASSERT_TRUE(p) << p.error().format();
  const KernelIR& ir = p->kernels[0].ir;
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(0, 3);
  ASSERT_TRUE(s) << s.error().format();
  ASSERT_EQ(s->size(), 22u);
  int memory = 0;
  for (const DynamicInstruction& d : *s) {
    if (!at(ir, d).memory) continue;
    ++memory;
    EXPECT_EQ(d.activeMask, 0xfu);
    ASSERT_EQ(d.laneAddresses.size(), 32u);
    EXPECT_GE(d.laneAddresses[3], 0);
    EXPECT_LT(d.laneAddresses[4], 0);
  }
  EXPECT_EQ(memory, 3);
}

TEST(CudaStreams, ReductionScaledSharedIndexAndFp16Constants) {
  // reduce sm_80: `HFMA2.MMA R5, -RZ, RZ, 0, 2.384185791015625e-07` materializes 4 (FP16 bits
  // 0x0004) for `IMAD.WIDE R4, R4, R5, c[0x0][0x160]`, so in[i] (i = 256·block + tid) has lane
  // addresses base(0) + 4i; `STS [R3.X4]` stores s[tid] at 4·tid of the shared window.
  Expected<CudaProgram> p = analyse("reduce.cu", "", launch({1024, 1, 1}, {256, 1, 1}, {{"n", 1 << 18}}), "sm_80", {}, true);
  ASSERT_TRUE(p) << p.error().format();
  const KernelIR& ir = p->kernels[0].ir;
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(5, 1);
  ASSERT_TRUE(s) << s.error().format();
  const DynamicInstruction* load = nullptr;
  const DynamicInstruction* store = nullptr;
  for (const DynamicInstruction& d : *s) {
    const Instruction& inst = at(ir, d);
    if (inst.memory && inst.memory->space == MemorySpace::Global && !inst.memory->isStore && !load) load = &d;
    if (inst.memory && inst.memory->space == MemorySpace::Shared && inst.memory->isStore && !store) store = &d;
  }
  ASSERT_TRUE(load && store);
  ASSERT_EQ(load->laneAddresses.size(), 32u);
  ASSERT_EQ(store->laneAddresses.size(), 32u);
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(load->laneAddresses[lane], (1LL << 40) + 4LL * (5 * 256 + 32 + lane));
    EXPECT_EQ(store->laneAddresses[lane], 4LL * (32 + lane));
  }
  EXPECT_FALSE(at(ir, *load).memory->dataDependent);
  EXPECT_DOUBLE_EQ(*at(ir, *load).memory->transactionsPerInst, 4);  // 32 × 4 B, aligned
}

TEST(CudaStreams, WideStrideHighWordFromFunnelShift) {
  // wide_stride sm_90 (tests/frontend/cuda/sources): the 64-bit byte offset 4·(t + 1024000·b +
  // 256·e) is built as a register pair, its high word by `SHF.L.U64.HI R6, R7, 0x2, R6` (high
  // word of {R6, R7} << 2). Block 1055 puts the offset past 2^32 (4·1055·1024000 = 4.32e9), so
  // a wrong high word moves every address. Warp 2 of block 1055, lane L, iteration e reads
  // a[i] and b[i] with i = 1055·1024000 + 64 + L + 256·e, e = 0, 1 in the first iteration.
  Expected<CudaProgram> p = analyse("wide_stride.cu", "", launch({1056, 1, 1}, {256, 1, 1}), "sm_90", {}, true);
  ASSERT_TRUE(p) << p.error().format();
  const KernelIR& ir = p->kernels[0].ir;
  ASSERT_TRUE(ir.streams);
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(1055, 2);
  ASSERT_TRUE(s) << s.error().format();
  std::vector<std::vector<long long>> loads;
  for (const DynamicInstruction& d : *s) {
    const Instruction& inst = at(ir, d);
    if (inst.memory && inst.memory->space == MemorySpace::Global && !inst.memory->isStore) loads.push_back(d.laneAddresses);
  }
  ASSERT_EQ(loads.size(), 8000u);  // 2000 iterations × 2 elements × 2 arrays
  const long long first = 1055LL * 1024000 + 64;
  // Each iteration reads a and b at e and e + 1, in the SASS order; sort the four per lane 0.
  for (int iteration : {0, 1, 1999}) {
    std::vector<long long> lane0;
    for (int k = 0; k < 4; ++k) {
      const std::vector<long long>& l = loads[static_cast<size_t>(4 * iteration + k)];
      ASSERT_EQ(l.size(), 32u);
      for (int lane = 1; lane < 32; ++lane) EXPECT_EQ(l[lane] - l[0], 4LL * lane);
      lane0.push_back(l[0]);
    }
    std::sort(lane0.begin(), lane0.end());
    const long long e = 2LL * iteration;
    const long long a0 = (1LL << 40) + 4 * (first + 256 * e), b0 = (2LL << 40) + 4 * (first + 256 * e);
    EXPECT_EQ(lane0, (std::vector<long long>{a0, a0 + 1024, b0, b0 + 1024})) << "iteration " << iteration;
  }
}

TEST(CudaStreams, ClearedPairCounterKeepsTheSassRunAndNegativeOffsets) {
  // cleared_counter sm_90: `CS2R R6, SRZ` zeroes the loop counter R6 (and R7), so the loop
  // exit `ISETP.GE.U32.AND P0, PT, R6, 0xfa0` is decided and the stream is SASS: 2000
  // iterations. Each iteration reads a and b at element e (the pointer register) and e − 1
  // ([R+-0x400], 1 KiB below), so its four loads touch four different 128-byte lines; lane
  // 0 of warp 0 of block 1, first iteration (elements e = 0 and 1): i = 1024000 + 256·{0, 1}.
  Expected<CudaProgram> p = analyse("cleared_counter.cu", "", launch({1056, 1, 1}, {256, 1, 1}), "sm_90", {}, true);
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_EQ(p->isa, "sass (memory from ptx)");
  const KernelIR& ir = p->kernels[0].ir;
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(1, 0);
  ASSERT_TRUE(s) << s.error().format();
  std::vector<long long> lane0;
  for (const DynamicInstruction& d : *s) {
    const Instruction& inst = at(ir, d);
    if (!inst.memory || inst.memory->space != MemorySpace::Global || inst.memory->isStore) continue;
    ASSERT_EQ(d.laneAddresses.size(), 32u);
    lane0.push_back(d.laneAddresses[0]);
  }
  ASSERT_EQ(lane0.size(), 8000u);
  std::vector<long long> first(lane0.begin(), lane0.begin() + 4);
  std::sort(first.begin(), first.end());
  const long long i = 1024000;
  EXPECT_EQ(first, (std::vector<long long>{(1LL << 40) + 4 * i, (1LL << 40) + 4 * (i + 256), (2LL << 40) + 4 * i,
                                           (2LL << 40) + 4 * (i + 256)}));
}

/// The first global store of warp 1 of block 2 of `source` (predicated_store.cu or
/// predicated_body.cu, sm_90, SASS stream), with the branch hint `source`:line=hint.
DynamicInstruction predicatedStore(double hint, const char* source = "predicated_store.cu", int line = 10) {
  auto tc = createFixtureToolchain({testing::fixtureDir(), true});
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = launch({8, 1, 1}, {256, 1, 1}, {{"n", 2048}});
  o.sassStream = true;
  o.branches.push_back({source, line, hint});
  Expected<CudaProgram> p = loadCuda(testing::fixture(source), o, *tc);
  EXPECT_TRUE(p) << (p ? "" : p.error().format());
  if (!p) return {};
  const KernelIR& ir = p->kernels[0].ir;
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(2, 1);
  EXPECT_TRUE(s) << (s ? "" : s.error().format());
  if (!s) return {};
  for (const DynamicInstruction& d : *s) {
    const Instruction& inst = at(ir, d);
    if (inst.memory && inst.memory->space == MemorySpace::Global && inst.memory->isStore) return d;
  }
  ADD_FAILURE() << "no store";
  return {};
}

TEST(CudaStreams, BranchHintDecidesAnIfConvertedStore) {
  // `if (v == 123.33) a[t] = v;` (line 10): the PTX branches over the store (`@%p2 bra`, p2 =
  // v != 123.33), the SASS predicates it (`@!P0 STG.E.64`, guard from the loaded v). A hint P is
  // the probability that the `if` runs its body, so the predicated store runs in P of the
  // lanes. P = 0: no lane stores (activeMask 0: the memory engine counts no request). P = 1:
  // every lane stores a[t], t = 2·256 + 32 + lane, at base(0) + 8t.
  EXPECT_EQ(predicatedStore(0.0).activeMask, 0u);
  const DynamicInstruction all = predicatedStore(1.0);
  EXPECT_EQ(all.activeMask, 0xffffffffu);
  ASSERT_EQ(all.laneAddresses.size(), 32u);
  for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(all.laneAddresses[lane], (1LL << 40) + 8LL * (2 * 256 + 32 + lane));
}

TEST(CudaStreams, UnhintedIfConvertedStoreKeepsItsAddresses) {
  // predicated_body.cu: `if (v == 123.33)` on line 8, `a[t] = v;` on line 9. The hint names the
  // `if` line, where the PTX branches; ptxas predicates the store (`@!P0 STG.E.64`) and gives it
  // line 9, which no hint names, so it runs in every undecided lane — with those lanes'
  // addresses, a[t] at base(0) + 8t, t = 2·256 + 32 + lane, as in the PTX run. Before, the SASS
  // run recorded it as data-dependent, which the memory engine charges one DRAM sector per lane
  // (Rodinia BFS's `cost[v]` reload under `if (!visited[u])` made bfs 2× too slow).
  const DynamicInstruction d = predicatedStore(0.5, "predicated_body.cu", 8);
  EXPECT_EQ(d.activeMask, 0xffffffffu);
  ASSERT_EQ(d.laneAddresses.size(), 32u);
  for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(d.laneAddresses[lane], (1LL << 40) + 8LL * (2 * 256 + 32 + lane));
}

TEST(CudaStreams, StartPlusCountTripHintGivesEveryRecordNEdges) {
  // frontier_edges.cu line 12: for (i = nodes[t].starting; i < nodes[t].no_of_edges +
  // nodes[t].starting; i++). Both ISAs add the two loads (PTX add.s32, SASS IADD3 after the
  // copy IMAD.MOV), so the count is N and the start N × its element index: node t's `starting`
  // is 4-byte element 2t, so lane t reads edges[2N·t + k], lanes 8N bytes apart, N loads each.
  // (As a CSR pair, count = N·(2t + 1) would give lane t N·(2t + 1) edges.) frontier_lines.cu
  // writes the same `for` over three lines: the test (and the hint) on line 13, the start's
  // load on line 12, found as the seed of the induction variable; the edge load is on line 15.
  struct Case {
    const char* source;
    int loopLine, bodyLine, ifLine, innerIfLine;
  };
  for (const Case& c : {Case{"frontier_edges.cu", 12, 13, 11, 14}, Case{"frontier_lines.cu", 13, 15, 11, 16}}) {
    for (long long n : {6LL, 12LL}) {
      Expected<CudaProgram> p = analyse(c.source, "", launch({4, 1, 1}, {128, 1, 1}, {{"n", 512}}), "sm_90",
                                        {{c.source, c.loopLine, n}}, true,
                                        {{c.source, c.ifLine, 1.0}, {c.source, c.innerIfLine, 0.0}});
      ASSERT_TRUE(p) << p.error().format();
      const KernelIR& ir = p->kernels[0].ir;
      Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(0, 1);
      ASSERT_TRUE(s) << s.error().format();
      int edgeLoads = 0;
      for (const DynamicInstruction& d : *s) {
        const Instruction& inst = at(ir, d);
        if (!inst.memory || inst.memory->isStore || inst.sourceLine != c.bodyLine) continue;
        ASSERT_FALSE(d.laneAddresses.empty()) << c.source;
        EXPECT_EQ(d.laneAddresses[1] - d.laneAddresses[0], 8 * n) << c.source;
        ++edgeLoads;
      }
      EXPECT_EQ(edgeLoads, n) << c.source;
    }
  }
}

TEST(CudaStreams, StridedLoopTripHintRunsNIterationsAndGatherKeepsItsArray) {
  // csr_gather.cu: for (j = rowptr[w] + lane; j < rowptr[w + 1]; j += 32) (line 10, body on
  // line 11). `--trip :10=N` means N iterations, so the bound loads are N × 32 apart
  // (the step of the index the loop compares): row w starts at element 32·N·w. Warp 1 of block
  // 0 (w = 1) reads vals (parameter 2, base 3 << 40) at 4·(32N + 32k + lane) in iteration k,
  // N times; x[cols[j]] (parameter 3) is data-dependent but known to stay in x. With the step
  // taken as 1, rows would start at N·w and most lanes would run no iteration.
  for (long long n : {2LL, 3LL}) {
    Expected<CudaProgram> p = analyse("csr_gather.cu", "", launch({4, 1, 1}, {128, 1, 1}, {{"rows", 16}}), "sm_90",
                                      {{"csr_gather.cu", 10, n}}, true);
    ASSERT_TRUE(p) << p.error().format();
    const KernelIR& ir = p->kernels[0].ir;
    Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(0, 1);
    ASSERT_TRUE(s) << s.error().format();
    std::vector<long long> valsLane0, valsLane1;
    int gathers = 0;
    for (const DynamicInstruction& d : *s) {
      const Instruction& inst = at(ir, d);
      if (!inst.memory || inst.memory->isStore || inst.sourceLine != 11) continue;
      if (d.laneAddresses.empty()) {
        ASSERT_TRUE(inst.memory->allocation);
        EXPECT_EQ(inst.memory->allocation->name, "x");
        EXPECT_EQ(inst.memory->allocation->begin, 4LL << 40);
        EXPECT_EQ(inst.memory->allocation->end, 5LL << 40);
        ++gathers;
      } else if (d.laneAddresses[0] >> 40 == 3) {
        valsLane0.push_back(d.laneAddresses[0] - (3LL << 40));
        valsLane1.push_back(d.laneAddresses[1] - (3LL << 40));
      }
    }
    std::vector<long long> expected0, expected1;
    for (long long k = 0; k < n; ++k) {
      expected0.push_back(4 * (32 * n + 32 * k));
      expected1.push_back(4 * (32 * n + 32 * k + 1));
    }
    std::sort(valsLane0.begin(), valsLane0.end());
    std::sort(valsLane1.begin(), valsLane1.end());
    EXPECT_EQ(valsLane0, expected0) << "N = " << n;
    EXPECT_EQ(valsLane1, expected1) << "N = " << n;
    EXPECT_EQ(gathers, n);
  }
}

}  // namespace
/// int_division sm_90 (tests/frontend/cuda/sources): addresses from `i % cols`, `i / cols` and
/// `(unsigned)i / ucols` with runtime divisors, which ptxas lowers to I2F(.U32).RP, MUFU.RCP,
/// F2I.FTZ.U32.TRUNC.NTZ and integer corrections (no library call). cols = 100, rows = 7,
/// ucols = 3; warp 2 of block 1, lane L: i = 256 + 64 + L = 320 + L. The first load reads
/// in[(i % 100) * 7 + i / 100], lane 0: (20 * 7 + 3) = 143; lane 31 (i = 351): 51 * 7 + 3 = 360.
/// The second reads in[i / 3]: lane 0: 106, lane 31: 117. `in` is the first pointer (1 << 40).
TEST(CudaStreams, IntegerDivisionByARuntimeDivisorGivesExactAddresses) {
  Expected<CudaProgram> p = analyse("int_division.cu", "",
                                    launch({4, 1, 1}, {256, 1, 1}, {{"cols", 100LL}, {"rows", 7LL}, {"ucols", 3LL}}),
                                    "sm_90", {}, true);
  ASSERT_TRUE(p) << p.error().format();
  const KernelIR& ir = p->kernels[0].ir;
  ASSERT_TRUE(ir.streams);
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(1, 2);
  ASSERT_TRUE(s) << s.error().format();
  std::vector<std::vector<long long>> loads;
  for (const DynamicInstruction& d : *s) {
    const Instruction& inst = at(ir, d);
    if (inst.memory && inst.memory->space == MemorySpace::Global && !inst.memory->isStore) loads.push_back(d.laneAddresses);
  }
  ASSERT_EQ(loads.size(), 2u);
  std::vector<long long> expectedA, expectedB;
  for (int lane = 0; lane < 32; ++lane) {
    const long long i = 320 + lane;
    expectedA.push_back((1LL << 40) + 4 * ((i % 100) * 7 + i / 100));
    expectedB.push_back((1LL << 40) + 4 * (i / 3));
  }
  std::vector<std::vector<long long>> expected{expectedA, expectedB};
  std::sort(loads.begin(), loads.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(loads, expected);
  // The kernel has no data-dependent access left.
  for (const BasicBlock& b : ir.blocks) {
    for (const Instruction& in : b.instructions) {
      if (in.memory) {
        EXPECT_FALSE(in.memory->dataDependent) << in.opcode;
      }
    }
  }
}

}  // namespace foresight::cuda

namespace foresight::cuda {
namespace {

// Volta/Turing SASS writes 64-bit global addresses with plain registers and the `.E` modifier
// (`LDG.E.SYS R6, [R2]`, `STG.E.SYS [R6.64+UR4], R3`); each register is the low half of a pair.
// Reading only the low words started every array at address 0 (arrays aliased in the memory
// engine). The sm_75 transpose of examples/place: in (parameter 0) is read, out (1) written.
TEST(SassInterpreter, ExtendedAddressesKeepTheirArraysBase) {
  auto tc = createFixtureToolchain({std::string(FORESIGHT_SOURCE_DIR) + "/tests/examples/fixtures/place", true});
  CudaOptions o;
  o.arch = "sm_75";
  o.launch = testing::launch({64, 64, 1}, {16, 16, 1}, {{"width", 1024}, {"height", 1024}});
  o.sassStream = true;
  Expected<CudaProgram> p = loadCuda(std::string(FORESIGHT_SOURCE_DIR) + "/examples/place/transpose.cu", o, *tc);
  ASSERT_TRUE(p) << p.error().format();
  const KernelIR& ir = p->kernels[0].ir;
  ASSERT_EQ(ir.arrays.size(), 2u);
  EXPECT_EQ(ir.arrays[0].name, "in");
  EXPECT_EQ(ir.arrays[1].name, "out");
  EXPECT_EQ(ir.arrays[0].begin, WarpInterpreter::pointerBase(0));
  EXPECT_EQ(ir.arrays[1].end, WarpInterpreter::pointerBase(2));
  ASSERT_TRUE(ir.streams);
  // Block (1, 2), warp 0: threads x = 16..31, y = 32 and 33; in[y * 1024 + x], out[x * 1024 + y].
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(2 * 64 + 1, 0);
  ASSERT_TRUE(s) << s.error().format();
  int loads = 0, stores = 0;
  for (const DynamicInstruction& d : *s) {
    const Instruction& in = ir.blocks[static_cast<size_t>(d.block)].instructions[static_cast<size_t>(d.index)];
    if (!in.memory || in.memory->space != MemorySpace::Global) continue;
    ASSERT_EQ(d.laneAddresses.size(), 32u);
    const long long base = WarpInterpreter::pointerBase(in.memory->isStore ? 1 : 0);
    const long long lane0 = in.memory->isStore ? (16LL * 1024 + 32) * 4 : (32LL * 1024 + 16) * 4;
    EXPECT_EQ(d.laneAddresses[0], base + lane0) << in.opcode;
    if (in.memory->isStore) {
      ++stores;
    } else {
      ++loads;
    }
  }
  EXPECT_EQ(loads, 1);
  EXPECT_EQ(stores, 1);
}

}  // namespace
}  // namespace foresight::cuda
