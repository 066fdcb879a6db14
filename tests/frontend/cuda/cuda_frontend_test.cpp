// SPDX-License-Identifier: Apache-2.0
/// \file
/// The CUDA frontend end to end on the stored fixtures (no nvcc needed): dynamic per-warp
/// instruction counts equal hand counts from the PTX (fixtures/*.sm_90.ptx; per-block sizes
/// written next to each assertion) times the trip counts the launch implies; sectors per
/// request of each global access and bank wavefronts of shared accesses equal hand
/// derivations; resources come from the cubin; errors are clear.
#include "foresight/frontend/cuda/cuda_frontend.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "fixture_paths.h"
#include "foresight/frontend/cuda/cuda_input.h"
#include "foresight/frontend/cuda/ptx_parser.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/memory/summarize.h"
#include "foresight/model/predict.h"

namespace foresight::cuda {
namespace {

using testing::analyse;
using testing::launch;

/// Sectors (or wavefronts) per request of the memory instructions of `space`, in program order.
std::vector<double> requests(const KernelIR& ir, MemorySpace space, bool stores) {
  std::vector<double> out;
  for (const BasicBlock& b : ir.blocks) {
    for (const Instruction& i : b.instructions) {
      if (!i.memory || i.memory->space != space || i.memory->isStore != stores || b.executionsPerWarp == 0) continue;
      if (space == MemorySpace::Shared) {
        out.push_back(i.memory->wavefrontsPerInst);
      } else {
        out.push_back(i.memory->transactionsPerInst.value_or(-1));
      }
    }
  }
  return out;
}

/// Σ block size × executions: the IR's dynamic instructions per warp.
double irDynamicCount(const KernelIR& ir) {
  double n = 0;
  for (const BasicBlock& b : ir.blocks) n += b.executionsPerWarp * static_cast<double>(b.instructions.size());
  return n;
}

TEST(CudaFrontend, VecaddFullWarps) {
  Expected<CudaProgram> p = analyse("vecadd.cu", "", launch({4096, 1, 1}, {256, 1, 1}, {{"n", 1 << 20}}));
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  EXPECT_EQ(k.name, "vecadd");
  EXPECT_EQ(p->isa, "ptx, sass");
  // PTX blocks: entry 10 (ends @%p1 bra, line 6), body 11, ret 1 → 22 for every warp.
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 22);
  EXPECT_DOUBLE_EQ(irDynamicCount(k.ir), 22);
  // a[i], b[i] and c[i]: 32 consecutive floats from an aligned base = 128 B = 4 sectors.
  EXPECT_EQ(requests(k.ir, MemorySpace::Global, false), (std::vector<double>{4, 4}));
  EXPECT_EQ(requests(k.ir, MemorySpace::Global, true), (std::vector<double>{4}));
  // Resources = ptxas -v for sm_90 (12 registers).
  EXPECT_EQ(k.ir.resources.registers, 12);
  EXPECT_EQ(k.paramNames, (std::vector<std::string>{"a", "b", "c", "n"}));
}

TEST(CudaFrontend, ReportsWarpInterpretationAsAProgressStage) {
  // 256 threads = 8 warps of block 0, all sampled: the PTX stage counts 1…8, then the SASS
  // stage counts the same 8 warps; each stage starts at 0 and ends with `finished`.
  auto tc = createFixtureToolchain({testing::fixtureDir(), true});
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = launch({4096, 1, 1}, {256, 1, 1}, {{"n", 1 << 20}});
  std::vector<StageProgress> seen;
  o.progress = [&seen](const StageProgress& p) { seen.push_back(p); };
  Expected<CudaProgram> p = loadCuda(testing::fixture("vecadd.cu"), o, *tc);
  ASSERT_TRUE(p) << p.error().format();
  std::vector<std::string> stages;
  for (const StageProgress& e : seen) {
    if (stages.empty() || stages.back() != e.stage) stages.push_back(e.stage);
  }
  ASSERT_EQ(stages, (std::vector<std::string>{"interpreting the PTX of kernel 'vecadd' (warps of block 0)",
                                              "running the SASS of kernel 'vecadd' (warps of block 0)"}));
  ASSERT_EQ(seen.size(), 2u * (1 + 8 + 1));
  for (size_t s = 0; s < 2; ++s) {
    const size_t first = s * 10;
    EXPECT_EQ(seen[first].done, 0);
    EXPECT_EQ(seen[first].total, 8);
    EXPECT_FALSE(seen[first].finished);
    for (int w = 1; w <= 8; ++w) EXPECT_EQ(seen[first + static_cast<size_t>(w)].done, w);
    EXPECT_TRUE(seen[first + 9].finished);
  }
}

TEST(CudaFrontend, VecaddPartialBlockDiverges) {
  // n = 100, block 256: warps 0–2 all in range, warp 3 has lanes 96–99 in range, warps 4–7
  // none. Warps 0–3 run 10 + 11 + 1 = 22, warps 4–7 run 10 + 1 = 11: mean (4·22 + 4·11)/8.
  Expected<CudaProgram> p = analyse("vecadd.cu", "", launch({1, 1, 1}, {256, 1, 1}, {{"n", 100}}));
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_DOUBLE_EQ(p->kernels[0].dynamicInstructionsPerWarp, 16.5);
  // Warp 3's 4 active lanes touch one sector; averaged over the 4 executing warps:
  // (4 + 4 + 4 + 1) / 4 = 3.25 sectors per request.
  EXPECT_EQ(requests(p->kernels[0].ir, MemorySpace::Global, false), (std::vector<double>{3.25, 3.25}));
}

TEST(CudaFrontend, MatmulNaiveTripCountsFromLaunch) {
  // n = 1024: the k loop is unrolled by 4 in the PTX ($L__BB0_4, 22 instructions, 1024/4 = 256
  // trips) and its remainder loop ($L__BB0_7) runs n % 4 = 0 times. Blocks executed:
  // entry 18 + 4 + 6 + 8 + 256 × 22 + $L__BB0_5 2 + $L__BB0_8 5 + ret 1 = 5676.
  Expected<CudaProgram> p = analyse("matmul.cu", "matmul_naive", launch({64, 64, 1}, {16, 16, 1}, {{"n", 1024}}));
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 5676);
  EXPECT_DOUBLE_EQ(irDynamicCount(k.ir), 5676);
  ASSERT_EQ(k.ir.loops.size(), 2u);
  EXPECT_DOUBLE_EQ(k.ir.loops[0].tripCount, 256);
  EXPECT_EQ(k.ir.loops[0].source, TripCountSource::FromLaunch);
  EXPECT_EQ(k.loopLocations[0], (std::pair<std::string, int>{"matmul.cu", 14}));
  // A warp covers 2 rows (ty 0, 1) × 16 columns. B[k*n+col]: 16 consecutive floats, the same for
  // both half-warps = 2 sectors. A[row*n+k]: 2 addresses (one per row) = 2 sectors. In the
  // unrolled body B and A alternate: B, A, B, A+4, B, A+8, B, A+12.
  EXPECT_EQ(requests(k.ir, MemorySpace::Global, false), (std::vector<double>{2, 2, 2, 2, 2, 2, 2, 2}));
  // C[row*n+col]: 2 rows × 64 B = 4 sectors.
  EXPECT_EQ(requests(k.ir, MemorySpace::Global, true), (std::vector<double>{4}));
}

TEST(CudaFrontend, MatmulNaiveRemainderLoop) {
  // n = 1030 = 4·257 + 2: main loop 257 trips, then $L__BB0_5 2 + 7 + remainder loop 2 × 8:
  // 36 + 257 × 22 + 2 + 7 + 16 + 5 + 1 = 5721.
  Expected<CudaProgram> p = analyse("matmul.cu", "matmul_naive", launch({65, 65, 1}, {16, 16, 1}, {{"n", 1030}}));
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_DOUBLE_EQ(p->kernels[0].dynamicInstructionsPerWarp, 5721);
  EXPECT_DOUBLE_EQ(p->kernels[0].ir.loops[1].tripCount, 2);
}

TEST(CudaFrontend, MatmulTiledSharedMemory) {
  // n = 1024, TILE 16: 64 tiles. entry 15 + 26 + 64 × 59 + 7 = 3824.
  Expected<CudaProgram> p = analyse("matmul.cu", "matmul_tiled", launch({64, 64, 1}, {16, 16, 1}, {{"n", 1024}}));
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 3824);
  EXPECT_DOUBLE_EQ(k.ir.loops.at(0).tripCount, 64);
  // A[row*n + t*16 + tx] and B[(t*16+ty)*n + col]: 2 rows × 16 floats = 4 sectors each.
  EXPECT_EQ(requests(k.ir, MemorySpace::Global, false), (std::vector<double>{4, 4}));
  // As[ty][tx], Bs[ty][tx]: 32 consecutive words → 1 wavefront; As[ty][k] is 2 broadcast
  // words, Bs[k][tx] 16 distinct words shared by both half-warps → 1 wavefront each.
  for (double w : requests(k.ir, MemorySpace::Shared, false)) EXPECT_DOUBLE_EQ(w, 1);
  for (double w : requests(k.ir, MemorySpace::Shared, true)) EXPECT_DOUBLE_EQ(w, 1);
  EXPECT_EQ(k.ir.resources.staticSharedBytes, 2048);  // ptxas: 2048 bytes smem
  int barriers = 0;
  for (const BasicBlock& b : k.ir.blocks) {
    for (const Instruction& i : b.instructions) barriers += i.barrier ? 1 : 0;
  }
  EXPECT_EQ(barriers, 2);  // two __syncthreads() in the tile loop
}

TEST(CudaFrontend, StencilBoundaryWarp) {
  // Block 0 of 32×8: warp w is row y = w, x = 0..31. Warp 0 (y = 0) fails the bounds test and
  // runs entry 22 + ret 1 = 23; warps 1–7 run 22 + 22 + 1 = 45 (lane x = 0 is masked off).
  // Mean (23 + 7 × 45) / 8 = 42.25.
  Expected<CudaProgram> p = analyse("stencil2d.cu", "", launch({32, 32, 1}, {32, 8, 1}, {{"nx", 1024}, {"ny", 256}}));
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_DOUBLE_EQ(p->kernels[0].dynamicInstructionsPerWarp, 42.25);
  // Lanes x = 1..31 of row y: in[i] bytes 4y·1024+4..+127 → 4 sectors; in[i-1] → 4; in[i+1]
  // bytes +8..+131 → 5 sectors; in[i-nx], in[i+nx] → 4 each; out[i] → 4.
  std::vector<double> loads = requests(p->kernels[0].ir, MemorySpace::Global, false);
  std::sort(loads.begin(), loads.end());
  EXPECT_EQ(loads, (std::vector<double>{4, 4, 4, 4, 5}));
  EXPECT_EQ(requests(p->kernels[0].ir, MemorySpace::Global, true), (std::vector<double>{4}));
}

TEST(CudaFrontend, LongestWarpShareOfATriangularLoop) {
  // correlation m = 64, n = 96, one block of 64 threads: lane j1 runs n - 1 - j1 outer
  // iterations of the same inner loop over m rows, and a warp runs until its first lane is
  // done: warp 0 95 outer iterations, warp 1 (lanes 32-63) 63. The inner loop is nearly all of
  // a warp's instructions, so the longest warp over the mean is about 95 / ((95 + 63) / 2) =
  // 1.2025 (the code before and after the loops makes it a little less); exactly, the traced
  // warps' dynamic instructions.
  Expected<CudaProgram> p = analyse("correlation.cu", "", launch({1, 1, 1}, {64, 1, 1}, {{"m", 64}, {"n", 96}}));
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  Expected<WarpTrace> w0 = k.streams->trace(0, 0), w1 = k.streams->trace(0, 1);
  ASSERT_TRUE(w0 && w1);
  const double longest = static_cast<double>(std::max(w0->dynamicInstructions, w1->dynamicInstructions));
  const double mean = static_cast<double>(w0->dynamicInstructions + w1->dynamicInstructions) / 2;
  EXPECT_DOUBLE_EQ(k.ir.longestWarpShare, longest / mean);
  EXPECT_NEAR(k.ir.longestWarpShare, 1.2025, 0.01);
  // A balanced kernel: every warp of vecadd's block runs the same 22 instructions.
  Expected<CudaProgram> v = analyse("vecadd.cu", "", launch({4096, 1, 1}, {256, 1, 1}, {{"n", 1 << 20}}));
  ASSERT_TRUE(v) << v.error().format();
  EXPECT_DOUBLE_EQ(v->kernels.at(0).ir.longestWarpShare, 1.0);
}

TEST(CudaFrontend, ReductionWithBarriers) {
  // The stride loop is fully unrolled (BLOCK = 256). Per warp: entry 10 + 4 (load), then
  // $L__BB0_2 7 (+4 when tid < 128), seven 3-instruction tests $L__BB0_4.._16 (+4 each when
  // tid < stride), $L__BB0_18 3 (+5 for tid == 0), ret 1.
  // warp 0: 14 + 11 + 7 × 7 + 8 + 1 = 83; warp 1: 14 + 11 + 7 + 6 × 3 + 3 + 1 = 54;
  // warps 2, 3: 14 + 11 + 21 + 4 = 50; warps 4–7: 14 + 7 + 21 + 4 = 46.
  // Mean (83 + 54 + 2 × 50 + 4 × 46) / 8 = 421 / 8.
  Expected<CudaProgram> p = analyse("reduce.cu", "", launch({1024, 1, 1}, {256, 1, 1}, {{"n", 1 << 18}}));
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels[0];
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 421.0 / 8);
  EXPECT_EQ(k.ir.resources.staticSharedBytes, 1024);
  // in[i] 4 sectors; partial[blockIdx.x] is one lane → 1 sector.
  EXPECT_EQ(requests(k.ir, MemorySpace::Global, false), (std::vector<double>{4}));
  EXPECT_EQ(requests(k.ir, MemorySpace::Global, true), (std::vector<double>{1}));
  for (double w : requests(k.ir, MemorySpace::Shared, false)) EXPECT_DOUBLE_EQ(w, 1);
}

TEST(CudaFrontend, SpmvNeedsATripHint) {
  Expected<CudaProgram> p = analyse("spmv_csr.cu", "", launch({256, 1, 1}, {128, 1, 1}, {{"rows", 32768}}));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().line, 11);
  EXPECT_NE(p.error().message.find("--trip spmv_csr.cu:11=N"), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("loaded from memory"), std::string::npos);
}

TEST(CudaFrontend, SpmvWithTripHint) {
  // --trip spmv_csr.cu:11=16 makes row_ptr[k] = 16k, so each row has 16 entries: the remainder
  // loop ($L__BB0_4) is skipped (16 % 4 = 0) and the 4-way unrolled loop ($L__BB0_7, 29
  // instructions) runs 4 times: 15 + 9 + 8 + $L__BB0_5 4 + 4 + 4 × 29 + 4 + 1 = 161.
  Expected<CudaProgram> p = analyse("spmv_csr.cu", "", launch({256, 1, 1}, {128, 1, 1}, {{"rows", 32768}}), "sm_90",
                                    {{"spmv_csr.cu", 11, 16}});
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels[0];
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 161);
  // row_ptr[row] 4 sectors, row_ptr[row+1] (shifted by 4 B) 5 sectors; val[j] and col[j] with
  // j = 16·row + i: lanes 64 B apart → 32 sectors; x[col[j]] is data-dependent.
  int dataDependent = 0;
  std::vector<double> known;
  for (const BasicBlock& b : k.ir.blocks) {
    for (const Instruction& i : b.instructions) {
      if (!i.memory || i.memory->isStore || b.executionsPerWarp == 0) continue;
      if (i.memory->dataDependent) {
        ++dataDependent;
      } else {
        known.push_back(*i.memory->transactionsPerInst);
      }
    }
  }
  EXPECT_EQ(dataDependent, 4);  // x[col[j]] in the 4 unrolled copies
  EXPECT_EQ(known, (std::vector<double>{4, 5, 32, 32, 32, 32, 32, 32, 32, 32}));
  EXPECT_FALSE(k.notes.empty());
}

TEST(CudaFrontend, SpmvReadsTheGivenArrays) {
  // With the arrays' contents (Launch::arrayData) no hint is needed: row_ptr = csr_rowptr:16
  // gives 16 entries per row, exactly as the trip hint above (161 instructions, both runs), and
  // col = iota makes x[col[j]] = x[j]: lanes 64 B apart, 32 sectors like val[j], known.
  Launch l = launch({256, 1, 1}, {128, 1, 1}, {{"rows", 32768}});
  Expected<ArrayData> rowPtr = ArrayData::fromPattern(ElemType::I32, {"csr_rowptr", {16}, 0}, 0, 32769);
  Expected<ArrayData> col = ArrayData::fromPattern(ElemType::I32, {"iota", {}, 0}, 0, 32768 * 16);
  ASSERT_TRUE(rowPtr && col);
  l.arrayData.emplace("row_ptr", *rowPtr);
  l.arrayData.emplace("@1", *col);  // by position, as validate names a manifest's buffers
  for (const bool sass : {false, true}) {
    Expected<CudaProgram> p = analyse("spmv_csr.cu", "", l, "sm_90", {}, sass);
    ASSERT_TRUE(p) << p.error().format();
    const CudaKernel& k = p->kernels[0];
    EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 161);
    std::vector<double> known;
    for (const BasicBlock& b : k.ir.blocks) {
      for (const Instruction& i : b.instructions) {
        if (!i.memory || i.memory->isStore || b.executionsPerWarp == 0) continue;
        EXPECT_FALSE(i.memory->dataDependent) << i.opcode;
        known.push_back(*i.memory->transactionsPerInst);
      }
    }
    // row_ptr[row] 4 sectors, row_ptr[row+1] 5, then val[j], col[j] and x[col[j]] of the
    // unrolled copies (4 in the PTX; ptxas unrolls the SASS further), 32 each.
    ASSERT_GE(known.size(), 14u);
    EXPECT_EQ(std::vector<double>(known.begin(), known.begin() + 2), (std::vector<double>{4, 5}));
    EXPECT_EQ(std::count(known.begin() + 2, known.end(), 32.0), static_cast<long>(known.size()) - 2) << "sass " << sass;
    if (!sass) {
      EXPECT_EQ(known.size(), 14u);
    }
    // The SASS run read row_ptr too: its loop bounds, and so its count, are known.
    ASSERT_TRUE(k.sass.has_value());
    EXPECT_TRUE(k.sass->dynamicInstructionsPerWarp.has_value()) << k.sass->dynamicStatus;
    bool noted = false;
    for (const std::string& n : k.notes) noted = noted || n.find("loads from 'col' read its given contents (i32 iota") != std::string::npos;
    EXPECT_TRUE(noted);
  }
  // A name that is no pointer parameter is an error naming the parameters.
  Launch bad = launch({256, 1, 1}, {128, 1, 1}, {{"rows", 32768}});
  bad.arrayData.emplace("rows", *col);
  Expected<CudaProgram> e = analyse("spmv_csr.cu", "", bad);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("--data 'rows': kernel 'spmv_csr' has no pointer parameter of that name"), std::string::npos)
      << e.error().message;
}

TEST(CudaFrontend, TransposeCoalescing) {
  // Naive: 22 straight-line instructions; in[y*n+x] 4 sectors, out[x*n+y] 32 sectors (stride n).
  Expected<CudaProgram> naive = analyse("transpose.cu", "transpose_naive", launch({64, 64, 1}, {32, 32, 1}, {{"n", 2048}}));
  ASSERT_TRUE(naive) << naive.error().format();
  EXPECT_DOUBLE_EQ(naive->kernels[0].dynamicInstructionsPerWarp, 22);
  EXPECT_EQ(requests(naive->kernels[0].ir, MemorySpace::Global, false), (std::vector<double>{4}));
  EXPECT_EQ(requests(naive->kernels[0].ir, MemorySpace::Global, true), (std::vector<double>{32}));
  // Shared: 34 instructions; both global accesses 4 sectors; tile[ty][tx] 1 wavefront and,
  // thanks to the padding (33 words per row), tile[tx][ty] also 1 wavefront.
  Expected<CudaProgram> shared = analyse("transpose.cu", "transpose_shared", launch({64, 64, 1}, {32, 32, 1}, {{"n", 2048}}));
  ASSERT_TRUE(shared) << shared.error().format();
  EXPECT_DOUBLE_EQ(shared->kernels[0].dynamicInstructionsPerWarp, 34);
  EXPECT_EQ(requests(shared->kernels[0].ir, MemorySpace::Global, false), (std::vector<double>{4}));
  EXPECT_EQ(requests(shared->kernels[0].ir, MemorySpace::Global, true), (std::vector<double>{4}));
  EXPECT_EQ(requests(shared->kernels[0].ir, MemorySpace::Shared, false), (std::vector<double>{1}));
  EXPECT_EQ(requests(shared->kernels[0].ir, MemorySpace::Shared, true), (std::vector<double>{1}));
}

TEST(CudaFrontend, SpillsAndLocalMemory) {
  // spill: 412 straight-line PTX instructions; ptxas spills (216 B stack frame on sm_90), which
  // only the SASS shows (STL/LDL).
  Expected<CudaProgram> p = analyse("spill.cu", "spill", launch({512, 1, 1}, {256, 1, 1}, {{"n", 131072}}));
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_DOUBLE_EQ(p->kernels[0].dynamicInstructionsPerWarp, 412);
  EXPECT_EQ(p->kernels[0].ir.resources.localBytes, 216);
  ASSERT_TRUE(p->kernels[0].sass.has_value());
  // local_array: entry 11 + 350 + ret 1. The 64 stores of buf[j] are vectorised into 16
  // st.local.v4.f32 at the same offset in every lane: local memory is interleaved across the
  // warp, so 32 lanes × 16 B = 512 B = 16 sectors; buf[(i+k)%64] differs per lane → 32 sectors.
  Expected<CudaProgram> l = analyse("spill.cu", "local_array", launch({1024, 1, 1}, {128, 1, 1}, {{"n", 131072}, {"k", 5}}));
  ASSERT_TRUE(l) << l.error().format();
  EXPECT_DOUBLE_EQ(l->kernels[0].dynamicInstructionsPerWarp, 362);
  const std::vector<double> stores = requests(l->kernels[0].ir, MemorySpace::Local, true);
  ASSERT_EQ(stores.size(), 16u);
  for (double s : stores) EXPECT_DOUBLE_EQ(s, 16);
  EXPECT_EQ(requests(l->kernels[0].ir, MemorySpace::Local, false), (std::vector<double>{32}));
  EXPECT_EQ(l->kernels[0].ir.resources.localBytes, 256);
}

TEST(CudaFrontend, Sm80UsesTheAmpereTable) {
  Expected<CudaProgram> p = analyse("vecadd.cu", "", launch({4096, 1, 1}, {256, 1, 1}, {{"n", 1 << 20}}), "sm_80");
  ASSERT_TRUE(p) << p.error().format();
  ASSERT_TRUE(p->kernels[0].sass);
  EXPECT_EQ(p->kernels[0].sass->table, "ampere");
  EXPECT_TRUE(p->kernels[0].sass->unknownOpcodes.empty());
}

TEST(CudaFrontend, ErrorsAreClear) {
  const Launch l = launch({64, 64, 1}, {16, 16, 1}, {{"n", 1024}});
  Expected<CudaProgram> notFound = analyse("matmul.cu", "matmul_tiles", l);
  ASSERT_FALSE(notFound);
  EXPECT_EQ(notFound.error().message, "kernel 'matmul_tiles' not found; did you mean 'matmul_tiled'?");
  Expected<CudaProgram> ambiguous = analyse("matmul.cu", "", l);
  ASSERT_FALSE(ambiguous);
  EXPECT_NE(ambiguous.error().message.find("choose one with --kernel (matmul_naive, matmul_tiled)"), std::string::npos);
  Expected<CudaProgram> badArg = analyse("matmul.cu", "matmul_tiled", launch({64, 64, 1}, {16, 16, 1}, {{"N", 1024}}));
  ASSERT_FALSE(badArg);
  EXPECT_EQ(badArg.error().message,
            "kernel 'matmul_tiled' has no parameter 'N'; did you mean 'n'? (parameters: A, B, C, n)");
  // A pointer takes a base address (launch_inputs_test.cpp), not a real number.
  Expected<CudaProgram> pointerArg =
      analyse("matmul.cu", "matmul_tiled", launch({64, 64, 1}, {16, 16, 1}, {{"n", 1024}, {"A", ArgValue::fromReal(0.5)}}));
  ASSERT_FALSE(pointerArg);
  EXPECT_EQ(pointerArg.error().message,
            "parameter 'A' of kernel 'matmul_tiled' is a pointer: its --arg is a base address, a non-negative integer");
  // Without n the tile loop's bound is unknown: the error names the argument.
  Expected<CudaProgram> missingArg = analyse("matmul.cu", "matmul_tiled", launch({64, 64, 1}, {16, 16, 1}));
  ASSERT_FALSE(missingArg);
  EXPECT_NE(missingArg.error().message.find("argument 'n', which was not given (pass --arg n=VALUE)"),
            std::string::npos)
      << missingArg.error().message;
  Expected<CudaProgram> oldArch = analyse("vecadd.cu", "", l, "sm_60");
  ASSERT_FALSE(oldArch);
  EXPECT_NE(oldArch.error().message.find("unsupported CUDA architecture 'sm_60'"), std::string::npos);
}

TEST(CudaFrontend, ArchForGpuPresets) {
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100);
  EXPECT_EQ(*archForGpu(*h100), "sm_90");
  Expected<Gpu> a100 = loadPreset("a100");
  ASSERT_TRUE(a100);
  EXPECT_EQ(*archForGpu(*a100), "sm_80");
  // Volta compiles for its own architecture (CUDA 12.5's ptxas); Kepler takes the sm_75 stand-in.
  Expected<Gpu> v100 = loadPreset("v100");
  ASSERT_TRUE(v100);
  EXPECT_EQ(*archForGpu(*v100), "sm_70");
  EXPECT_FALSE(standInArch(*v100));
  Expected<Gpu> k20c = loadPreset("k20c");
  ASSERT_TRUE(k20c);
  EXPECT_EQ(*archForGpu(*k20c), "sm_75");
  EXPECT_TRUE(standInArch(*k20c));
  Expected<Gpu> fx = loadPreset("fx5600");
  ASSERT_TRUE(fx);
  Expected<std::string> bad = archForGpu(*fx);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("compute capability 1.0"), std::string::npos);
}

TEST(CudaFrontend, PredictsThroughSummarize) {
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100);
  const Launch l = launch({64, 64, 1}, {16, 16, 1}, {{"n", 1024}});
  Expected<CudaProgram> p = analyse("matmul.cu", "matmul_tiled", l);
  ASSERT_TRUE(p) << p.error().format();
  Expected<WorkloadSummary> s = summarize(p->kernels[0].ir, *h100);
  ASSERT_TRUE(s) << s.error().format();
  // Global loads: 2 per tile × 64 tiles, both coalesced (4 sectors = the minimum).
  EXPECT_DOUBLE_EQ(s->mem(AccessClass::Coalesced).insts, 2 * 64 + 1);
  EXPECT_DOUBLE_EQ(s->synchInsts, 2 * 64);
  KernelInput input{p->kernels[0].ir, std::nullopt};
  ModelOptions m;
  m.model = ModelKind::MwpCwp;
  Expected<Prediction> pred = predict(input, l, *h100, m);
  ASSERT_TRUE(pred) << pred.error().format();
  EXPECT_GT(pred->cycles, 0);
}

TEST(CudaFrontend, InputsByExtension) {
  // .ptx, .cubin and .sass fixtures next to each other give the same analysis as the .cu.
  auto tc = createFixtureToolchain({testing::fixtureDir(), true});
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = launch({4096, 1, 1}, {256, 1, 1}, {{"n", 1 << 20}});
  for (const char* ext : {".ptx", ".cubin", ".sass"}) {
    Expected<CudaProgram> p = loadCuda(testing::fixture(std::string("vecadd.sm_90") + ext), o, *tc);
    ASSERT_TRUE(p) << ext << ": " << p.error().format();
    EXPECT_DOUBLE_EQ(p->kernels[0].dynamicInstructionsPerWarp, 22) << ext;
    EXPECT_EQ(p->kernels[0].ir.resources.registers, 12) << ext;
    EXPECT_TRUE(p->kernels[0].sass.has_value()) << ext;
  }
}

TEST(CudaFrontend, PtxFallbackWithoutNvdisasm) {
  auto tc = createFixtureToolchain({testing::fixtureDir(), false});
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = launch({4096, 1, 1}, {256, 1, 1}, {{"n", 1 << 20}});
  Expected<CudaProgram> p = loadCuda(testing::fixture("vecadd.cu"), o, *tc);
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_EQ(p->isa, "ptx");
  EXPECT_FALSE(p->kernels[0].sass.has_value());
  EXPECT_NE(p->sassStatus.find("nvdisasm not found"), std::string::npos);
  EXPECT_DOUBLE_EQ(p->kernels[0].dynamicInstructionsPerWarp, 22);
}

TEST(CudaFrontend, DemangleAndSourceParams) {
  EXPECT_EQ(demangleBaseName("_Z12matmul_tiledPKfS0_Pfi"), "matmul_tiled");
  EXPECT_EQ(demangleBaseName("_ZN2ns6kernelEPf"), "kernel");
  EXPECT_EQ(demangleBaseName("plain_c_kernel"), "plain_c_kernel");
  const std::vector<SourceParam> ps =
      sourceParams("__global__ void __launch_bounds__(256) k(const float* __restrict__ a, int n, float s[4]) {}", "k");
  ASSERT_EQ(ps.size(), 3u);
  EXPECT_EQ(ps[0].name, "a");
  EXPECT_TRUE(ps[0].pointer);
  EXPECT_EQ(ps[1].name, "n");
  EXPECT_FALSE(ps[1].pointer);
  EXPECT_EQ(ps[2].name, "s");
  // Each declaration's extent in the source, without the white space around it.
  const std::string text = "__global__ void __launch_bounds__(256) k(const float* __restrict__ a, int n, float s[4]) {}";
  EXPECT_EQ(text.substr(ps[0].begin, ps[0].end - ps[0].begin), "const float* __restrict__ a");
  EXPECT_EQ(text.substr(ps[1].begin, ps[1].end - ps[1].begin), "int n");
  EXPECT_EQ(text.substr(ps[2].begin, ps[2].end - ps[2].begin), "float s[4]");
}

}  // namespace
}  // namespace foresight::cuda

namespace foresight::cuda {
namespace {

TEST(CudaFrontend, SourceParamsAcrossLinesAndAttributes) {
  // __launch_bounds__ between `void` and the name, on its own line; extern "C"; a launch and a
  // comment naming the kernel before its definition; attributes and defaults on parameters.
  const char* src = R"(// scale(float* out) is documented here
extern "C" __global__ void
__launch_bounds__(256, 2)
scale(float* __restrict__ out, const float* __restrict__ in /* input */,
      [[maybe_unused]] int n, float s = 2.0f);
void host(float* o, const float* i) { scale<<<1, 256>>>(o, i, 4, 1.0f); }
extern "C" __global__ void __launch_bounds__(256, 2) scale(float* __restrict__ out,
    const float* __restrict__ in, int n, float s) {}
__global__ void nothing(void) {}
)";
  const std::vector<SourceParam> ps = sourceParams(src, "scale");
  ASSERT_EQ(ps.size(), 4u);
  EXPECT_EQ(ps[0].name, "out");
  EXPECT_TRUE(ps[0].pointer);
  EXPECT_EQ(ps[1].name, "in");
  EXPECT_TRUE(ps[1].pointer);
  EXPECT_EQ(ps[2].name, "n");
  EXPECT_FALSE(ps[2].pointer);
  EXPECT_EQ(ps[3].name, "s");
  EXPECT_FALSE(ps[3].pointer);
  EXPECT_TRUE(sourceParams(src, "nothing").empty());
  EXPECT_TRUE(sourceParams(src, "host").empty());  // not __global__
  EXPECT_TRUE(sourceParams("void f(int a);", "missing").empty());
}

TEST(CudaFrontend, DemangledKernelNames) {
  EXPECT_EQ(demangleKernelName("_Z9block_sumILi256EEvPKfPf"), "block_sum<256>");
  EXPECT_EQ(demangleKernelName("_Z5scaleIjEvPT_S0_i"), "scale<unsigned int>");
  EXPECT_EQ(demangleKernelName("_ZN3ops4fillEPff"), "ops::fill");
  EXPECT_EQ(demangleKernelName("_ZN12_GLOBAL__N_16kernelEPf"), "(anonymous namespace)::kernel");
  EXPECT_EQ(demangleKernelName("_Z12matmul_tiledPKfS0_Pfi"), "matmul_tiled");
  EXPECT_EQ(demangleKernelName("_Z12matmul_tiledPKfS0_Pfi", true), "matmul_tiled(float const*, float const*, float*, int)");
  EXPECT_EQ(demangleKernelName("plain_c_kernel"), "plain_c_kernel");
}

// templates.cu: block_sum<128>, block_sum<256>, scale<float>, ops::fill.
TEST(CudaFrontend, TemplateInstantiationsByName) {
  const Launch sum = launch({4, 1, 1}, {256, 1, 1});
  for (const char* name : {"block_sum<256>", "block_sum< 256 >", "_Z9block_sumILi256EEvPKfPf"}) {
    Expected<CudaProgram> p = analyse("templates.cu", name, sum);
    ASSERT_TRUE(p) << name << ": " << p.error().format();
    EXPECT_EQ(p->kernelNames, (std::vector<std::string>{"block_sum<128>", "block_sum<256>", "scale<float>", "ops::fill"}));
    const CudaKernel& k = p->kernels.at(0);
    EXPECT_EQ(k.name, "block_sum<256>") << name;
    EXPECT_EQ(k.ir.name, "block_sum<256>") << name;
    EXPECT_EQ(k.mangled, "_Z9block_sumILi256EEvPKfPf") << name;
    EXPECT_EQ(k.paramNames, (std::vector<std::string>{"in", "out"})) << name;
  }
  Expected<CudaProgram> several = analyse("templates.cu", "block_sum", sum);
  ASSERT_FALSE(several);
  EXPECT_EQ(several.error().message,
            "kernel 'block_sum' has 2 instantiations: block_sum<128>, block_sum<256>; choose one with --kernel");
  EXPECT_EQ(several.error().file, testing::fixture("templates.cu"));
  Expected<CudaProgram> none = analyse("templates.cu", "", sum);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message,
            "the input has 4 kernels; choose one with --kernel (block_sum<128>, block_sum<256>, scale<float>, ops::fill)");
  // One instantiation: the bare name picks it; the arguments are named from the template.
  for (const char* name : {"scale", "scale<float >"}) {
    Expected<CudaProgram> p = analyse("templates.cu", name, launch({4, 1, 1}, {256, 1, 1}, {{"n", 1000}}));
    ASSERT_TRUE(p) << name << ": " << p.error().format();
    EXPECT_EQ(p->kernels[0].name, "scale<float>");
    EXPECT_EQ(p->kernels[0].paramNames, (std::vector<std::string>{"data", "factor", "n"}));
  }
  for (const char* name : {"fill", "ops::fill", "_ZN3ops4fillEPff"}) {
    Expected<CudaProgram> p = analyse("templates.cu", name, sum);
    ASSERT_TRUE(p) << name << ": " << p.error().format();
    EXPECT_EQ(p->kernels[0].name, "ops::fill");
    EXPECT_EQ(p->kernels[0].paramNames, (std::vector<std::string>{"out", "value"}));
  }
}

// `ir` takes the kernel from loadCuda(), `predict` and `explain` through selectKernel(): both
// accept the same names.
TEST(CudaFrontend, SelectKernelAcceptsWhatLoadCudaAccepts) {
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100);
  auto tc = createFixtureToolchain({testing::fixtureDir(), true});
  for (const char* name : {"block_sum<256>", "block_sum<256 >", "_Z9block_sumILi256EEvPKfPf"}) {
    InputOptions o;
    o.gpu = &*h100;
    o.launch = launch({4, 1, 1}, {256, 1, 1});
    o.kernel = name;
    o.toolchain = tc.get();
    Expected<LoadedInput> input = loadCudaInput(testing::fixture("templates.cu"), o);
    ASSERT_TRUE(input) << name << ": " << input.error().format();
    Expected<const KernelInput*> k = selectKernel(*input, name);
    ASSERT_TRUE(k) << name << ": " << k.error().format();
    EXPECT_EQ((*k)->ir.name, "block_sum<256>");
    EXPECT_EQ((*k)->symbol, "_Z9block_sumILi256EEvPKfPf");
  }
}

/// A folder of its own under the temporary directory, removed with the object.
struct ScratchDir {
  explicit ScratchDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() { std::filesystem::remove_all(path); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path / name, std::ios::binary) << text; }
  std::filesystem::path path;
};

/// `text` with every `.file` directive pointing at `/nowhere/NAME` instead.
std::string withFilesMoved(std::string text) {
  for (size_t at = text.find(".file\t1 \""); at != std::string::npos; at = text.find(".file\t1 \"", at + 1)) {
    const size_t q = text.find('"', at), e = text.find('"', q + 1);
    const std::string name = std::filesystem::path(text.substr(q + 1, e - q - 1)).filename().string();
    text.replace(q + 1, e - q - 1, "/nowhere/" + name);
  }
  return text;
}

// include_main.cu includes include_kernel.cu, which defines add_offset (as Rodinia's nw, bfs,
// srad, b+tree, lavaMD and myocyte do): the parameter names come from the included file.
TEST(CudaFrontend, ParametersFromAnIncludedCu) {
  Expected<CudaProgram> p = analyse("include_main.cu", "", launch({4, 1, 1}, {256, 1, 1}, {{"count", 1000}}));
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_EQ(p->kernels[0].paramNames, (std::vector<std::string>{"values", "offset", "count"}));

  CudaOptions o;
  o.arch = "sm_90";
  o.launch = launch({4, 1, 1}, {256, 1, 1}, {{"count", 1000}});
  const std::string ptx = withFilesMoved(testing::slurp(testing::fixture("include_main.sm_90.ptx")));
  const std::string cubin = testing::slurp(testing::fixture("include_main.sm_90.cubin"));
  {
    // Found through `#include "..."`, relative to the including file: the line info points
    // nowhere, the kernel's file has another name than the one its lines name.
    ScratchDir dir("foresight_include_search");
    std::filesystem::create_directories(dir.path / "kernels");
    dir.write("app.cu", "#include \"kernels/defs.cu\"\n");
    dir.write("kernels/defs.cu", "#include \"../include_kernel_copy.cu\"\n");
    dir.write("include_kernel_copy.cu", testing::slurp(testing::fixture("include_kernel.cu")));
    dir.write("app.sm_90.ptx", ptx);
    dir.write("app.sm_90.cubin", cubin);
    auto tc = createFixtureToolchain({dir.path.string(), false});
    Expected<CudaProgram> q = loadCuda((dir.path / "app.cu").string(), o, *tc);
    ASSERT_TRUE(q) << q.error().format();
    EXPECT_EQ(q->kernels[0].paramNames, (std::vector<std::string>{"values", "offset", "count"}));
  }
  {
    // Found through the line info: the main source does not include the kernel's file, which
    // lies next to it under the name the `.loc` lines give.
    ScratchDir dir("foresight_line_info_search");
    dir.write("app.cu", "// built elsewhere\n");
    dir.write("include_kernel.cu", testing::slurp(testing::fixture("include_kernel.cu")));
    dir.write("app.sm_90.ptx", ptx);
    dir.write("app.sm_90.cubin", cubin);
    auto tc = createFixtureToolchain({dir.path.string(), false});
    Expected<CudaProgram> q = loadCuda((dir.path / "app.cu").string(), o, *tc);
    ASSERT_TRUE(q) << q.error().format();
    EXPECT_EQ(q->kernels[0].paramNames, (std::vector<std::string>{"values", "offset", "count"}));
  }
}

// bulk_prefetch.cu line 7 calls prefetchBulk() of bulk_prefetch.cuh, whose inline PTX is a
// bulk (TMA) prefetch, which the interpreter cannot execute: code inlined from a header counts
// at its call site (the `.loc`'s inlined_at), so the error names the .cu's line 7.
TEST(CudaFrontend, ErrorsPointAtTheSourceLine) {
  Expected<CudaProgram> cu = analyse("bulk_prefetch.cu", "", launch({1, 1, 1}, {256, 1, 1}));
  ASSERT_FALSE(cu);
  EXPECT_EQ(cu.error().line, 7);
  EXPECT_EQ(cu.error().message.rfind("bulk_prefetch.cu:7: 'cp.async.bulk.prefetch.L2.global' (bulk asynchronous copies", 0), 0u)
      << cu.error().message;
  // A .ptx input: its own lines are right.
  auto tc = createFixtureToolchain({testing::fixtureDir(), false});
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = launch({1, 1, 1}, {256, 1, 1});
  Expected<CudaProgram> ptx = loadCuda(testing::fixture("bulk_prefetch.sm_90.ptx"), o, *tc);
  ASSERT_FALSE(ptx);
  EXPECT_EQ(ptx.error().file, testing::fixture("bulk_prefetch.sm_90.ptx"));
  EXPECT_EQ(ptx.error().line, 46);
  // device_call.cu calls a __noinline__ function: the call is expanded, no error.
  Expected<CudaProgram> call = analyse("device_call.cu", "", launch({1, 1, 1}, {32, 1, 1}));
  EXPECT_TRUE(call) << call.error().format();
}

// Errors of the PTX reader for a .cu: the source line of the last `.loc` before the PTX line,
// or the .cu without a line; never a PTX line against the .cu.
TEST(CudaFrontend, PtxReaderErrorsPointAtTheSourceLine) {
  ScratchDir dir("foresight_ptx_errors");
  const std::string cubin = testing::slurp(testing::fixture("vecadd.sm_90.cubin"));
  dir.write("branch.cu", "__global__ void branch(float* p) {\n  // ...\n}\n");
  dir.write("branch.sm_90.cubin", cubin);
  dir.write("branch.sm_90.ptx",
            ".version 8.5\n.target sm_90\n.address_size 64\n\n.visible .entry branch(\n\t.param .u64 branch_param_0\n)\n{\n"
            "\t.reg .b32 \t%r<2>;\n\t.loc\t1 1 0\n\tmov.u32 \t%r1, %tid.x;\n\t.loc\t1 2 0\n\tbra.uni \t$L_missing;\n"
            "\tret;\n\n}\n\t.file\t1 \"/elsewhere/branch.cu\"\n");
  dir.write("unterminated.cu", "__global__ void unterminated() {}\n");
  dir.write("unterminated.sm_90.cubin", cubin);
  dir.write("unterminated.sm_90.ptx",
            ".version 8.5\n.target sm_90\n.address_size 64\n\n.visible .entry unterminated()\n{\n"
            "\t.reg .b32 \t%r<2>;\n\tmov.u32 \t%r1, %tid.x\n}\n");
  auto tc = createFixtureToolchain({dir.path.string(), false});
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = launch({1, 1, 1}, {32, 1, 1});
  Expected<CudaProgram> branch = loadCuda((dir.path / "branch.cu").string(), o, *tc);
  ASSERT_FALSE(branch);
  EXPECT_EQ(branch.error().message, "branch to unknown label '$L_missing'");
  EXPECT_EQ(branch.error().file, (dir.path / "branch.cu").string());
  EXPECT_EQ(branch.error().line, 2);
  Expected<CudaProgram> unterminated = loadCuda((dir.path / "unterminated.cu").string(), o, *tc);
  ASSERT_FALSE(unterminated);
  EXPECT_EQ(unterminated.error().message, "statement without ';' at the end of a kernel");
  EXPECT_EQ(unterminated.error().file, (dir.path / "unterminated.cu").string());
  EXPECT_EQ(unterminated.error().line, 0);
}

TEST(CudaFrontend, SampleOrderSpreadsOverTheBlock) {
  EXPECT_EQ(sampleOrder(8, 64), (std::vector<int>{0, 7, 4, 2, 6, 1, 3, 5}));
  EXPECT_EQ(sampleOrder(8, 3), (std::vector<int>{0, 7, 4}));
  EXPECT_EQ(sampleOrder(1, 64), (std::vector<int>{0}));
  EXPECT_EQ(sampleOrder(5, 64), (std::vector<int>{0, 4, 2, 1, 3}));
}

TEST(CudaFrontend, InstructionBudgetLimitsTheSampledWarps) {
  // matmul_tiled sm_90, n = 1024: one warp runs 64 tiles of PTX. A budget below one warp's count
  // still runs the first and the last warp (all warps are alike, so the counts do not change)
  // and says so in a note.
  const Launch l = launch({64, 64, 1}, {16, 16, 1}, {{"n", 1024}});
  auto tc = createFixtureToolchain({testing::fixtureDir(), true});
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = l;
  o.kernel = "matmul_tiled";
  Expected<CudaProgram> all = loadCuda(testing::fixture("matmul.cu"), o, *tc);
  o.sampleInstructionBudget = 10;
  Expected<CudaProgram> cut = loadCuda(testing::fixture("matmul.cu"), o, *tc);
  ASSERT_TRUE(all && cut);
  EXPECT_EQ(all->kernels[0].sampledWarps, 8);
  EXPECT_EQ(cut->kernels[0].sampledWarps, 2);
  EXPECT_DOUBLE_EQ(cut->kernels[0].dynamicInstructionsPerWarp, all->kernels[0].dynamicInstructionsPerWarp);
  bool noted = false;
  for (const std::string& n : cut->kernels[0].notes) noted = noted || n.find("2 of 8 warps") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(CudaFrontend, LazyPerWarpStreams) {
  // vecadd with n = 100 and block 256: the stream of warp 3 (lanes 96..99 in range) has the 22
  // instructions, the last ones with only 4 active lanes; warp 5 of the last block exits early.
  Expected<CudaProgram> p = analyse("vecadd.cu", "", launch({4, 1, 1}, {256, 1, 1}, {{"n", 100}}));
  ASSERT_TRUE(p) << p.error().format();
  const WarpStreams& s = *p->kernels[0].streams;
  Expected<WarpTrace> w3 = s.trace(0, 3);
  ASSERT_TRUE(w3) << w3.error().format();
  ASSERT_EQ(w3->stream.size(), 22u);
  EXPECT_EQ(w3->stream.front().second, 0xffffffffu);  // the bounds test runs on all lanes
  EXPECT_EQ(w3->stream[10].second, 0xfu);             // body: lanes 0..3 only
  EXPECT_EQ(s.instructions()[w3->stream[10].first].opcode, "cvta.to.global.u64");
  Expected<WarpTrace> last = s.trace(3, 5);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->stream.size(), 11u);  // 10 + ret
  EXPECT_FALSE(s.trace(4, 0));          // outside the grid
  EXPECT_FALSE(s.trace(0, 8));          // outside the block
}

}  // namespace
}  // namespace foresight::cuda

namespace foresight::cuda {
namespace {

/// A kernel with a data-dependent `if` on line 7 of k.cu: `if (flags[tid] != 0) out[tid] = 1;`.
constexpr const char* kDataDependentIf = R"(
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(
	.param .u64 k_param_0,
	.param .u64 k_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<8>;
	.loc	1 6 3
	ld.param.u64 	%rd1, [k_param_0];
	ld.param.u64 	%rd2, [k_param_1];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd1, %rd3;
	.loc	1 7 3
	ld.global.u32 	%r2, [%rd4];
	setp.eq.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__BB0_2;
	add.s64 	%rd5, %rd2, %rd3;
	mov.u32 	%r3, 1;
	st.global.u32 	[%rd5], %r3;
$L__BB0_2:
	.loc	1 8 1
	ret;
}
	.file	1 "/src/k.cu"
)";

Expected<WarpTrace> runDataDependentIf(std::vector<BranchHint> branches) {
  static Expected<PtxModule> m = parsePtx(kDataDependentIf, "k.ptx");
  static Expected<PtxCfg> cfg = buildCfg(m->kernels[0], "k.ptx");
  InterpreterOptions o;
  o.launch = launch({1, 1, 1}, {32, 1, 1});
  o.pointerParams = {0, 1};
  o.branches = std::move(branches);
  o.kernelName = "k";
  const WarpInterpreter w(*m, m->kernels[0], *cfg, o, "k.ptx");
  return w.run(0, 0);
}

TEST(WarpInterpreter, DataDependentIfNeedsAProbability) {
  Expected<WarpTrace> none = runDataDependentIf({});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().file, "k.cu");
  EXPECT_EQ(none.error().line, 7);
  EXPECT_NE(none.error().message.find("--branch k.cu:7=P"), std::string::npos) << none.error().message;
  // The branch skips the store when taken: with P = 0.25, 8 of the 32 lanes skip it and the
  // other 24 store, so the store's block runs once with 24 active lanes.
  Expected<WarpTrace> quarter = runDataDependentIf({{"k.cu", 7, 0.25}});
  ASSERT_TRUE(quarter) << quarter.error().format();
  EXPECT_EQ(quarter->dynamicInstructions, 8 + 3 + 1);  // 8 before the branch, 3 in the if, ret
  EXPECT_EQ(quarter->instructions[10].activeLanes, 24);
  EXPECT_EQ(quarter->hintedBranches.size(), 1u);
  // P = 1: every lane skips the store.
  Expected<WarpTrace> all = runDataDependentIf({{"k.cu", 7, 1.0}});
  ASSERT_TRUE(all);
  EXPECT_EQ(all->dynamicInstructions, 8 + 1);
}

// nvcc -lineinfo output for warp shuffles and inline asm: `%r|%p` result pairs, `{ ... }`
// blocks with their own `.reg` declarations (one shadowing the kernel's %p1), `.loc …
// inlined_at` from a CUDA header and a module-level `.section` of DWARF strings.
const char* kShuffles = R"(.version 9.0
.target sm_90
.address_size 64

.visible .entry k(
	.param .u64 k_param_0
)
.maxntid 256, 1, 1
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<10>;
	.reg .b64 	%rd<3>;

	.loc	1 5 3
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	.loc	2 440 9, function_name $L__info_string0, inlined_at 1 6 3
	mov.u32 	%r2, 16;
	mov.u32 	%r3, -1;
	mov.u32 	%r4, 31;
	shfl.sync.down.b32 	%r5|%p1, %r1, %r2, %r4, %r3;
	.loc	1 7 3
	// begin inline asm
	{
	.reg .pred %p1;
	.reg .b32 r<2>;
	setp.ne.u32 %p1, %r1, 0;
	selp.u32 r0, 1, 0, %p1;
	mov.u32 %r6, r0;
	}
	// end inline asm
	{
	.reg .pred p;
	setp.eq.u32 p, %r1, 0;
	@p mov.u32 %r7, 1;
	}
	.loc	1 8 3
	setp.lt.u32 	%p2, %r5, 20;
	@%p2 bra 	$L__BB0_2;
	st.global.u32 	[%rd2], %r6;
$L__BB0_2:
	.loc	1 9 3
	ld.global.u32 	%r8, [%rd2];
	shfl.sync.idx.b32 	%r9|%p3, %r1, %r8, %r4, %r3;
	setp.eq.u32 	%p3, %r9, 0;
	@%p3 bra 	$L__BB0_4;
	st.global.u32 	[%rd2+4], %r9;
$L__BB0_4:
	.loc	1 10 1
	ret;
}
	.file	1 "/src/k.cu"
	.file	2 "/usr/local/cuda/include/sm_30_intrinsics.hpp"
	.section	.debug_str
	{
$L__info_string0:
.b8 95,90,78,0
	}
)";

TEST(PtxParser, ScopedBlocksShufflePairsAndSections) {
  Expected<PtxModule> m = parsePtx(kShuffles, "k.ptx");
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->kernels.size(), 1u);
  const PtxKernel& k = m->kernels[0];
  // 3 before the shuffle, 3 movs, shfl (6), 3 + 2 in the asm blocks, setp/bra/st (12–14),
  // ld/shfl/setp/bra/st (15–19), ret (20).
  ASSERT_EQ(k.instructions.size(), 21u);
  const auto name = [&](const PtxOperand& o) { return k.registers.at(static_cast<size_t>(o.reg)); };
  // shfl.sync.down.b32 %r5|%p1, …: a pair of results, attributed to the call site line 6.
  const PtxInstruction& shfl = k.instructions[6];
  EXPECT_EQ(shfl.base, "shfl");
  ASSERT_EQ(shfl.operands[0].kind, PtxOperand::Kind::Vector);
  ASSERT_EQ(shfl.operands[0].elems.size(), 2u);
  EXPECT_EQ(name(shfl.operands[0].elems[0]), "%r5");
  EXPECT_EQ(name(shfl.operands[0].elems[1]), "%p1");
  EXPECT_EQ(shfl.sourceFile, 1);
  EXPECT_EQ(shfl.sourceLine, 6);
  // First block (scope 1): its %p1 and r0 are its own registers.
  EXPECT_EQ(name(k.instructions[7].operands[0]), "%p1$1");
  EXPECT_EQ(k.instructions[8].operands[0].kind, PtxOperand::Kind::Register);
  EXPECT_EQ(name(k.instructions[8].operands[0]), "r0$1");
  EXPECT_EQ(k.instructions[8].operands[3].reg, k.instructions[7].operands[0].reg);
  EXPECT_EQ(name(k.instructions[9].operands[1]), "r0$1");
  // Second block (scope 2): the bare predicate p, also as a guard.
  EXPECT_EQ(name(k.instructions[10].operands[0]), "p$2");
  EXPECT_EQ(k.instructions[11].guard, k.instructions[10].operands[0].reg);
  // After the blocks, %p3 is the kernel's again.
  EXPECT_EQ(name(k.instructions[17].operands[0]), "%p3");
  EXPECT_EQ(k.labels.at("$L__BB0_2"), 15);
  EXPECT_EQ(m->files.size(), 2u);
  EXPECT_TRUE(m->globals.empty());
}

Expected<WarpTrace> runShuffles(std::vector<BranchHint> branches) {
  static Expected<PtxModule> m = parsePtx(kShuffles, "k.ptx");
  static Expected<PtxCfg> cfg = buildCfg(m->kernels[0], "k.ptx");
  InterpreterOptions o;
  o.launch = launch({1, 1, 1}, {32, 1, 1});
  o.pointerParams = {0};
  o.branches = std::move(branches);
  o.kernelName = "k";
  const WarpInterpreter w(*m, m->kernels[0], *cfg, o, "k.ptx");
  return w.run(0, 0);
}

// The operand after cp.async's cp-size is src-size (an integer: 0 reads nothing) or ignore-src
// (a predicate: true reads nothing); with .L2::cache_hint a last operand is the cache policy,
// which says nothing about the lanes (PTX ISA, cp.async). Lanes 0-7 have %p1 true and %r4 = 0.
constexpr const char* kAsyncCopyForms = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<5>;
	.reg .b64 	%rd<6>;
	.shared .align 16 .b8 buf[512];
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 16;
	add.s64 	%rd4, %rd2, %rd3;
	mov.u32 	%r2, buf;
	shl.b32 	%r3, %r1, 4;
	add.s32 	%r2, %r2, %r3;
	setp.lt.u32 	%p1, %r1, 8;
	selp.b32 	%r4, 0, 16, %p1;
	mov.b64 	%rd5, 0;
	.loc	1 5 3
	cp.async.cg.shared.global [%r2], [%rd4], 16, %r4;
	cp.async.cg.shared.global.L2::cache_hint [%r2], [%rd4], 16, %rd5;
	cp.async.cg.shared.global.L2::cache_hint [%r2], [%rd4], 16, %r4, %rd5;
	cp.async.ca.shared.global [%r2], [%rd4], 16, %p1;
	cp.async.ca.shared.global [%r2], [%rd4], 16;
	cp.async.commit_group;
	cp.async.wait_all;
	ret;
}
	.file	1 "/src/k.cu"
)";

TEST(WarpInterpreter, AsyncCopyReadsWhatItsSourceOperandSays) {
  Expected<PtxModule> m = parsePtx(kAsyncCopyForms, "k.ptx");
  ASSERT_TRUE(m) << m.error().format();
  EXPECT_EQ(m->kernels[0].predicates, (std::set<std::string>{"%p0", "%p1"}));
  Expected<PtxCfg> cfg = buildCfg(m->kernels[0], "k.ptx");
  ASSERT_TRUE(cfg) << cfg.error().format();
  InterpreterOptions o;
  o.launch = launch({1, 1, 1}, {32, 1, 1});
  o.pointerParams = {0};
  o.kernelName = "k";
  o.recordStream = true;
  const WarpInterpreter w(*m, m->kernels[0], *cfg, o, "k.ptx");
  Expected<WarpTrace> t = w.run(0, 0);
  ASSERT_TRUE(t) << t.error().format();
  std::vector<int> reading;
  for (const LaneAccess& a : t->accesses) {
    reading.push_back(static_cast<int>(std::count_if(a.lanes.begin(), a.lanes.end(), [](long long x) { return x >= 0; })));
  }
  // src-size 0 in lanes 0-7: 24 read; the policy alone: all 32; src-size before the policy: 24;
  // ignore-src true in lanes 0-7: 24; no operand: 32. (Before: 24, 24, 8, 32 — the policy-only
  // copy read nothing and ignore-src read the lanes it skips.)
  EXPECT_EQ(reading, (std::vector<int>{24, 32, 24, 24, 32}));
}

TEST(WarpInterpreter, ShufflesMoveKnownValuesAndLeaveTheRestUnknown) {
  // The idx shuffle's source lane comes from memory: its result is unknown, so the branch on
  // it (line 9) needs a hint; before scoped registers and %r|%p pairs, %r9 read as a known 0.
  Expected<WarpTrace> none = runShuffles({});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().line, 9);
  EXPECT_NE(none.error().message.find("--branch k.cu:9=P"), std::string::npos) << none.error().message;
  Expected<WarpTrace> t = runShuffles({{"k.cu", 9, 0.0}});
  ASSERT_TRUE(t) << t.error().format();
  // shfl.down by 16 of %tid.x with c = 31: lanes 0–15 get lane + 16 (16…31), lanes 16–31 keep
  // their own tid (16…31). %r5 < 20 for lanes 0–3 and 16–19: 8 lanes branch over the store,
  // 24 execute it.
  EXPECT_EQ(t->instructions[14].activeLanes, 24);
  // P = 0: no lane branches over the second store.
  EXPECT_EQ(t->instructions[19].activeLanes, 32);
  // 0–13 (14), the store (1), 15–18 (4), the store (1), ret (1).
  EXPECT_EQ(t->dynamicInstructions, 14 + 1 + 4 + 1 + 1);
}

TEST(WarpInterpreter, BranchHintOnALoopAsksForATripCount) {
  Expected<CudaProgram> p = [] {
    auto tc = createFixtureToolchain({testing::fixtureDir(), true});
    CudaOptions o;
    o.arch = "sm_90";
    o.launch = launch({256, 1, 1}, {128, 1, 1}, {{"rows", 32768}});
    o.branches = {{"spmv_csr.cu", 11, 0.5}};
    return loadCuda(testing::fixture("spmv_csr.cu"), o, *tc);
  }();
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("decides a loop"), std::string::npos) << p.error().message;
}

}  // namespace
}  // namespace foresight::cuda

namespace foresight::cuda {
namespace {

/// Dynamic instructions of the IR per warp.
double irCount(const KernelIR& ir) {
  double n = 0;
  for (const BasicBlock& b : ir.blocks) n += b.executionsPerWarp * static_cast<double>(b.instructions.size());
  return n;
}

// Hand counts from the SASS listings (fixtures/*.sass; offsets are bytes, 16 per instruction).

TEST(CudaFrontendSass, VecaddStreamIsSass) {
  // sm_90: every in-range warp runs /*0000*/ … EXIT at /*0130*/ = 20 instructions.
  Expected<CudaProgram> p = analyse("vecadd.cu", "", launch({4096, 1, 1}, {256, 1, 1}, {{"n", 1 << 20}}), "sm_90", {}, true);
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_EQ(p->isa, "sass (memory from ptx)");
  const CudaKernel& k = p->kernels[0];
  EXPECT_DOUBLE_EQ(irCount(k.ir), 20);
  EXPECT_DOUBLE_EQ(*k.sass->dynamicInstructionsPerWarp, 20);
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 22);  // the PTX count stays available
  // LDG.E a[i], LDG.E b[i], STG.E c[i]: 4 sectors each, taken from the paired PTX accesses.
  int accesses = 0;
  for (const BasicBlock& b : k.ir.blocks) {
    for (const Instruction& i : b.instructions) {
      if (!i.memory) continue;
      ++accesses;
      EXPECT_DOUBLE_EQ(*i.memory->transactionsPerInst, 4) << i.opcode;
      EXPECT_EQ(i.sourceLine, 7);
    }
  }
  EXPECT_EQ(accesses, 3);
  // n = 100: warps 4–7 leave at `@P0 EXIT` /*0070*/ after 8 instructions: (4·20 + 4·8)/8 = 14.
  Expected<CudaProgram> partial = analyse("vecadd.cu", "", launch({1, 1, 1}, {256, 1, 1}, {{"n", 100}}), "sm_90", {}, true);
  ASSERT_TRUE(partial);
  EXPECT_DOUBLE_EQ(irCount(partial->kernels[0].ir), 14);
}

TEST(CudaFrontendSass, MatmulTiledLoopOnBothArchitectures) {
  // sm_90: /*0000*/–/*00e0*/ 15, pre-loop /*00f0*/–/*0260*/ 24, loop .L_x_1 /*0270*/–/*0580*/
  // 50 × 64 tiles, STG + EXIT 2: 15 + 24 + 3200 + 2 = 3241.
  const Launch l = launch({64, 64, 1}, {16, 16, 1}, {{"n", 1024}});
  Expected<CudaProgram> h = analyse("matmul.cu", "matmul_tiled", l, "sm_90", {}, true);
  ASSERT_TRUE(h) << h.error().format();
  EXPECT_DOUBLE_EQ(irCount(h->kernels[0].ir), 3241);
  ASSERT_EQ(h->kernels[0].ir.loops.size(), 1u);
  EXPECT_DOUBLE_EQ(h->kernels[0].ir.loops[0].tripCount, 64);
  EXPECT_EQ(h->kernels[0].loopLocations[0], (std::pair<std::string, int>{"matmul.cu", 28}));
  // sm_80: 15 + pre-loop /*00f0*/–/*01d0*/ 15 + loop /*01e0*/–/*04e0*/ 49 × 64 + 2 = 3168.
  Expected<CudaProgram> a = analyse("matmul.cu", "matmul_tiled", l, "sm_80", {}, true);
  ASSERT_TRUE(a) << a.error().format();
  EXPECT_DOUBLE_EQ(irCount(a->kernels[0].ir), 3168);
  // n = 32: two tiles: 15 + 24 + 2 × 50 + 2 = 141.
  Expected<CudaProgram> small = analyse("matmul.cu", "matmul_tiled", launch({2, 2, 1}, {16, 16, 1}, {{"n", 32}}), "sm_90", {}, true);
  ASSERT_TRUE(small);
  EXPECT_DOUBLE_EQ(irCount(small->kernels[0].ir), 141);
}

TEST(CudaFrontendSass, MatmulNaiveUnrolledBy16) {
  // sm_90, n = 1024: ptxas unrolls the k loop by 16 (/*0240*/–/*06c0*/, 73 instructions, loop
  // test `ISETP.GT.AND P1, PT, R4, 0xc`), then has 8-, 4- and remainder stages that n = 1024
  // skips. Executed: /*0000*/–/*00c0*/ 13, then 5 + 6 + 8 + 3 + 1 up to the loop, 64 × 73,
  // three 2-instruction stage tests (/*06d0*/, /*0970*/, /*0b20*/) and the 5-instruction store
  // and EXIT at /*0c50*/: 13 + 23 + 4672 + 6 + 5 = 4719.
  Expected<CudaProgram> p = analyse("matmul.cu", "matmul_naive", launch({64, 64, 1}, {16, 16, 1}, {{"n", 1024}}), "sm_90", {}, true);
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_DOUBLE_EQ(irCount(p->kernels[0].ir), 4719);
  // Every one of the 16 B loads per iteration is 2 sectors (one row pair, 16 columns); the A
  // loads are 2 sectors too (two rows, broadcast within each half-warp).
  for (const BasicBlock& b : p->kernels[0].ir.blocks) {
    if (b.executionsPerWarp != 64) continue;
    int loads = 0;
    for (const Instruction& i : b.instructions) {
      if (!i.memory) continue;
      ++loads;
      EXPECT_DOUBLE_EQ(*i.memory->transactionsPerInst, 2) << i.opcode;
    }
    EXPECT_EQ(loads, 32);  // 16 × (A, B)
  }
}

// async_copy.cu line 7: each thread copies one float of its block's 256 with cp.async (4 B,
// .ca): a global read of one 128-B line per warp, 4 sectors; the commit and the wait move
// nothing. In SASS it is an LDGSTS, after three `@!PT LDS RZ, [RZ]` that never run (no
// access), and the one shared load s[255 - threadIdx.x] stays an access of its own.
TEST(CudaFrontendSass, AsyncCopyIsAGlobalRead) {
  for (const bool sass : {false, true}) {
    Expected<CudaProgram> p = analyse("async_copy.cu", "", launch({1, 1, 1}, {256, 1, 1}), "sm_90", {}, sass);
    ASSERT_TRUE(p) << p.error().format();
    int copies = 0, shared = 0, stores = 0, none = 0;
    for (const BasicBlock& b : p->kernels[0].ir.blocks) {
      for (const Instruction& i : b.instructions) {
        const bool copy = i.opcode.rfind("cp.async.ca", 0) == 0 || i.opcode.rfind("LDGSTS", 0) == 0;
        if (i.opcode.rfind("LDS", 0) == 0 && !i.memory) ++none;
        if (!i.memory) {
          EXPECT_FALSE(copy) << i.opcode;
          continue;
        }
        if (copy) {
          ++copies;
          EXPECT_EQ(i.memory->space, MemorySpace::Global);
          EXPECT_FALSE(i.memory->isStore);
          EXPECT_EQ(i.memory->widthBytes, 4);
          EXPECT_DOUBLE_EQ(*i.memory->transactionsPerInst, 4);  // 32 lanes x 4 B, one line
        } else if (i.memory->space == MemorySpace::Shared) {
          ++shared;
          EXPECT_FALSE(i.memory->isStore);
        } else {
          ++stores;
          EXPECT_TRUE(i.memory->isStore);
        }
      }
    }
    EXPECT_EQ(copies, 1) << sass;
    EXPECT_EQ(shared, 1) << sass;
    EXPECT_EQ(stores, 1) << sass;
    EXPECT_EQ(none, sass ? 3 : 0);  // the @!PT padding
  }
}

// wmma_shared.cu: wmma::load_matrix_sync from shared memory has no PTX ld (it is a
// wmma.load), so its SASS LDSM.16.M88.4 pairs with nothing; it stays a shared load of 16-byte
// rows (not a global access, as it was). Its addresses come from the SASS run: 16 x 16 half
// tiles with 32-byte rows (A's rows, B's columns); ldmatrix fetches one 8 x 8 matrix (8 lanes'
// 16-byte rows) per pass, and rows r and r + 4 of a matrix fall in the same four banks
// (32 x 4 = 128 B apart): 2 wavefronts per matrix, 8 for the four. (By half-warps, as an
// LDS.128 is counted, B's lanes 0-15 would read 256 contiguous bytes in 2.)
TEST(CudaFrontendSass, LdmatrixIsASharedLoadOfRows) {
  Expected<CudaProgram> p = analyse("wmma_shared.cu", "", launch({1, 1, 1}, {32, 1, 1}), "sm_90", {}, true);
  ASSERT_TRUE(p) << p.error().format();
  int ldsm = 0;
  for (const BasicBlock& b : p->kernels[0].ir.blocks) {
    for (const Instruction& i : b.instructions) {
      if (i.opcode.rfind("LDSM", 0) != 0) continue;
      ++ldsm;
      ASSERT_TRUE(i.memory) << i.opcode;
      EXPECT_EQ(i.memory->space, MemorySpace::Shared);
      EXPECT_FALSE(i.memory->isStore);
      EXPECT_EQ(i.memory->widthBytes, 16);
      EXPECT_DOUBLE_EQ(i.memory->wavefrontsPerInst, 8);
    }
  }
  EXPECT_EQ(ldsm, 2);
}

TEST(CudaFrontendSass, StraightLineKernels) {
  // stencil2d sm_90: `@P0 EXIT` at /*0100*/ (17 instructions) ends warp 0 (row y = 0); warps 1–7
  // run to EXIT /*0250*/ (38): (17 + 7 · 38) / 8.
  Expected<CudaProgram> st = analyse("stencil2d.cu", "", launch({32, 32, 1}, {32, 8, 1}, {{"nx", 1024}, {"ny", 256}}), "sm_90", {}, true);
  ASSERT_TRUE(st);
  EXPECT_DOUBLE_EQ(irCount(st->kernels[0].ir), 283.0 / 8);
  // transpose_naive sm_90: EXIT at /*0110*/ → 18. LDG in[y·n + x]: 32 consecutive floats of one
  // row = 4 sectors; STG out[x·n + y]: lanes n·4 = 8 KiB apart = 32 sectors (from the SASS
  // run's own 64-bit addresses).
  Expected<CudaProgram> tn = analyse("transpose.cu", "transpose_naive", launch({64, 64, 1}, {32, 32, 1}, {{"n", 2048}}), "sm_90", {}, true);
  ASSERT_TRUE(tn) << tn.error().format();
  EXPECT_DOUBLE_EQ(irCount(tn->kernels[0].ir), 18);
  std::vector<double> sectors;
  for (const BasicBlock& b : tn->kernels[0].ir.blocks) {
    for (const Instruction& i : b.instructions) {
      if (i.memory) sectors.push_back(*i.memory->transactionsPerInst);
    }
  }
  EXPECT_EQ(sectors, (std::vector<double>{4, 32}));
  // transpose_shared sm_90: EXIT at /*01d0*/ → 30.
  Expected<CudaProgram> tr = analyse("transpose.cu", "transpose_shared", launch({64, 64, 1}, {32, 32, 1}, {{"n", 2048}}), "sm_90", {}, true);
  ASSERT_TRUE(tr);
  EXPECT_DOUBLE_EQ(irCount(tr->kernels[0].ir), 30);
  // spill sm_90: EXIT at /*3ce0*/ → 975 instructions, 67 of them spill stores and 76 spill
  // loads that exist only in SASS; each is a local access at one offset in every lane → 4 sectors.
  Expected<CudaProgram> sp = analyse("spill.cu", "spill", launch({512, 1, 1}, {256, 1, 1}, {{"n", 131072}}), "sm_90", {}, true);
  ASSERT_TRUE(sp) << sp.error().format();
  EXPECT_DOUBLE_EQ(irCount(sp->kernels[0].ir), 975);
  int spills = 0;
  for (const BasicBlock& b : sp->kernels[0].ir.blocks) {
    for (const Instruction& i : b.instructions) {
      if (i.memory && i.memory->space == MemorySpace::Local) {
        ++spills;
        EXPECT_DOUBLE_EQ(*i.memory->transactionsPerInst, i.memory->widthBytes == 8 ? 8 : 4) << i.opcode;
      }
    }
  }
  EXPECT_EQ(spills, 67 + 76);
}

TEST(CudaFrontendSass, ReductionUsesPredicationNotBranches) {
  // sm_90: the unrolled stride loop is predicated, not branched: every warp runs /*0000*/ …
  // `@P0 EXIT` /*0420*/ = 67 instructions (8 BAR.SYNC among them); lane 0 of warp 0 (tid == 0)
  // goes on to EXIT /*0470*/: 5 more. Mean (72 + 7 · 67) / 8.
  Expected<CudaProgram> p = analyse("reduce.cu", "", launch({1024, 1, 1}, {256, 1, 1}, {{"n", 1 << 18}}), "sm_90", {}, true);
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_DOUBLE_EQ(irCount(p->kernels[0].ir), 541.0 / 8);
  int barriers = 0;
  for (const BasicBlock& b : p->kernels[0].ir.blocks) {
    for (const Instruction& i : b.instructions) barriers += i.barrier ? 1 : 0;
  }
  EXPECT_EQ(barriers, 9);  // one after the load + one per stride level (8)
}

TEST(CudaFrontendSass, SpmvTripHintDrivesTheSassRun) {
  // The hint makes the two bound loads LDG [R4.64] (row_ptr[row]) and LDG [R4.64+0x4]
  // (row_ptr[row+1]) at /*00b0*/ and /*00c0*/ yield 16·row and 16·(row+1), as in the PTX run.
  // sm_90, N = 16: /*0000*/–/*0070*/ 8, /*0080*/–/*0110*/ 10 (start < end), /*0120*/–/*01b0*/ 10
  // (16 & 3 = 0: `@!P1 BRA` skips the remainder loop), BSYNC 1, `@!P0 BRA` 1 (15 ≥ 3),
  // /*03b0*/–/*0480*/ 14 (16 > 12: enter the 16-way loop), /*0490*/–/*04a0*/ 2, the loop
  // /*04b0*/–/*0a30*/ 89 × 1 (R7 + 16 ≥ end − 12), BSYNC 1, /*0a50*/–/*0a80*/ 4 (0 > 4 fails:
  // skip the 8-way block), BSYNC 1, /*0da0*/–/*0db0*/ 2 (R7 < end fails: skip the 4-way block),
  // BSYNC 1, /*0f20*/–/*0f60*/ 5 (LEA/LEA.HI.X address, STG, EXIT): 149.
  auto run = [](long long n) {
    return analyse("spmv_csr.cu", "", launch({256, 1, 1}, {128, 1, 1}, {{"rows", 32768}}), "sm_90",
                   {{"spmv_csr.cu", 11, n}}, true);
  };
  Expected<CudaProgram> p = run(16);
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_EQ(p->isa, "sass (memory from ptx)");
  const CudaKernel& k = p->kernels[0];
  EXPECT_DOUBLE_EQ(*k.sass->dynamicInstructionsPerWarp, 149);
  EXPECT_DOUBLE_EQ(irCount(k.ir), 149);
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 161);  // the PTX count (CudaFrontend.SpmvWithTripHint)
  bool hintedLoop = false;
  for (const Loop& l : k.ir.loops) hintedLoop = hintedLoop || l.source == TripCountSource::Hinted;
  EXPECT_TRUE(hintedLoop);
  // N = 20: the same path up to the 16-way loop (1 trip, R7 = start + 16), then 4 > 4 fails,
  // R7 < end holds: the 4-way block /*0dc0*/–/*0f00*/ 21 runs: 149 + 21 = 170.
  Expected<CudaProgram> p20 = run(20);
  ASSERT_TRUE(p20) << p20.error().format();
  EXPECT_DOUBLE_EQ(irCount(p20->kernels[0].ir), 170);
  // N = 3: 3 & 3 ≠ 0: the remainder path /*01c0*/–/*0270*/ 12 and the 1-way loop
  // /*0280*/–/*0380*/ 17 × 3, BSYNC 1, then `@!P0 BRA` 1 (2 ≥ 3 fails) jumps to BSYNC 1 and the
  // store 5: 8 + 10 + 10 + 12 + 51 + 1 + 1 + 1 + 5 = 99.
  Expected<CudaProgram> p3 = run(3);
  ASSERT_TRUE(p3) << p3.error().format();
  EXPECT_DOUBLE_EQ(irCount(p3->kernels[0].ir), 99);
}

TEST(CudaFrontendSass, UnhintedDataDependentBranchIsAnError) {
  // Without the hint neither run can decide the loop; the error names the line.
  Expected<CudaProgram> p = analyse("spmv_csr.cu", "", launch({256, 1, 1}, {128, 1, 1}, {{"rows", 32768}}), "sm_90", {}, true);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().line, 11);
}

TEST(CudaFrontendSass, DataDependentExitFollowsTheBranchHint) {
  // data_exit.cu line 9, `if (m) { ... }` around the whole body: the PTX branches to the exit
  // block (`@%p2 bra $L__BB0_3`), ptxas exits (`@!P0 EXIT` at /*00d0*/). The hint is the
  // probability that the `if` runs its body, so the exit skips it: P = 1 runs the body in both
  // runs, SASS /*0000*/–/*01f0*/, 32 instructions; P = 0 leaves at /*00d0*/: 14.
  auto run = [](double p) {
    return analyse("data_exit.cu", "", launch({4, 1, 1}, {128, 1, 1}, {{"n", 512}}), "sm_90", {}, true,
                   {{"data_exit.cu", 9, p}});
  };
  Expected<CudaProgram> body = run(1.0);
  ASSERT_TRUE(body) << body.error().format();
  EXPECT_EQ(body->isa, "sass (memory from ptx)");
  EXPECT_DOUBLE_EQ(*body->kernels[0].sass->dynamicInstructionsPerWarp, 32);
  EXPECT_DOUBLE_EQ(irCount(body->kernels[0].ir), 32);
  Expected<CudaProgram> none = run(0.0);
  ASSERT_TRUE(none) << none.error().format();
  EXPECT_DOUBLE_EQ(*none->kernels[0].sass->dynamicInstructionsPerWarp, 14);
  // Without the hint the branch is an error at its line, never an exit of every lane.
  Expected<CudaProgram> unhinted = analyse("data_exit.cu", "", launch({4, 1, 1}, {128, 1, 1}, {{"n", 512}}), "sm_90", {}, true);
  ASSERT_FALSE(unhinted);
  EXPECT_EQ(unhinted.error().line, 9);
}

TEST(CudaFrontend, ReusedRegisterIsNoLoopSeed) {
  // frontier_reuse.cu (Rodinia BFS's shape): ptxas loads mask[tid] (line 12) into the register
  // it later reuses for the `for`'s start (line 14), which seeds the induction variable of the
  // loop hinted on line 15. Only the load that reaches the loop is a bound load: the mask's
  // value stays data-dependent, so `--branch …:12=P` decides the predicated EXIT in the SASS
  // too. P = 0 (no lane runs the `if`'s body): every lane leaves at the exit, 16 SASS
  // instructions (as before the loop: 189 with P = 1, the loop run 6 times, the inner `if`'s
  // body never); the PTX run 21 (99).
  auto run = [](double p) {
    return analyse("frontier_reuse.cu", "", launch({4, 1, 1}, {128, 1, 1}, {{"n", 512}}), "sm_90",
                   {{"frontier_reuse.cu", 15, 6}}, true, {{"frontier_reuse.cu", 12, p}, {"frontier_reuse.cu", 18, 0.0}});
  };
  Expected<CudaProgram> none = run(0.0);
  ASSERT_TRUE(none) << none.error().format();
  EXPECT_DOUBLE_EQ(*none->kernels[0].sass->dynamicInstructionsPerWarp, 16);
  EXPECT_DOUBLE_EQ(none->kernels[0].dynamicInstructionsPerWarp, 21);
  Expected<CudaProgram> all = run(1.0);
  ASSERT_TRUE(all) << all.error().format();
  EXPECT_DOUBLE_EQ(*all->kernels[0].sass->dynamicInstructionsPerWarp, 189);
  EXPECT_DOUBLE_EQ(all->kernels[0].dynamicInstructionsPerWarp, 99);
}

TEST(CudaFrontend, EveryUnhintedBranchInOneError) {
  // frontier_edges.cu: the `if` on mask[tid] (line 11), the edge loop (line 12) and the `if` on
  // cost[id] (line 14) all depend on loaded data. One run reports the three, each with its fix:
  // --branch for the ifs, --trip for the loop; the error points at the first.
  const Launch l = launch({4, 1, 1}, {128, 1, 1}, {{"n", 512}});
  Expected<CudaProgram> p = analyse("frontier_edges.cu", "", l);
  ASSERT_FALSE(p);
  const std::string& m = p.error().message;
  EXPECT_EQ(p.error().line, 11);
  EXPECT_NE(m.find("3 branches depend on data"), std::string::npos) << m;
  EXPECT_NE(m.find("--branch frontier_edges.cu:11=P"), std::string::npos) << m;
  EXPECT_NE(m.find("--trip frontier_edges.cu:12=N"), std::string::npos) << m;
  EXPECT_NE(m.find("--branch frontier_edges.cu:14=P"), std::string::npos) << m;
  EXPECT_EQ(m.find("--trip frontier_edges.cu:11"), std::string::npos) << m;
  // With the two ifs hinted, the loop alone is left: the one-branch message.
  Expected<CudaProgram> q = analyse("frontier_edges.cu", "", l, "sm_90", {}, false,
                                    {{"frontier_edges.cu", 11, 1.0}, {"frontier_edges.cu", 14, 0.5}});
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().line, 12);
  EXPECT_EQ(q.error().message,
            "kernel 'frontier_edges': the branch at frontier_edges.cu:12 depends on values loaded from memory; give the "
            "loop's trip count with --trip frontier_edges.cu:12=N");
}

}  // namespace
}  // namespace foresight::cuda
