// SPDX-License-Identifier: Apache-2.0
/// \file
/// PORPLE's placement-quality model (seed 002 §3; porple.md §3, §10.1 items 3–6), faithful:
///
///   T = max over paths p of Σ_{i ∈ A(p)} Σ_{j ∈ memHier(i)} N_ij · T_j · α
///
/// memHier(i) is the chain of memories an access to array i passes through under the plan
/// (MslSpec::hierarchy), N_ij the transactions of i served at level j, T_j the level's latency
/// (read or write), α the concurrency factor of the memory that holds the array (its root).
/// Transactions follow each level's serialization condition (distinct blocks, distinct
/// addresses, bank conflicts, or the generic pairwise rule). The fraction served at a cache comes
/// from the array's reuse-distance histogram at that cache's granularity: an access hits a cache
/// of C blocks shared by k arrays of the plan iff its reuse distance is below C/k (the equal
/// share), and served_j = max(0, P(RD_j < C_j/k_j) − what nearer levels served). A
/// data-dependent access (no resolved address) hits with probability min(1, (C/k) / footprint).
/// The model ranks plans; it does not predict time (`placeKernel` asks the timing model).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "foresight/advise/placement/access_profile.h"
#include "foresight/advise/placement/search.h"
#include "foresight/gpu/gpu.h"
#include "foresight/gpu/msl.h"
#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/launch.h"

namespace foresight {

/// Options of the PORPLE model.
struct PorpleModelOptions {
  /// α from the second (compute-intensive) value of each memory's pair instead of the first.
  bool computeIntensive = false;
  /// TC'17's path-based cost (max over paths); false = MICRO'14's latency-centric sum over all
  /// arrays.
  bool pathBased = true;
  /// Texture: the largest linear texture, elements (tex1Dfetch on linear memory: 2^27).
  long long textureElements = 1LL << 27;
};

/// What one array costs under a plan.
struct ArrayCost {
  Placement placement = Placement::Global;
  std::string path;
  struct Level {
    std::string memory;
    double transactions = 0;  ///< served at this level, per profiled block
    double hitFraction = 0;   ///< of the array's accesses served here
    double latency = 0;       ///< cycles (loads' and stores' mean, weighted)
  };
  std::vector<Level> levels;
  double copyTransactions = 0;  ///< shared: copy-in (+ copy-out) global transactions per block
  double cost = 0;              ///< Σ N · T · α (cycles per profiled block)
};

/// A plan's cost, explained.
struct PlanCost {
  double cost = 0;   ///< PORPLE's T: the slowest path (path-based) or the sum (latency-centric)
  double total = 0;  ///< the sum over all paths
  std::vector<std::pair<std::string, double>> paths;  ///< T(p) per path
  std::vector<ArrayCost> arrays;
};

/// The faithful PORPLE model of one launch, over a profile and an MSL spec.
class PorpleModel final : public PlanEvaluator {
 public:
  /// Precomputes every array's transactions and reuse distances for every memory it may be placed
  /// in. `gpu` gives the occupancy rules for shared staging; `ir` its static shared memory.
  [[nodiscard]] static Expected<std::unique_ptr<PorpleModel>> create(const AccessProfile& profile, const MslSpec& msl,
                                                                     const Gpu& gpu, const KernelIR& ir,
                                                                     const Launch& launch,
                                                                     const PorpleModelOptions& options = {});
  ~PorpleModel() override;

  [[nodiscard]] int arrays() const override;
  [[nodiscard]] std::vector<Placement> options(int i) const override;
  /// PORPLE's T of the placed arrays plus 10^-9 × the sum over all paths: plans whose slowest
  /// paths tie (one path dominates and the other arrays' choices do not move it) are told apart
  /// by their total (a tie-break; PORPLE does not say how ties go). explain() gives T alone.
  [[nodiscard]] double cost(const PartialPlan& plan) const override;
  [[nodiscard]] bool fits(const PartialPlan& plan) const override;

  /// The cost of a complete plan, per path and array.
  [[nodiscard]] PlanCost explain(const Plan& plan) const;
  /// Why an option is not offered to array `i` (empty when it is).
  [[nodiscard]] std::string whyNot(int i, Placement p) const;

 private:
  struct Impl;
  explicit PorpleModel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace foresight
