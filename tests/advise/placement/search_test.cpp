// SPDX-License-Identifier: Apache-2.0
/// \file
/// PORPLE's placement searches on small test models: branch-and-bound against exhaustive
/// enumeration on random instances, the greedy Procedure 1 and the hybrid on hand-worked
/// examples, the node limit, a 16-array case, and the rule-based baseline.
#include "foresight/advise/placement/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace foresight {
namespace {

constexpr long long kUnlimited = std::numeric_limits<long long>::max();
constexpr std::array kMethods = {SearchMethod::Greedy, SearchMethod::BranchAndBound, SearchMethod::Hybrid,
                                 SearchMethod::Exhaustive};

/// A test cost model. Each (array, placement) has a base cost and a path (0 or 1); the cost of
/// a plan sums each placed array's cost onto its path and adds the two paths (Sum) or takes the
/// larger (PathMax, PORPLE's max over paths). Arrays on texture share one cache: each one's cost
/// is its base × (1 + sharing × (k − 1)) with k arrays on texture, so the hit share falls as more
/// arrays use it (not additive, still monotone). Constant and shared memory have byte capacities.
class TableModel : public PlanEvaluator {
 public:
  enum class Combine { Sum, PathMax };

  std::vector<std::vector<Placement>> offered;                 ///< per array, Global first
  std::vector<std::array<double, kNumPlacements>> base;        ///< per array and placement
  std::vector<std::array<int, kNumPlacements>> path;           ///< per array and placement
  std::vector<long long> bytes;                                ///< per array
  Combine combine = Combine::Sum;
  double sharing = 0;
  long long constantCapacity = kUnlimited;
  long long sharedCapacity = kUnlimited;

  /// n arrays offering `options`, every cost `global` on Global and 0 elsewhere, path 0, 1 byte.
  TableModel(int n, const std::vector<Placement>& options) {
    for (int i = 0; i < n; ++i) {
      offered.push_back(options);
      base.push_back({});
      path.push_back({});
      bytes.push_back(1);
    }
  }
  void set(int i, Placement p, double c, int onPath = 0) {
    base[static_cast<size_t>(i)][static_cast<size_t>(p)] = c;
    path[static_cast<size_t>(i)][static_cast<size_t>(p)] = onPath;
  }

  [[nodiscard]] int arrays() const override { return static_cast<int>(offered.size()); }
  [[nodiscard]] std::vector<Placement> options(int i) const override { return offered[static_cast<size_t>(i)]; }
  [[nodiscard]] double cost(const PartialPlan& plan) const override {
    const auto onTexture = std::count(plan.begin(), plan.end(), std::optional<Placement>(Placement::Texture));
    std::array<double, 2> sums{0, 0};
    for (size_t i = 0; i < plan.size(); ++i) {
      if (!plan[i]) continue;
      const auto p = static_cast<size_t>(*plan[i]);
      double c = base[i][p];
      if (*plan[i] == Placement::Texture) c *= 1 + sharing * static_cast<double>(onTexture - 1);
      sums[static_cast<size_t>(path[i][p])] += c;
    }
    return combine == Combine::Sum ? sums[0] + sums[1] : std::max(sums[0], sums[1]);
  }
  [[nodiscard]] bool fits(const PartialPlan& plan) const override {
    long long constant = 0, shared = 0;
    for (size_t i = 0; i < plan.size(); ++i) {
      if (plan[i] == Placement::Constant) constant += bytes[i];
      if (plan[i] == Placement::Shared) shared += bytes[i];
    }
    return constant <= constantCapacity && shared <= sharedCapacity;
  }
};

/// A plan as PORPLE's letters (G, R, T, S, C, P), for readable comparisons.
std::string letters(const Plan& plan) {
  std::string s;
  for (Placement p : plan) s += "GRTSCP"[static_cast<int>(p)];
  return s;
}

PartialPlan partial(const Plan& plan) { return PartialPlan(plan.begin(), plan.end()); }

SearchResult search(const PlanEvaluator& e, SearchMethod method, long long nodeLimit = 1'000'000) {
  SearchOptions o;
  o.method = method;
  o.nodeLimit = nodeLimit;
  return searchPlacement(e, o);
}

/// A random instance: n arrays, Global plus m − 1 other placements each (enum order), integer
/// costs (Global 50–100, others 1–100), random paths, sizes 1–4 bytes, capacities 0–8 bytes;
/// Sum or PathMax, with or without texture sharing. `constant`: whether Constant may be offered.
TableModel randomModel(std::mt19937& rng, int n, int m, bool constant = true) {
  std::vector<Placement> others = {Placement::ReadOnly, Placement::Texture, Placement::Shared, Placement::PersistingL2};
  if (constant) others.push_back(Placement::Constant);
  TableModel t(n, {Placement::Global});
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int i = 0; i < n; ++i) {
    std::shuffle(others.begin(), others.end(), rng);
    std::vector<Placement> opts(others.begin(), others.begin() + std::min<int>(m - 1, static_cast<int>(others.size())));
    std::sort(opts.begin(), opts.end());
    opts.insert(opts.begin(), Placement::Global);
    t.offered[static_cast<size_t>(i)] = opts;
    t.set(i, Placement::Global, uniform(50, 100), uniform(0, 1));
    for (size_t k = 1; k < opts.size(); ++k) t.set(i, opts[k], uniform(1, 100), uniform(0, 1));
    t.bytes[static_cast<size_t>(i)] = uniform(1, 4);
  }
  t.combine = uniform(0, 1) == 0 ? TableModel::Combine::Sum : TableModel::Combine::PathMax;
  t.sharing = uniform(0, 1) == 0 ? 0.0 : 0.5;
  t.constantCapacity = uniform(0, 8);
  t.sharedCapacity = uniform(0, 8);
  return t;
}

TEST(PlacementSearch, BranchAndBoundAgreesWithExhaustiveOnRandomInstances) {
  std::mt19937 rng(2024);
  long long bnbEvaluations = 0, exhaustiveEvaluations = 0;
  for (int instance = 0; instance < 200; ++instance) {
    const int n = std::uniform_int_distribution<int>(2, 7)(rng);
    const int m = std::uniform_int_distribution<int>(2, 5)(rng);
    const TableModel t = randomModel(rng, n, m);
    const SearchResult bnb = search(t, SearchMethod::BranchAndBound);
    const SearchResult all = search(t, SearchMethod::Exhaustive);
    const SearchResult hybrid = search(t, SearchMethod::Hybrid);
    SCOPED_TRACE("instance " + std::to_string(instance) + ": n=" + std::to_string(n) + " m=" + std::to_string(m));
    EXPECT_TRUE(bnb.optimal);
    EXPECT_TRUE(all.optimal);
    EXPECT_EQ(bnb.method, SearchMethod::BranchAndBound);
    EXPECT_EQ(all.method, SearchMethod::Exhaustive);
    EXPECT_EQ(bnb.cost, all.cost);
    // Both keep the first cheapest plan in lexicographic order, so they agree on the plan too.
    EXPECT_EQ(letters(bnb.plan), letters(all.plan));
    EXPECT_TRUE(t.fits(partial(bnb.plan)));
    EXPECT_EQ(t.cost(partial(bnb.plan)), bnb.cost);
    // The space (≤ 5^7) is under the node limit: the hybrid is exact as well.
    EXPECT_TRUE(hybrid.optimal);
    EXPECT_EQ(hybrid.cost, all.cost);
    bnbEvaluations += bnb.evaluations;
    exhaustiveEvaluations += all.evaluations;
  }
  std::cout << "[ search   ] 200 instances: branch-and-bound " << static_cast<double>(bnbEvaluations) / 200
            << " evaluations per instance, exhaustive " << static_cast<double>(exhaustiveEvaluations) / 200 << "\n";
  EXPECT_LT(bnbEvaluations, exhaustiveEvaluations);
}

TEST(PlacementSearch, GreedyNeverBeatsExhaustive) {
  std::mt19937 rng(7);
  int equal = 0;
  for (int instance = 0; instance < 200; ++instance) {
    const int n = std::uniform_int_distribution<int>(2, 7)(rng);
    const int m = std::uniform_int_distribution<int>(2, 5)(rng);
    const TableModel t = randomModel(rng, n, m);
    const SearchResult greedy = search(t, SearchMethod::Greedy);
    const SearchResult all = search(t, SearchMethod::Exhaustive);
    SCOPED_TRACE("instance " + std::to_string(instance));
    EXPECT_EQ(greedy.method, SearchMethod::Greedy);
    EXPECT_FALSE(greedy.optimal);
    EXPECT_TRUE(t.fits(partial(greedy.plan)));
    EXPECT_EQ(t.cost(partial(greedy.plan)), greedy.cost);
    EXPECT_GE(greedy.cost, all.cost);
    equal += greedy.cost == all.cost;
  }
  EXPECT_GT(equal, 0);
}

TEST(PlacementSearch, GreedyIsExactOnAdditiveSeparableInstances) {
  // Sum of independent per-array costs, no capacities, no constant memory: step 9 picks each
  // array's own cheapest option (ties: the earlier option), which is the optimum.
  std::mt19937 rng(11);
  for (int instance = 0; instance < 100; ++instance) {
    const int n = std::uniform_int_distribution<int>(2, 7)(rng);
    const int m = std::uniform_int_distribution<int>(2, 5)(rng);
    TableModel t = randomModel(rng, n, m, /*constant=*/false);
    t.combine = TableModel::Combine::Sum;
    t.sharing = 0;
    t.sharedCapacity = kUnlimited;
    const SearchResult greedy = search(t, SearchMethod::Greedy);
    const SearchResult all = search(t, SearchMethod::Exhaustive);
    SCOPED_TRACE("instance " + std::to_string(instance));
    EXPECT_EQ(greedy.cost, all.cost);
    EXPECT_EQ(letters(greedy.plan), letters(all.plan));
  }
}

TEST(PlacementSearch, GreedyGivesConstantToTheLargerReductionFirst) {
  // Both arrays want constant; 4 bytes each, capacity 4: only one fits. Additive costs:
  //   A0: G 100, T 80, C 70  → δ_t = 20, δ_c = 30
  //   A1: G 100, T 90, C 50  → δ_t = 10, δ_c = 50
  // Step 3: A1 (δ_c 50) takes constant; A0 (δ_c 30) no longer fits and is skipped.
  // Step 9: A0 on {A0, C}: G 100 + 50 = 150, T 80 + 50 = 130, C does not fit → T. Plan TC, 130.
  // (In array order A0 would have taken constant: CT = 70 + 90 = 160.) The optimum is TC too.
  TableModel t(2, {Placement::Global, Placement::Texture, Placement::Constant});
  t.set(0, Placement::Global, 100);
  t.set(0, Placement::Texture, 80);
  t.set(0, Placement::Constant, 70);
  t.set(1, Placement::Global, 100);
  t.set(1, Placement::Texture, 90);
  t.set(1, Placement::Constant, 50);
  t.bytes = {4, 4};
  t.constantCapacity = 4;
  const SearchResult g = search(t, SearchMethod::Greedy);
  EXPECT_EQ(letters(g.plan), "TC");
  EXPECT_DOUBLE_EQ(g.cost, 130);
  // Evaluations: each array alone on G, T, C (3 × 2 = 6), then A0 on G and T (2) = 8.
  EXPECT_EQ(g.evaluations, 8);
  const SearchResult all = search(t, SearchMethod::Exhaustive);
  EXPECT_EQ(letters(all.plan), "TC");
  EXPECT_DOUBLE_EQ(all.cost, 130);
}

TEST(PlacementSearch, GreedyWeighsCacheSharingWithPlacedArrays) {
  // Texture cost × k with k arrays on texture (sharing 1). A0: G 100, T 60 (δ_t 40);
  // A1: G 100, T 70 (δ_t 30). In isolation both prefer texture, but step 9 places A0 first
  // (higher potential): GG 200 vs TG 160 → T; then A1: TG 160 vs TT 2·60 + 2·70 = 260 → G.
  // Exhaustive: GG 200, GT 170, TG 160, TT 260 → TG as well.
  TableModel t(2, {Placement::Global, Placement::Texture});
  t.sharing = 1;
  t.set(0, Placement::Global, 100);
  t.set(0, Placement::Texture, 60);
  t.set(1, Placement::Global, 100);
  t.set(1, Placement::Texture, 70);
  const SearchResult g = search(t, SearchMethod::Greedy);
  EXPECT_EQ(letters(g.plan), "TG");
  EXPECT_DOUBLE_EQ(g.cost, 160);
  const SearchResult all = search(t, SearchMethod::Exhaustive);
  EXPECT_EQ(letters(all.plan), "TG");
  EXPECT_DOUBLE_EQ(all.cost, 160);
}

TEST(PlacementSearch, HybridImprovesOnGreedyWhereConstantFirstMisleads) {
  // One array: G 100, T 90, C 95. δ_c = 5 > 0, so Procedure 1 puts it in constant (95) although
  // texture (90) is better. Greedy evaluations: alone on G, T, C (3) + the final plan (1) = 4.
  // Hybrid: branch-and-bound bounded by 95 visits G (100 ≥ 95, pruned), T (90: best), C (95 ≥ 90,
  // pruned): 3 more evaluations, plan T, produced by branch-and-bound, optimal.
  TableModel t(1, {Placement::Global, Placement::Texture, Placement::Constant});
  t.set(0, Placement::Global, 100);
  t.set(0, Placement::Texture, 90);
  t.set(0, Placement::Constant, 95);
  const SearchResult g = search(t, SearchMethod::Greedy);
  EXPECT_EQ(letters(g.plan), "C");
  EXPECT_DOUBLE_EQ(g.cost, 95);
  EXPECT_EQ(g.evaluations, 4);
  const SearchResult h = search(t, SearchMethod::Hybrid);
  EXPECT_EQ(letters(h.plan), "T");
  EXPECT_DOUBLE_EQ(h.cost, 90);
  EXPECT_EQ(h.method, SearchMethod::BranchAndBound);
  EXPECT_TRUE(h.optimal);
  EXPECT_EQ(h.evaluations, 7);
}

TEST(PlacementSearch, HybridKeepsAnOptimalGreedyPlan) {
  // The cache-sharing example: greedy finds TG (160), the optimum; branch-and-bound bounded by
  // 160 finds nothing strictly better, so the plan stays greedy's, now proven optimal.
  TableModel t(2, {Placement::Global, Placement::Texture});
  t.sharing = 1;
  t.set(0, Placement::Global, 100);
  t.set(0, Placement::Texture, 60);
  t.set(1, Placement::Global, 100);
  t.set(1, Placement::Texture, 70);
  const SearchResult h = search(t, SearchMethod::Hybrid);
  EXPECT_EQ(letters(h.plan), "TG");
  EXPECT_DOUBLE_EQ(h.cost, 160);
  EXPECT_EQ(h.method, SearchMethod::Greedy);
  EXPECT_TRUE(h.optimal);
  // Space 4 > node limit 3: greedy only, not proven.
  const SearchResult limited = search(t, SearchMethod::Hybrid, 3);
  EXPECT_EQ(letters(limited.plan), "TG");
  EXPECT_EQ(limited.method, SearchMethod::Greedy);
  EXPECT_FALSE(limited.optimal);
}

TEST(PlacementSearch, BranchAndBoundCountsNodesAndStopsAtTheLimit) {
  // Two arrays, G 10 / T 5 each, additive. Depth-first: G (10), GG (20, best), GT (15, best),
  // T (5), TG (15 ≥ 15, pruned), TT (10, best): 6 nodes, 6 evaluations, plan TT.
  TableModel t(2, {Placement::Global, Placement::Texture});
  for (int i = 0; i < 2; ++i) {
    t.set(i, Placement::Global, 10);
    t.set(i, Placement::Texture, 5);
  }
  const SearchResult full = search(t, SearchMethod::BranchAndBound, 6);
  EXPECT_EQ(letters(full.plan), "TT");
  EXPECT_DOUBLE_EQ(full.cost, 10);
  EXPECT_TRUE(full.optimal);
  EXPECT_EQ(full.evaluations, 6);
  // Five nodes: stops before TT, with GT (15) the best so far.
  const SearchResult five = search(t, SearchMethod::BranchAndBound, 5);
  EXPECT_EQ(letters(five.plan), "GT");
  EXPECT_DOUBLE_EQ(five.cost, 15);
  EXPECT_FALSE(five.optimal);
  EXPECT_EQ(five.evaluations, 5);
  // One node: no complete plan yet, so the all-global plan (1 + 1 evaluations).
  const SearchResult one = search(t, SearchMethod::BranchAndBound, 1);
  EXPECT_EQ(letters(one.plan), "GG");
  EXPECT_DOUBLE_EQ(one.cost, 20);
  EXPECT_FALSE(one.optimal);
  EXPECT_EQ(one.evaluations, 2);
}

TEST(PlacementSearch, TiesKeepThePlanFoundFirst) {
  // Texture costs what global does: every search keeps global (found first).
  TableModel t(2, {Placement::Global, Placement::Texture, Placement::Shared});
  for (int i = 0; i < 2; ++i) {
    t.set(i, Placement::Global, 10);
    t.set(i, Placement::Texture, 10);
    t.set(i, Placement::Shared, 12);
  }
  for (SearchMethod m : kMethods) {
    const SearchResult r = search(t, m);
    EXPECT_EQ(letters(r.plan), "GG") << searchMethodName(m);
    EXPECT_DOUBLE_EQ(r.cost, 20) << searchMethodName(m);
  }
}

/// 16 arrays × 5 options (space 5^16 ≈ 1.5·10^10), path-max with texture sharing and capacities.
TableModel sixteenArrays() {
  std::mt19937 rng(16);
  TableModel t = randomModel(rng, 16, 5);
  const std::vector<Placement> all = {Placement::Global, Placement::ReadOnly, Placement::Texture, Placement::Shared,
                                      Placement::Constant};
  for (int i = 0; i < 16; ++i) {
    t.offered[static_cast<size_t>(i)] = all;
    t.set(i, Placement::Constant, 10 + i, i % 2);
    t.set(i, Placement::Shared, 30 + i, 0);
  }
  t.combine = TableModel::Combine::PathMax;
  t.sharing = 0.5;
  t.constantCapacity = 8;
  t.sharedCapacity = 8;
  return t;
}

TEST(PlacementSearch, HybridOnSixteenArraysReturnsGreedyQuickly) {
  const TableModel t = sixteenArrays();
  const auto start = std::chrono::steady_clock::now();
  const SearchResult h = search(t, SearchMethod::Hybrid);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ search   ] hybrid, 16 arrays x 5 options: " << seconds * 1e3 << " ms, " << h.evaluations
            << " evaluations, cost " << h.cost << " (" << letters(h.plan) << ")\n";
  EXPECT_EQ(h.method, SearchMethod::Greedy);
  EXPECT_FALSE(h.optimal);
  EXPECT_LT(seconds, 0.5);
  // At most 16 × 5 isolated evaluations and 16 × 5 full-plan ones.
  EXPECT_LE(h.evaluations, 160);
  ASSERT_EQ(h.plan.size(), 16u);
  EXPECT_TRUE(t.fits(partial(h.plan)));
  // Constant does not interact and each step-9 choice includes the current plan: no worse than
  // all-global.
  EXPECT_LE(h.cost, t.cost(PartialPlan(16, Placement::Global)));
  const SearchResult g = search(t, SearchMethod::Greedy);
  EXPECT_EQ(letters(g.plan), letters(h.plan));
  EXPECT_EQ(g.evaluations, h.evaluations);
}

TEST(PlacementSearch, BranchAndBoundOnSixteenArraysStopsAtTheNodeLimit) {
  const TableModel t = sixteenArrays();
  const SearchResult b = search(t, SearchMethod::BranchAndBound, 10'000);
  EXPECT_EQ(b.method, SearchMethod::BranchAndBound);
  EXPECT_FALSE(b.optimal);
  EXPECT_LE(b.evaluations, 10'000);
  EXPECT_TRUE(t.fits(partial(b.plan)));
  EXPECT_EQ(t.cost(partial(b.plan)), b.cost);
}

TEST(PlacementSearch, NoArrays) {
  const TableModel t(0, {Placement::Global});
  for (SearchMethod m : kMethods) {
    const SearchResult r = search(t, m);
    EXPECT_TRUE(r.plan.empty()) << searchMethodName(m);
    EXPECT_DOUBLE_EQ(r.cost, 0) << searchMethodName(m);
  }
}

TEST(PlacementSearch, RuleBasedFollowsJangEtAl) {
  const std::vector<Placement> most = {Placement::Global, Placement::Texture, Placement::Shared, Placement::Constant};
  TableModel t(10, most);
  t.offered[3] = {Placement::Global, Placement::Texture};  // no constant for A3
  t.bytes = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
  t.constantCapacity = 8;  // one array of 8 bytes
  std::vector<ArrayTraits> traits(10);
  traits[0].warpUniform = true;  // read-only, warp-uniform → constant
  traits[1].written = true;      // written, no reuse across threads → global
  traits[1].warpUniform = true;
  traits[2].coalesced = false;  // read-only, uncoalesced → texture
  traits[3].warpUniform = true;  // constant not offered → global
  traits[4].warpUniform = true;  // constant full after A0 → global
  traits[5].sharedReuse = true;  // read-only, reused across the block's threads → shared
  traits[6].temporalReuse = true;  // read-only with reuse → texture
  traits[7].analyzable = false;    // not analysable → global whatever else it says
  traits[7].warpUniform = true;
  traits[8].written = true;  // written with reuse across threads → shared
  traits[8].sharedReuse = true;
  // A9: read-only, coalesced, no reuse → global.
  EXPECT_EQ(letters(ruleBasedPlacement(t, traits)), "CGTGGSTGSG");
  // The shared capacity (8 bytes) then holds A5 only: A8 falls back to global.
  t.sharedCapacity = 8;
  EXPECT_EQ(letters(ruleBasedPlacement(t, traits)), "CGTGGSTGGG");
}

TEST(PlacementSearch, MethodNamesRoundTrip) {
  for (SearchMethod m : kMethods) {
    EXPECT_EQ(parseSearchMethod(searchMethodName(m)), m);
  }
  EXPECT_STREQ(searchMethodName(SearchMethod::Greedy), "greedy");
  EXPECT_STREQ(searchMethodName(SearchMethod::BranchAndBound), "bnb");
  EXPECT_STREQ(searchMethodName(SearchMethod::Hybrid), "hybrid");
  EXPECT_STREQ(searchMethodName(SearchMethod::Exhaustive), "exhaustive");
  EXPECT_EQ(parseSearchMethod("branch-and-bound"), std::nullopt);
  EXPECT_EQ(parseSearchMethod(""), std::nullopt);
}

}  // namespace
}  // namespace foresight
