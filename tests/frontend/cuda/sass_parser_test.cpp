// SPDX-License-Identifier: Apache-2.0
/// \file
/// The nvdisasm parser on the vecadd fixture (sm_90, listed in the comments), control-bit
/// decoding checked against the scoreboard dependences visible in that listing, and the
/// per-family opcode tables covering every mnemonic of every fixture on sm_80 and sm_90.
#include "foresight/frontend/cuda/sass_parser.h"

#include <gtest/gtest.h>

#include "fixture_paths.h"
#include "foresight/frontend/cuda/isa/instr_class_table.h"
#include "foresight/frontend/cuda/sass_ptx_map.h"

namespace foresight::cuda {
namespace {

using testing::fixture;
using testing::slurp;

TEST(SassParser, VecaddSm90) {
  Expected<SassListing> l = parseSass(slurp(fixture("vecadd.sm_90.sass")), "vecadd.sass");
  ASSERT_TRUE(l) << l.error().format();
  ASSERT_EQ(l->functions.size(), 1u);
  const SassFunction& f = l->functions[0];
  EXPECT_EQ(f.name, "_Z6vecaddPKfS0_Pfi");
  ASSERT_EQ(f.instructions.size(), 32u);  // 0x200 bytes of .text / 16

  // /*0000*/ LDC R1, c[0x0][0x28] ;   line 4
  const SassInstruction& ldc = f.instructions[0];
  EXPECT_EQ(ldc.mnemonic, "LDC");
  ASSERT_EQ(ldc.operands.size(), 2u);
  EXPECT_EQ(ldc.operands[0].kind, SassOperand::Kind::Register);
  EXPECT_EQ(ldc.operands[0].reg, 1);
  EXPECT_EQ(ldc.operands[1].kind, SassOperand::Kind::Constant);
  EXPECT_EQ(ldc.operands[1].bank, 0);
  EXPECT_EQ(ldc.operands[1].offset, 0x28);
  EXPECT_EQ(ldc.sourceLine, 4);

  // /*0010*/ S2R R0, SR_TID.X ;  hi word 0x000e2e0000002100: stall 7, write scoreboard 0.
  const SassInstruction& s2r = f.instructions[1];
  EXPECT_EQ(s2r.operands[1].kind, SassOperand::Kind::Special);
  ASSERT_TRUE(s2r.control);
  EXPECT_EQ(s2r.control->stall, 7);
  EXPECT_EQ(s2r.control->writeBarrier, 0);
  EXPECT_EQ(s2r.control->readBarrier, 7);
  // /*0020*/ S2UR UR4, SR_CTAID.X ;  uniform destination
  EXPECT_EQ(f.instructions[2].operands[0].kind, SassOperand::Kind::Uniform);
  EXPECT_EQ(f.instructions[2].operands[0].reg, 4);
  // /*0040*/ IMAD R9, R9, UR4, R0 ;  reads R0 (S2R, scoreboard 0) and R9 (LDC, scoreboard 0):
  // waits on scoreboard 0 (mask 0x1).
  const SassInstruction& imad = f.instructions[4];
  EXPECT_EQ(imad.mnemonic, "IMAD");
  ASSERT_TRUE(imad.control);
  EXPECT_EQ(imad.control->waitMask, 0x1);
  EXPECT_EQ(imad.sourceLine, 5);

  // /*0060*/ ISETP.GE.AND P0, PT, R9, UR4, PT ;  /*0070*/ @P0 EXIT ;
  const SassInstruction& isetp = f.instructions[6];
  EXPECT_EQ(isetp.mods, (std::vector<std::string>{"GE", "AND"}));
  EXPECT_EQ(isetp.operands[0].kind, SassOperand::Kind::Predicate);
  EXPECT_EQ(isetp.operands[1].reg, 7);  // PT
  const SassInstruction& exit = f.instructions[7];
  EXPECT_EQ(exit.mnemonic, "EXIT");
  EXPECT_EQ(exit.guard, 0);
  EXPECT_FALSE(exit.guardNegated);

  // /*00c0*/ IMAD.WIDE R2, R9, 0x4, R2 ;  /*00d0*/ LDG.E R3, desc[UR4][R2.64] ;
  const SassInstruction& wide = f.instructions[12];
  EXPECT_EQ(wide.opcode, "IMAD.WIDE");
  EXPECT_EQ(wide.operands[2].kind, SassOperand::Kind::Immediate);
  EXPECT_EQ(wide.operands[2].offset, 4);
  const SassInstruction& ldg = f.instructions[13];
  EXPECT_EQ(ldg.mnemonic, "LDG");
  EXPECT_EQ(ldg.memoryWidthBytes, 4);
  const SassOperand& mem = ldg.operands[1];
  EXPECT_EQ(mem.kind, SassOperand::Kind::Memory);
  ASSERT_EQ(mem.parts.size(), 2u);
  EXPECT_EQ(mem.parts[0].kind, SassOperand::Kind::Uniform);
  EXPECT_EQ(mem.parts[1].reg, 2);
  EXPECT_EQ(mem.parts[1].width, 2);  // R2.64 = R2:R3
  EXPECT_EQ(ldg.sourceLine, 7);

  // /*0140*/ BRA `(.L_x_0) ; a branch to its own label.
  const SassInstruction& bra = f.instructions[20];
  EXPECT_EQ(bra.mnemonic, "BRA");
  EXPECT_EQ(bra.target, ".L_x_0");
  EXPECT_EQ(f.labels.at(".L_x_0"), 0x140);
}

TEST(SassParser, WideMemoryGroupsAndOffsets) {
  const char* text =
      "\t.section\t.text.k,\"ax\",@progbits\n"
      "        /*0000*/                   LDS.128 R4, [R2+0x10] ;\n"
      "        /*0010*/              @!P1 STG.E.64 desc[UR4][R6.64+-0x8], R8 ;\n"
      "        /*0020*/                   ULDC.64 UR4, c[0x0][0x208] ;\n";
  Expected<SassListing> l = parseSass(text, "t.sass");
  ASSERT_TRUE(l) << l.error().format();
  const SassFunction& f = l->functions.at(0);
  EXPECT_EQ(f.instructions[0].memoryWidthBytes, 16);
  EXPECT_EQ(f.instructions[0].operands[0].width, 4);  // R4..R7
  EXPECT_EQ(f.instructions[0].operands[1].offset, 0x10);
  EXPECT_EQ(f.instructions[1].guard, 1);
  EXPECT_TRUE(f.instructions[1].guardNegated);
  EXPECT_EQ(f.instructions[1].memoryWidthBytes, 8);
  EXPECT_EQ(f.instructions[1].operands[1].width, 2);  // R8:R9
  EXPECT_EQ(f.instructions[1].operands[0].offset, -8);
  EXPECT_EQ(f.instructions[2].operands[1].offset, 0x208);
  EXPECT_FALSE(f.instructions[2].control.has_value());  // no encoding printed
}

// ldmatrix: each addressing lane names a 16-byte row (8 lanes per 8 x 8 matrix) and writes one
// register per matrix; `@!PT` never runs.
TEST(SassParser, MatrixLoadsAndNeverTrueGuards) {
  const char* text =
      "\t.section\t.text.k,\"ax\",@progbits\n"
      "        /*0000*/                   LDSM.16.M88.4 R12, [R12] ;\n"
      "        /*0010*/                   LDSM.16.MT88.2 R4, [R2+0x200] ;\n"
      "        /*0020*/              @!PT LDS RZ, [RZ] ;\n"
      "        /*0030*/                   LDGSTS.E.BYPASS.LTC128B.128 [R5+0x100], desc[UR6][R2.64] ;\n";
  Expected<SassListing> l = parseSass(text, "t.sass");
  ASSERT_TRUE(l) << l.error().format();
  const SassFunction& f = l->functions.at(0);
  EXPECT_EQ(f.instructions[0].matrixRowLanes(), 32);
  EXPECT_EQ(f.instructions[0].memoryWidthBytes, 16);
  EXPECT_EQ(f.instructions[0].operands[0].width, 4);  // R12..R15
  EXPECT_EQ(f.instructions[1].matrixRowLanes(), 16);
  EXPECT_EQ(f.instructions[1].operands[0].width, 2);  // R4:R5
  EXPECT_TRUE(f.instructions[2].neverExecutes());
  EXPECT_FALSE(f.instructions[0].neverExecutes());
  EXPECT_EQ(f.instructions[2].matrixRowLanes(), 0);
  EXPECT_EQ(f.instructions[3].memoryWidthBytes, 16);  // .128, not LTC128B
  EXPECT_EQ(sassAccessKind(f.instructions[3]).space, SassSpace::Global);
  EXPECT_FALSE(sassAccessKind(f.instructions[3]).store);
}

TEST(SassParser, CallWithoutReturnIsABranch) {
  // ptxas (CUDA 13, sm_80) leaves gpu-roofline's fully unrolled N = 120 loop with
  // `@P0 CALL.REL.NOINC exit; BRA top`: NOINC pushes no return address, so the CALL is a jump,
  // and a SASS run that ignored it looped until its instruction budget ran out.
  const char* text =
      "\t.section\t.text.k,\"ax\",@progbits\n"
      ".L_x_1:\n"
      "        /*0000*/                   IADD3 R16, R16, 0x2, RZ ;\n"
      "        /*0010*/                   ISETP.GE.U32.AND P0, PT, R16, 0xfa0, PT ;\n"
      "        /*0020*/               @P0 CALL.REL.NOINC `(.L_x_0) ;\n"
      "        /*0030*/                   BRA `(.L_x_1) ;\n"
      ".L_x_0:\n"
      "        /*0040*/                   EXIT ;\n";
  Expected<SassListing> l = parseSass(text, "t.sass");
  ASSERT_TRUE(l) << l.error().format();
  const SassInstruction& call = l->functions.at(0).instructions.at(2);
  EXPECT_EQ(call.mnemonic, "BRA");
  EXPECT_TRUE(call.mods.empty());
  EXPECT_EQ(call.target, ".L_x_0");
  EXPECT_EQ(call.guard, 0);
}

class OpcodeTables : public ::testing::TestWithParam<std::string> {};

TEST_P(OpcodeTables, CoverEveryFixtureMnemonic) {
  const std::string arch = GetParam();
  Expected<const InstrClassTable*> table = sassClassTable(std::stoi(arch.substr(3)));
  ASSERT_TRUE(table);
  for (const char* name : {"vecadd", "matmul", "stencil2d", "reduce", "spmv_csr", "transpose", "spill"}) {
    Expected<SassListing> l = parseSass(slurp(fixture(std::string(name) + "." + arch + ".sass")), name);
    ASSERT_TRUE(l) << name;
    for (const SassFunction& f : l->functions) {
      for (const SassInstruction& i : f.instructions) {
        EXPECT_TRUE((*table)->find(i.mnemonic).has_value()) << arch << " " << name << ": " << i.mnemonic;
        EXPECT_TRUE(i.control.has_value());
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, OpcodeTables, ::testing::Values("sm_80", "sm_90"));

TEST(OpcodeTables, FamiliesAndGaps) {
  EXPECT_STREQ((*sassClassTable(75))->family, "turing");
  EXPECT_STREQ((*sassClassTable(86))->family, "ampere");
  EXPECT_STREQ((*sassClassTable(90))->family, "hopper");
  EXPECT_FALSE(sassClassTable(100));
  EXPECT_EQ((*sassClassTable(90))->find("VIADD")->cls, InstrClass::Int);
  EXPECT_FALSE((*sassClassTable(80))->find("VIADD").has_value());  // Hopper-only
  EXPECT_EQ((*sassClassTable(80))->find("FFMA")->flops, 2);
  // IMAD: the FMA pipe on Turing and Ampere; on Hopper the int class, whose rate (16 lanes per
  // scheduler) is what an H200 measured for IMAD chains (1.90 of 4 warp instructions per cycle).
  EXPECT_EQ((*sassClassTable(75))->find("IMAD")->cls, InstrClass::Fp32);
  EXPECT_EQ((*sassClassTable(80))->find("IMAD")->cls, InstrClass::Fp32);
  EXPECT_EQ((*sassClassTable(90))->find("IMAD")->cls, InstrClass::Int);
  EXPECT_EQ((*sassClassTable(90))->find("IMUL")->cls, InstrClass::Int);
  EXPECT_EQ(ptxClassTable().find("fma.f32")->cls, InstrClass::Fp32);
  EXPECT_EQ(ptxClassTable().find("fma.f64")->cls, InstrClass::Fp64);
}


// Bad listings (issue 14): one Error at the line, never an out-of-bounds register write or a
// crash in the CFG of a function without instructions.
std::string vecaddWith(const std::string& from, const std::string& to) {
  std::string text = slurp(fixture("vecadd.sm_90.sass"));
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(SassParserErrors, RegisterBeyondTheFile) {
  Expected<SassListing> l = parseSass(vecaddWith("S2R R0, SR_TID.X", "S2R R2147483647, SR_TID.X"), "bad.sass");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().format(), "bad.sass:18: error: register 'R2147483647' is out of range (R0–R254, UR0–UR62, P0–P6, UP0–UP6)");
  // R255 is RZ's number, not a register; a 64-bit pair must fit below it.
  EXPECT_FALSE(parseSass(vecaddWith("S2R R0, SR_TID.X", "S2R R255, SR_TID.X"), "bad.sass"));
  EXPECT_FALSE(parseSass(vecaddWith("LDG.E R3, desc[UR4][R2.64]", "LDG.E R3, desc[UR4][R254.64]"), "bad.sass"));
  EXPECT_TRUE(parseSass(vecaddWith("LDG.E R3, desc[UR4][R2.64]", "LDG.E R3, desc[UR4][R253.64]"), "ok.sass"));
}

TEST(SassParserErrors, ListingCutAfterTheFunctionHeader) {
  std::string text = slurp(fixture("vecadd.sm_90.sass"));
  text = text.substr(0, text.find("/*0000*/"));
  Expected<SassListing> l = parseSass(text, "cut.sass");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().format(), "cut.sass:6: error: function '_Z6vecaddPKfS0_Pfi' has no instructions (is the listing cut short?)");
}

TEST(SassParserErrors, MalformedEncodingWord) {
  Expected<SassListing> l = parseSass(vecaddWith("/* 0x000fe20000000800 */", "/* 0xZZ */"), "bad.sass");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().format(), "bad.sass:16: error: malformed instruction encoding '/* 0xZZ */'");
}


TEST(SassParserErrors, OffsetsOutOfSequenceAndBareGuards) {
  // Branch targets and subroutines are found by offset / 16: a listing whose offsets jump (a
  // mutated one) read past the code before.
  Expected<SassListing> jump = parseSass(vecaddWith("/*0010*/", "/*9010*/"), "bad.sass");
  ASSERT_FALSE(jump);
  EXPECT_EQ(jump.error().format(), "bad.sass:18: error: instruction /*9010*/ is out of sequence (expected /*0010*/ in '_Z6vecaddPKfS0_Pfi')");
  Expected<SassListing> guard = parseSass(vecaddWith("S2R R0, SR_TID.X ;", "@P0;"), "bad.sass");
  ASSERT_FALSE(guard);
  EXPECT_EQ(guard.error().format(), "bad.sass:18: error: guard '@P0' without an instruction");
}

}  // namespace
}  // namespace foresight::cuda
