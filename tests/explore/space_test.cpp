// SPDX-License-Identifier: Apache-2.0
#include "foresight/explore/space.h"

#include <gtest/gtest.h>

namespace foresight {
namespace {

SearchSpace parsed(const std::string& text) {
  SearchSpace s;
  Expected<void> ok = parseSpace(text, s);
  EXPECT_TRUE(ok) << (ok ? "" : ok.error().message);
  return s;
}

std::string parseError(const std::string& text) {
  SearchSpace s;
  Expected<void> ok = parseSpace(text, s);
  return ok ? std::string("no error") : ok.error().message;
}

TEST(SearchSpace, RangesStepsPowersAndLists) {
  // The example: 8..256 doubling = 8 16 32 64 128 256 (6), 1..16 doubling (5), 1,2,4 (3).
  const SearchSpace s = parsed("TX=8..256:pow2,COARSEN=1..16:pow2,UNROLL=1,2,4");
  ASSERT_EQ(s.dimensions.size(), 3u);
  EXPECT_EQ(s.dimensions[0].values, (std::vector<long long>{8, 16, 32, 64, 128, 256}));
  EXPECT_EQ(s.dimensions[1].values, (std::vector<long long>{1, 2, 4, 8, 16}));
  EXPECT_EQ(s.dimensions[2].values, (std::vector<long long>{1, 2, 4}));
  EXPECT_EQ(s.size(), 6 * 5 * 3);
  EXPECT_EQ(s.describe(), "TX=8..256:pow2 (6 values), COARSEN=1..16:pow2 (5 values), UNROLL=1,2,4 (3 values)");
  // A doubling range stops below HI when HI is not reached exactly: 3 6 12.
  EXPECT_EQ(parsed("A=3..20:pow2").dimensions[0].values, (std::vector<long long>{3, 6, 12}));
  // Steps: 0 5 10 (15 is past 12); plain range with negative values.
  EXPECT_EQ(parsed("S=0..12:5").dimensions[0].values, (std::vector<long long>{0, 5, 10}));
  EXPECT_EQ(parsed("R=-1..1").dimensions[0].values, (std::vector<long long>{-1, 0, 1}));
  // Duplicates in a list are dropped, the order kept.
  EXPECT_EQ(parsed("L = 4, 2, 4").dimensions[0].values, (std::vector<long long>{4, 2}));
}

TEST(SearchSpace, PointsVaryTheLastDimensionFastest) {
  const SearchSpace s = parsed("A=1,2,B=10,20,30");
  ASSERT_EQ(s.size(), 6);
  EXPECT_EQ(s.point(0), (std::map<std::string, long long>{{"A", 1}, {"B", 10}}));
  EXPECT_EQ(s.point(1), (std::map<std::string, long long>{{"A", 1}, {"B", 20}}));
  EXPECT_EQ(s.point(3), (std::map<std::string, long long>{{"A", 2}, {"B", 10}}));
  EXPECT_EQ(s.point(5), (std::map<std::string, long long>{{"A", 2}, {"B", 30}}));
  // Repeated --space options add dimensions.
  SearchSpace t = parsed("A=1,2");
  ASSERT_TRUE(parseSpace("B=3", t));
  EXPECT_EQ(t.size(), 2);
  EXPECT_EQ(SearchSpace{}.size(), 1);
}

TEST(SearchSpace, MalformedItemsAreErrorsQuotingThem) {
  EXPECT_EQ(parseError("TX"), "--space 'TX': expected NAME=VALUES");
  EXPECT_EQ(parseError("1X=4"), "--space '1X=4': '1X' is not a macro name");
  EXPECT_EQ(parseError("A=4..2"), "--space 'A=4..2': the range is empty (LO > HI)");
  EXPECT_EQ(parseError("A=0..8:pow2"), "--space 'A=0..8:pow2': a pow2 range starts at 1 or above");
  EXPECT_EQ(parseError("A=1..8:0"), "--space 'A=1..8:0': the step after ':' is a positive integer or 'pow2'");
  EXPECT_EQ(parseError("A=1..x"), "--space 'A=1..x': a range is LO..HI with integer bounds");
  EXPECT_EQ(parseError("A=1,two"), "--space 'A=1,two': 'two' is not an integer");
  EXPECT_EQ(parseError("A=1..4,8"), "--space 'A=1..4,8': a range and a list cannot be mixed in one parameter");
  EXPECT_EQ(parseError("A=1,A=2"), "--space 'A=2': 'A' is given twice");
  EXPECT_EQ(parseError("A=1,,B=2"), "--space 'A=1,,B=2': an empty item (two commas, or a comma at an end)");
  EXPECT_EQ(parseError("A=0..100000"), "--space 'A=0..100000': more than 65536 values");
}

}  // namespace
}  // namespace foresight
