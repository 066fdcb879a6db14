// SPDX-License-Identifier: Apache-2.0
/// \file
/// The PTX parser and CFG on fixtures: parameters, registers, shared variables, labels, guards,
/// operand kinds, `.loc` lines; blocks, post-dominators and loops of matmul_naive.
#include "foresight/frontend/cuda/ptx_parser.h"

#include <gtest/gtest.h>

#include "fixture_paths.h"
#include "foresight/frontend/cuda/ptx_cfg.h"

namespace foresight::cuda {
namespace {

using testing::fixture;
using testing::slurp;

TEST(PtxParser, Vecadd) {
  Expected<PtxModule> m = parsePtx(slurp(fixture("vecadd.sm_90.ptx")), "vecadd.ptx");
  ASSERT_TRUE(m) << m.error().format();
  EXPECT_EQ(m->target, "sm_90");
  ASSERT_EQ(m->kernels.size(), 1u);
  const PtxKernel& k = m->kernels[0];
  EXPECT_EQ(k.name, "_Z6vecaddPKfS0_Pfi");
  ASSERT_EQ(k.params.size(), 4u);
  EXPECT_EQ(k.params[0].bytes, 8);
  EXPECT_EQ(k.params[3].type, "u32");
  EXPECT_EQ(k.instructions.size(), 22u);
  // ld.param.u64 %rd1, [_Z6vecaddPKfS0_Pfi_param_0];   line 4
  const PtxInstruction& ld = k.instructions[0];
  EXPECT_EQ(ld.base, "ld");
  EXPECT_EQ(ld.mods, (std::vector<std::string>{"param", "u64"}));
  EXPECT_EQ(ld.operands[1].kind, PtxOperand::Kind::Address);
  EXPECT_EQ(ld.operands[1].name, "_Z6vecaddPKfS0_Pfi_param_0");
  EXPECT_EQ(ld.sourceLine, 4);
  // mov.u32 %r3, %ctaid.x;
  EXPECT_EQ(k.instructions[4].operands[1].kind, PtxOperand::Kind::Special);
  // @%p1 bra $L__BB0_2;
  const PtxInstruction& bra = k.instructions[9];
  EXPECT_EQ(bra.base, "bra");
  EXPECT_GE(bra.guard, 0);
  EXPECT_EQ(bra.operands[0].kind, PtxOperand::Kind::Label);
  EXPECT_EQ(k.labels.at("$L__BB0_2"), 21);
  EXPECT_NE(m->files.at(1).find("vecadd.cu"), std::string::npos);
}

TEST(PtxParser, SharedVariablesAndCfg) {
  Expected<PtxModule> m = parsePtx(slurp(fixture("matmul.sm_90.ptx")), "matmul.ptx");
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->kernels.size(), 2u);
  const PtxKernel& tiled = m->kernels[1];
  ASSERT_EQ(tiled.variables.size(), 2u);
  EXPECT_EQ(tiled.variables[0].space, "shared");
  EXPECT_EQ(tiled.variables[0].bytes, 1024);

  const PtxKernel& naive = m->kernels[0];
  Expected<PtxCfg> cfg = buildCfg(naive, "matmul.ptx");
  ASSERT_TRUE(cfg) << cfg.error().format();
  // Blocks (fixtures/matmul.sm_90.ptx): entry, 2 guards, pre-header, $L__BB0_4 (unrolled loop),
  // $L__BB0_5, remainder pre-header, $L__BB0_7 (remainder loop), $L__BB0_8, $L__BB0_9 (ret).
  ASSERT_EQ(cfg->blocks.size(), 10u);
  ASSERT_EQ(cfg->loops.size(), 2u);
  EXPECT_EQ(cfg->loops[0].header, 4);
  EXPECT_EQ(cfg->loops[0].blocks, (std::vector<int>{4}));
  EXPECT_EQ(cfg->loops[1].header, 7);
  // The entry's guard (row < n && col < n) reconverges at the final ret block.
  EXPECT_EQ(cfg->blocks[0].ipdom, 9);
  EXPECT_EQ(cfg->blocks[4].ipdom, 5);
}

TEST(PtxParser, Errors) {
  Expected<PtxModule> empty = parsePtx(".version 9.0\n.target sm_90\n", "e.ptx");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("no kernels"), std::string::npos);
  Expected<PtxModule> open = parsePtx(".visible .entry k()\n{\n ret;\n", "o.ptx");
  ASSERT_FALSE(open);
  const char* badLabel = ".visible .entry k()\n{\n bra $nowhere;\n}\n";
  Expected<PtxModule> m = parsePtx(badLabel, "b.ptx");
  ASSERT_TRUE(m);
  Expected<PtxCfg> cfg = buildCfg(m->kernels[0], "b.ptx");
  ASSERT_FALSE(cfg);
  EXPECT_EQ(cfg.error().line, 3);
}

}  // namespace
TEST(PtxParser, AddressOffsetsWithTheirSign) {
  // nvcc writes a negative displacement as "+-" (gpu-benches' gpu-roofline at N = 2:
  // `ld.global.nc.f32 %f7, [%rd20+-1024];`); read as 0 it made two loads one address.
  const char* ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0)
{
	.reg .f32 	%f<5>;
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [k_param_0];
	ld.global.f32 	%f1, [%rd1+-1024];
	ld.global.f32 	%f2, [%rd1+16];
	ld.global.f32 	%f3, [%rd1-8];
	ld.global.f32 	%f4, [%rd1];
	ret;
}
)";
  Expected<PtxModule> m = parsePtx(ptx, "k.ptx");
  ASSERT_TRUE(m) << m.error().format();
  const PtxKernel& k = m->kernels.at(0);
  ASSERT_EQ(k.instructions.size(), 6u);
  EXPECT_EQ(k.instructions[1].operands[1].imm, -1024);
  EXPECT_EQ(k.instructions[2].operands[1].imm, 16);
  EXPECT_EQ(k.instructions[3].operands[1].imm, -8);
  EXPECT_EQ(k.instructions[4].operands[1].imm, 0);
}

TEST(PtxParser, BlockBarriersAreNotWarpSyncs) {
  // __syncwarp() compiles to bar.warp.sync: one warp's lanes, not the block (no BAR in SASS).
  const char* ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
	bar.warp.sync 	-1;
	bar.sync 	0;
	barrier.sync 	0;
	bar.arrive 	1, 64;
	ret;
}
)";
  Expected<PtxModule> m = parsePtx(ptx, "k.ptx");
  ASSERT_TRUE(m) << m.error().format();
  const std::vector<PtxInstruction>& in = m->kernels.at(0).instructions;
  ASSERT_EQ(in.size(), 5u);
  EXPECT_FALSE(in[0].isBlockBarrier());
  EXPECT_TRUE(in[1].isBlockBarrier());
  EXPECT_TRUE(in[2].isBlockBarrier());
  EXPECT_TRUE(in[3].isBlockBarrier());
  EXPECT_FALSE(in[4].isBlockBarrier());
}

// A header function called by a header function called from the kernel (cuda_pipeline's
// __pipeline_memcpy_async, nvcc 13.0): each `.loc` of inlined code says where its function was
// inlined; the instruction counts at the outermost call site, file 1 line 7, as nvdisasm's line
// table attributes the SASS. The copy is an asynchronous copy of its cp-size operand; the
// group instructions and a bulk copy are not.
TEST(PtxParser, InlinedCodeCountsAtItsOutermostCallSite) {
  const char* ptx = R"(.version 8.5
.target sm_90
.address_size 64
.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<3>;
	.loc	1 5 0
	ld.param.u64 	%rd1, [k_param_0];
	.loc	1 7 3
	.loc	2 103 9, function_name $L__info_string0, inlined_at 1 7 3
	.loc	3 292 5, function_name $L__info_string1, inlined_at 2 103 9
	.loc	3 219 9, function_name $L__info_string2, inlined_at 3 292 5
	.loc	3 190 23, function_name $L__info_string3, inlined_at 3 219 9
	cp.async.cg.shared.global [%r1], [%rd1], 16;
	.loc	1 8 3
	.loc	2 119 5, function_name $L__info_string4, inlined_at 1 8 3
	cp.async.commit_group;
	.loc	3 12 1
	cp.async.bulk.prefetch.L2.global [%rd1], %r2;
	ret;
}
	.file	1 "/src/k.cu"
	.file	2 "/cuda/cuda_pipeline_primitives.h"
	.file	3 "/cuda/cuda_pipeline_helpers.h"
)";
  Expected<PtxModule> m = parsePtx(ptx, "k.ptx");
  ASSERT_TRUE(m) << m.error().format();
  const std::vector<PtxInstruction>& in = m->kernels.at(0).instructions;
  ASSERT_EQ(in.size(), 5u);
  EXPECT_EQ(in[1].sourceFile, 1);
  EXPECT_EQ(in[1].sourceLine, 7);
  EXPECT_EQ(in[2].sourceFile, 1);
  EXPECT_EQ(in[2].sourceLine, 8);
  EXPECT_EQ(in[3].sourceFile, 3);  // not inlined: its own line
  EXPECT_EQ(in[3].sourceLine, 12);
  EXPECT_TRUE(in[1].isAsyncCopy());
  EXPECT_EQ(ptxAccessBytes(in[1]), 16);
  EXPECT_FALSE(in[2].isAsyncCopy());
  EXPECT_FALSE(in[3].isAsyncCopy());
}

namespace {

// Bad input found by fuzzing and by hand (issue 14): each is one Error at its line, never an
// exception or an abort.
std::string minimalKernel(const std::string& params, const std::string& body) {
  return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(" + params + ")\n{\n" + body + "\n}\n";
}

// PTX ISA "Fundamental Types" and "Alternate Floating-Point Data Formats": widths 8–128 bits,
// packed .x2/.x4 lanes count in the width, bf16 and fp8 formats are floating point.
TEST(PtxTypes, OneWidthRuleForEveryType) {
  auto bits = [](std::string_view n) { return ptxType(n) ? ptxType(n)->bits : 0; };
  auto kind = [](std::string_view n) { return ptxType(n) ? ptxType(n)->kind : '?'; };
  EXPECT_EQ(bits(".u32"), 32);
  EXPECT_EQ(kind(".u32"), 'u');
  EXPECT_EQ(bits("s64"), 64);
  EXPECT_EQ(kind("s64"), 's');
  EXPECT_EQ(bits("b128"), 128);
  EXPECT_EQ(bits("f16x2"), 32);
  EXPECT_EQ(kind("f16x2"), 'f');
  EXPECT_EQ(bits("bf16"), 16);
  EXPECT_EQ(kind("bf16"), 'f');
  EXPECT_EQ(bits("bf16x2"), 32);  // the interpreter read 16 before: ld.bf16x2 moved 2 bytes
  EXPECT_EQ(bits(".e4m3x2"), 16);
  EXPECT_EQ(kind(".e4m3x2"), 'f');
  EXPECT_EQ(bits("pred"), 1);
  EXPECT_EQ(kind("pred"), 'p');
  for (const char* bad : {".u4294967295", ".b7", "u24", "global", "v4", "f16x3", "u", "", ".", "u+32", "bfe"}) {
    EXPECT_FALSE(ptxType(bad)) << bad;
  }
}

TEST(PtxTypes, AccessBytesAreTypeWidthTimesVector) {
  PtxInstruction ld;
  ld.mods = {"global", "nc", "v4", "f32"};
  EXPECT_EQ(ptxAccessBytes(ld), 16);
  ld.mods = {"global", "v2", "f64"};
  EXPECT_EQ(ptxAccessBytes(ld), 16);
  ld.mods = {"shared", "u8"};
  EXPECT_EQ(ptxAccessBytes(ld), 1);
  ld.mods = {"global", "b16"};  // how nvcc loads a bf16
  EXPECT_EQ(ptxAccessBytes(ld), 2);
  ld.mods = {"global", "bf16x2"};
  EXPECT_EQ(ptxAccessBytes(ld), 4);
  ld.mods = {"global", "add", "f32"};  // atom: the operation is no type
  EXPECT_EQ(ptxAccessBytes(ld), 4);
  ld.mods = {"global"};  // no type: a word
  EXPECT_EQ(ptxAccessBytes(ld), 4);
}

TEST(PtxParserErrors, OversizedParameterType) {
  Expected<PtxModule> m = parsePtx(minimalKernel(".param .u4294967295 k_param_0", "ret;"), "bad.ptx");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().format(), "bad.ptx:5: error: unknown parameter type '.u4294967295'");
}

TEST(PtxParserErrors, ParameterLargerThanCudaAllows) {
  Expected<PtxModule> m = parsePtx(minimalKernel(".param .align 8 .b8 k_param_0[99999999999]", "ret;"), "bad.ptx");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().message, "parameter 'k_param_0' is larger than 32764 bytes");
}

TEST(PtxParserErrors, MalformedFloatImmediate) {
  Expected<PtxModule> m = parsePtx(minimalKernel("", ".reg .f32 %f<2>;\nmov.f32 %f1, 0fZZ;\nret;"), "bad.ptx");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().format(),
            "bad.ptx:7: error: malformed floating-point immediate '0fZZ' (0f and 8 hexadecimal digits, or 0d and 16)");
  // A 0d immediate needs 16 digits; 0f3F800000 (1.0f) is fine.
  EXPECT_FALSE(parsePtx(minimalKernel("", ".reg .f64 %fd<2>;\nmov.f64 %fd1, 0d3FF0;\nret;"), "bad.ptx"));
  EXPECT_TRUE(parsePtx(minimalKernel("", ".reg .f32 %f<2>;\nmov.f32 %f1, 0f3F800000;\nret;"), "ok.ptx"));
}

TEST(PtxParserErrors, HugeArraysAndCounts) {
  Expected<PtxModule> shared = parsePtx(minimalKernel("", ".shared .align 4 .b8 s[4000000000][4000000000];\nret;"), "bad.ptx");
  ASSERT_FALSE(shared);
  EXPECT_EQ(shared.error().format(), "bad.ptx:6: error: array 's' is larger than 1099511627776 bytes");
  Expected<PtxModule> regs = parsePtx(minimalKernel("", "{\n.reg .b32 r<99999999999>;\n}\nret;"), "bad.ptx");
  ASSERT_FALSE(regs);
  EXPECT_EQ(regs.error().message, "cannot read the register count of 'r<99999999999>' (0 to 1048576)");
}

TEST(PtxParserErrors, MalformedDirectives) {
  Expected<PtxModule> loc = parsePtx(minimalKernel("", ".loc 1 99999999999999999999 0\nret;"), "bad.ptx");
  ASSERT_FALSE(loc);
  EXPECT_EQ(loc.error().format(), "bad.ptx:6: error: malformed .loc directive");
  Expected<PtxModule> align = parsePtx(".version 8.0\n.target sm_90\n.global .align 99999999999 .b8 g[4];\n", "bad.ptx");
  ASSERT_FALSE(align);
  EXPECT_EQ(align.error().format(), "bad.ptx:3: error: cannot read the alignment '99999999999'");
}

}  // namespace
}  // namespace foresight::cuda
