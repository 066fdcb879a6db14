// SPDX-License-Identifier: Apache-2.0
/// \file
/// PTX and SASS as nvcc really emits them (fixtures from tests/frontend/cuda/sources):
/// initialised `.const` / `.global` variables, calls of libdevice slow paths (`.func` bodies,
/// SASS subroutines), recursion, printf (vprintf) and atomics with contention. Counts are hand
/// derivations from the fixtures' PTX and SASS, written next to each assertion.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "fixture_paths.h"
#include "foresight/frontend/cuda/float_compare.h"
#include "foresight/frontend/cuda/ptx_parser.h"
#include "foresight/frontend/cuda/sass_interpreter.h"
#include "foresight/frontend/cuda/sass_parser.h"
#include "foresight/frontend/cuda/warp_interpreter.h"

namespace foresight::cuda {
namespace {

using testing::fixture;
using testing::fixtureDir;
using testing::launch;
using testing::slurp;

/// Analyses fixtures/SOURCE with branch hints; `sassStream` keeps the SASS stream in the IR.
Expected<CudaProgram> analyseWith(const std::string& source, const std::string& kernel, const Launch& l,
                                  std::vector<BranchHint> branches, bool sassStream = false,
                                  const std::string& arch = "sm_90") {
  return testing::analyse(source, kernel, l, arch, {}, sassStream, std::move(branches));
}

bool hasNote(const CudaKernel& k, const std::string& part) {
  return std::any_of(k.notes.begin(), k.notes.end(), [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

std::string allNotes(const CudaKernel& k) {
  std::string s;
  for (const std::string& n : k.notes) s += n + "\n";
  return s;
}

/// The memory instructions of the IR with `opcode` as a prefix, in program order.
std::vector<const Instruction*> memoryOps(const KernelIR& ir, const std::string& opcode) {
  std::vector<const Instruction*> out;
  for (const BasicBlock& b : ir.blocks) {
    for (const Instruction& i : b.instructions) {
      if (i.memory && i.opcode.rfind(opcode, 0) == 0) out.push_back(&i);
    }
  }
  return out;
}

// 1. Initialised variables ---------------------------------------------------------------------

TEST(PtxInitialisers, ScalarsArraysFloatsAndAddresses) {
  const char* ptx = R"(.version 8.0
.target sm_90
.address_size 64
.const .align 4 .b8 bytes[8] = {1, 0, 0, 0, 255};
.global .align 4 .f32 floats[3] = {0f3F800000, 1.5, -2};
.global .align 8 .f64 dbl = 0d4004000000000000;
.global .align 4 .u32 grid[2][2] = {{1, 2}, {3, 4}};
.global .align 8 .u64 ptrs[2] = {generic(floats), bytes+4};
.visible .entry k()
{
  ret;
}
)";
  Expected<PtxModule> m = parsePtx(ptx, "init.ptx");
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->globals.size(), 5u);
  const PtxVariable& b = m->globals[0];
  EXPECT_EQ(b.space, "const");
  EXPECT_EQ(b.bytes, 8);
  EXPECT_EQ(b.init, (std::vector<unsigned char>{1, 0, 0, 0, 255, 0, 0, 0}));  // the rest is zero
  const PtxVariable& f = m->globals[1];
  EXPECT_EQ(f.bytes, 12);
  // 1.0f = 0x3F800000, 1.5f = 0x3FC00000, -2.0f = 0xC0000000, little-endian.
  EXPECT_EQ(f.init, (std::vector<unsigned char>{0, 0, 0x80, 0x3F, 0, 0, 0xC0, 0x3F, 0, 0, 0, 0xC0}));
  EXPECT_EQ(m->globals[2].init, (std::vector<unsigned char>{0, 0, 0, 0, 0, 0, 0x04, 0x40}));
  const PtxVariable& g = m->globals[3];
  EXPECT_EQ(g.bytes, 16);  // [2][2] of 4 bytes
  EXPECT_EQ(g.init[12], 4);
  const PtxVariable& p = m->globals[4];
  ASSERT_EQ(p.symbolInits.size(), 2u);
  EXPECT_EQ(p.symbolInits[0].symbol, "floats");
  EXPECT_EQ(p.symbolInits[1].offset, 8);
  EXPECT_EQ(p.symbolInits[1].symbol, "bytes");
  EXPECT_EQ(p.symbolInits[1].addend, 4);
  EXPECT_EQ(m->kernels.size(), 1u);
}

TEST(PtxInitialisers, ConstTableGivesExactStoreAddresses) {
  // const_table.cu: y[kOffset[t & 3] + t * gScale] with kOffset = {0, 64, 128, 192} (.const)
  // and gScale = 2 (.global): lane t stores to element kOffset[t % 4] + 2t.
  Expected<CudaProgram> p = analyseWith("const_table.cu", "", launch({1, 1, 1}, {32, 1, 1}), {});
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  const std::vector<const Instruction*> stores = memoryOps(k.ir, "st.global");
  ASSERT_EQ(stores.size(), 1u);
  const MemoryAccess& st = *stores[0]->memory;
  EXPECT_FALSE(st.dataDependent) << allNotes(k);
  ASSERT_EQ(st.laneAddresses.size(), 32u);
  const long long y = WarpInterpreter::pointerBase(1);
  EXPECT_EQ(st.laneAddresses[0], y);                   // element 0
  EXPECT_EQ(st.laneAddresses[1], y + 4 * (64 + 2));    // element 66
  EXPECT_EQ(st.laneAddresses[7], y + 4 * (192 + 14));  // element 206
  // Elements 66g + 8j (g = t % 4, j = t / 4): every lane in its own 32-byte sector.
  EXPECT_DOUBLE_EQ(st.transactionsPerInst.value_or(-1), 32);
  EXPECT_TRUE(hasNote(k, "const_table.cu:9: loads from 'kOffset' read its initial values")) << allNotes(k);
  EXPECT_TRUE(hasNote(k, "loads from 'gScale' read its initial values")) << allNotes(k);
}

// 2. Calls of libdevice slow paths --------------------------------------------------------------

TEST(PtxCalls, SinExpandsTheTrigReductionSlowPath) {
  // Before: the initialised __cudart tables failed the whole file ("unexpected '{'"). With P = 0
  // on line 7, no lane takes sin's branches there: every lane calls the slow path.
  Expected<CudaProgram> p = analyseWith("libm_calls.cu", "libm_sin", launch({1, 1, 1}, {32, 1, 1}),
                                        {{"libm_calls.cu", 7, 0.0}});
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  EXPECT_TRUE(hasNote(k, "libm_calls.cu:7: '__internal_trig_reduction_slowpathd' (library code without source lines) "
                         "is expanded in place"))
      << allNotes(k);
  EXPECT_TRUE(hasNote(k, "data-dependent branch resolved by the default for library code "
                         "(__internal_trig_reduction_slowpathd)"))
      << allNotes(k);
  // PTX: 219 instructions, the slow path's loop left after one pass.
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 219);
  ASSERT_TRUE(k.sass.has_value());
  EXPECT_EQ(k.sass->dynamicStatus, "");
  // SASS: the CALL.REL of the subroutine runs its copy, 216 instructions.
  EXPECT_DOUBLE_EQ(k.sass->dynamicInstructionsPerWarp.value_or(-1), 216);
}

TEST(PtxCalls, SinOnSm80) {
  // The same kernel for sm_80 (Ampere SASS): the PTX is the same (219 per warp, both warps of
  // the 64-thread block alike); the SASS runs its subroutine copy in 204 instructions.
  Expected<CudaProgram> p = analyseWith("libm_calls.cu", "libm_sin", launch({1, 1, 1}, {64, 1, 1}),
                                        {{"libm_calls.cu", 7, 0.0}}, false, "sm_80");
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 219);
  ASSERT_TRUE(k.sass.has_value());
  EXPECT_EQ(k.sass->dynamicStatus, "");
  EXPECT_DOUBLE_EQ(k.sass->dynamicInstructionsPerWarp.value_or(-1), 204);
}

TEST(PtxCalls, PowExpandsAccuratePow) {
  Expected<CudaProgram> p = analyseWith("libm_calls.cu", "libm_pow", launch({1, 1, 1}, {32, 1, 1}),
                                        {{"libm_calls.cu", 11, 0.0}});
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  EXPECT_TRUE(hasNote(k, "'__internal_accurate_pow' (library code without source lines) is expanded in place")) << allNotes(k);
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 247);
  ASSERT_TRUE(k.sass.has_value());
  EXPECT_EQ(k.sass->dynamicStatus, "");
  EXPECT_DOUBLE_EQ(k.sass->dynamicInstructionsPerWarp.value_or(-1), 216);
}

// 3. Recursion -----------------------------------------------------------------------------------

TEST(PtxCalls, RecursionRunsExactlyWithinTheExpansionDepth) {
  Expected<CudaProgram> p = analyseWith("recursion.cu", "", launch({1, 1, 1}, {32, 1, 1}, {{"n", 5}}), {});
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  // PTX: the kernel 11 instructions; fib's body 5 for n < 2 (ld.param, setp, bra, st.param,
  // ret) and 14 otherwise (9 more: two calls with their slots and the add). fib(5) makes 15
  // calls, 7 with n ≥ 2 and 8 leaves: 11 + 7 × 14 + 8 × 5 = 149.
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 149);
  // SASS: fib saves and restores n in local memory around its calls (STL/LDL), which the
  // SASS run does not track: the executor's one error names the branch and its fix, and the
  // PTX stream is kept.
  ASSERT_TRUE(k.sass.has_value());
  EXPECT_EQ(k.sass->dynamicStatus,
            "kernel 'recursion': the branch at recursion.cu:4 depends on values the SASS run does not track; give the "
            "probability that its `if` runs the body with --branch recursion.cu:4=P")
      << k.sass->dynamicStatus;
}

TEST(PtxCalls, RecursionBelowTheDepthIsNotedNotHung) {
  Expected<CudaProgram> p = analyseWith("recursion.cu", "", launch({1, 1, 1}, {32, 1, 1}, {{"n", 30}}), {});
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  EXPECT_TRUE(hasNote(k, "recursion.cu:4: the recursion of '_Z3fibi' is expanded 6 calls deep")) << allNotes(k);
  // Six levels of calls expanded (1 + 2 + … + 32 = 63 bodies of 14), the 64 calls below them
  // one instruction each (inside those bodies): 11 + 63 × 14 = 893.
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 893);
}

TEST(PtxCalls, RecursionOnAnUnknownArgumentNamesTheLine) {
  Expected<CudaProgram> p = analyseWith("recursion.cu", "", launch({1, 1, 1}, {32, 1, 1}), {});
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("the branch at recursion.cu:4 depends on argument 'n'"), std::string::npos)
      << p.error().message;
}

// 4. printf ---------------------------------------------------------------------------------------

TEST(PtxCalls, PrintfIsOneCallWithANote) {
  Expected<CudaProgram> p = analyseWith("printf_call.cu", "", launch({1, 1, 1}, {64, 1, 1}), {});
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  EXPECT_TRUE(hasNote(k, "printf_call.cu:6: printf (vprintf) is modelled as one call instruction")) << allNotes(k);
  // Warp 0 (lane 0 prints): 6 + 10 (local store of the argument, slot stores, call,
  // result) + 6 = 22; warp 1 skips the call: 12. Mean 17.
  EXPECT_DOUBLE_EQ(k.dynamicInstructionsPerWarp, 17);
  ASSERT_TRUE(k.sass.has_value());
  EXPECT_EQ(k.sass->dynamicStatus, "");
  EXPECT_DOUBLE_EQ(k.sass->dynamicInstructionsPerWarp.value_or(-1), 21.5);
  EXPECT_TRUE(hasNote(k, "printf_call.cu:6: 'CALL.ABS.NOINC' (an indirect call, printf's vprintf) counts as one instruction"))
      << allNotes(k);
}

// 5. Atomics ------------------------------------------------------------------------------------

TEST(AtomicContention, UnitsCountSerializedLanes) {
  std::vector<long long> same(32, 4096);  // all lanes on one address
  EXPECT_EQ(*accessUnits(same, 4, PtxSpace::Global, true), 32);
  EXPECT_EQ(*accessUnits(same, 4, PtxSpace::Global, false), 1);
  std::vector<long long> eight(32);
  for (int l = 0; l < 32; ++l) eight[l] = 4096 + 4 * (l % 8);  // 8 addresses in one sector, 4 lanes each
  EXPECT_EQ(*accessUnits(eight, 4, PtxSpace::Global, true), 4);
  std::vector<long long> distinct(32);
  for (int l = 0; l < 32; ++l) distinct[l] = 4096 + 4 * l;  // 4 sectors, no contention
  EXPECT_EQ(*accessUnits(distinct, 4, PtxSpace::Global, true), 4);
  std::vector<long long> shared(32);
  for (int l = 0; l < 32; ++l) shared[l] = 4 * (l % 4);  // 4 banks: 1 wavefront, 8 lanes per address
  EXPECT_EQ(*accessUnits(shared, 4, PtxSpace::Shared, false), 1);
  EXPECT_EQ(*accessUnits(shared, 4, PtxSpace::Shared, true), 8);
  EXPECT_EQ(sameAddressLanes(shared), 8);
}

TEST(AtomicContention, PtxAtomicsSerializeOnSharedAddresses) {
  Expected<CudaProgram> p = analyseWith("atomics.cu", "", launch({1, 1, 1}, {32, 1, 1}), {});
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  const std::vector<const Instruction*> shared = memoryOps(k.ir, "atom.shared");
  const std::vector<const Instruction*> global = memoryOps(k.ir, "atom.global");
  ASSERT_EQ(shared.size(), 1u);
  ASSERT_EQ(global.size(), 2u);
  EXPECT_DOUBLE_EQ(shared[0]->memory->wavefrontsPerInst, 8);  // bins[t % 4]: 8 lanes per address
  EXPECT_DOUBLE_EQ(global[0]->memory->transactionsPerInst.value_or(-1), 4);  // hist[t % 8]: one sector, 4 lanes per address
  EXPECT_DOUBLE_EQ(global[1]->memory->transactionsPerInst.value_or(-1), 32);  // *total: 32 lanes
  EXPECT_TRUE(hasNote(k, "atomics.cu:9: atom.shared.add.u32: 8 lanes of a warp update one address and serialize "
                         "(8 wavefronts for the warp's request)"))
      << allNotes(k);
  EXPECT_TRUE(hasNote(k, "atomics.cu:12: atom.global.add.u32: 32 lanes of a warp update one address and serialize"))
      << allNotes(k);
}

TEST(AtomicContention, SassReductionsAreMemoryAccesses) {
  // sm_90 SASS: the global atomics are REDG (no result used), the shared one ATOMS.
  Expected<SassListing> l = parseSass(slurp(fixture("atomics.sm_90.sass")), "atomics.sm_90.sass");
  ASSERT_TRUE(l) << l.error().format();
  int redg = 0, atoms = 0;
  for (const SassInstruction& i : l->functions.at(0).instructions) {
    if (i.mnemonic == "REDG") {
      ++redg;
      EXPECT_EQ(i.memoryWidthBytes, 4);
      EXPECT_TRUE(isSassAtomic(i));
    }
    if (i.mnemonic == "ATOMS") ++atoms;
  }
  EXPECT_EQ(redg, 2);
  EXPECT_EQ(atoms, 1);
}

TEST(AtomicContention, SassReductionOfAnInlinedAtomicKeepsItsArray) {
  // histogram.cu: atomicAdd(&bins[keys[i]], 1u) on line 9, inlined from the CUDA headers. The
  // SASS listing (nvdisasm -gi) puts the REDG on line 9, the PTX's atom there too, so the two
  // pair although one is a reduction and the other an atom; the REDG takes the PTX's array,
  // bins (parameter 1, base 2 << 40), and its size from the launch.
  Launch l = launch({4, 1, 1}, {256, 1, 1}, {{"n", 1024}});
  l.arrayBytes["bins"] = 8;
  Expected<CudaProgram> p = analyseWith("histogram.cu", "", l, {}, true);
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  ASSERT_TRUE(k.sass);
  EXPECT_EQ(k.sass->unmatchedSass, 0);
  EXPECT_EQ(k.sass->unmatchedPtx, 0);
  const std::vector<const Instruction*> red = memoryOps(k.ir, "REDG");
  ASSERT_EQ(red.size(), 1u);
  EXPECT_EQ(red[0]->sourceLine, 9);
  EXPECT_TRUE(red[0]->memory->dataDependent);
  ASSERT_TRUE(red[0]->memory->allocation);
  EXPECT_EQ(red[0]->memory->allocation->name, "bins");
  EXPECT_EQ(red[0]->memory->allocation->begin, 2LL << 40);
  EXPECT_EQ(red[0]->memory->allocation->bytes, 8);
}

/// The SASS count of warp 0 of a one-warp launch of the listing `text` (no parameters).
Expected<SassWarpCount> runOneWarp(const std::string& text) {
  Expected<SassListing> l = parseSass(text, "t.sass");
  if (!l) return std::move(l).takeError();
  CubinKernel layout;
  SassRunOptions o;
  o.layout = &layout;
  o.launch = launch({1, 1, 1}, {32, 1, 1}, {});
  return runSassWarp(l->functions.at(0), o, 0, 0);
}

TEST(SassRun, FloatDivisionRangeCheckDecidesOnKnownOperands) {
  // ptxas guards the IEEE division's slow path with FCHK P0, a, b; @!P0 BRA skips it. Here the
  // skipped "slow path" is three IADD3s, so a warp runs MOV, MOV, FCHK, BRA, EXIT = 5 dynamic
  // instructions on the fast path and 8 on the slow one.
  auto run = [](const std::string& divisor) -> Expected<SassWarpCount> {
    const std::string text =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "        /*0000*/                   MOV R0, 0x40400000 ;\n"  // a = 3.0f
        "        /*0010*/                   " + divisor + " ;\n"
        "        /*0020*/                   FCHK P0, R0, R1 ;\n"
        "        /*0030*/              @!P0 BRA `(.L_x_1) ;\n"
        "        /*0040*/                   IADD3 R2, R2, 0x1, RZ ;\n"
        "        /*0050*/                   IADD3 R2, R2, 0x1, RZ ;\n"
        "        /*0060*/                   IADD3 R2, R2, 0x1, RZ ;\n"
        ".L_x_1:\n"
        "        /*0070*/                   EXIT ;\n";
    return runOneWarp(text);
  };
  const auto count = [&](const std::string& divisor) {
    Expected<SassWarpCount> c = run(divisor);
    EXPECT_TRUE(c) << c.error().format();
    return c ? c->dynamicInstructions : -1;
  };
  EXPECT_EQ(count("MOV R1, 0x40000000"), 5);    // 3 / 2: normal operands, the fast path
  EXPECT_EQ(count("MOV R1, 0x0"), 8);           // 3 / 0: the slow path
  EXPECT_EQ(count("MOV R1, 0x1"), 8);           // 3 / 2^-149 (subnormal): the slow path
  EXPECT_EQ(count("MOV R1, 0x7fc00000"), 8);    // 3 / NaN: the slow path
  // An untracked divisor with no library call in the way: the branch needs a hint.
  Expected<SassWarpCount> clock = run("S2R R1, SR_CLOCKLO");
  ASSERT_FALSE(clock);
  EXPECT_NE(clock.error().message.find("--branch"), std::string::npos) << clock.error().message;
}

// Hopper's VIMNMX (IMNMX's successor: the least of the sources when the predicate is true, else
// the greatest) and VIMNMX3 (of three). ptxas computes the trip count of `for (i = tid; i < 256;
// i += 32)` as (max(tid, 224) - tid + 31) / 32 + 1 with `VIMNMX R3, R0, 0xe0, !PT`: before,
// the op was unknown and the SASS count gave up. Here the loop body is one IADD3 counted down
// from that trip count: tid 0 (lane 0 of warp 0) runs it 8 times.
TEST(SassRun, IntegerMinMaxOfHopperDecideLoops) {
  auto count = [](const std::string& minmax) -> long long {
    const std::string text =
        "\t.section\t.text.k,\"ax\",@progbits\n"
        "        /*0000*/                   S2R R0, SR_TID.X ;\n"
        "        /*0010*/                   " + minmax + " ;\n"
        "        /*0020*/                   IADD3 R3, -R0, 0x1f, R3 ;\n"
        "        /*0030*/                   SHF.R.U32.HI R3, RZ, 0x5, R3 ;\n"
        "        /*0040*/                   IADD3 R3, R3, 0x1, RZ ;\n"
        ".L_x_0:\n"
        "        /*0050*/                   IADD3 R3, R3, -0x1, RZ ;\n"
        "        /*0060*/                   ISETP.NE.AND P0, PT, R3, RZ, PT ;\n"
        "        /*0070*/               @P0 BRA `(.L_x_0) ;\n"
        "        /*0080*/                   EXIT ;\n";
    Expected<SassWarpCount> c = runOneWarp(text);
    EXPECT_TRUE(c) << c.error().format();
    return c ? c->dynamicInstructions : -1;
  };
  // 5 before the loop, 3 per pass, EXIT: lane 0 (tid 0) runs the most passes, and the warp
  // runs until its last lane leaves: 8 passes (tid 0: (224 - 0 + 31) / 32 + 1).
  EXPECT_EQ(count("VIMNMX R3, R0, 0xe0, !PT"), 5 + 3 * 8 + 1);
  // The least instead: min(tid, 224) = tid, (31 / 32) + 1 = 1 pass.
  EXPECT_EQ(count("VIMNMX R3, R0, 0xe0, PT"), 5 + 3 * 1 + 1);
  // Of three: max(tid, 224, 100) = 224 for tid <= 224, as the first.
  EXPECT_EQ(count("VIMNMX3 R3, R0, 0xe0, 0x64, !PT"), 5 + 3 * 8 + 1);
}

/// The dynamic instructions of a one-warp run of `prologue` followed by a loop that counts R3
/// down to zero: (prologue + 3 v + 1) for the lane with the largest R3 = v (the warp runs until
/// its last lane leaves), -1 when the run fails.
long long countDownRun(const std::vector<std::string>& prologue) {
  std::string text = "\t.section\t.text.k,\"ax\",@progbits\n";
  int offset = 0;
  auto add = [&](const std::string& line, const std::string& guard = "   ") {
    text += fmt::format("        /*{:04x}*/              {} {} ;\n", offset, guard, line);
    offset += 16;
  };
  for (const std::string& line : prologue) add(line);
  text += ".L_x_0:\n";
  add("IADD3 R3, R3, -0x1, RZ");
  add("ISETP.NE.AND P1, PT, R3, RZ, PT");
  add("BRA `(.L_x_0)", "@P1");
  add("EXIT");
  Expected<SassWarpCount> c = runOneWarp(text);
  EXPECT_TRUE(c) << c.error().format();
  return c ? c->dynamicInstructions : -1;
}

// The cross-lane instructions (VOTE, VOTEU, REDUX, SHFL) and the bit counts (POPC, FLO, their
// uniform forms, the lane masks) with known inputs, each leaving a value in R3 for
// countDownRun(). Before, these were unknown ops and the loop's branch stopped the count.
TEST(SassRun, CrossLaneAndBitCountOpsDecideLoops) {
  const auto count = countDownRun;
  const std::vector<std::string> ballot = {"S2R R0, SR_TID.X", "ISETP.GE.U32.AND P0, PT, R0, 0xc, PT", "VOTE.ANY R1, PT, P0"};
  auto with = [&](std::vector<std::string> tail) {
    std::vector<std::string> all = ballot;
    all.insert(all.end(), tail.begin(), tail.end());
    return count(all);
  };
  // Lanes 12-31 have P0: the ballot is 0xfffff000, 20 bits set, the highest bit 31.
  EXPECT_EQ(with({"POPC R3, R1"}), 4 + 3 * 20 + 1);
  EXPECT_EQ(with({"FLO.U32 R3, R1"}), 4 + 3 * 31 + 1);
  // .SH: the bits above the highest one (0), plus 5.
  EXPECT_EQ(with({"FLO.U32.SH R3, R1", "IADD3 R3, R3, 0x5, RZ"}), 5 + 3 * 5 + 1);
  // A lane's rank among the P0 lanes, plus 1: lane 31 has 19 below it.
  EXPECT_EQ(with({"S2R R5, SR_LTMASK", "LOP3.LUT R5, R5, R1, RZ, 0xc0, !PT", "POPC R3, R5", "IADD3 R3, R3, 0x1, RZ"}),
            7 + 3 * 20 + 1);
  // VOTE.ALL into a predicate: not every lane has P0, so P2 is false and SEL picks 7.
  EXPECT_EQ(with({"VOTE.ALL R2, P2, P0", "SEL R3, 0x3, 0x7, P2"}), 5 + 3 * 7 + 1);
  // The uniform forms: the active mask of a full warp (32 lanes), its highest lane (31).
  EXPECT_EQ(count({"VOTEU.ANY UR4, UPT, PT", "UPOPC UR5, UR4", "MOV R3, UR5"}), 3 + 3 * 32 + 1);
  EXPECT_EQ(count({"VOTEU.ANY UR4, UPT, PT", "UFLO.U32 UR5, UR4", "MOV R3, UR5"}), 3 + 3 * 31 + 1);
  // REDUX over the lanes' tid: sum 0 + ... + 31 = 496; max 31; min 0 (plus 1).
  EXPECT_EQ(count({"S2R R0, SR_TID.X", "REDUX.SUM UR4, R0", "MOV R3, UR4"}), 3 + 3 * 496 + 1);
  EXPECT_EQ(count({"S2R R0, SR_TID.X", "REDUX.MAX.S32 UR4, R0", "MOV R3, UR4"}), 3 + 3 * 31 + 1);
  EXPECT_EQ(count({"S2R R0, SR_TID.X", "REDUX.MIN UR4, R0", "IADD3 R3, UR4, 0x1, RZ"}), 3 + 3 * 1 + 1);
  // Shuffles of tid (c = 0x1f: the whole warp): down 16 gives lanes 0-15 tid + 16 and leaves
  // 16-31 their own (out of range); bfly 1 gives lane ^ 1; idx 0 gives lane 0's 0; up 1 gives
  // lane - 1 and leaves lane 0 its own. Plus 1 each.
  const std::string tidPlus = "IADD3 R3, R3, 0x1, RZ";
  EXPECT_EQ(count({"S2R R0, SR_TID.X", "SHFL.DOWN PT, R3, R0, 0x10, 0x1f", tidPlus}), 3 + 3 * 32 + 1);
  EXPECT_EQ(count({"S2R R0, SR_TID.X", "SHFL.BFLY PT, R3, R0, 0x1, 0x1f", tidPlus}), 3 + 3 * 32 + 1);
  EXPECT_EQ(count({"S2R R0, SR_TID.X", "SHFL.IDX PT, R3, R0, RZ, 0x1f", tidPlus}), 3 + 3 * 1 + 1);
  EXPECT_EQ(count({"S2R R0, SR_TID.X", "SHFL.UP PT, R3, R0, 0x1, RZ", tidPlus}), 3 + 3 * 31 + 1);
  // Width 8 (c = 0x181f): down 4 stays within each group of 8, so lane 31 keeps 31 and lane 27
  // gets 31 — the largest is 31 either way; idx 0 of width 8 gives each group its first lane
  // (24 for lanes 24-31).
  EXPECT_EQ(count({"S2R R0, SR_TID.X", "SHFL.IDX PT, R3, R0, RZ, 0x181f", tidPlus}), 3 + 3 * 25 + 1);
}

// The bit operations ptxas uses for indices: BREV (bit-reversed FFT addressing), BMSK, SGXT,
// PRMT (byte and half widening), R2P/P2R (predicates kept in a register), each leaving a value
// in R3 for countDownRun().
TEST(SassRun, BitOpsDecideLoops) {
  // BREV of 0x80000000 is 1; of 0x00c00000 (bits 22, 23) is bits 9 and 8: 0x300 = 768.
  EXPECT_EQ(countDownRun({"MOV R0, 0x80000000", "BREV R3, R0"}), 2 + 3 * 1 + 1);
  EXPECT_EQ(countDownRun({"MOV R0, 0xc00000", "BREV R3, R0"}), 2 + 3 * 768 + 1);
  // BMSK 2, 3: three ones from bit 2 = 0b11100 = 28.
  EXPECT_EQ(countDownRun({"MOV R0, 0x2", "BMSK R3, R0, 0x3"}), 2 + 3 * 28 + 1);
  // SGXT.U32 of 0x1ff to 8 bits: 0xff = 255; SGXT (signed) of 0x7f to 8 bits stays 127.
  EXPECT_EQ(countDownRun({"MOV R0, 0x1ff", "SGXT.U32 R3, R0, 0x8"}), 2 + 3 * 255 + 1);
  EXPECT_EQ(countDownRun({"MOV R0, 0x7f", "SGXT R3, R0, 0x8"}), 2 + 3 * 127 + 1);
  // Signed 0x80 to 8 bits is -128: + 0x90 = 16.
  EXPECT_EQ(countDownRun({"MOV R0, 0x80", "SGXT R3, R0, 0x8", "IADD3 R3, R3, 0x90, RZ"}), 3 + 3 * 16 + 1);
  // PRMT 0x7710 of a = 0x12345, b = RZ keeps the low half: 0x2345 = 9029.
  EXPECT_EQ(countDownRun({"MOV R0, 0x12345", "PRMT R3, R0, 0x7710, RZ"}), 2 + 3 * 9029 + 1);
  // PRMT 0x8880 of 0xfe (a negative byte) sign-extends it: -2, + 7 = 5.
  EXPECT_EQ(countDownRun({"MOV R0, 0xfe", "PRMT R3, R0, 0x8880, RZ", "IADD3 R3, R3, 0x7, RZ"}), 3 + 3 * 5 + 1);
  // R2P sets P0 (bit 0 of 0x1) and clears P1 (bit 1); SEL on P0 picks 6, on P1 would pick 9.
  EXPECT_EQ(countDownRun({"MOV R0, 0x1", "R2P PR, R0, 0x3", "SEL R3, 0x6, 0x9, P0"}), 3 + 3 * 6 + 1);
  EXPECT_EQ(countDownRun({"MOV R0, 0x1", "R2P PR, R0, 0x3", "SEL R3, 0x6, 0x9, P1"}), 3 + 3 * 9 + 1);
  // P2R packs P0 (true: 3 > 2) into bit 0 over R2 = 0x10: 0x11 = 17.
  EXPECT_EQ(countDownRun({"MOV R0, 0x3", "ISETP.GT.AND P0, PT, R0, 0x2, PT", "MOV R2, 0x10", "P2R R3, PR, R2, 0x1"}),
            4 + 3 * 17 + 1);
}

// ptxas aggregates `atomicAdd(total, v)` of a warp: VOTEU.ANY takes the active lanes, UFLO the
// highest, REDUX.SUM the warp's sum, and only that leader lane runs the REDG (atomics.cu line
// 12, sm_90). The PTX's atom has 32 lanes on one address (32 passes); the SASS stream's REDG
// now has the leader's one lane, one sector, and the note says why.
TEST(AtomicContention, SassAggregatedAtomicIsOneLane) {
  Expected<CudaProgram> p = analyseWith("atomics.cu", "", launch({1, 1, 1}, {32, 1, 1}), {}, true);
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  std::vector<const Instruction*> total;
  for (const Instruction* i : memoryOps(k.ir, "REDG")) {
    if (i->sourceLine == 12) total.push_back(i);
  }
  ASSERT_EQ(total.size(), 1u);
  ASSERT_EQ(total[0]->memory->laneAddresses.size(), 32u);
  EXPECT_EQ(std::count_if(total[0]->memory->laneAddresses.begin(), total[0]->memory->laneAddresses.end(),
                          [](long long a) { return a >= 0; }),
            1);
  EXPECT_DOUBLE_EQ(total[0]->memory->transactionsPerInst.value_or(-1), 1);
  EXPECT_FALSE(hasNote(k, "atomics.cu:12: atom.global.add.u32: 32 lanes")) << allNotes(k);
  EXPECT_TRUE(hasNote(k, "atomics.cu:12: REDG.E.ADD.STRONG.GPU: ptxas aggregates the warp's atomics into one")) << allNotes(k);
  // hist[t % 8] (line 10) is not aggregated (eight addresses): 4 lanes per address, as in PTX.
  for (const Instruction* i : memoryOps(k.ir, "REDG")) {
    if (i->sourceLine == 10) {
      EXPECT_DOUBLE_EQ(i->memory->transactionsPerInst.value_or(-1), 4);
    }
  }
}

TEST(SassRun, BranchesAroundLibrarySlowPathsSkipThemOnUntrackedData) {
  // a / b, 1.0f / a and sqrtf(b) of loaded data (fixtures/float_slow_paths.cu, sm_90): ptxas
  // guards each slow path with a branch around its CALL (@!P0 BRA after FCHK for the division,
  // @P0 BRA after an exponent test for the reciprocal and the square root). Before, the SASS
  // count stopped at the first ("the branch at float_slow_paths.cu:10 depends on values the
  // SASS run does not track") and the PTX stream stood in; now each takes the fast path.
  Expected<CudaProgram> p = analyseWith("float_slow_paths.cu", "float_slow_paths", launch({1, 1, 1}, {32, 1, 1}), {});
  ASSERT_TRUE(p) << p.error().format();
  const CudaKernel& k = p->kernels.at(0);
  ASSERT_TRUE(k.sass.has_value());
  EXPECT_EQ(k.sass->dynamicStatus, "");
  for (const char* callee : {"__cuda_sm3x_div_rn_noftz_f32_slowpath", "__cuda_sm20_rcp_rn_f32_slowpath",
                             "__cuda_sm20_sqrt_rn_f32_slowpath"}) {
    EXPECT_TRUE(hasNote(k, std::string("float_slow_paths.cu:10: the branch around '") + callee + "' (library slow path) skips it"))
        << allNotes(k);
  }
  // The fast paths only (fixtures/float_slow_paths.sm_90.sass): 0x000-0x120 (19, the branch
  // taken), BSYNC at 0x160 (20), 0x170-0x1b0 (25, taken), 0x1f0-0x220 (29), BSYNC (30),
  // 0x240-0x290 (36, taken), 0x2d0-0x300 (40), BSYNC (41), 0x320-0x360 up to EXIT (46).
  EXPECT_DOUBLE_EQ(k.sass->dynamicInstructionsPerWarp.value_or(-1), 46);
}

TEST(SassRun, DivisionSlowPathRule) {
  EXPECT_FALSE(divisionNeedsSlowPath(3.0f, 2.0f));
  EXPECT_FALSE(divisionNeedsSlowPath(0.0f, 5.0f));       // 0 / b: the fast path gives 0
  EXPECT_FALSE(divisionNeedsSlowPath(1e20f, 1e-10f));    // quotient 1e30: exponent 99
  EXPECT_TRUE(divisionNeedsSlowPath(1.0f, 0.0f));
  EXPECT_TRUE(divisionNeedsSlowPath(1.0f, 1e-40f));      // subnormal divisor
  EXPECT_TRUE(divisionNeedsSlowPath(1e-40f, 1.0f));      // subnormal dividend
  EXPECT_TRUE(divisionNeedsSlowPath(1.0f, 1e38f));       // 1/b subnormal: exponent of b is 126
  EXPECT_TRUE(divisionNeedsSlowPath(1e30f, 1e-10f));     // quotient 1e40 overflows: 99 + 34 = 133
  EXPECT_TRUE(divisionNeedsSlowPath(1e-30f, 1e10f));     // quotient 1e-40 underflows: -100 - 33
  EXPECT_TRUE(divisionNeedsSlowPath(std::numeric_limits<float>::infinity(), 1.0f));
}

TEST(SassRun, PreparedOnceRunsLikeAFreshRun) {
  // A counted loop (R16 = 0 … 16 by 1): 1 MOV + 16 × (IADD3, ISETP, BRA) + EXIT = 50 dynamic
  // instructions per warp, whether each run prepares the function itself or shares one
  // preparation (what the stream source does for all of a launch's warps).
  const char* text =
      "\t.section\t.text.k,\"ax\",@progbits\n"
      "        /*0000*/                   MOV R16, RZ ;\n"
      ".L_x_1:\n"
      "        /*0010*/                   IADD3 R16, R16, 0x1, RZ ;\n"
      "        /*0020*/                   ISETP.GE.U32.AND P0, PT, R16, 0x10, PT ;\n"
      "        /*0030*/              @!P0 BRA `(.L_x_1) ;\n"
      "        /*0040*/                   EXIT ;\n";
  Expected<SassListing> l = parseSass(text, "t.sass");
  ASSERT_TRUE(l) << l.error().format();
  const SassFunction& fn = l->functions.at(0);
  CubinKernel layout;
  SassRunOptions o;
  o.layout = &layout;
  o.launch = launch({2, 1, 1}, {64, 1, 1}, {});
  o.foldLoops = false;
  Expected<std::shared_ptr<const SassPrepared>> prepared = prepareSassRun(fn, o);
  ASSERT_TRUE(prepared) << prepared.error().format();
  for (int warp = 0; warp < 2; ++warp) {
    Expected<SassWarpCount> fresh = runSassWarp(fn, o, 1, warp);
    Expected<SassWarpCount> shared = runSassWarp(fn, o, 1, warp, prepared->get());
    ASSERT_TRUE(fresh) << fresh.error().format();
    ASSERT_TRUE(shared) << shared.error().format();
    EXPECT_EQ(fresh->dynamicInstructions, 50);
    EXPECT_EQ(shared->dynamicInstructions, 50);
    EXPECT_EQ(shared->blockExecutions, fresh->blockExecutions);
    EXPECT_EQ(shared->cfg.blocks.size(), fresh->cfg.blocks.size());
  }
  // What the preparation refuses, every run refuses the same way.
  SassFunction broken = fn;
  broken.instructions[3].target = ".L_nowhere";
  Expected<std::shared_ptr<const SassPrepared>> refused = prepareSassRun(broken, o);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("unknown label '.L_nowhere'"), std::string::npos);
  EXPECT_FALSE(runSassWarp(broken, o, 0, 0));
}

}  // namespace
}  // namespace foresight::cuda
