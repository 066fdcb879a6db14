// SPDX-License-Identifier: Apache-2.0
/// \file
/// Levenshtein distance on hand-checked pairs, the closeness threshold of closestMatch
/// (max(2, |name|/3)), and the didYouMean text.
#include "foresight/support/edit_distance.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace foresight {
namespace {

TEST(EditDistance, KittenSitting) {
  // k→s, e→i, +g: the textbook example.
  EXPECT_EQ(editDistance("kitten", "sitting"), 3);
  EXPECT_EQ(editDistance("sitting", "kitten"), 3);  // symmetric
}

TEST(EditDistance, EmptyStrings) {
  EXPECT_EQ(editDistance("", ""), 0);
  EXPECT_EQ(editDistance("", "abc"), 3);   // three insertions
  EXPECT_EQ(editDistance("abcd", ""), 4);  // four deletions
}

TEST(EditDistance, Identical) {
  EXPECT_EQ(editDistance("warp_size", "warp_size"), 0);
}

TEST(EditDistance, SingleEdits) {
  EXPECT_EQ(editDistance("warp_sise", "warp_size"), 1);  // one substitution
  EXPECT_EQ(editDistance("fx560", "fx5600"), 1);         // one insertion
  EXPECT_EQ(editDistance("telsa", "tesla"), 2);          // transposition = 2 substitutions
  EXPECT_EQ(editDistance("abc", "xyz"), 3);              // all different
  EXPECT_EQ(editDistance("flaw", "lawn"), 2);            // -f, +n
}

TEST(ClosestMatch, PicksNearest) {
  const std::vector<std::string> keys = {"count", "clock", "warp_size", "schedulers"};
  EXPECT_EQ(closestMatch("warp_sise", keys), "warp_size");  // distance 1
  EXPECT_EQ(closestMatch("clok", keys), "clock");           // distance 1 (count: 4)
}

TEST(ClosestMatch, FirstCandidateWinsTies) {
  // "ab" is 1 away from both "abc" and "abd"; the strict '<' keeps the first.
  const std::vector<std::string> c = {"abc", "abd"};
  EXPECT_EQ(closestMatch("ab", c), "abc");
}

TEST(ClosestMatch, ShortNamesAllowTwoEdits) {
  // |name| = 3 → limit max(2, 1) = 2.
  const std::vector<std::string> c = {"xyzab"};
  EXPECT_EQ(closestMatch("xyz", c), "xyzab");  // distance 2: accepted
  const std::vector<std::string> far = {"xyzabc"};
  EXPECT_EQ(closestMatch("xyz", far), "");  // distance 3: rejected
}

TEST(ClosestMatch, LongNamesAllowAThird) {
  // |name| = 12 → limit max(2, 4) = 4.
  const std::string name = "abcdefghijkl";
  const std::vector<std::string> four = {"abcdefghWXYZ"};  // 4 substitutions
  EXPECT_EQ(closestMatch(name, four), "abcdefghWXYZ");
  const std::vector<std::string> five = {"abcdefgVWXYZ"};  // 5 substitutions
  EXPECT_EQ(closestMatch(name, five), "");
  // |name| = 8 → limit max(2, 2) = 2 (8/3 rounds down).
  const std::vector<std::string> three = {"abcdeXYZ"};  // 3 substitutions from "abcdefgh"
  EXPECT_EQ(closestMatch("abcdefgh", three), "");
}

TEST(ClosestMatch, NoCandidates) {
  const std::vector<std::string> none;
  EXPECT_EQ(closestMatch("anything", none), "");
}

TEST(DidYouMean, Text) {
  const std::vector<std::string> archs = {"tesla", "fermi", "kepler"};
  EXPECT_EQ(didYouMean("telsa", archs), "; did you mean 'tesla'?");
  EXPECT_EQ(didYouMean("volta", archs), "");  // tesla 4, fermi 5, kepler 5 edits; limit 2
}

}  // namespace
}  // namespace foresight
