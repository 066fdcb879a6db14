// SPDX-License-Identifier: Apache-2.0
/// \file
/// `placeKernel`: what `foresight place` computes for one launch, as a library call — PORPLE's
/// data placement (seed 002; docs/place.md). The kernel's global accesses are profiled
/// (access_profile.h), the placement model scores plans over an MSL description of the GPU
/// (an MSL file, or the one derived from the GPU description: msl.h), the search picks a plan
/// (search.h), and the timing model `predict` uses predicts the original kernel and each ranked
/// plan that it can express.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "foresight/advise/placement/access_profile.h"
#include "foresight/advise/placement/porple_model.h"
#include "foresight/advise/placement/search.h"
#include "foresight/gpu/msl.h"
#include "foresight/ir/kernel_input.h"
#include "foresight/model/model_options.h"
#include "foresight/model/prediction.h"

namespace foresight {

/// Options of placeKernel().
struct PlaceOptions {
  /// The memory specification: nullopt = derived from the GPU (mslFromGpu).
  std::optional<MslSpec> msl;
  ProfileOptions profile;
  PorpleModelOptions model;
  SearchOptions search;
  /// The timing model of the predicted times (predict's, resolved).
  ModelOptions timing;
  /// Ranked plans reported (the best by the placement model, after the chosen one).
  int ranked = 5;
};

/// One plan with its scores.
struct ScoredPlan {
  std::string label;  ///< "chosen", "original", "rule-based", "alternative"
  Plan plan;
  double modelCost = 0;  ///< the placement model's T (lower is better)
  /// The timing model's time for the kernel with this placement applied; nullopt when the plan
  /// places an array where the timing model cannot follow it yet (`timingNote` says which).
  std::optional<double> seconds;
  std::string timingNote;
};

/// Everything a place report shows.
struct PlaceResult {
  AccessProfile profile;
  MslSpec msl;
  PorpleModelOptions model;                       ///< the placement model's options
  SearchMethod requested = SearchMethod::Hybrid;  ///< the search asked for
  SearchResult search;                            ///< what it found (`method`: the search that found the plan)
  std::vector<ScoredPlan> plans;  ///< chosen first, then original, rule-based, alternatives
  PlanCost chosenCost;            ///< per path and array
  PlanCost originalCost;
  /// Per array and placement (indexed by Placement): why it is not offered ("" = offered).
  std::vector<std::vector<std::string>> whyNot;
  Prediction original;  ///< the timing model's prediction of the kernel as written
  std::vector<std::string> warnings;
};

/// Places the global arrays of one launch. Errors for a kernel without resolved per-lane
/// addresses (non-CUDA inputs), without global arrays, or that cannot run on the GPU.
[[nodiscard]] Expected<PlaceResult> placeKernel(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                                const PlaceOptions& options);

/// The kernel with a plan applied where the timing models can express it: arrays placed in the
/// read-only or texture path load with `ld.global.nc`, constant arrays become constant-space
/// accesses. Returns nullopt (and names the first array in `why`) when the plan places an array
/// in shared memory or the persisting L2, which the timing models do not take yet.
[[nodiscard]] std::optional<KernelInput> applyPlacement(const KernelInput& kernel, const AccessProfile& profile,
                                                        const Plan& plan, std::string& why);

}  // namespace foresight
