// SPDX-License-Identifier: Apache-2.0
/// \file
/// Hints files: domains, a pinned layout, Table 3 overrides, strict keys.
#include "foresight/frontend/skeleton/layout_hints.h"

#include <gtest/gtest.h>

namespace foresight::skeleton {
namespace {

TEST(LayoutHints, DomainPerFactor) {
  Expected<LayoutHints> h = parseLayoutHints(R"(
[domain]
block = [[16, 16], [32, 8]]
fold = [[1, 1]]
stage = { k = [0, 16, 32] }
cache = [["A", "B"], []]
unroll = [true, false]
)",
                                             "h.toml");
  ASSERT_TRUE(h.ok()) << h.error().format();
  EXPECT_FALSE(h->pinned);
  EXPECT_EQ(h->domain.blocks.size(), 2u);
  EXPECT_EQ(h->domain.stages.at("k"), (std::vector<long long>{0, 16, 32}));
  ASSERT_TRUE(h->domain.cacheSets);
  EXPECT_EQ(h->domain.cacheSets->size(), 2u);
  EXPECT_EQ(h->domain.unroll, (std::vector<bool>{true, false}));
}

TEST(LayoutHints, PinnedLayoutAndPeripheralOverrides) {
  Expected<LayoutHints> h = parseLayoutHints(R"(
[layout]
block = [16, 16]
stage = { k = 16 }
cache = ["A", "B"]
unroll = false
[peripheral]
loop_iteration = 4
thread_overhead = 12
)",
                                             "h.toml");
  ASSERT_TRUE(h.ok()) << h.error().format();
  EXPECT_TRUE(h->pinned);
  EXPECT_TRUE(h->domain.stagesExhaustive);
  EXPECT_EQ(h->domain.blocks, (std::vector<std::vector<int>>{{16, 16}}));
  EXPECT_EQ(h->domain.folds, (std::vector<std::vector<int>>{{1, 1}}));  // default: no folding
  EXPECT_EQ(h->domain.unroll, (std::vector<bool>{false}));
  EXPECT_DOUBLE_EQ(h->costs.perLoopIteration, 4);
  EXPECT_DOUBLE_EQ(h->costs.perThreadOverhead, 12);
  EXPECT_DOUBLE_EQ(h->costs.perCachingInst, 2);  // untouched: Table 3
}

TEST(LayoutHints, TraversalOrderInDomainAndLayout) {
  Expected<LayoutHints> d = parseLayoutHints(R"(
[domain]
order = [["r", "c"], ["c", "r"]]
)",
                                             "h.toml");
  ASSERT_TRUE(d.ok()) << d.error().format();
  EXPECT_EQ(d->domain.orders, (std::vector<std::vector<std::string>>{{"r", "c"}, {"c", "r"}}));
  Expected<LayoutHints> l = parseLayoutHints(R"(
[layout]
block = [32]
order = ["c", "r"]
)",
                                             "h.toml");
  ASSERT_TRUE(l.ok()) << l.error().format();
  EXPECT_EQ(l->domain.orders, (std::vector<std::vector<std::string>>{{"c", "r"}}));
  EXPECT_FALSE(parseLayoutHints("[domain]\norder = []\n", "h.toml").ok());
  EXPECT_FALSE(parseLayoutHints("[layout]\nblock = [32]\norder = [1]\n", "h.toml").ok());
}

TEST(LayoutHints, UnknownKeysAreErrorsWithSuggestions) {
  Expected<LayoutHints> h =
      parseLayoutHints("[layout]\nblock = [16, 16]\nfolds = [2, 2]\n", "h.toml");
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.error().format(),
            "h.toml:3:1: error: unknown key 'layout.folds'; did you mean 'fold'?");
  h = parseLayoutHints("[layout]\nblock = [16, 0]\n", "h.toml");
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.error().message.find("positive integers"), std::string::npos);
  h = parseLayoutHints("[layout]\nblock = [16]\n[domain]\nunroll = [true]\n", "h.toml");
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.error().message.find("not both"), std::string::npos);
}

}  // namespace
}  // namespace foresight::skeleton
