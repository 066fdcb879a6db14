// SPDX-License-Identifier: Apache-2.0
// `place --emit-patch`: the chosen plan's declaration changes as a unified diff.
#include "foresight/advise/placement/patch.h"

#include <gtest/gtest.h>

namespace foresight {
namespace {

AccessProfile profileOf(std::initializer_list<const char*> names) {
  AccessProfile p;
  for (const char* n : names) {
    ProfiledArray a;
    a.name = n;
    p.arrays.push_back(a);
  }
  return p;
}

constexpr const char* kSource =
    "// a kernel\n"
    "__global__ void k(const float* a, float *b,\n"
    "                  const int* __restrict__ c, float* out, int n) {\n"
    "  out[0] = a[0] + b[0] + c[0];\n"
    "}\n";

TEST(PlacementPatch, ReadOnlyArraysBecomeConstRestrict) {
  const AccessProfile p = profileOf({"a", "b", "c", "out"});
  // a: const already, gains __restrict__; b: gains both; c: already both (no change); out: global.
  Expected<std::string> patch = placementPatch(kSource, "k.cu", "k", p,
                                               {Placement::ReadOnly, Placement::Texture, Placement::ReadOnly, Placement::Global});
  ASSERT_TRUE(patch) << patch.error().format();
  const std::string expected =
      "foresight place: the chosen plan for kernel 'k' as a source change\n"
      "  a: readonly path: const __restrict__ (nvcc then loads it with ld.global.nc)\n"
      "  b: texture path: const __restrict__ (nvcc then loads it with ld.global.nc); or read it through a texture "
      "object for the texture cache (placement.cuh: placeInTexture)\n"
      "  c: readonly path: const __restrict__ (nvcc then loads it with ld.global.nc)\n"
      "--- k.cu\n"
      "+++ k.cu\n"
      "@@ -2,1 +2,1 @@\n"
      "-__global__ void k(const float* a, float *b,\n"
      "+__global__ void k(const float* __restrict__ a, const float *__restrict__ b,\n";
  EXPECT_EQ(*patch, expected);
}

TEST(PlacementPatch, OtherPlacementsAreNamedNotPatched) {
  const AccessProfile p = profileOf({"a", "b", "c", "out"});
  Expected<std::string> patch = placementPatch(kSource, "k.cu", "k", p,
                                               {Placement::Constant, Placement::Global, Placement::Global, Placement::Shared});
  ASSERT_TRUE(patch);
  EXPECT_NE(patch->find("a: constant: not a declaration change; copy it into constant memory"), std::string::npos);
  EXPECT_NE(patch->find("out: shared: not a declaration change"), std::string::npos);
  EXPECT_NE(patch->find("(no declaration change applies)"), std::string::npos);
  EXPECT_EQ(patch->find("---"), std::string::npos);
}

TEST(PlacementPatch, MissingKernelOrParameterIsAnError) {
  const AccessProfile p = profileOf({"zz"});
  Expected<std::string> none = placementPatch(kSource, "k.cu", "other", p, {Placement::ReadOnly});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "--emit-patch: no definition of kernel 'other' with parameters");
  Expected<std::string> param = placementPatch(kSource, "k.cu", "k", p, {Placement::ReadOnly});
  ASSERT_FALSE(param);
  EXPECT_EQ(param.error().message, "--emit-patch: kernel 'k' has no parameter 'zz' in its definition");
}

}  // namespace
}  // namespace foresight
