// SPDX-License-Identifier: Apache-2.0
// Loop folding in the PTX and SASS warp interpreters (warp_interpreter.h, LoopFold): a folded run
// gives the same counts and, expanded, the same stream as the run that executes every iteration.
#include <gtest/gtest.h>

#include "fixture_paths.h"
#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/frontend/cuda/sass_interpreter.h"
#include "foresight/frontend/cuda/sass_parser.h"
#include "foresight/frontend/cuda/fixture_toolchain.h"
#include "foresight/frontend/cuda/warp_interpreter.h"
#include "foresight/ir/warp_stream.h"

namespace foresight::cuda {
namespace {

using testing::analyse;
using testing::launch;

struct Expanded {
  std::vector<int> instruction;
  std::vector<std::uint32_t> mask;
  std::vector<std::vector<long long>> lanes;
};

Expanded expandAll(const WarpTrace& t) {
  Expanded e;
  expandStream(t, 0, expandedLength(t), [&](int i, std::uint32_t m, const std::vector<long long>* l) {
    e.instruction.push_back(i);
    e.mask.push_back(m);
    e.lanes.push_back(l ? *l : std::vector<long long>{});
  });
  return e;
}

/// Folded and unfolded traces of one warp agree on every count and on the expanded stream.
/// Sectors (`units`) within `unitsTolerance` (relative): folded repeats count the sectors of
/// their recorded iteration, which is exact only when the address steps keep the alignment.
void expectSameRun(const WarpStreams& s, long long block, int warp, bool expectFolds, double unitsTolerance = 0) {
  Expected<WarpTrace> folded = s.trace(block, warp, true);
  Expected<WarpTrace> plain = s.trace(block, warp, false);
  ASSERT_TRUE(folded) << folded.error().format();
  ASSERT_TRUE(plain) << plain.error().format();
  EXPECT_EQ(plain->foldedIterations, 0);
  if (expectFolds) {
    EXPECT_GT(folded->foldedIterations, 0);
    EXPECT_LT(folded->stream.size(), plain->stream.size());
  }
  EXPECT_EQ(folded->dynamicInstructions, plain->dynamicInstructions);
  EXPECT_EQ(folded->blockExecutions, plain->blockExecutions);
  EXPECT_EQ(folded->edges, plain->edges);
  ASSERT_EQ(folded->instructions.size(), plain->instructions.size());
  for (size_t i = 0; i < plain->instructions.size(); ++i) {
    EXPECT_EQ(folded->instructions[i].executions, plain->instructions[i].executions) << "instruction " << i;
    EXPECT_EQ(folded->instructions[i].activeLanes, plain->instructions[i].activeLanes) << "instruction " << i;
    EXPECT_EQ(folded->instructions[i].knownRequests, plain->instructions[i].knownRequests) << "instruction " << i;
    EXPECT_NEAR(static_cast<double>(folded->instructions[i].units), static_cast<double>(plain->instructions[i].units),
                unitsTolerance * static_cast<double>(plain->instructions[i].units))
        << "instruction " << i;
  }
  EXPECT_EQ(expandedLength(*folded), static_cast<long long>(plain->stream.size()));
  const Expanded a = expandAll(*folded), b = expandAll(*plain);
  EXPECT_EQ(a.instruction, b.instruction);
  EXPECT_EQ(a.mask, b.mask);
  EXPECT_TRUE(a.lanes == b.lanes);
}

TEST(LoopFolding, NaiveMatmulInnerLoopFoldsWithExactCountsAndAddresses) {
  // matmul_naive n = 256: each thread's k loop runs 256 iterations (unrolled by the compiler);
  // addresses advance by 4 B (A) and 4n B (B) per k.
  Expected<CudaProgram> p = analyse("matmul.cu", "matmul_naive", launch({16, 16, 1}, {16, 16, 1}, {{"n", 256}}));
  ASSERT_TRUE(p) << p.error().format();
  expectSameRun(*p->kernels[0].streams, 0, 0, true);
  expectSameRun(*p->kernels[0].streams, 17, 5, true);
}

TEST(LoopFolding, TiledMatmulBarrierLoopAgrees) {
  Expected<CudaProgram> p = analyse("matmul.cu", "matmul_tiled", launch({16, 16, 1}, {16, 16, 1}, {{"n", 256}}));
  ASSERT_TRUE(p) << p.error().format();
  expectSameRun(*p->kernels[0].streams, 3, 2, false);
}

TEST(LoopFolding, StencilAndReduceAgree) {
  Expected<CudaProgram> s = analyse("stencil2d.cu", "", launch({32, 32, 1}, {32, 8, 1}, {{"nx", 1024}, {"ny", 256}}));
  ASSERT_TRUE(s) << s.error().format();
  expectSameRun(*s->kernels[0].streams, 5, 3, false);
  Expected<CudaProgram> r = analyse("reduce.cu", "", launch({64, 1, 1}, {256, 1, 1}, {{"n", 1 << 18}}));
  ASSERT_TRUE(r) << r.error().format();
  expectSameRun(*r->kernels[0].streams, 2, 1, false);
}

TEST(LoopFolding, OuterLoopWithAFoldedInnerLoopFoldsWithExactCountsAndAddresses) {
  // correlation m = 64, n = 96 with 64 threads: thread j1 runs n - 1 - j1 outer iterations
  // (j2), each with an inner loop of m iterations (i, unrolled by the compiler); addresses step
  // by 4n B per i and 4 B per j2. Lanes leave the outer loop one by one at its end. The 4-B
  // step moves a warp's 128-B row of data[i*n + j2] across sector boundaries (4 or 5 sectors),
  // so folded sector counts, which repeat the recorded iteration's, are off by a few percent
  // (2 % here); instructions, masks and every lane address are exact.
  Expected<CudaProgram> p = analyse("correlation.cu", "", launch({1, 1, 1}, {64, 1, 1}, {{"m", 64}, {"n", 96}}));
  ASSERT_TRUE(p) << p.error().format();
  expectSameRun(*p->kernels[0].streams, 0, 0, true, 0.03);
  expectSameRun(*p->kernels[0].streams, 0, 1, true, 0.03);
  Expected<WarpTrace> t = p->kernels[0].streams->trace(0, 0);
  ASSERT_TRUE(t) << t.error().format();
  bool nested = false;
  for (const LoopFold& f : t->folds) nested = nested || f.innerEnd > f.innerBegin;
  EXPECT_TRUE(nested);
}

TEST(LoopFolding, InterpretationIsFlatInTheOuterTripCount) {
  // The recorded instructions of warp 0 of correlation do not grow with n (the outer loop's
  // trip count, n - 1 - j1 for lane j1) nor with m (the inner one's) once both loops fold.
  std::vector<size_t> recorded;
  for (long long s : {1LL, 10LL, 100LL}) {
    Expected<CudaProgram> p = analyse("correlation.cu", "", launch({1, 1, 1}, {32, 1, 1}, {{"m", 32 * s}, {"n", 64 * s}}));
    ASSERT_TRUE(p) << p.error().format();
    Expected<WarpTrace> t = p->kernels[0].streams->trace(0, 0);
    ASSERT_TRUE(t) << t.error().format();
    recorded.push_back(t->stream.size());
    EXPECT_EQ(expandedLength(*t), t->dynamicInstructions);
  }
  EXPECT_LE(recorded[1], recorded[0] + recorded[0] / 4);
  EXPECT_LE(recorded[2], recorded[0] + recorded[0] / 4);
}

/// A SASS loop of 1024 iterations over a counter (R16), a multiply-add chain (R4 = 3·R4 + 3) and
/// an FMA chain (R8 = R8·R9 + R9), both non-affine; after it, `tail` and two stores of R4 and R8.
std::string chainListing(const std::string& tail) {
  return "\t.section\t.text.k,\"ax\",@progbits\n"
         "        /*0000*/                   MOV R16, RZ ;\n"
         "        /*0010*/                   MOV R4, 0x1 ;\n"
         "        /*0020*/                   MOV R5, 0x3 ;\n"
         "        /*0030*/                   MOV R8, 0x3f800000 ;\n"
         "        /*0040*/                   MOV R9, 0x3f800347 ;\n"
         "        /*0050*/                   MOV R2, 0x1000 ;\n"
         "        /*0060*/                   MOV R3, RZ ;\n"
         ".L_x_1:\n"
         "        /*0070*/                   IMAD R4, R4, R5, R5 ;\n"
         "        /*0080*/                   FFMA R8, R8, R9, R9 ;\n"
         "        /*0090*/                   IADD3 R16, R16, 0x1, RZ ;\n"
         "        /*00a0*/                   ISETP.GE.U32.AND P0, PT, R16, 0x400, PT ;\n"
         "        /*00b0*/              @!P0 BRA `(.L_x_1) ;\n"
         "        /*00c0*/                   " + tail + " ;\n"
         "        /*00d0*/                   STG.E [R2.64], R4 ;\n"
         "        /*00e0*/                   STG.E [R2.64+0x4], R8 ;\n"
         "        /*00f0*/                   EXIT ;\n";
}

TEST(LoopFolding, SassLoopOverDataOnlyRegistersFolds) {
  // The chains reach only the stores' data: at the loop header no address, guard or comparison
  // can read R4 or R8, so the loop folds (they are unknown after the fold) with the counts of the
  // run without folding: 7 + 1024 × 5 + 4 = 5131 instructions.
  CubinKernel layout;
  SassRunOptions o;
  o.layout = &layout;
  o.launch = launch({1, 1, 1}, {32, 1, 1}, {});
  auto run = [&](const std::string& tail, bool fold) -> SassWarpCount {
    Expected<SassListing> l = parseSass(chainListing(tail), "t.sass");
    EXPECT_TRUE(l) << l.error().format();
    o.foldLoops = fold;
    Expected<SassWarpCount> r = runSassWarp(l->functions.at(0), o, 0, 0);
    EXPECT_TRUE(r) << r.error().format();
    return r ? std::move(*r) : SassWarpCount{};
  };
  const SassWarpCount data = run("NOP", true), dataPlain = run("NOP", false);
  EXPECT_GT(data.foldedIterations, 1000);
  EXPECT_EQ(dataPlain.foldedIterations, 0);
  EXPECT_EQ(data.dynamicInstructions, 5131);
  EXPECT_EQ(dataPlain.dynamicInstructions, 5131);
  EXPECT_EQ(data.blockExecutions, dataPlain.blockExecutions);
  // R4 moved into the address (R2 = R4 + R2) matters at the header: no fold, the same count.
  const SassWarpCount address = run("IADD3 R2, R4, R2, RZ", true);
  EXPECT_EQ(address.foldedIterations, 0);
  EXPECT_EQ(address.dynamicInstructions, 5131);
}

TEST(LoopFolding, InterpretationIsFlatInTheTripCount) {
  // The executed (recorded) instructions of a warp do not grow with n once the k loop folds.
  std::vector<size_t> recorded;
  for (long long n : {256LL, 2560LL, 25600LL}) {
    Expected<CudaProgram> p = analyse("matmul.cu", "matmul_naive", launch({1, 1, 1}, {16, 16, 1}, {{"n", n}}));
    ASSERT_TRUE(p) << p.error().format();
    Expected<WarpTrace> t = p->kernels[0].streams->trace(0, 0);
    ASSERT_TRUE(t) << t.error().format();
    recorded.push_back(t->stream.size());
    EXPECT_EQ(expandedLength(*t), t->dynamicInstructions);
  }
  EXPECT_EQ(recorded[1], recorded[0]);
  EXPECT_EQ(recorded[2], recorded[0]);
}

}  // namespace
}  // namespace foresight::cuda

namespace foresight::cuda {
namespace {

/// The whole analysis with and without folding (PTX and SASS runs): the same KernelIR counts,
/// SASS count and per-warp KernelIR streams.
void expectSameProgram(const std::string& file, const std::string& kernel, const Launch& l, double unitsTolerance = 0,
                       bool sassStream = true) {
  auto tc = createFixtureToolchain({testing::fixtureDir(), true});
  CudaOptions o;
  o.sassStream = sassStream;
  o.arch = "sm_90";
  o.launch = l;
  o.kernel = kernel;
  Expected<CudaProgram> folded = loadCuda(testing::fixture(file), o, *tc);
  o.foldLoops = false;
  Expected<CudaProgram> plain = loadCuda(testing::fixture(file), o, *tc);
  ASSERT_TRUE(folded) << folded.error().format();
  ASSERT_TRUE(plain) << plain.error().format();
  const CudaKernel &a = folded->kernels[0], &b = plain->kernels[0];
  ASSERT_TRUE(a.sass && b.sass);
  EXPECT_EQ(a.sass->dynamicInstructionsPerWarp, b.sass->dynamicInstructionsPerWarp);
  ASSERT_EQ(a.ir.blocks.size(), b.ir.blocks.size());
  for (size_t i = 0; i < a.ir.blocks.size(); ++i) {
    EXPECT_DOUBLE_EQ(a.ir.blocks[i].executionsPerWarp, b.ir.blocks[i].executionsPerWarp) << "block " << i;
    ASSERT_EQ(a.ir.blocks[i].instructions.size(), b.ir.blocks[i].instructions.size());
    for (size_t k = 0; k < a.ir.blocks[i].instructions.size(); ++k) {
      const auto &x = a.ir.blocks[i].instructions[k].memory, &y = b.ir.blocks[i].instructions[k].memory;
      ASSERT_EQ(x.has_value(), y.has_value());
      if (x) {
        ASSERT_EQ(x->transactionsPerInst.has_value(), y->transactionsPerInst.has_value());
        if (x->transactionsPerInst) {
          EXPECT_NEAR(*x->transactionsPerInst, *y->transactionsPerInst, unitsTolerance * *y->transactionsPerInst)
              << "block " << i << " instruction " << k;
        }
      }
    }
  }
  Expected<std::vector<DynamicInstruction>> sa = a.ir.streams->stream(1, 2), sb = b.ir.streams->stream(1, 2);
  ASSERT_TRUE(sa && sb);
  ASSERT_EQ(sa->size(), sb->size());
  for (size_t i = 0; i < sa->size(); ++i) {
    ASSERT_EQ((*sa)[i].block, (*sb)[i].block) << i;
    ASSERT_EQ((*sa)[i].index, (*sb)[i].index) << i;
    ASSERT_EQ((*sa)[i].activeMask, (*sb)[i].activeMask) << i;
    ASSERT_EQ((*sa)[i].laneAddresses, (*sb)[i].laneAddresses) << i;
  }
  // The sample of the folded run is the sample of the full stream.
  Expected<SampledStream> wa = a.ir.streams->sampled(1, 2, {512, 64});
  ASSERT_TRUE(wa);
  const SampledStream wb = sampleStream(*sb, {512, 64});
  ASSERT_EQ(wa->instructions.size(), wb.instructions.size());
  EXPECT_DOUBLE_EQ(wa->fullLength, wb.fullLength);
  for (size_t i = 0; i < wb.instructions.size(); ++i) {
    ASSERT_EQ(wa->instructions[i].index, wb.instructions[i].index) << i;
    ASSERT_EQ(wa->instructions[i].laneAddresses, wb.instructions[i].laneAddresses) << i;
  }
}

TEST(LoopFolding, SassAndPtxAnalysesAgreeWithAndWithoutFolding) {
  expectSameProgram("matmul.cu", "matmul_naive", launch({16, 16, 1}, {16, 16, 1}, {{"n", 256}}));
  expectSameProgram("matmul.cu", "matmul_tiled", launch({16, 16, 1}, {16, 16, 1}, {{"n", 256}}));
  expectSameProgram("stencil2d.cu", "", launch({32, 32, 1}, {32, 8, 1}, {{"nx", 1024}, {"ny", 256}}));
  // Nested folds (the outer j2 loop over the folded i loop), SASS and PTX.
  // Sectors within 3 %, as above.
  expectSameProgram("correlation.cu", "", launch({2, 1, 1}, {96, 1, 1}, {{"m", 40}, {"n", 200}}), 0.03);
  expectSameProgram("correlation.cu", "", launch({2, 1, 1}, {96, 1, 1}, {{"m", 40}, {"n", 200}}), 0.03, false);
  // n = 40000: B[k * n + col] moves 160000 B per k, so the low word of its SASS address pair
  // wraps past 2^32 every 26844 iterations; the fold carries it into the high word (before, every
  // wrap ended the fold: explain of n = 2.56M took 80 s).
  expectSameProgram("matmul.cu", "matmul_naive", launch({2, 2, 1}, {16, 16, 1}, {{"n", 40000}}));
  // Registers holding data only, forgotten by the SASS fold (SassLoopOverDataOnlyRegistersFolds),
  // and a chain that decides the loop's exit (value_exit: not folded).
  expectSameProgram("data_chain.cu", "data_chain",
                    launch({2, 1, 1}, {96, 1, 1}, {{"n", 4096}, {"a", ArgValue::fromReal(1.0001)}, {"b", ArgValue::fromReal(0.5)}}));
  expectSameProgram("data_chain.cu", "value_exit",
                    launch({2, 1, 1}, {96, 1, 1},
                           {{"n", 4096}, {"a", ArgValue::fromReal(1.0)}, {"b", ArgValue::fromReal(1.0)},
                            {"limit", ArgValue::fromReal(1000.0)}}));
}

}  // namespace
}  // namespace foresight::cuda
