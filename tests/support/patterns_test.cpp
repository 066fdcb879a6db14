// SPDX-License-Identifier: Apache-2.0
/// \file
/// Element values of the init patterns (support/patterns.h), computed one element at a time.
#include "foresight/support/patterns.h"

#include <gtest/gtest.h>

#include <cstring>

namespace foresight {
namespace {

std::uint64_t element(const std::string& kind, std::vector<long long> params, ElemType type, long long i,
                      long long count = 1000, std::uint64_t seed = 1, double value = 0) {
  return PatternElements({kind, std::move(params), value}, type, seed, count).bits(i);
}

float asFloat(std::uint64_t bits) {
  float f = 0;
  const std::uint32_t w = static_cast<std::uint32_t>(bits);
  std::memcpy(&f, &w, 4);
  return f;
}

TEST(Patterns, IndexPatternsAsTheElementTypeStoresThem) {
  EXPECT_EQ(element("iota", {}, ElemType::I32, 7), 7u);
  EXPECT_EQ(element("ones", {}, ElemType::F32, 3), 0x3f800000u);  // 1.0f
  EXPECT_EQ(element("iota", {}, ElemType::F64, 2), 0x4000000000000000u);  // 2.0
  EXPECT_EQ(element("csr_rowptr", {16}, ElemType::I32, 3), 48u);
  EXPECT_EQ(element("chase", {32}, ElemType::I32, 990, 1000), 22u);  // (990 + 32) mod 1000
  EXPECT_EQ(element("mod", {3}, ElemType::I64, 8), 2u);
  // -1 in an i32 is 0xffffffff, zero-extended to 64 bits.
  EXPECT_EQ(element("constant", {}, ElemType::I32, 0, 1, 1, -1.0), 0xffffffffu);
  EXPECT_FLOAT_EQ(asFloat(element("constant", {}, ElemType::F32, 0, 1, 1, 2.5)), 2.5f);
  // Torus W = 4 of N = 8 nodes: node 5 (x 1, row start 4) → right 6, left 4, below 1, above 1.
  for (int k = 0; k < 4; ++k) EXPECT_EQ(element("torus_cols", {4, 8}, ElemType::I32, 20 + k), (std::vector<std::uint64_t>{6, 4, 1, 1})[k]);
}

TEST(Patterns, RandomElementIsDrawIOfOneStream) {
  // Element i of a random pattern is draw i of splitmix64 seeded with the seed, computed alone.
  SplitMix64 stream{42};
  for (long long i = 0; i < 5; ++i) {
    const double u = stream.uniform();
    EXPECT_FLOAT_EQ(asFloat(element("random", {}, ElemType::F32, i, 1000, 42)), static_cast<float>(u));
  }
  SplitMix64 ints{42};
  for (long long i = 0; i < 5; ++i) {
    const long long v = -2 + static_cast<long long>(ints.next() % 5);
    EXPECT_EQ(static_cast<std::int32_t>(element("random_int", {-2, 2}, ElemType::I32, i, 1000, 42)), v);
  }
  EXPECT_NE(patternSeed("a", "b", "c"), patternSeed("a", "bc", ""));
}

TEST(Patterns, CheckSaysWhyAPatternCannotFill) {
  EXPECT_EQ(checkInitPattern({"iota", {}, 0}, 4), "");
  EXPECT_EQ(checkInitPattern({"gaussian", {}, 0}, 4), "unknown init pattern 'gaussian'");
  EXPECT_EQ(checkInitPattern({"mod", {}, 0}, 4), "init pattern 'mod' takes 1 parameter(s)");
  EXPECT_EQ(checkInitPattern({"mod", {0}, 0}, 4), "init pattern 'mod' needs positive parameters");
  EXPECT_EQ(checkInitPattern({"csr_cols", {8, 4}, 0}, 4), "init pattern 'csr_cols' needs K <= NCOLS");
  EXPECT_EQ(checkInitPattern({"random_int", {5, 1}, 0}, 4), "init pattern 'random_int' needs LO <= HI");
  EXPECT_NE(checkInitPattern({"poison", {}, 0}, 4), "");
  EXPECT_EQ(parseElemType("u32"), ElemType::U32);
  EXPECT_EQ(parseElemType("f16"), std::nullopt);
}

}  // namespace
}  // namespace foresight
