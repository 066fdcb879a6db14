// SPDX-License-Identifier: Apache-2.0
/// \file
/// The frontend table (frontend/input.h): one frontend per extension, each kind once, its
/// documentation present, and the input kind of a path read from it.
#include "foresight/frontend/input.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

namespace foresight {
namespace {

TEST(Frontends, OneFrontendPerExtensionAndKind) {
  std::set<std::string> extensions, names;
  std::set<InputKind> kinds;
  for (const Frontend& f : frontends()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_TRUE(kinds.insert(f.kind).second) << f.name;
    EXPECT_STREQ(inputKindName(f.kind), f.name);
    EXPECT_TRUE(std::filesystem::exists(std::string(FORESIGHT_SOURCE_DIR) + "/" + f.docs)) << f.docs;
    for (const char* e : f.extensions) {
      EXPECT_TRUE(extensions.insert(e).second) << e;
      EXPECT_EQ(frontendFor(std::string("dir/file") + e), &f);
    }
  }
  EXPECT_EQ(frontends().size(), 4u);
  EXPECT_EQ(extensions.size(), 7u);  // .toml .sk .c .cu .ptx .cubin .sass
}

TEST(Frontends, InputKindFromTheExtension) {
  EXPECT_EQ(inputKindOf("a/matmul.sk"), InputKind::Skeleton);
  EXPECT_EQ(inputKindOf("gemm.c"), InputKind::CLoop);
  EXPECT_EQ(inputKindOf("vecadd.toml"), InputKind::Summary);
  EXPECT_EQ(inputKindOf("k.sm_90.cubin"), InputKind::Cuda);
  EXPECT_EQ(inputKindOf("kernel.f90"), InputKind::Cuda);  // unknown: the CUDA frontend reports it
  EXPECT_EQ(frontendFor("kernel.f90"), nullptr);
  EXPECT_EQ(frontendFor("Makefile"), nullptr);
}

}  // namespace
}  // namespace foresight
