// SPDX-License-Identifier: Apache-2.0
/// \file
/// A skeleton's layout search as every command runs it (`predict`, `explore`, `explain` and
/// loadWorkload()): read the skeleton with its -D macros and hints file, pin a thread block if
/// one is given, search the layouts on a GPU (advise/layout_search.h) and lower the winner.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "foresight/advise/layout_search.h"
#include "foresight/frontend/skeleton/layout_hints.h"
#include "foresight/gpu/gpu.h"
#include "foresight/ir/kernel_input.h"
#include "foresight/ir/launch.h"
#include "foresight/model/model_options.h"
#include "foresight/model/prediction.h"
#include "foresight/support/error.h"
#include "foresight/support/progress.h"

namespace foresight {

/// What a skeleton's search is asked.
struct SkeletonSearchOptions {
  std::string path;                                         ///< the .sk file
  std::vector<std::pair<std::string, std::string>> macros;  ///< -D NAME=VALUE; values are integers
  std::string hints;                                        ///< hints file; "" = none
  /// A pinned thread block as a launch gives it (x first); entries beyond the skeleton's parallel
  /// dimensions must be 1. Empty = searched.
  std::vector<long long> block;
  ModelOptions model;  ///< ranks the layouts and predicts the winner; Auto = the skeleton default
  long long maxLayouts = 1'000'000;  ///< `--max-variants`
  ProgressCallback progress;         ///< one stage per GPU, counting block/fold shapes
};

/// The skeleton read with its macros, and the hints (Table 3 costs for the GPU given), with the
/// block pinned in the hints' domain.
struct PreparedSkeleton {
  skeleton::Skeleton sk;
  skeleton::LayoutHints hints;
};
[[nodiscard]] Expected<PreparedSkeleton> prepareSkeleton(const SkeletonSearchOptions& options, const Gpu& gpu);

/// One GPU's search: the ranked layouts and the winner lowered (what loadWorkload() needs).
struct SkeletonSearch {
  const Gpu* gpu = nullptr;
  skeleton::SearchResult result;
  double seconds = 0;  ///< wall time of the search (not printed: reports are deterministic)
  KernelInput bestKernel;
  Launch bestLaunch;
};
/// Searches `prepared` on `gpu` (which must outlive the result). Errors without a file name the
/// hints file, or else the skeleton.
[[nodiscard]] Expected<SkeletonSearch> searchSkeleton(const PreparedSkeleton& prepared, const Gpu& gpu,
                                                      const SkeletonSearchOptions& options);

/// A search with its winner predicted by the options' model: what `predict FILE.sk` and
/// `explore FILE.sk` report (report/skeleton_views.h; built by predictWorkload(),
/// workload/run_workload.h).
struct SkeletonSearchReport : SkeletonSearch {
  Prediction best;  ///< predict() of the lowered winner
};

}  // namespace foresight
