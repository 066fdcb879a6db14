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

TEST(SplitTopLevelCommas, OperandLists) {
  using V = std::vector<std::string>;
  // PTX: a vector operand and a call's slot list stay whole; parts are trimmed.
  EXPECT_EQ(splitTopLevelCommas("%r1, [%rd2+4], {%f1, %f2}"), (V{"%r1", "[%rd2+4]", "{%f1, %f2}"}));
  EXPECT_EQ(splitTopLevelCommas("(param0, param1), f, (a)"), (V{"(param0, param1)", "f", "(a)"}));
  // SASS: an address with a register pair.
  EXPECT_EQ(splitTopLevelCommas(" R6, [R2.64+0x10] "), (V{"R6", "[R2.64+0x10]"}));
  EXPECT_EQ(splitTopLevelCommas("a, "), (V{"a"}));  // an empty last part is dropped
  EXPECT_EQ(splitTopLevelCommas("a,,b"), (V{"a", "", "b"}));  // inner empty parts are kept
  EXPECT_EQ(splitTopLevelCommas(""), V{});
}

TEST(TextCursor, CountsLinesAndColumns) {
  TextCursor at("ab\ncd // x\ne");
  at.advance(2);
  EXPECT_EQ(at.pos, 2u);
  EXPECT_EQ(at.line, 1);
  EXPECT_EQ(at.column, 3);
  at.advance(1);  // the newline
  EXPECT_EQ(at.line, 2);
  EXPECT_EQ(at.column, 1);
  at.advance(3);
  at.skipLine();  // stops on the '\n' of line 2
  EXPECT_EQ(at.pos, 10u);  // "ab\n" is 0-2, "cd // x" 3-9
  EXPECT_EQ(at.text[at.pos], '\n');
  at.advance(100);  // never beyond the end
  EXPECT_EQ(at.pos, 12u);  // the text's 12 characters
  EXPECT_EQ(at.line, 3);
  EXPECT_EQ(at.column, 2);
}

}  // namespace
}  // namespace foresight
