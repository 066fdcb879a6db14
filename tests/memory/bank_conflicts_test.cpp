// SPDX-License-Identifier: Apache-2.0
/// \file
/// Tests of the shared-memory bank-conflict counts (sm_70+, Kepler 8-byte mode, CC 1.x) and of
/// CGPredict's X degree, including every example of cgpredict.md §4.5.
#include "foresight/memory/bank_conflicts.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

#include "foresight/memory/coalescing.h"

namespace foresight {
namespace {

// Lane l accesses base + l * strideBytes.
std::vector<long long> strided(long long base, long long strideBytes, int lanes = 32) {
  std::vector<long long> out;
  for (int l = 0; l < lanes; ++l) out.push_back(base + l * strideBytes);
  return out;
}

// Byte addresses of 4-byte words with the given indices, one lane each.
std::vector<long long> words(std::initializer_list<long long> indices) {
  std::vector<long long> out;
  for (long long i : indices) out.push_back(4 * i);
  return out;
}

constexpr BankOptions kKepler8Byte{.numBanks = 32, .bankWidthBytes = 8};
constexpr BankOptions kCc1x{.numBanks = 16, .bankWidthBytes = 4, .lanesPerRequest = 16};

// ---- 32 banks × 4 B (sm_50+) -------------------------------------------------------------------

TEST(CountBankConflicts, UnitStrideHasNoConflict) {
  auto r = countBankConflicts(strided(0, 4), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->wavefronts, 1);  // words 0..31 → banks 0..31, one word each
  EXPECT_EQ(r->degree, 1);
  EXPECT_EQ(r->phases, 1);
}

TEST(CountBankConflicts, StrideTwoWordsIsTwoWay) {
  auto r = countBankConflicts(strided(0, 8), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->wavefronts, 2);  // words 0,2,..,62 → banks 0,2,..,30 hold 2 words each
  EXPECT_EQ(r->degree, 2);
}

TEST(CountBankConflicts, OddStrideHasNoConflict) {
  auto r = countBankConflicts(strided(0, 12), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->wavefronts, 1);  // words 3l, l = 0..31: 3l mod 32 is a permutation of the banks
}

TEST(CountBankConflicts, ColumnWalkIsThirtyTwoWay) {
  auto r = countBankConflicts(strided(0, 128), 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->wavefronts, 32);  // words 32 l → all in bank 0, 32 distinct words
  EXPECT_EQ(r->degree, 32);
}

TEST(CountBankConflicts, BroadcastAndMulticast) {
  auto same = countBankConflicts(std::vector<long long>(32, 132), 4);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->wavefronts, 1);  // one word (33) read by every lane

  std::vector<long long> pairs;
  for (int l = 0; l < 32; ++l) pairs.push_back(l / 2 * 4);  // lanes 2k, 2k+1 read word k
  auto multicast = countBankConflicts(pairs, 4);
  ASSERT_TRUE(multicast.ok());
  EXPECT_EQ(multicast->wavefronts, 1);  // words 0..15 in banks 0..15, one each

  auto bytes = countBankConflicts(strided(0, 1), 1);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->wavefronts, 1);  // bytes 0..31 → words 0..7, one per bank
}

TEST(CountBankConflicts, InactiveLanes) {
  auto column = strided(0, 128);
  for (int l = 4; l < 32; ++l) column[l] = kInactiveLane;
  auto r = countBankConflicts(column, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->wavefronts, 4);  // 4 active lanes, words 0, 32, 64, 96 all in bank 0

  auto none = countBankConflicts(std::vector<long long>(32, kInactiveLane), 4);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->wavefronts, 0);
  EXPECT_EQ(none->degree, 0);
}

TEST(CountBankConflicts, SixtyFourBitAccessesGoByHalfWarps) {
  auto unit = countBankConflicts(strided(0, 8), 8);
  ASSERT_TRUE(unit.ok());
  EXPECT_EQ(unit->phases, 2);      // 128 B per pass / 8 B = 16 lanes per phase
  EXPECT_EQ(unit->wavefronts, 2);  // each half: words 0..31 (or 32..63) → banks 0..31 once
  EXPECT_EQ(unit->degree, 1);

  auto stride2 = countBankConflicts(strided(0, 16), 8);
  ASSERT_TRUE(stride2.ok());
  // phase 0: lane l covers words 4l, 4l+1; l = 0..7 → banks {0,1,4,5,..,28,29}, l = 8..15 →
  // words 32..61, the same banks again → 2-way; phase 1 likewise → 2 + 2.
  EXPECT_EQ(stride2->wavefronts, 4);
  EXPECT_EQ(stride2->degree, 2);
}

TEST(CountBankConflicts, OneTwentyEightBitAccessesGoByHalfWarps) {
  auto unit = countBankConflicts(strided(0, 16), 16);
  ASSERT_TRUE(unit.ok());
  EXPECT_EQ(unit->phases, 2);      // at least 16 lanes per phase (128 B / 16 B would be 8)
  EXPECT_EQ(unit->wavefronts, 4);  // each phase covers 256 consecutive bytes: banks 0..31 twice
  EXPECT_EQ(unit->degree, 2);

  auto stride2 = countBankConflicts(strided(0, 32), 16);
  ASSERT_TRUE(stride2.ok());
  // phase 0: lane l covers words 8l..8l+3; l = 0..15 → banks 0-3, 8-11, 16-19, 24-27, each
  // bank 4 distinct words → 4-way; 2 phases × 4.
  EXPECT_EQ(stride2->wavefronts, 8);
  EXPECT_EQ(stride2->degree, 4);

  // Every lane reads one 16-B address: one wavefront per half-warp phase. Measured on an H200:
  // 2.04 wavefronts per such LDS.128 (l1tex__data_pipe_lsu_wavefronts_mem_shared,
  // matmul_coarsened/ry1); quarter-warp phases would give 4.
  auto broadcast = countBankConflicts(std::vector<long long>(32, 64), 16);
  ASSERT_TRUE(broadcast.ok());
  EXPECT_EQ(broadcast->wavefronts, 2);
  EXPECT_EQ(broadcast->degree, 1);
  EXPECT_EQ(broadcast->conflictFree, 2);  // one word set per phase
  EXPECT_EQ(unit->conflictFree, 4);       // 64 distinct words per phase / 32 banks, 2 phases
  EXPECT_EQ(stride2->conflictFree, 4);    // conflicts removed: 64 words per phase fit 2 passes
}

// ---- Kepler 8-byte mode ------------------------------------------------------------------------

TEST(CountBankConflicts, KeplerEightByteMode) {
  auto unit = countBankConflicts(strided(0, 4), 4, kKepler8Byte);
  ASSERT_TRUE(unit.ok());
  EXPECT_EQ(unit->wavefronts, 1);  // bytes 0..127 → 8-B words 0..15, two lanes share each

  auto zero32 = countBankConflicts(words({0, 32}), 4, kKepler8Byte);
  ASSERT_TRUE(zero32.ok());
  EXPECT_EQ(zero32->wavefronts, 1);  // bytes 0, 128 → 8-B words 0, 16 → banks 0, 16
  auto zero32Modern = countBankConflicts(words({0, 32}), 4);
  ASSERT_TRUE(zero32Modern.ok());
  EXPECT_EQ(zero32Modern->wavefronts, 2);  // 4-B banks: both words in bank 0

  auto zero64 = countBankConflicts(words({0, 64}), 4, kKepler8Byte);
  ASSERT_TRUE(zero64.ok());
  EXPECT_EQ(zero64->wavefronts, 2);  // bytes 0, 256 → 8-B words 0, 32 → both bank 0

  auto doubles = countBankConflicts(strided(0, 8), 8, kKepler8Byte);
  ASSERT_TRUE(doubles.ok());
  EXPECT_EQ(doubles->phases, 1);  // 256 B per pass / 8 B = 32 lanes
  EXPECT_EQ(doubles->wavefronts, 1);

  auto column = countBankConflicts(strided(0, 256), 8, kKepler8Byte);
  ASSERT_TRUE(column.ok());
  EXPECT_EQ(column->wavefronts, 32);  // 8-B words 32 l → bank 0, 32 distinct words
}

// ---- CC 1.x: 16 banks, half-warp requests ------------------------------------------------------

TEST(CountBankConflicts, ComputeCapability1x) {
  auto unit = countBankConflicts(strided(0, 4), 4, kCc1x);
  ASSERT_TRUE(unit.ok());
  EXPECT_EQ(unit->phases, 2);      // two half-warps
  EXPECT_EQ(unit->wavefronts, 2);  // each: words 0..15 → banks 0..15 once

  auto stride2 = countBankConflicts(strided(0, 8), 4, kCc1x);
  ASSERT_TRUE(stride2.ok());
  EXPECT_EQ(stride2->wavefronts, 4);  // per half: words 2l → banks 0,2,..,14 twice → 2 + 2
  EXPECT_EQ(stride2->degree, 2);

  auto stride16 = countBankConflicts(strided(0, 64), 4, kCc1x);
  ASSERT_TRUE(stride16.ok());
  EXPECT_EQ(stride16->wavefronts, 32);  // per half: 16 words in bank 0 → 16 + 16

  auto doubles = countBankConflicts(strided(0, 8), 8, kCc1x);
  ASSERT_TRUE(doubles.ok());
  EXPECT_EQ(doubles->phases, 4);      // 64 B per pass / 8 B = 8 lanes per phase
  EXPECT_EQ(doubles->wavefronts, 4);  // 2 per half-warp: the guide's 2-way for doubles
}

TEST(CountBankConflicts, RejectsInvalidInput) {
  EXPECT_FALSE(countBankConflicts({}, 4).ok());
  EXPECT_FALSE(countBankConflicts(strided(0, 4), 12).ok());
  EXPECT_FALSE(countBankConflicts(strided(0, 4), 4, {.numBanks = 0}).ok());
  EXPECT_FALSE(countBankConflicts(strided(0, 4), 4, {.bankWidthBytes = 6}).ok());
  EXPECT_FALSE(countBankConflicts(strided(0, 4), 4, {.lanesPerRequest = 0}).ok());
}

// ---- CGPredict X (cgpredict.md §4.5) -----------------------------------------------------------

TEST(CgpredictConflictDegree, DigestExamples) {
  auto sameSegment = cgpredictConflictDegree(words({0, 32}), 4);
  ASSERT_TRUE(sameSegment.ok());
  EXPECT_EQ(*sameSegment, 1);  // bank 0, both in 64-word segment 0: served together

  auto twoSegments = cgpredictConflictDegree(words({59, 91}), 4);
  ASSERT_TRUE(twoSegments.ok());
  EXPECT_EQ(*twoSegments, 2);  // bank 27; 59 in segment 0, 91 in segment 1

  auto differentBanks = cgpredictConflictDegree(words({96, 35}), 4);
  ASSERT_TRUE(differentBanks.ok());
  EXPECT_EQ(*differentBanks, 1);  // banks 0 and 3

  auto broadcast = cgpredictConflictDegree(std::vector<long long>(32, 4), 4);
  ASSERT_TRUE(broadcast.ok());
  EXPECT_EQ(*broadcast, 1);  // word [1] many times

  auto sameBankSegment = cgpredictConflictDegree(words({1, 33}), 4);
  ASSERT_TRUE(sameBankSegment.ok());
  EXPECT_EQ(*sameBankSegment, 1);  // bank 1, segment 0
  auto modern = countBankConflicts(words({1, 33}), 4);
  ASSERT_TRUE(modern.ok());
  EXPECT_EQ(modern->wavefronts, 2);  // whereas 4-B banks (sm_50+) serialize them
}

TEST(CgpredictConflictDegree, TableThreeClasses) {
  auto uncoal = cgpredictConflictDegree(strided(0, 128), 4);
  ASSERT_TRUE(uncoal.ok());
  EXPECT_EQ(*uncoal, 16);  // words 32 l → bank 0; bytes 0..3968 span segments 0..15: X_uncoal

  auto coal = cgpredictConflictDegree(strided(0, 4), 4);
  ASSERT_TRUE(coal.ok());
  EXPECT_EQ(*coal, 1);  // banks 0..31 once: X_coal

  auto constant = cgpredictConflictDegree(std::vector<long long>(32, 512), 4);
  ASSERT_TRUE(constant.ok());
  EXPECT_EQ(*constant, 1);  // X_const

  auto wide = cgpredictConflictDegree(strided(0, 256), 4);
  ASSERT_TRUE(wide.ok());
  EXPECT_EQ(*wide, 32);  // stride 64 words: bank 0, a new segment per lane
}

TEST(CgpredictConflictDegree, InactiveLanesAndOptions) {
  auto column = strided(0, 128);
  for (int l = 8; l < 32; ++l) column[l] = kInactiveLane;
  auto r = cgpredictConflictDegree(column, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 4);  // lanes 0..7 at 128 l: bank 0, segments 0..3

  auto small = cgpredictConflictDegree(words({59, 91}), 4,
                                       {.numBanks = 32, .wordBytes = 4, .segmentBytes = 512});
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(*small, 1);  // 512-B segments: bytes 236 and 364 both in segment 0

  EXPECT_FALSE(cgpredictConflictDegree(words({0}), 4, {.segmentBytes = 0}).ok());
  EXPECT_FALSE(cgpredictConflictDegree({}, 4).ok());
}

}  // namespace
}  // namespace foresight
