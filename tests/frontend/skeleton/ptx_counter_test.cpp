// SPDX-License-Identifier: Apache-2.0
/// \file
/// Counting PTX instructions between GROPHECY markers (grophecy.md §2.4).
#include "foresight/frontend/skeleton/ptx_counter.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace foresight::skeleton {
namespace {

// Shaped like nvcc's output: directives, a label, inline-asm wrappers and braces are not counted.
const char* kPtx = R"(.version 8.0
.target sm_75
.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .f32 	%f<4>;
	ld.param.u64 	%rd1, [k_param_0];
	// begin inline asm
	// GROPHECY_BB body BEGIN
	// end inline asm
	ld.global.f32 	%f1, [%rd1];
	fma.rn.f32 	%f2, %f1, %f1, %f1;
$L__BB0_2:
	st.global.f32 	[%rd1], %f2;
	// begin inline asm
	// GROPHECY_BB body END
	// end inline asm
	ret;
}
)";

TEST(PtxCounter, CountsInstructionsBetweenMarkers) {
  Expected<PtxCount> c = countPtxBlocks(kPtx, "k.ptx");
  ASSERT_TRUE(c.ok()) << c.error().format();
  ASSERT_EQ(c->blocks.size(), 1u);
  EXPECT_EQ(c->blocks[0].id, "body");
  EXPECT_EQ(c->blocks[0].instructions, 3);  // ld, fma, st (the label is not one)
  EXPECT_EQ(c->blocks[0].occurrences, 1);
  EXPECT_EQ(c->outside, 2);  // ld.param, ret
}

TEST(PtxCounter, DuplicatedBlocksCountTheFirstCopy) {
  const std::string twice =
      std::string("// GROPHECY_BB a BEGIN\nadd.s32 %r1, %r1, 1;\n// GROPHECY_BB a END\n") +
      "// GROPHECY_BB a BEGIN\nadd.s32 %r1, %r1, 1;\nadd.s32 %r1, %r1, 1;\n// GROPHECY_BB a END\n";
  Expected<PtxCount> c = countPtxBlocks(twice, "k.ptx");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->blocks[0].instructions, 1);
  EXPECT_EQ(c->blocks[0].occurrences, 2);
}

TEST(PtxCounter, MalformedMarkersAreErrors) {
  EXPECT_EQ(countPtxBlocks("// GROPHECY_BB a END\n", "k.ptx").error().format(),
            "k.ptx:1: error: marker 'a' ends a block that is not open");
  EXPECT_EQ(
      countPtxBlocks("// GROPHECY_BB a BEGIN\nadd.s32 %r1, %r1, 1;\n", "k.ptx").error().format(),
      "k.ptx:1: error: block 'a' begins but never ends");
  EXPECT_FALSE(countPtxBlocks("// GROPHECY_BB a BEGIN\n// GROPHECY_BB b BEGIN\n", "k.ptx").ok());
}

TEST(PtxCounter, PreludeDefinesTheMarkers) {
  const std::string p = ptxMarkerPrelude();
  EXPECT_NE(p.find("#define GROPHECY_KERNEL"), std::string::npos);
  EXPECT_NE(p.find("GROPHECY_BB \" #id \" BEGIN"), std::string::npos);
}

}  // namespace
}  // namespace foresight::skeleton

namespace foresight::skeleton {
namespace {

/// The whole count-ptx command on HotSpot's marked cell update, when nvcc is installed.
TEST(PtxCounter, CountPtxCommandCompilesWithNvcc) {
  if (std::system("command -v nvcc >/dev/null 2>&1 || test -x /usr/local/cuda/bin/nvcc") != 0) {
    GTEST_SKIP() << "nvcc not installed";
  }
  const std::string cmd = std::string("'") + FORESIGHT_CLI_PATH + "' count-ptx --json '" +
                          FORESIGHT_SOURCE_DIR + "/examples/skeleton/hotspot-count.c' 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  ASSERT_EQ(::pclose(pipe), 0) << out;
  EXPECT_NE(out.find("\"id\": \"classify\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"id\": \"update\""), std::string::npos) << out;
}

}  // namespace
}  // namespace foresight::skeleton
