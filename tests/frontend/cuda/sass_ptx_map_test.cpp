// SPDX-License-Identifier: Apache-2.0
/// \file
/// The SASS ↔ PTX memory mapping by source line, on the fixtures: straight-line kernels pair
/// every access one to one; the register spills ptxas adds are exactly the unpaired STL/LDL,
/// and their bytes equal `ptxas -v` ("N bytes spill stores, M bytes spill loads"); where
/// ptxas merges or further unrolls accesses, the unpaired counts say so.
#include "foresight/frontend/cuda/sass_ptx_map.h"

#include <gtest/gtest.h>

#include <regex>

#include "fixture_paths.h"
#include "foresight/frontend/cuda/ptx_parser.h"
#include "foresight/frontend/cuda/sass_parser.h"

namespace foresight::cuda {
namespace {

using testing::fixture;
using testing::slurp;

SassPtxMap mapOf(const std::string& base, const std::string& mangled) {
  Expected<PtxModule> ptx = parsePtx(slurp(fixture(base + ".ptx")), base);
  Expected<SassListing> sass = parseSass(slurp(fixture(base + ".sass")), base);
  EXPECT_TRUE(ptx && sass) << base;
  const PtxKernel* k = nullptr;
  for (const PtxKernel& x : ptx->kernels) {
    if (x.name == mangled) k = &x;
  }
  EXPECT_NE(k, nullptr);
  const SassFunction* f = sass->find(mangled);
  EXPECT_NE(f, nullptr);
  return mapSassToPtx(*k, *f);
}

TEST(SassPtxMap, StraightLineKernelsPairOneToOne) {
  struct Case {
    const char* base;
    const char* kernel;
    size_t accesses;
  } cases[] = {
      {"vecadd.sm_90", "_Z6vecaddPKfS0_Pfi", 3},            // a[i], b[i], c[i]
      {"vecadd.sm_80", "_Z6vecaddPKfS0_Pfi", 3},
      {"stencil2d.sm_90", "_Z9stencil2dPKfPfii", 6},         // 5 loads + 1 store
      {"transpose.sm_90", "_Z15transpose_naivePKfPfi", 2},
      {"transpose.sm_90", "_Z16transpose_sharedPKfPfi", 4},  // LDG, STS, LDS, STG
      {"reduce.sm_90", "_Z10reduce_sumPKfPfi", 28},
      {"async_copy.sm_90", "_Z5stagePKfPf", 3},              // LDGSTS (cp.async), LDS, STG; not the @!PT LDS
  };
  for (const Case& c : cases) {
    const SassPtxMap m = mapOf(c.base, c.kernel);
    EXPECT_EQ(m.pairs.size(), c.accesses) << c.base << " " << c.kernel;
    for (const SassPtxPair& p : m.pairs) EXPECT_GE(p.ptx, 0) << c.base << " " << c.kernel;
    EXPECT_EQ(m.unmatchedSass + m.unmatchedPtx + m.spillStores + m.spillLoads, 0) << c.base << " " << c.kernel;
  }
}

TEST(SassPtxMap, SpillBytesEqualPtxas) {
  for (const std::string arch : {"sm_80", "sm_90"}) {
    const std::string log = slurp(fixture("spill." + arch + ".ptxas.txt"));
    std::smatch m;
    ASSERT_TRUE(std::regex_search(log, m, std::regex(R"(for _Z5spillPKfPfi\s+\d+ bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)")));
    const SassPtxMap map = mapOf("spill." + arch, "_Z5spillPKfPfi");
    EXPECT_EQ(map.spillStoreBytes, std::stoll(m[1])) << arch;  // sm_90: 276, sm_80: 704
    EXPECT_EQ(map.spillLoadBytes, std::stoll(m[2])) << arch;   // sm_90: 312, sm_80: 704
    EXPECT_EQ(map.unmatchedSass, 0);
    EXPECT_EQ(map.unmatchedPtx, 0);
    // local_array's STL.128 of buf[] are real local accesses, not spills.
    const SassPtxMap local = mapOf("spill." + arch, "_Z11local_arrayPKfPfii");
    EXPECT_EQ(local.spillStores + local.spillLoads, 0) << arch;
  }
}

TEST(SassPtxMap, MergedAndUnrolledAccessesAreReported) {
  // matmul_tiled: ptxas merges the 16 As[ty][k] loads of the unrolled k loop into LDS.128s, so
  // 12 PTX shared loads have no SASS instruction of their own.
  const SassPtxMap tiled = mapOf("matmul.sm_90", "_Z12matmul_tiledPKfS0_Pfi");
  EXPECT_EQ(tiled.unmatchedPtx, 12);
  EXPECT_EQ(tiled.unmatchedSass, 0);
  // matmul_naive: ptxas unrolls the (already 4-way unrolled) k loop further, so SASS has 48
  // more global loads on line 15 than the PTX.
  const SassPtxMap naive = mapOf("matmul.sm_90", "_Z12matmul_naivePKfS0_Pfi");
  EXPECT_EQ(naive.unmatchedSass, 48);
  EXPECT_EQ(naive.unmatchedPtx, 0);
}

}  // namespace
}  // namespace foresight::cuda
