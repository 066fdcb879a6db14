// SPDX-License-Identifier: Apache-2.0
/// \file
/// PTX that the fuzz targets found crashing the frontend (fuzz/regressions/ptx/): each is one
/// Error at its line. The sanitizer build replays the raw inputs; these pin the messages.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fixture_paths.h"
#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/frontend/cuda/fixture_toolchain.h"
#include "foresight/frontend/cuda/ptx_parser.h"

namespace foresight::cuda {
namespace {

namespace fs = std::filesystem;

/// Runs the frontend on `body` as the only kernel of a PTX file (no cubin, no SASS).
Expected<CudaProgram> runPtx(const std::string& body) {
  // One file per process: ctest runs these tests in parallel processes.
  const fs::path p = fs::temp_directory_path() / ("foresight_bad_input_" + std::to_string(::getpid()) + ".ptx");
  {
    std::ofstream(p) << ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n" << body << "\n}\n";
  }
  auto tc = createFixtureToolchain({testing::fixtureDir(), false});
  CudaOptions o;
  o.arch = "sm_90";
  o.launch.grid = {1, 1, 1};
  o.launch.block = {32, 1, 1};
  Expected<CudaProgram> r = loadCuda(p.string(), o, *tc);
  fs::remove(p);
  return r;
}

TEST(PtxBadInput, TooFewOperandsAreAnErrorNotAnOverflow) {
  // A mutated line left 'ld' with only its destination: the interpreter read past the operands.
  Expected<CudaProgram> ld = runPtx(".reg .f32 %f<2>;\nld.global.f32 %f1;\nret;");
  ASSERT_FALSE(ld);
  EXPECT_EQ(ld.error().message, "'ld.global.f32 %f1' has 1 operands; 'ld' takes at least 2");
  EXPECT_EQ(ld.error().line, 7);
  Expected<CudaProgram> mad = runPtx(".reg .b32 %r<4>;\nmad.lo.s32 %r1, %r2, %r3;\nret;");
  ASSERT_FALSE(mad);
  EXPECT_EQ(mad.error().message, "'mad.lo.s32 %r1, %r2, %r3' has 3 operands; 'mad' takes at least 4");
}

TEST(PtxBadInput, GuardWithoutInstruction) {
  Expected<CudaProgram> r = runPtx(".reg .pred %p<2>;\n@%p1;\nret;");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "guard '@%p1' without an instruction");
  EXPECT_EQ(r.error().line, 7);
}

TEST(PtxBadInput, KernelWithoutInstructions) {
  // Found by the ptx fuzz target: the dominator fixpoint indexed an empty CFG.
  Expected<CudaProgram> r = runPtx("");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "kernel 'k' has no instructions");
  EXPECT_EQ(r.error().line, 5);  // the line that opens its body
}

TEST(PtxBadInput, BraceBeforeTheEntryKeyword) {
  // Found by the ptx fuzz target: ".vi{ible .entry k(" opened a body whose header had no
  // ".entry", and reading the name past it threw std::out_of_range.
  Expected<PtxModule> m = parsePtx(".version 8.0\n.target sm_90\n.vi{ible .entry k()\nret;\n}\n", "k.ptx");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().message, "malformed .entry header");
  EXPECT_EQ(m.error().line, 3);
}

}  // namespace
}  // namespace foresight::cuda
