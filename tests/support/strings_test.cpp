// SPDX-License-Identifier: Apache-2.0
/// \file
/// Checked number parsing (strings.h): whole strings only, no exceptions, overflow is nullopt.
#include "foresight/support/strings.h"

#include <gtest/gtest.h>

namespace foresight {
namespace {

TEST(ToInteger, WholeStringsInRange) {
  EXPECT_EQ(toInteger("42"), 42);
  EXPECT_EQ(toInteger("-42"), -42);
  EXPECT_EQ(toInteger("+7"), 7);
  EXPECT_EQ(toInteger("9223372036854775807"), 9223372036854775807LL);
  EXPECT_EQ(toInteger("-9223372036854775808"), -9223372036854775807LL - 1);
  EXPECT_EQ(toInteger("9223372036854775808"), std::nullopt);  // 2^63 does not fit
  EXPECT_EQ(toInteger("4294967295"), 4294967295LL);
  EXPECT_EQ(toInteger(""), std::nullopt);
  EXPECT_EQ(toInteger("-"), std::nullopt);
  EXPECT_EQ(toInteger("12x"), std::nullopt);
  EXPECT_EQ(toInteger(" 12"), std::nullopt);
  EXPECT_EQ(toInteger("ff", 16), 255);
}

TEST(ToInteger, CPrefixesWithBaseZero) {
  EXPECT_EQ(toInteger("0x1F", 0), 31);
  EXPECT_EQ(toInteger("0b101", 0), 5);
  EXPECT_EQ(toInteger("017", 0), 15);  // octal, as C and PTX read it
  EXPECT_EQ(toInteger("0", 0), 0);
  EXPECT_EQ(toInteger("-0x10", 0), -16);
  EXPECT_EQ(toInteger("0x", 0), std::nullopt);
  EXPECT_EQ(toInteger("09", 0), std::nullopt);  // 9 is no octal digit
}

TEST(ToUnsigned, SixtyFourBitPatterns) {
  EXPECT_EQ(toUnsigned("0xFFFFFFFFFFFFFFFF", 0), 18446744073709551615ULL);
  EXPECT_EQ(toUnsigned("0x10000000000000000", 0), std::nullopt);
  EXPECT_EQ(toUnsigned("-1"), std::nullopt);
}

TEST(ToReal, FiniteOnly) {
  EXPECT_EQ(toReal("1.5"), 1.5);
  EXPECT_EQ(toReal("-2e3"), -2000.0);
  EXPECT_EQ(toReal("+.5"), 0.5);
  EXPECT_EQ(toReal("7"), 7.0);
  EXPECT_EQ(toReal("1e999"), std::nullopt);  // overflows to infinity
  EXPECT_EQ(toReal("inf"), std::nullopt);
  EXPECT_EQ(toReal("nan"), std::nullopt);
  EXPECT_EQ(toReal("1.5x"), std::nullopt);
  EXPECT_EQ(toReal(""), std::nullopt);
}

}  // namespace
}  // namespace foresight
