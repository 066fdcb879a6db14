// SPDX-License-Identifier: Apache-2.0
/// \file
/// Manifest expressions: precedence, C integer division, cdiv/min/max, and the errors.
#include "foresight/support/expression.h"

#include <gtest/gtest.h>

namespace foresight {
namespace {

const std::map<std::string, long long> kVars = {{"N", 1000}, {"TILE", 16}, {"BLOCK", 256}};

long long eval(const std::string& e) {
  Expected<long long> v = evalExpression(e, kVars);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().message);
  return v.ok() ? *v : -1;
}

TEST(Expression, ArithmeticAndPrecedence) {
  EXPECT_EQ(eval("42"), 42);
  EXPECT_EQ(eval("N*N"), 1000000);
  EXPECT_EQ(eval("N + 2 * 3"), 1006);
  EXPECT_EQ(eval("(N + 2) * 3"), 3006);
  EXPECT_EQ(eval("N / TILE"), 62);  // 1000 / 16 = 62.5, truncated
  EXPECT_EQ(eval("N % TILE"), 8);   // 1000 - 62 * 16
  EXPECT_EQ(eval("-N + 1"), -999);
  EXPECT_EQ(eval("  BLOCK-1 "), 255);
}

TEST(Expression, Functions) {
  EXPECT_EQ(eval("cdiv(N, TILE)"), 63);  // ceil(62.5)
  EXPECT_EQ(eval("cdiv(1024, 256)"), 4);
  EXPECT_EQ(eval("min(N, BLOCK)"), 256);
  EXPECT_EQ(eval("max(N, BLOCK) * 2"), 2000);
  EXPECT_EQ(eval("cdiv(N*N, BLOCK*4)"), 977);  // 1e6 / 1024 = 976.56 → 977
}

TEST(Expression, Errors) {
  auto message = [](const std::string& e) {
    Expected<long long> v = evalExpression(e, kVars);
    return v.ok() ? std::string("ok") : v.error().message;
  };
  EXPECT_EQ(message("N / 0"), "expression 'N / 0': division by zero");
  EXPECT_EQ(message("TILES"), "expression 'TILES': unknown name 'TILES'; did you mean 'TILE'?");
  EXPECT_EQ(message("N +"), "expression 'N +': unexpected end");
  EXPECT_EQ(message("(N"), "expression '(N': missing ')'");
  EXPECT_EQ(message("N N"), "expression 'N N': unexpected 'N'");
  EXPECT_EQ(message("cdiv(N)"), "expression 'cdiv(N)': 'cdiv' takes two arguments");
  EXPECT_EQ(message("9223372036854775807 + 1"),
            "expression '9223372036854775807 + 1': integer overflow");
}

}  // namespace
}  // namespace foresight
