// SPDX-License-Identifier: Apache-2.0
/// \file
/// The layout search (grophecy.md §4.2–4.3): enumerate layouts in dependency order
/// B → F → {S, O} → {C, L}, prune (hints, autopruning, cacheability Eq. 1, staging suggestions
/// Eq. 3, shared memory that does not fit), characterize each layout and predict it with the
/// model in the options (MWP-CWP, GROPHECY variant, by default), and rank by projected time.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "foresight/frontend/skeleton/characterizer.h"
#include "foresight/frontend/skeleton/layout.h"
#include "foresight/frontend/skeleton/lowering.h"
#include "foresight/gpu/gpu.h"
#include "foresight/model/model_options.h"
#include "foresight/model/resource.h"
#include "foresight/support/error.h"

namespace foresight::skeleton {

/// One evaluated layout.
struct RankedLayout {
  Layout layout;
  LayoutStats stats;
  double seconds = 0;
  double cycles = 0;
  Bound bound;
  int activeBlocksPerSm = 0;
  double n = 0;    ///< active warps per SM
  double mwp = 0;  ///< uncapped min(MWP_Without_BW_full, MWP_peak_BW)
  double cwpFull = 0;
};

/// Progress of a running search (for a progress line on stderr).
struct SearchProgress {
  long long shapesDone = 0;
  long long shapesTotal = 0;
  long long layouts = 0;
};

/// Options of searchLayouts.
struct SearchOptions {
  LayoutDomain domain;
  CharacterizerOptions characterizer;
  ModelOptions model;
  /// Called after every (B, F) shape; may be empty.
  std::function<void(const SearchProgress&)> progress;
  /// The most layouts the search may evaluate (`--max-variants`): a domain whose block/fold
  /// shapes × traversal orders already exceed it is refused before the search starts, and a
  /// search that reaches it stops with an Error, instead of running for hours out of memory.
  long long maxLayouts = 1'000'000;
};

/// The ranked layouts of one skeleton on one GPU.
struct SearchResult {
  std::vector<RankedLayout> layouts;  ///< fastest first
  long long shapes = 0;               ///< (B, F) pairs analysed
  long long enumerated = 0;           ///< layouts characterized (feasible or not)
  long long infeasible = 0;           ///< rejected: shared memory or block limits
};

/// Runs the search. Errors for a hint that names an unknown loop or array, a pinned shape of the
/// wrong rank, an order that moves a loop out of its perfect stream nest, or when no layout is
/// feasible on this GPU.
[[nodiscard]] Expected<SearchResult> searchLayouts(const Skeleton& sk, const Gpu& gpu,
                                                   const SearchOptions& options);

/// A search and its winner lowered to a kernel and launch (what predict, explain and the library's
/// loadWorkload() run for a skeleton).
struct BestLayout {
  SearchResult search;
  LoweredLayout lowered;  ///< search.layouts.front(), lowered with the search's characterizer options
};

/// searchLayouts(), then the fastest layout lowered (lowering.h) for `gpu`.
[[nodiscard]] Expected<BestLayout> searchBestLayout(const Skeleton& sk, const Gpu& gpu, const SearchOptions& options);

/// The traversal orders O of a skeleton (§4.2): the product of the permutations of each perfect
/// stream nest (`streamNests`), the skeleton order first. One entry (the identity) without nests.
[[nodiscard]] std::vector<std::vector<int>> traversalOrders(const Skeleton& sk);

/// Evaluates one layout (no search): the characterized statistics and the model's verdict.
[[nodiscard]] Expected<RankedLayout> evaluateLayout(const Characterizer& ch, const Layout& layout,
                                                    const ModelOptions& model);

}  // namespace foresight::skeleton
