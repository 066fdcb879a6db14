// SPDX-License-Identifier: Apache-2.0
/// \file
/// Tests of the coalescing rules: sm_70+ sectors, CC 1.0/1.1 and CC 1.2/1.3 transactions, and
/// CGPredict's access classes. Every expected value is computed by hand in the comment beside it.
#include "foresight/memory/coalescing.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <utility>
#include <vector>

namespace foresight {
namespace {

// Lane l accesses base + l * strideBytes.
std::vector<long long> strided(long long base, long long strideBytes, int lanes = 32) {
  std::vector<long long> out;
  for (int l = 0; l < lanes; ++l) out.push_back(base + l * strideBytes);
  return out;
}

// ---- sm_70+ sectors ----------------------------------------------------------------------------

TEST(PartialSectors, StoresThatLeavePartOfASectorUnwritten) {
  auto lanes = [](long long first, long long stride) {
    std::vector<long long> v;
    for (int l = 0; l < 32; ++l) v.push_back(first + l * stride);
    return v;
  };
  EXPECT_EQ(partialSectors(lanes(0, 4), 4, 32), 0);     // 4 sectors, 32 B each
  EXPECT_EQ(partialSectors(lanes(0, 8), 4, 32), 8);     // 8 sectors of 16 B
  EXPECT_EQ(partialSectors(lanes(0, 128), 4, 32), 32);  // a column: 4 B in each of 32 sectors
  EXPECT_EQ(partialSectors(lanes(4, 4), 4, 32), 2);     // misaligned: the first and the last of 5
  EXPECT_EQ(partialSectors(lanes(0, 8), 8, 32), 0);     // 8-B lanes back to back: full again
  // Lanes in any order, inactive lanes left out: 16 active lanes of one 64-B run, reversed.
  std::vector<long long> v = lanes(0, 4);
  std::reverse(v.begin(), v.end());
  for (int l = 0; l < 16; ++l) v[static_cast<size_t>(l)] = kInactiveLane;
  EXPECT_EQ(partialSectors(v, 4, 32), 0);  // bytes 0..63: two full sectors
  v[31] = kInactiveLane;                   // byte 0..3 unwritten now
  EXPECT_EQ(partialSectors(v, 4, 32), 1);
}

TEST(CountSectors, UnitStrideFourBytes) {
  auto r = countSectors(strided(0, 4), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sectors, 4);     // bytes 0..127 → sectors 0..3
  EXPECT_EQ(r->lines, 1);       // bytes 0..127 → line 0
  EXPECT_EQ(r->minSectors, 4);  // 32 lanes × 4 B = 128 B / 32 B
  EXPECT_TRUE(r->coalesced);    // 4 <= 4
}

TEST(CountSectors, MisalignedByFourBytes) {
  auto r = countSectors(strided(4, 4), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sectors, 5);  // bytes 4..131 → sectors 0..4
  EXPECT_EQ(r->lines, 2);    // bytes 4..131 → lines 0 and 1
  EXPECT_EQ(r->minSectors, 4);
  EXPECT_FALSE(r->coalesced);  // 5 > 4
}

TEST(CountSectors, StrideTwoWords) {
  auto r = countSectors(strided(0, 8), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sectors, 8);  // lanes at 0,8,..,248, 4 B each: bytes 0..251 → sectors 0..7
  EXPECT_EQ(r->lines, 2);    // bytes 0..251 → lines 0, 1
  EXPECT_FALSE(r->coalesced);
}

TEST(CountSectors, StrideThirtyTwoWords) {
  auto r = countSectors(strided(0, 128), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sectors, 32);  // lane l at 128 l: one sector in each of 32 lines
  EXPECT_EQ(r->lines, 32);
  EXPECT_FALSE(r->coalesced);
}

TEST(CountSectors, BroadcastIsCoalesced) {
  auto r = countSectors(std::vector<long long>(32, 100), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sectors, 1);  // bytes 100..103 → sector 3
  EXPECT_EQ(r->lines, 1);
  EXPECT_EQ(r->minSectors, 4);
  EXPECT_TRUE(r->coalesced);  // 1 <= 4: fewer than unit stride needs
}

TEST(CountSectors, InactiveLanesAreIgnored) {
  auto halfActive = strided(0, 4);
  for (int l = 16; l < 32; ++l) halfActive[l] = kInactiveLane;
  auto r = countSectors(halfActive, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sectors, 2);     // lanes 0..15: bytes 0..63 → sectors 0, 1
  EXPECT_EQ(r->minSectors, 2);  // 16 active × 4 B = 64 B / 32
  EXPECT_TRUE(r->coalesced);

  auto evenActive = strided(0, 4);
  for (int l = 1; l < 32; l += 2) evenActive[l] = -7;  // any negative value is inactive
  auto e = countSectors(evenActive, 4);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->sectors, 4);     // even lanes at 0,8,..,120: bytes 0..123 → sectors 0..3
  EXPECT_EQ(e->minSectors, 2);  // 16 active × 4 B = 64 B
  EXPECT_FALSE(e->coalesced);
}

TEST(CountSectors, AllLanesInactive) {
  auto r = countSectors(std::vector<long long>(32, kInactiveLane), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sectors, 0);
  EXPECT_EQ(r->lines, 0);
  EXPECT_EQ(r->minSectors, 0);
  EXPECT_TRUE(r->coalesced);  // 0 <= 0
}

TEST(CountSectors, EightAndSixteenByteWidths) {
  auto r8 = countSectors(strided(0, 8), 8);
  ASSERT_TRUE(r8.ok());
  EXPECT_EQ(r8->sectors, 8);     // bytes 0..255 → sectors 0..7
  EXPECT_EQ(r8->lines, 2);       // lines 0, 1
  EXPECT_EQ(r8->minSectors, 8);  // 256 B / 32
  EXPECT_TRUE(r8->coalesced);

  auto r16 = countSectors(strided(0, 16), 16);
  ASSERT_TRUE(r16.ok());
  EXPECT_EQ(r16->sectors, 16);     // bytes 0..511 → sectors 0..15
  EXPECT_EQ(r16->lines, 4);        // lines 0..3
  EXPECT_EQ(r16->minSectors, 16);  // 512 B / 32
  EXPECT_TRUE(r16->coalesced);
}

TEST(CountSectors, StraddlingAccessesCountEverySector) {
  auto r = countSectors(strided(28, 8), 8);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sectors, 9);  // bytes 28..283 → sectors 0..8 (lane 0 covers 28..35: sectors 0, 1)
  EXPECT_EQ(r->lines, 3);    // bytes 28..283 → lines 0..2
  EXPECT_FALSE(r->coalesced);

  std::vector<long long> one(32, kInactiveLane);
  one[5] = 124;
  auto s = countSectors(one, 8);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->sectors, 2);     // bytes 124..131 → sectors 3, 4
  EXPECT_EQ(s->lines, 2);       // lines 0, 1
  EXPECT_EQ(s->minSectors, 1);  // ceil(8 / 32)
  EXPECT_FALSE(s->coalesced);
}

TEST(CountSectors, CustomSectorAndLineSizes) {
  auto r = countSectors(strided(0, 4), 4, {.sectorBytes = 64, .lineBytes = 256});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sectors, 2);     // bytes 0..127 → 64-B sectors 0, 1
  EXPECT_EQ(r->lines, 1);       // one 256-B line
  EXPECT_EQ(r->minSectors, 2);  // 128 / 64
}

TEST(CountSectors, RejectsInvalidInput) {
  EXPECT_FALSE(countSectors({}, 4).ok());                 // no lanes
  EXPECT_FALSE(countSectors(strided(0, 4), 3).ok());      // not a power of two
  EXPECT_FALSE(countSectors(strided(0, 4), 0).ok());
  EXPECT_FALSE(countSectors(strided(0, 32), 32).ok());    // wider than 16 B
  EXPECT_FALSE(countSectors(strided(0, 4), 4, {.sectorBytes = 0}).ok());
  EXPECT_FALSE(countSectors(strided(0, 4), 4, {.lineBytes = -1}).ok());
  std::vector<long long> huge{0x7fffffffffffffffLL};
  EXPECT_FALSE(countSectors(huge, 4).ok());  // the access would overflow
  EXPECT_TRUE(checkWarpAccess(strided(0, 4), 16).ok());
}

// ---- CC 1.0/1.1 --------------------------------------------------------------------------------

// The tag and data stages of an sm_80+ L1 (l1LoadWavefronts), with the presets' A100 fit:
// tag = 0.45 + lines / 3.55, at least 1.
TEST(L1LoadWavefronts, AHitTakesTheSlowerStageAMissALinePerPass) {
  const L1TagStage fit{0.45, 3.55};
  // Floats at unit stride from byte 16: 2 lines, 1 bank wavefront. Hit: 0.45 + 2 / 3.55 =
  // 1.0134; miss: 2 (a pass per line).
  L1Wavefronts w = l1LoadWavefronts(2, 1, fit);
  EXPECT_NEAR(w.hit, 0.45 + 2 / 3.55, 1e-12);
  EXPECT_DOUBLE_EQ(w.miss, 2);
  // Aligned unit stride: 1 line → the tag stage's floor of 1 wavefront.
  w = l1LoadWavefronts(1, 1, fit);
  EXPECT_DOUBLE_EQ(w.hit, 1);
  EXPECT_DOUBLE_EQ(w.miss, 1);
  // Floats 8 words apart: 8 lines, an 8-way bank conflict → 8 both ways (tag 2.70).
  w = l1LoadWavefronts(8, 8, fit);
  EXPECT_DOUBLE_EQ(w.hit, 8);
  EXPECT_DOUBLE_EQ(w.miss, 8);
  // Floats 31 words apart: 31 lines, no conflict. Hit: 0.45 + 31 / 3.55 = 9.1824 (gpu-strides'
  // A100 row "float stride 31": 8.5 cycles); miss: 31.
  w = l1LoadWavefronts(31, 1, fit);
  EXPECT_NEAR(w.hit, 9.18239, 1e-5);
  EXPECT_DOUBLE_EQ(w.miss, 31);
  // A double broadcast: 1 line, 2 bank wavefronts (half-warps) → 2 (gpu-strides "double stride
  // 0": 2.01 cycles on the A100 and the H200).
  w = l1LoadWavefronts(1, 2, fit);
  EXPECT_DOUBLE_EQ(w.hit, 2);
  EXPECT_DOUBLE_EQ(w.miss, 2);
}

TEST(L1LoadWavefronts, WithoutATagStageOrBanksALinePerPass) {
  const L1Wavefronts none = l1LoadWavefronts(16, 1, L1TagStage{});
  EXPECT_DOUBLE_EQ(none.hit, 16);
  EXPECT_DOUBLE_EQ(none.miss, 16);
  const L1Wavefronts unknownBanks = l1LoadWavefronts(16, -1, L1TagStage{0.45, 3.55});
  EXPECT_DOUBLE_EQ(unknownBanks.hit, 16);
  EXPECT_DOUBLE_EQ(unknownBanks.miss, 16);
}

TEST(CountTransactionsCc10, AlignedUnitStrideCoalesces) {
  auto r = countTransactionsCc10(strided(0, 4), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 2);  // each half-warp: word k of segment [0,64) / [64,128)
  EXPECT_EQ(r->bytes, 128);       // 2 × 64 B
  EXPECT_TRUE(r->coalesced);
}

TEST(CountTransactionsCc10, PermutedHalfWarpIsSerialized) {
  auto addresses = strided(0, 4);
  std::swap(addresses[0], addresses[1]);  // lane 0 reads word 1: breaks "k-th thread, k-th word"
  auto r = countTransactionsCc10(addresses, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 17);  // half 0: 16 lanes × 1; half 1 still coalesced: 1
  EXPECT_EQ(r->bytes, 16 * 32 + 64);
  EXPECT_FALSE(r->coalesced);

  std::swap(addresses[16], addresses[17]);  // now both halves are permuted
  auto both = countTransactionsCc10(addresses, 4);
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both->transactions, 32);  // one per thread, GROPHECY's 32 per warp
}

TEST(CountTransactionsCc10, MisalignedBaseIsSerialized) {
  auto r = countTransactionsCc10(strided(4, 4), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 32);  // base 4 is not 64-B aligned in either half: 32 × 1
  EXPECT_EQ(r->bytes, 32 * 32);
  EXPECT_FALSE(r->coalesced);

  auto at64 = countTransactionsCc10(strided(64, 4), 4);
  ASSERT_TRUE(at64.ok());
  EXPECT_EQ(at64->transactions, 2);  // halves start at 64 and 128: both 64-B aligned
}

TEST(CountTransactionsCc10, InactiveLanesDoNotBreakCoalescing) {
  auto addresses = strided(0, 4);
  addresses[3] = kInactiveLane;
  for (int l = 16; l < 32; ++l) addresses[l] = kInactiveLane;
  auto r = countTransactionsCc10(addresses, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 1);  // half 0 coalesced despite lane 3; half 1 issues nothing
  EXPECT_EQ(r->bytes, 64);
  EXPECT_TRUE(r->coalesced);

  addresses[0] = 4;  // lane 0 now reads word 1: uncoalesced, 15 active lanes
  auto broken = countTransactionsCc10(addresses, 4);
  ASSERT_TRUE(broken.ok());
  EXPECT_EQ(broken->transactions, 15);  // one per active thread (lanes 0..15 without 3)
}

TEST(CountTransactionsCc10, EightByteWords) {
  auto r = countTransactionsCc10(strided(0, 8), 8);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 2);  // each half-warp: 16 × 8 B = one aligned 128-B segment
  EXPECT_EQ(r->bytes, 256);
  auto at64 = countTransactionsCc10(strided(64, 8), 8);
  ASSERT_TRUE(at64.ok());
  EXPECT_EQ(at64->transactions, 32);  // halves start at 64 and 192: not 128-B aligned
}

TEST(CountTransactionsCc10, SixteenByteWords) {
  auto r = countTransactionsCc10(strided(128, 16), 16);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 4);  // per half: words 0..7 in [128,256), 8..15 in [256,384): 2 × 2
  EXPECT_EQ(r->bytes, 4 * 128);
  EXPECT_TRUE(r->coalesced);
  auto at64 = countTransactionsCc10(strided(64, 16), 16);
  ASSERT_TRUE(at64.ok());
  EXPECT_EQ(at64->transactions, 32);  // base 64 is not 128-B aligned
}

TEST(CountTransactionsCc10, SmallWordsAndBroadcastNeverCoalesce) {
  auto bytes = countTransactionsCc10(strided(0, 1), 1);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->transactions, 32);  // only 4/8/16-B words coalesce on CC 1.0/1.1
  auto shorts = countTransactionsCc10(strided(0, 2), 2);
  ASSERT_TRUE(shorts.ok());
  EXPECT_EQ(shorts->transactions, 32);
  auto broadcast = countTransactionsCc10(std::vector<long long>(32, 0), 4);
  ASSERT_TRUE(broadcast.ok());
  EXPECT_EQ(broadcast->transactions, 32);  // lane 1 reads word 0, not word 1
}

TEST(CountTransactionsCc10, RejectsUnalignedAccess) {
  EXPECT_FALSE(countTransactionsCc10(strided(2, 4), 4).ok());  // lane 0 at 2, 4-B access
  EXPECT_FALSE(countTransactionsCc10(strided(0, 4), 5).ok());
}

// ---- CC 1.2/1.3 --------------------------------------------------------------------------------

TEST(CountTransactionsCc12, UnitStrideShrinksToHalves) {
  auto r = countTransactionsCc12(strided(0, 4), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 2);  // half 0: bytes 0..63 of [0,128) → lower 64 B; half 1 → upper
  EXPECT_EQ(r->bytes, 128);
  EXPECT_TRUE(r->coalesced);
}

TEST(CountTransactionsCc12, HalfWarpInOneAlignedHalfSegment) {
  auto r = countTransactionsCc12(strided(64, 4, 16), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 1);  // bytes 64..127: upper half of [0,128), both 32-B halves used
  EXPECT_EQ(r->bytes, 64);
  EXPECT_TRUE(r->coalesced);
}

TEST(CountTransactionsCc12, MisalignedByFourBytes) {
  auto r = countTransactionsCc12(strided(4, 4), 4);
  ASSERT_TRUE(r.ok());
  // half 0: bytes 4..67 use both halves of [0,128) → 128 B.
  // half 1: lanes 16..30 at 68..124 in [0,128): only upper half, both of its 32-B halves → 64 B;
  //         lane 31 at 128..131 in [128,256): lower 64, then lower 32 → 32 B.
  EXPECT_EQ(r->transactions, 3);
  EXPECT_EQ(r->bytes, 128 + 64 + 32);
  EXPECT_FALSE(r->coalesced);  // 3 > 2 for 32 × 4 B
}

TEST(CountTransactionsCc12, StrideTwoWordsDoublesBytes) {
  auto r = countTransactionsCc12(strided(0, 8), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 2);  // half 0: bytes 0..123 in [0,128); half 1: 128..251
  EXPECT_EQ(r->bytes, 256);       // no shrinking: both halves used in each segment
  EXPECT_TRUE(r->coalesced);      // A9 compares transaction counts only: 2 <= 2
}

TEST(CountTransactionsCc12, StrideThirtyTwoWords) {
  auto r = countTransactionsCc12(strided(0, 128), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 32);  // each lane in its own 128-B segment, shrunk to 32 B
  EXPECT_EQ(r->bytes, 32 * 32);
  EXPECT_FALSE(r->coalesced);
}

TEST(CountTransactionsCc12, BroadcastAndPermutation) {
  auto b = countTransactionsCc12(std::vector<long long>(32, 200), 4);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->transactions, 2);  // per half: [128,256) → upper [192,256) → lower [192,224)
  EXPECT_EQ(b->bytes, 64);        // 2 × 32 B
  EXPECT_TRUE(b->coalesced);

  auto p = strided(0, 4);
  std::swap(p[0], p[15]);
  std::swap(p[16], p[20]);
  auto r = countTransactionsCc12(p, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 2);  // any order within a segment is fine on CC 1.2
  EXPECT_EQ(r->bytes, 128);
}

TEST(CountTransactionsCc12, InactiveLanes) {
  std::vector<long long> a(32, kInactiveLane);
  a[0] = 0;
  a[15] = 60;
  auto r = countTransactionsCc12(a, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->transactions, 1);  // bytes 0..3 and 60..63: lower 64 B, both 32-B halves used
  EXPECT_EQ(r->bytes, 64);
  EXPECT_TRUE(r->coalesced);  // 2 active × 4 B → minimum 1

  auto none = countTransactionsCc12(std::vector<long long>(32, kInactiveLane), 4);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->transactions, 0);
}

TEST(CountTransactionsCc12, SegmentSizeFollowsWordSize) {
  auto b1 = countTransactionsCc12(strided(0, 1), 1);
  ASSERT_TRUE(b1.ok());
  EXPECT_EQ(b1->transactions, 2);  // 32-B segments: half 0 bytes 0..15, half 1 16..31
  EXPECT_EQ(b1->bytes, 64);        // no shrinking below 32 B
  auto b2 = countTransactionsCc12(strided(0, 2), 2);
  ASSERT_TRUE(b2.ok());
  EXPECT_EQ(b2->transactions, 2);  // 64-B segment [0,64): half 0 lower 32, half 1 upper 32
  EXPECT_EQ(b2->bytes, 64);
  auto b8 = countTransactionsCc12(strided(0, 8), 8);
  ASSERT_TRUE(b8.ok());
  EXPECT_EQ(b8->transactions, 2);  // half 0 = [0,128), half 1 = [128,256)
  EXPECT_EQ(b8->bytes, 256);
  auto b16 = countTransactionsCc12(strided(0, 16), 16);
  ASSERT_TRUE(b16.ok());
  EXPECT_EQ(b16->transactions, 4);  // each half: 256 B = two 128-B segments
  EXPECT_EQ(b16->bytes, 512);
  EXPECT_TRUE(b16->coalesced);  // minimum: 2 per half-warp
}

TEST(CountTransactionsCc12, RejectsUnalignedAccess) {
  EXPECT_FALSE(countTransactionsCc12(strided(4, 8), 8).ok());  // lane 0 at 4, 8-B access
  EXPECT_FALSE(countTransactionsCc12({}, 4).ok());
}

// ---- CGPredict classes -------------------------------------------------------------------------

TEST(ClassifyAccessClass, Constant) {
  std::vector<long long> same(32, 400);
  auto c = classifyAccessClass(same, 4);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, AccessClass::Constant);  // max stride 0
  EXPECT_EQ(paperTransactions(*c), 1);
  auto lines = generalModeTransactions(same, 4);
  ASSERT_TRUE(lines.ok());
  EXPECT_EQ(*lines, 1);  // bytes 400..403 → one 64-B line
}

TEST(ClassifyAccessClass, CoalescedUnitStride) {
  auto c = classifyAccessClass(strided(0, 4), 4);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, AccessClass::Coalesced);  // max stride 4 <= 4
  EXPECT_EQ(paperTransactions(*c), 2);
  auto lines = generalModeTransactions(strided(0, 4), 4);
  ASSERT_TRUE(lines.ok());
  EXPECT_EQ(*lines, 2);  // bytes 0..127 → 64-B lines 0, 1 (the paper's 2)

  auto reversed = classifyAccessClass(strided(124, -4), 4);
  ASSERT_TRUE(reversed.ok());
  EXPECT_EQ(*reversed, AccessClass::Coalesced);  // |stride| = 4
}

TEST(ClassifyAccessClass, ZeroAndElementStridesMix) {
  std::vector<long long> pairs;
  for (int l = 0; l < 32; ++l) pairs.push_back(l / 2 * 4);  // 0,0,4,4,...: strides 0 and 4
  auto c = classifyAccessClass(pairs, 4);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, AccessClass::Coalesced);
}

TEST(ClassifyAccessClass, UncoalescedStrides) {
  auto c = classifyAccessClass(strided(0, 8), 4);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, AccessClass::Uncoalesced);  // stride 8 > 4
  EXPECT_EQ(paperTransactions(*c), 32);
  auto lines = generalModeTransactions(strided(0, 8), 4);
  ASSERT_TRUE(lines.ok());
  EXPECT_EQ(*lines, 4);  // bytes 0..251 → 64-B lines 0..3

  auto column = generalModeTransactions(strided(0, 128), 4);
  ASSERT_TRUE(column.ok());
  EXPECT_EQ(*column, 32);  // lane l at 128 l: a line each
}

TEST(ClassifyAccessClass, WidthSetsTheThreshold) {
  auto d8 = classifyAccessClass(strided(0, 8), 8);
  ASSERT_TRUE(d8.ok());
  EXPECT_EQ(*d8, AccessClass::Coalesced);  // stride 8 <= 8-B element
  auto d16 = classifyAccessClass(strided(0, 16), 8);
  ASSERT_TRUE(d16.ok());
  EXPECT_EQ(*d16, AccessClass::Uncoalesced);  // stride 16 > 8
}

TEST(ClassifyAccessClass, InactiveLanesAreSkipped) {
  auto a = strided(0, 4);
  a[5] = kInactiveLane;
  auto c = classifyAccessClass(a, 4);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, AccessClass::Uncoalesced);  // lanes 4 → 6: stride 24 - 16 = 8 > 4

  std::vector<long long> one(32, kInactiveLane);
  one[9] = 36;
  auto single = classifyAccessClass(one, 4);
  ASSERT_TRUE(single.ok());
  EXPECT_EQ(*single, AccessClass::Constant);  // no pair of active lanes: max stride 0
}

TEST(PaperTransactions, CustomTableAndNames) {
  const PaperTransactions table{.constant = 3, .coalesced = 5, .uncoalesced = 7};
  EXPECT_EQ(paperTransactions(AccessClass::Constant, table), 3);
  EXPECT_EQ(paperTransactions(AccessClass::Coalesced, table), 5);
  EXPECT_EQ(paperTransactions(AccessClass::Uncoalesced, table), 7);
  EXPECT_STREQ(accessClassName(AccessClass::Constant), "constant");
  EXPECT_STREQ(accessClassName(AccessClass::Coalesced), "coalesced");
  EXPECT_STREQ(accessClassName(AccessClass::Uncoalesced), "uncoalesced");
}

TEST(GeneralModeTransactions, LineSizeAndStraddling) {
  auto lines128 = generalModeTransactions(strided(0, 4), 4, 128);
  ASSERT_TRUE(lines128.ok());
  EXPECT_EQ(*lines128, 1);  // bytes 0..127 → one 128-B line
  std::vector<long long> straddle{62};
  auto s = generalModeTransactions(straddle, 4);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, 2);  // bytes 62..65 → 64-B lines 0, 1
  EXPECT_FALSE(generalModeTransactions(strided(0, 4), 4, 0).ok());
  EXPECT_FALSE(classifyAccessClass(strided(0, 4), 6).ok());
  EXPECT_FALSE(classifyAccessClass({}, 4).ok());
}

}  // namespace
}  // namespace foresight
