// SPDX-License-Identifier: Apache-2.0
/// \file
/// Bounded regular sections (grophecy.md §5.1): sizes, substitution, INTERSECT, UNION and the
/// footprint merge. Expected values are hand calculations written next to each check.
#include "foresight/frontend/skeleton/brs.h"

#include <gtest/gtest.h>

namespace foresight::skeleton {
namespace {

TEST(Brs, SizeUsesTheCeilingForStrides) {
  EXPECT_EQ((Range{0, 16, 1}.size()), 16);
  EXPECT_EQ((Range{0, 10, 4}.size()), 3);  // 0, 4, 8: ⌈10/4⌉ = 3 (A2; the paper's floor gives 2)
  EXPECT_EQ((Range{5, 5, 1}.size()), 0);
  EXPECT_EQ((Range{0, 10, 4}.last()), 8);
  EXPECT_EQ(sectionSize({{0, 16, 1}, {0, 400, 1}}), 6400);
}

TEST(Brs, AffineImageMapsLowerUpperAndStride) {
  // 2·x + 3 for x in ⟨0, 8, 1⟩: 3, 5, ..., 17 → ⟨3, 18, 2⟩.
  EXPECT_EQ(affineImage({0, 8, 1}, 2, 3), (Range{3, 18, 2}));
  // −x for x in ⟨0, 4, 1⟩: −3..0 → ⟨−3, 1, 1⟩.
  EXPECT_EQ(affineImage({0, 4, 1}, -1, 0), (Range{-3, 1, 1}));
  EXPECT_EQ(affineImage({5, 9, 1}, 0, 7), (Range{7, 8, 1}));
}

TEST(Brs, PaperExampleBlockTileOfAik) {
  // A[i][k], 16×8 block at origin X=32: i in ⟨32, 48, 1⟩, k in ⟨0, K, 1⟩ → 16·K elements.
  const long long K = 400;
  const Section p = {affineImage({32, 48, 1}, 1, 0), affineImage({0, K, 1}, 1, 0)};
  EXPECT_EQ(p, (Section{{32, 48, 1}, {0, 400, 1}}));
  EXPECT_EQ(sectionSize(p), 16 * K);
}

TEST(Brs, RangeSumIsMinkowskiWithGcdStride) {
  // y + x with y in ⟨0, 4, 2⟩ and x in ⟨0, 3, 3⟩: 0..5, stride gcd(2, 3) = 1.
  EXPECT_EQ(rangeSum({0, 4, 2}, {0, 4, 3}), (Range{0, 6, 1}));
  EXPECT_EQ(rangeSum({10, 11, 1}, {0, 8, 2}), (Range{10, 17, 2}));  // a point plus a range
}

TEST(Brs, IntersectFindsCommonLatticePoints) {
  // ⟨0, 20, 4⟩ ∩ ⟨2, 20, 6⟩: {0,4,8,12,16} ∩ {2,8,14} = {8} → ⟨8, 17, 12⟩ (one element).
  const auto r = intersectRanges({0, 20, 4}, {2, 20, 6});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->lo, 8);
  EXPECT_EQ(r->size(), 1);
  EXPECT_FALSE(intersectRanges({0, 10, 2}, {1, 10, 2}));  // evens vs odds
  EXPECT_FALSE(intersectRanges({0, 4, 1}, {4, 8, 1}));    // adjacent, not overlapping
  EXPECT_TRUE(intersect({{0, 4, 1}, {0, 4, 1}}, {{3, 6, 1}, {2, 3, 1}}));
  EXPECT_FALSE(intersect({{0, 4, 1}, {0, 4, 1}}, {{3, 6, 1}, {4, 5, 1}}));
}

TEST(Brs, UnionIsTheBoundingHull) {
  // Stencil rows y−1 and y+1 over a 16-row tile: ⟨15,31⟩ ∪ ⟨17,33⟩ = ⟨15,33⟩.
  EXPECT_EQ(unite({{15, 31, 1}}, {{17, 33, 1}}), (Section{{15, 33, 1}}));
  // ⟨0,8,4⟩ ∪ ⟨2,10,4⟩: lower bounds 2 apart → stride gcd(4, 4, 2) = 2.
  EXPECT_EQ(unite({{0, 8, 4}}, {{2, 10, 4}}), (Section{{0, 7, 2}}));
}

TEST(Brs, FootprintMergesOverlapsUntilDisjoint) {
  // 5-point stencil over a 16×16 tile at (16,16): the union over-covers the 18×18 halo box
  // including its corners (grophecy.md §5.1 approximation note): 324 elements.
  std::vector<Section> parts = {{{15, 31, 1}, {16, 32, 1}},
                                {{16, 32, 1}, {15, 31, 1}},
                                {{16, 32, 1}, {16, 32, 1}},
                                {{16, 32, 1}, {17, 33, 1}},
                                {{17, 33, 1}, {16, 32, 1}}};
  const std::vector<Section> merged = mergeFootprint(parts);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(footprintSize(merged), 18 * 18);
  // Disjoint parts stay apart: J[j] and J[j+1] for one j are 2 elements.
  EXPECT_EQ(footprintSize(mergeFootprint({{{5, 6, 1}}, {{6, 7, 1}}})), 2);
  // Complex interleaving [..][0] and [..][1]: two disjoint sections of 16 each.
  EXPECT_EQ(footprintSize(mergeFootprint({{{0, 16, 1}, {0, 1, 1}}, {{0, 16, 1}, {1, 2, 1}}})), 32);
}

}  // namespace
}  // namespace foresight::skeleton
