// SPDX-License-Identifier: Apache-2.0
// The bound-load analysis (bound_loads.h) over hand-written ISA-neutral facts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "foresight/frontend/cuda/bound_loads.h"

namespace foresight::cuda {
namespace {

/// `if (mask[t]) for (int i = node[t].start;\n i < end; i++)`: instruction 0 loads the mask into
/// r1 (line 10), 1 loads the start into r1 again (line 12: the register reused), 2–3 are the loop
/// (header stepping r1 by 1 and comparing it with r2, the back edge tested on line 13), 4 exits.
struct Kernel {
  std::string path = "/src/k.cu";
  std::vector<BoundLoadFacts> facts;
  PtxCfg cfg;
  Kernel() {
    facts.resize(5);
    for (BoundLoadFacts& f : facts) f.path = &path;
    facts[0] = {&path, 10, true, 1, {1}};
    facts[1] = {&path, 12, true, 1, {1}};
    facts[2].line = 13;
    facts[2].stepped = 1;
    facts[2].stepBy = 1;
    facts[2].indexStep = true;
    facts[2].defs = {1};
    facts[2].compared = {1, 2};
    facts[3].line = 13;
    facts[4].line = 15;
    std::vector<char> leader = {1, 0, 1, 0, 1, 0};
    cfg = linkCfg(leader, [](int i) {
      if (i == 3) return BlockEnd{BlockEnd::Kind::kBranch, 2, true};
      if (i == 4) return BlockEnd{BlockEnd::Kind::kExit, -1, false};
      return BlockEnd{};
    });
  }
};

TEST(BoundLoads, OnlyTheLoadThatReachesTheLoopSeedsIt) {
  // The start's load (1) seeds the induction variable r1 and is its bound load: N (one load,
  // step 1). The mask's load (0) wrote r1 too, but 1 overwrote it before the loop: not a seed.
  Kernel k;
  const auto loads = findBoundLoads(k.cfg, k.facts, {{"k.cu", 13, 7}});
  ASSERT_EQ(loads.size(), 1u);
  ASSERT_TRUE(loads.count(1));
  EXPECT_EQ(loads.at(1).first, 7);
  EXPECT_FALSE(loads.at(1).second);
  // Without the second load, the mask's load reaches the loop and is the seed.
  k.facts[1].load = false;
  k.facts[1].defs.clear();
  const auto reaching = findBoundLoads(k.cfg, k.facts, {{"k.cu", 13, 7}});
  ASSERT_EQ(reaching.size(), 1u);
  EXPECT_TRUE(reaching.count(0));
  // A hint for another file or line finds none.
  EXPECT_TRUE(findBoundLoads(k.cfg, k.facts, {{"other.cu", 13, 7}}).empty());
}

TEST(BoundLoads, StepOfTheComparedRegisterScalesTheBound) {
  // r1 stepped by 32 (a strided loop): N iterations need bounds 32·N apart.
  Kernel k;
  k.facts[2].stepBy = 32;
  const auto loads = findBoundLoads(k.cfg, k.facts, {{"k.cu", 13, 7}});
  ASSERT_TRUE(loads.count(1));
  EXPECT_EQ(loads.at(1).first, 7 * 32);
}

}  // namespace
}  // namespace foresight::cuda
