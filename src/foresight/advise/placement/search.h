// SPDX-License-Identifier: Apache-2.0
/// \file
/// PORPLE's placement search (seed 002 §4; porple.md §4): branch-and-bound (exact under the
/// model), the greedy Procedure 1 (constant memory first, then arrays by potential), the hybrid
/// of the two, exhaustive enumeration (for checks), and the rule-based baseline of Jang et al.
/// (TPDS 2011) that PORPLE compares against. The searches see the model only through
/// `PlanEvaluator`, so they serve any cost model (the faithful PORPLE model, the modern one).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "foresight/gpu/msl.h"

namespace foresight {

/// A (partial) placement plan: one entry per array; nullopt = not placed yet.
using PartialPlan = std::vector<std::optional<Placement>>;
/// A complete plan: one placement per array.
using Plan = std::vector<Placement>;

/// What a search needs of a cost model.
class PlanEvaluator {
 public:
  virtual ~PlanEvaluator() = default;
  /// Number of arrays.
  [[nodiscard]] virtual int arrays() const = 0;
  /// The placements array `i` may take on its own (read-only, dimensionality, tileability),
  /// Global first and always present.
  [[nodiscard]] virtual std::vector<Placement> options(int i) const = 0;
  /// The model's cost of a plan, counting only the placed arrays (nullopt entries contribute
  /// nothing and take no cache share). Monotone: placing one more array never lowers it. Lower
  /// is better.
  [[nodiscard]] virtual double cost(const PartialPlan& plan) const = 0;
  /// Whether the placed arrays fit together: constant total ≤ its capacity, shared bytes per
  /// block within what keeps occupancy, persisting-L2 bytes within the window limit.
  [[nodiscard]] virtual bool fits(const PartialPlan& plan) const = 0;
};

/// Which search.
enum class SearchMethod {
  Greedy,          ///< Procedure 1
  BranchAndBound,  ///< depth-first, pruned by the best complete cost
  Hybrid,          ///< greedy, then branch-and-bound seeded with its cost when the space is small
  Exhaustive,      ///< every feasible plan (checks only)
};
/// "greedy", "bnb", "hybrid", "exhaustive".
[[nodiscard]] const char* searchMethodName(SearchMethod m);
[[nodiscard]] std::optional<SearchMethod> parseSearchMethod(std::string_view name);

/// Options of searchPlacement().
struct SearchOptions {
  SearchMethod method = SearchMethod::Hybrid;
  /// Hybrid: branch-and-bound runs after the greedy search when the plan space (product of the
  /// options' counts) is at most this; branch-and-bound alone stops (not optimal) after
  /// visiting this many nodes.
  long long nodeLimit = 1'000'000;
};

/// A search's answer.
struct SearchResult {
  Plan plan;
  double cost = 0;
  SearchMethod method = SearchMethod::Greedy;  ///< the search that produced `plan`
  bool optimal = false;       ///< proven best under the model (B&B or exhaustive completed)
  long long evaluations = 0;  ///< calls of PlanEvaluator::cost
};

/// Searches the plans of `evaluator`. The all-global plan always fits, so there is always an
/// answer. Ties are broken towards the plan found first (Global before other options).
[[nodiscard]] SearchResult searchPlacement(const PlanEvaluator& evaluator, const SearchOptions& options = {});

/// What the rule-based baseline knows of an array (static analysis only).
struct ArrayTraits {
  bool written = false;        ///< some access stores to it
  bool analyzable = true;      ///< every access's addresses are known (no data-dependent index)
  bool warpUniform = false;    ///< every read request's active lanes read one address
  bool coalesced = true;       ///< every request touches no more sectors than unit stride would
  bool temporalReuse = false;  ///< a block reads some element more than once (loop-carried reuse)
  bool sharedReuse = false;    ///< elements one thread reads are read by other threads of its block
};

/// Jang et al.'s rules as PORPLE describes them (porple.md §8.1): the same plan on every GPU.
/// An array not analysable, or written, stays global (written arrays: shared only with reuse
/// across threads); a read-only warp-uniform array goes to constant; a read-only array shared
/// across a block's threads with reuse goes to shared; a read-only array with reuse or
/// uncoalesced reads goes to texture; everything else stays global. Options the evaluator does
/// not offer fall back to global, and arrays that would overflow a capacity (fits) fall back to
/// global, in array order.
[[nodiscard]] Plan ruleBasedPlacement(const PlanEvaluator& evaluator, std::span<const ArrayTraits> traits);

}  // namespace foresight
