// SPDX-License-Identifier: Apache-2.0
/// \file
/// Launch inputs of the CUDA frontend: scalar arguments of every type (argumentBits and their
/// effect on the executed path), pointer base addresses, by-value structs, __launch_bounds__,
/// and compilation options on inputs that are not compiled.
#include <gtest/gtest.h>

#include "fixture_paths.h"

namespace foresight::cuda {
namespace {

using testing::analyse;
using testing::launch;

PtxParam param(const std::string& type, int bytes) { return {"p", type, bytes}; }

TEST(ArgumentBits, RealsTakeTheParametersFloatingPointType) {
  // 1.5f = 0x3FC00000; 1.5 = 0x3FF8000000000000; 2 in an f32 parameter = 2.0f = 0x40000000.
  EXPECT_EQ(*argumentBits(param("f32", 4), false, ArgValue::fromReal(1.5), "x"), 0x3FC00000u);
  EXPECT_EQ(*argumentBits(param("f64", 8), false, ArgValue::fromReal(1.5), "x"), 0x3FF8000000000000ull);
  EXPECT_EQ(*argumentBits(param("f32", 4), false, ArgValue(2), "x"), 0x40000000u);
  // 0.1 rounds to the nearest float, 0x3DCCCCCD, not the double's upper half.
  EXPECT_EQ(*argumentBits(param("f32", 4), false, ArgValue::fromReal(0.1), "x"), 0x3DCCCCCDu);
}

TEST(ArgumentBits, IntegersKeepTheParametersWidth) {
  EXPECT_EQ(*argumentBits(param("u32", 4), false, ArgValue(-1), "x"), 0xFFFFFFFFu);  // int -1
  EXPECT_EQ(*argumentBits(param("u8", 1), false, ArgValue(1), "x"), 1u);             // bool true
  EXPECT_EQ(*argumentBits(param("u64", 8), false, ArgValue(-2), "x"), 0xFFFFFFFFFFFFFFFEull);
}

TEST(ArgumentBits, PointersTakeABaseAddress) {
  EXPECT_EQ(*argumentBits(param("u64", 8), true, ArgValue(0x10000), "x"), 0x10000u);
  Expected<std::uint64_t> negative = argumentBits(param("u64", 8), true, ArgValue(-4), "parameter 'p'");
  ASSERT_FALSE(negative);
  EXPECT_EQ(negative.error().message, "parameter 'p' is a pointer: its --arg is a base address, a non-negative integer");
}

TEST(ArgumentBits, ClearErrors) {
  Expected<std::uint64_t> real = argumentBits(param("u32", 4), false, ArgValue::fromReal(1.5), "parameter 'n'");
  ASSERT_FALSE(real);
  EXPECT_EQ(real.error().message, "parameter 'n' is an integer (u32); --arg gave the real number 1.5");
  Expected<std::uint64_t> half = argumentBits(param("f16", 2), false, ArgValue::fromReal(1.5), "parameter 'h'");
  ASSERT_FALSE(half);
  EXPECT_EQ(half.error().message, "parameter 'h' is a half-precision f16; --arg does not set it yet");
  Expected<std::uint64_t> aggregate = argumentBits(param("b8", 8), false, ArgValue(3), "parameter 'e'");
  ASSERT_FALSE(aggregate);
  EXPECT_NE(aggregate.error().message.find("parameter 'e' is an aggregate of 8 bytes passed by value"), std::string::npos);
}

// scalar_args.cu: the bool sets 16 or 1 multiply-adds, the enum 2 or 1 stores: known
// arguments decide the trip counts.
TEST(LaunchInputs, BoolAndEnumArgumentsDecideTripCounts) {
  auto run = [](long long scaled, long long mode) {
    Expected<CudaProgram> p = analyse("scalar_args.cu", "scalar_args",
                                      launch({4, 1, 1}, {256, 1, 1},
                                             {{"n", 1000}, {"scale", ArgValue::fromReal(2.5)},
                                              {"offset", ArgValue::fromReal(1e-3)}, {"scaled", scaled}, {"mode", mode}}));
    EXPECT_TRUE(p) << p.error().format();
    return p ? p->kernels.at(0).dynamicInstructionsPerWarp : 0.0;
  };
  const double none = run(0, 0), scaled = run(1, 0), twice = run(0, 1), both = run(1, 1);
  EXPECT_GT(scaled, none + 15);  // 15 more multiply-adds at least
  EXPECT_GT(twice, none + 1);    // a second store at least
  EXPECT_DOUBLE_EQ(both - twice, scaled - none);
}

TEST(LaunchInputs, FloatArgumentsDecideBranchesAndTripCounts) {
  // float_args.cu: `if (powf(scale, e) > 100.0f)` (line 9, libdevice's powf inlined: fma, cvt
  // and bit tricks on the float arguments) and `steps = (int)(scale * 4.0f)` bounding the loop
  // of line 13, which nvcc unrolls by 4 (main loop steps / 4 times, remainder steps % 4).
  // scale = 3, e = 5: 243 > 100, the body's load (line 10) runs; 12 steps: 3 + 0. scale = 2,
  // e = 3: 8, no body; 8 steps: 2 + 0. scale = 1.75: 1.75^5 = 16.4, no body; 7 steps: 1 + 3.
  struct Case {
    double scale, e;
    double body, main, rest;
  };
  for (const Case& c : {Case{3, 5, 1, 3, 0}, Case{2, 3, 0, 2, 0}, Case{1.75, 5, 0, 1, 3}}) {
    Expected<CudaProgram> p = analyse("float_args.cu", "", launch({4, 1, 1}, {128, 1, 1},
                                                                  {{"n", 512}, {"scale", ArgValue::fromReal(c.scale)},
                                                                   {"e", ArgValue::fromReal(c.e)}}));
    ASSERT_TRUE(p) << p.error().format();
    const KernelIR& ir = p->kernels.at(0).ir;
    double body = -1;
    for (const BasicBlock& b : ir.blocks) {
      for (const Instruction& i : b.instructions) {
        if (i.sourceLine == 10 && i.memory) body = b.executionsPerWarp;
      }
    }
    EXPECT_DOUBLE_EQ(body, c.body) << c.scale;
    ASSERT_EQ(ir.loops.size(), 2u);
    EXPECT_DOUBLE_EQ(ir.loops[0].tripCount, c.main) << c.scale;
    EXPECT_DOUBLE_EQ(ir.loops[1].tripCount, c.rest) << c.scale;
    // The SASS run computes the floats too (FMUL, FFMA, FSETP, FRND, MUFU, F2I on |x| and
    // decimal immediates): its count is available and its IR loads x[i + k] (line 13) once per
    // step, 4·main + rest, however ptxas unrolls the loop.
    Expected<CudaProgram> sass = analyse("float_args.cu", "", launch({4, 1, 1}, {128, 1, 1},
                                                                     {{"n", 512}, {"scale", ArgValue::fromReal(c.scale)},
                                                                      {"e", ArgValue::fromReal(c.e)}}),
                                         "sm_90", {}, true);
    ASSERT_TRUE(sass) << sass.error().format();
    ASSERT_TRUE(sass->kernels.at(0).sass.has_value());
    EXPECT_EQ(sass->kernels.at(0).sass->dynamicStatus, "");
    EXPECT_EQ(sass->isa, "sass (memory from ptx)");
    double loads = 0;
    for (const BasicBlock& b : sass->kernels.at(0).ir.blocks) {
      for (const Instruction& i : b.instructions) {
        if (i.sourceLine == 13 && i.memory && !i.memory->isStore) loads += b.executionsPerWarp;
      }
    }
    EXPECT_DOUBLE_EQ(loads, 4 * c.main + c.rest) << c.scale;
  }
  // Without them, one error names the argument for both.
  Expected<CudaProgram> missing = analyse("float_args.cu", "", launch({4, 1, 1}, {128, 1, 1}, {{"n", 512}}));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("(1) the branch at float_args.cu:9 depends on argument 'scale'"), std::string::npos)
      << missing.error().message;
}

TEST(LaunchInputs, ArgumentErrorsNameTheParameter) {
  Expected<CudaProgram> real = analyse("scalar_args.cu", "scalar_args", launch({4, 1, 1}, {256, 1, 1}, {{"n", ArgValue::fromReal(1.5)}}));
  ASSERT_FALSE(real);
  EXPECT_EQ(real.error().message, "parameter 'n' of kernel 'scalar_args' is an integer (u32); --arg gave the real number 1.5");
  Expected<CudaProgram> aggregate = analyse("scalar_args.cu", "scalar_args", launch({4, 1, 1}, {256, 1, 1}, {{"e", 8}}));
  ASSERT_FALSE(aggregate);
  EXPECT_EQ(aggregate.error().message.rfind("parameter 'e' of kernel 'scalar_args' is an aggregate of 8 bytes", 0), 0u);
}

TEST(LaunchInputs, PointerBaseAddressesAlias) {
  // in and out given one base address (the kernel then reads and writes the same lines).
  Expected<CudaProgram> q = analyse("scalar_args.cu", "scalar_args",
                                    launch({4, 1, 1}, {256, 1, 1}, {{"n", 1000}, {"scaled", 0}, {"mode", 0}, {"in", 0x100000}, {"out", 0x100000}}));
  ASSERT_TRUE(q) << q.error().format();
}

TEST(LaunchInputs, LaunchBoundsRefuseLargerBlocks) {
  // spill.cu: __launch_bounds__(256, 8).
  Expected<CudaProgram> ok = analyse("spill.cu", "spill", launch({8, 1, 1}, {256, 1, 1}, {{"n", 2048}}));
  ASSERT_TRUE(ok) << ok.error().format();
  Expected<CudaProgram> big = analyse("spill.cu", "spill", launch({8, 1, 1}, {512, 1, 1}, {{"n", 4096}}));
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().message,
            "kernel 'spill' is compiled with __launch_bounds__ / .maxntid of 256 threads per block; a block of 512 threads "
            "cannot launch (CUDA: too many resources requested for launch)");
}

TEST(LaunchInputs, CompileOptionsOnCompiledInputsAreErrors) {
  auto tc = createFixtureToolchain({testing::fixtureDir(), true});
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = launch({1, 1, 1}, {32, 1, 1}, {{"n", 32}});
  o.includeDirs = {"/tmp"};
  Expected<CudaProgram> p = loadCuda(testing::fixture("vecadd.sm_90.ptx"), o, *tc);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message, "-I include paths apply to .cu inputs only");
  o.includeDirs.clear();
  o.nvccFlags = {"-use_fast_math"};
  p = loadCuda(testing::fixture("vecadd.sm_90.ptx"), o, *tc);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message, "nvcc flags (--nvcc-flag, --maxrregcount) apply to .cu inputs only");
}

}  // namespace
}  // namespace foresight::cuda
