// SPDX-License-Identifier: Apache-2.0
// The one warp executor (warp_executor.h) over a toy instruction set: the rules the PTX and the
// SASS run share — branch and exit hints, predicated bodies, the library default, the one error
// for unhinted branches, the budget — checked once, without either real ISA.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "foresight/frontend/cuda/warp_executor.h"

namespace foresight::cuda {
namespace {

enum class Guard { kNone, kTrue, kFalse, kUnknown };

struct ToyInstruction {
  Flow flow = Flow::kOther;
  Guard guard = Guard::kNone;
  int line = 1;
  int target = -1;  ///< branch target instruction
  bool library = false;
};

/// A kernel of toy instructions and what the executor asked of it.
struct Toy {
  std::vector<ToyInstruction> code;
  std::string path = "/src/toy.cu";
  std::vector<int> executedIndex;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> executed;  ///< (on, undecided) per execute()
  PtxCfg cfg;

  explicit Toy(std::vector<ToyInstruction> c) : code(std::move(c)) {
    const int n = static_cast<int>(code.size());
    std::vector<char> leader(static_cast<size_t>(n) + 1, 0);
    leader[0] = 1;
    for (int i = 0; i < n; ++i) {
      if (code[i].flow != Flow::kOther) leader[static_cast<size_t>(i) + 1] = 1;
      if (code[i].target >= 0) leader[static_cast<size_t>(code[i].target)] = 1;
    }
    cfg = linkCfg(leader, [&](int i) {
      const ToyInstruction& x = code[static_cast<size_t>(i)];
      const bool guarded = x.guard != Guard::kNone;
      if (x.flow == Flow::kBranch) return BlockEnd{BlockEnd::Kind::kBranch, x.target, guarded};
      if (x.flow == Flow::kExit) return BlockEnd{BlockEnd::Kind::kExit, -1, guarded};
      return BlockEnd{};
    });
  }

  Expected<WarpTrace> run(std::vector<TripHint> trips, std::vector<BranchHint> branches, long long maxInstructions = 1000) {
    ExecutionSetup setup;
    setup.cfg = &cfg;
    setup.valid = 0xffffffffu;
    setup.trips = &trips;
    setup.branches = &branches;
    setup.maxInstructions = maxInstructions;
    setup.recordStream = true;
    setup.foldLoops = false;
    setup.kernelName = "toy";
    WarpExecution ex(std::move(setup), code.size());
    auto isa = makeIsa(
        [&](int i) { return code[static_cast<size_t>(i)].flow; },
        [&](int i, std::uint32_t m) {
          switch (code[static_cast<size_t>(i)].guard) {
            case Guard::kNone:
            case Guard::kTrue: return GuardLanes{m, 0, kOriginMemory};
            case Guard::kFalse: return GuardLanes{0, 0, kOriginMemory};
            case Guard::kUnknown: return GuardLanes{0, m, kOriginMemory};
          }
          return GuardLanes{};
        },
        [&](int i) {
          const ToyInstruction& x = code[static_cast<size_t>(i)];
          return SourceLocation{path, x.line, "toy.cu:" + std::to_string(x.line), "toy.cu", x.library, x.library ? "f" : ""};
        },
        [&](int i, std::uint32_t on, std::uint32_t undecided, int) -> Expected<void> {
          executedIndex.push_back(i);
          executed.emplace_back(on, undecided);
          return {};
        },
        [] { return 0; }, [](int, int, int, int, folding::Int128&) { return std::optional<int>(0); }, [](int, long long) {});
    return ex.run(isa);
  }
};

constexpr Flow kOther = Flow::kOther;
constexpr Flow kBranch = Flow::kBranch;
constexpr Flow kExit = Flow::kExit;

/// `if (c) { body }` as compilers branch it: the branch over the body (line 2) to the end.
Toy ifBody(bool library = false) {
  return Toy({{kOther, Guard::kNone, 1}, {kBranch, Guard::kUnknown, 2, 3, library}, {kOther, Guard::kNone, 3}, {kExit, Guard::kNone, 4}});
}

TEST(WarpExecutor, BranchProbabilitySendsThatShareOfTheLanesToTheTarget) {
  // P = 0.25 of the branch over the body: round(0.25 × 32) = 8 lanes (the first) skip it, 24 run
  // it; both edges are taken once and the warp reconverges at the exit block.
  Toy toy = ifBody();
  Expected<WarpTrace> t = toy.run({}, {{"toy.cu", 2, 0.25}});
  ASSERT_TRUE(t) << t.error().format();
  EXPECT_EQ(t->instructions[2].executions, 1);
  EXPECT_EQ(t->instructions[2].activeLanes, 24);
  EXPECT_EQ(t->instructions[3].activeLanes, 32);
  ASSERT_EQ(t->hintedBranches.size(), 1u);
  EXPECT_EQ(t->hintedBranches[0].how, "probability 0.250000");
  EXPECT_EQ(t->edges[toy.cfg.blockOf[1]].size(), 2u);
  // The stream records the branch with the lanes that evaluate it, the body with its 24 (the 8
  // taken lanes reach the join point at once, and wait there).
  ASSERT_EQ(t->stream.size(), 4u);
  EXPECT_EQ(t->stream[1], std::make_pair(1, 0xffffffffu));
  EXPECT_EQ(t->stream[2], std::make_pair(2, 0xffffff00u));
  EXPECT_EQ(t->dynamicInstructions, 4);
}

TEST(WarpExecutor, UnhintedBranchIsOneErrorWithItsFixAfterTheDefault) {
  Toy toy = ifBody();
  Expected<WarpTrace> t = toy.run({}, {});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message,
            "kernel 'toy': the branch at toy.cu:2 depends on values loaded from memory; give the probability that its "
            "`if` runs the body with --branch toy.cu:2=P");
  EXPECT_EQ(t.error().file, "toy.cu");
  EXPECT_EQ(t.error().line, 2);
}

/// An `if` (line 2) before a loop whose test is at its end (line 6: the back edge).
Toy ifThenLoop() {
  return Toy({{kOther, Guard::kNone, 1},
              {kBranch, Guard::kUnknown, 2, 3},
              {kOther, Guard::kNone, 3},
              {kOther, Guard::kNone, 5},
              {kBranch, Guard::kUnknown, 6, 3},
              {kExit, Guard::kNone, 7}});
}

TEST(WarpExecutor, EveryUnhintedBranchInOneErrorEachWithItsOption) {
  Toy toy = ifThenLoop();
  Expected<WarpTrace> t = toy.run({}, {});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message,
            "kernel 'toy': 2 branches depend on data the launch does not give: (1) the branch at toy.cu:2 depends on "
            "values loaded from memory; give the probability that its `if` runs the body with --branch toy.cu:2=P; (2) "
            "the branch at toy.cu:6 depends on values loaded from memory; give the loop's trip count with --trip "
            "toy.cu:6=N");
  EXPECT_EQ(t.error().line, 2);
}

TEST(WarpExecutor, TripHintRunsTheLoopNTimesAndABranchHintThereIsRefused) {
  // The test follows the body (a later block of the loop): it stays N − 1 = 4 times, so the body
  // runs 5 times; the `if` is taken by every lane (P = 1): the body on line 3 never runs.
  Toy toy = ifThenLoop();
  Expected<WarpTrace> t = toy.run({{"toy.cu", 6, 5}}, {{"toy.cu", 2, 1.0}});
  ASSERT_TRUE(t) << t.error().format();
  EXPECT_EQ(t->instructions[2].executions, 0);
  EXPECT_EQ(t->instructions[3].executions, 5);
  EXPECT_EQ(t->instructions[4].executions, 5);
  Expected<WarpTrace> refused = toy.run({}, {{"toy.cu", 2, 1.0}, {"toy.cu", 6, 0.5}});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "kernel 'toy': the branch at toy.cu:6 decides a loop; give its trip count with --trip toy.cu:6=N instead of "
            "--branch");
  EXPECT_EQ(refused.error().line, 6);
}

TEST(WarpExecutor, PredicatedBodyRunsInOneMinusPOrUndecidedInEveryLane) {
  // An if-converted body instruction (line 2, unknown guard): with P = 0.25 for the branch over
  // it, it runs in 24 lanes; without a hint in all 32, as undecided (its results unknown there).
  Toy toy({{kOther, Guard::kNone, 1}, {kOther, Guard::kUnknown, 2}, {kExit, Guard::kNone, 3}});
  Expected<WarpTrace> hinted = toy.run({}, {{"toy.cu", 2, 0.25}});
  ASSERT_TRUE(hinted) << hinted.error().format();
  ASSERT_EQ(toy.executed.size(), 2u);
  EXPECT_EQ(toy.executed[1], std::make_pair(0x00ffffffu, 0u));
  EXPECT_EQ(hinted->stream[1], std::make_pair(1, 0x00ffffffu));
  EXPECT_EQ(hinted->hintedBranches.at(0).how, "probability 0.250000 (predicated body)");
  toy.executed.clear();
  Expected<WarpTrace> plain = toy.run({}, {});
  ASSERT_TRUE(plain) << plain.error().format();
  ASSERT_EQ(toy.executed.size(), 2u);
  EXPECT_EQ(toy.executed[1], std::make_pair(0u, 0xffffffffu));
  EXPECT_EQ(plain->stream[1], std::make_pair(1, 0xffffffffu));
}

TEST(WarpExecutor, DataDependentExitIsABranchToTheEnd) {
  // `@p EXIT` on unknown data (line 2): P = 0.25 of the lanes leave, 24 run on.
  Toy toy({{kOther, Guard::kNone, 1}, {kExit, Guard::kUnknown, 2}, {kOther, Guard::kNone, 3}, {kExit, Guard::kNone, 4}});
  Expected<WarpTrace> t = toy.run({}, {{"toy.cu", 2, 0.25}});
  ASSERT_TRUE(t) << t.error().format();
  EXPECT_EQ(t->instructions[2].activeLanes, 24);
  Expected<WarpTrace> unhinted = toy.run({}, {});
  ASSERT_FALSE(unhinted);
  EXPECT_EQ(unhinted.error().line, 2);
}

TEST(WarpExecutor, SourceLevelHintIsTheShareThatRunsTheIfsBody) {
  // `if (c) { body }` read from the source (IfBody::kStatement): P = 0.25 runs the body in 8
  // lanes, so the compiled branch over it (to the join point) is taken by 24.
  Toy toy = ifBody();
  BranchHint h{"toy.cu", 2, 0.25, IfBody::kStatement};
  Expected<WarpTrace> t = toy.run({}, {h});
  ASSERT_TRUE(t) << t.error().format();
  EXPECT_EQ(t->instructions[2].activeLanes, 8);
  // A predicated body instruction runs in P of the undecided lanes.
  Toy predicated({{kOther, Guard::kNone, 1}, {kOther, Guard::kUnknown, 2}, {kExit, Guard::kNone, 3}});
  ASSERT_TRUE(predicated.run({}, {h}));
  EXPECT_EQ(predicated.executed.at(1), std::make_pair(0x000000ffu, 0u));
  // An exit ahead of a statement body skips it: 24 lanes leave, 8 run on; `if (c) return;`
  // (IfBody::kReturn) is the exit itself: 8 leave, 24 run on.
  Toy exits({{kOther, Guard::kNone, 1}, {kExit, Guard::kUnknown, 2}, {kOther, Guard::kNone, 3}, {kExit, Guard::kNone, 4}});
  Expected<WarpTrace> skip = exits.run({}, {h});
  ASSERT_TRUE(skip);
  EXPECT_EQ(skip->instructions[2].activeLanes, 8);
  Expected<WarpTrace> ret = exits.run({}, {{"toy.cu", 2, 0.25, IfBody::kReturn}});
  ASSERT_TRUE(ret);
  EXPECT_EQ(ret->instructions[2].activeLanes, 24);
  // `if (c) return;` as a branch to an exit block (line 2 → instruction 3): the branch is the
  // body, taken by P = 0.25 of the lanes; the 24 others run instruction 2.
  Toy early({{kOther, Guard::kNone, 1}, {kBranch, Guard::kUnknown, 2, 3}, {kOther, Guard::kNone, 3}, {kExit, Guard::kNone, 4}});
  Expected<WarpTrace> e = early.run({}, {{"toy.cu", 2, 0.25, IfBody::kReturn}});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->instructions[2].activeLanes, 24);
}

TEST(WarpExecutor, LibraryBranchTakesTheDefaultWithANote) {
  // Library code falls through (not a loop): the body runs in every lane; no error.
  Toy toy = ifBody(true);
  Expected<WarpTrace> t = toy.run({}, {});
  ASSERT_TRUE(t) << t.error().format();
  EXPECT_EQ(t->instructions[2].activeLanes, 32);
  ASSERT_EQ(t->hintedBranches.size(), 1u);
  EXPECT_EQ(t->hintedBranches[0].how, "the default for library code (f): falls through");
}

TEST(WarpExecutor, BudgetStopsTheWarpWithTheLine) {
  Toy toy = ifBody();
  Expected<WarpTrace> t = toy.run({}, {{"toy.cu", 2, 0.0}}, 3);
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message,
            "kernel 'toy': one warp executes more than 3 instructions (loop at toy.cu:4 may not terminate for this launch)");
  EXPECT_EQ(t.error().line, 4);
}

}  // namespace
}  // namespace foresight::cuda
