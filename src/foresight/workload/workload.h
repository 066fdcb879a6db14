// SPDX-License-Identifier: Apache-2.0
/// \file
/// `loadWorkload`: what an input file means to every command and library caller — the kernels,
/// the launches to predict (a program's run: each kernel with its launches per run) and, for a
/// skeleton, its variant space. It is loadInput() (frontend/input.h) for every input kind except
/// skeletons, whose meaning is GROPHECY's: the best layout of the layout search (or the one a
/// hints file pins), lowered to a kernel and launch, with the ranked layouts kept. loadInput()
/// alone gives a skeleton's default layout, which no command predicts; the search predicts, so it
/// cannot live in the frontend (docs/architecture.md), and this layer sits above the advisors.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "foresight/frontend/input.h"
#include "foresight/frontend/input_options.h"
#include "foresight/model/model_options.h"
#include "foresight/support/error.h"
#include "foresight/workload/skeleton_search.h"

namespace foresight {

/// Changes a caller makes to the launches an input gives (the CLI's `--grid`, `--block`,
/// `--dynamic-shared`, `--carveout`; a request's `grid`, `block`, ...): each applies to every
/// launch of the workload. A skeleton takes no grid (it follows from the layout); its block pins
/// the layout's thread block.
struct LaunchOverrides {
  std::optional<Dim3> grid;
  std::optional<Dim3> block;
  std::optional<long long> dynamicSharedBytes;
  std::optional<int> carveoutPercent;
  std::optional<L2Start> l2Start;
  std::optional<LaunchTiming> timing;
};

/// Options of loadWorkload().
struct WorkloadOptions {
  /// GPU (required for skeletons), launch, kernel, -D macros, hints, toolchain, progress. For a
  /// skeleton the macros must be integers, a launch's block pins the layout's thread block
  /// (x = the last parallel dimension) and its grid is ignored (it follows from the layout).
  InputOptions input;
  /// Applied to the launches the input gives (after the frontend, which also sees `input.launch`).
  LaunchOverrides launch;
  /// The model that ranks a skeleton's layouts; Auto = the default model for skeletons.
  ModelOptions searchModel;
  /// A skeleton's hints file (`--hints`): search domain, pinned layout, peripheral costs.
  std::string layoutHints;
  /// The most layouts a skeleton's search may evaluate (`--max-variants`).
  long long maxLayouts = 1'000'000;
};

/// A skeleton's variant space on the GPU its workload was loaded for: the skeleton with its hints
/// and the ranked layouts (the workload's kernel is the winner, lowered).
struct SkeletonLayouts {
  PreparedSkeleton skeleton;
  SkeletonSearch search;
};

/// What an input means: the frontend's kernels, launch and notes, and a skeleton's layouts.
struct Workload : LoadedInput {
  std::optional<SkeletonLayouts> layouts;  ///< skeletons only
};

/// The input's kernels and launch; a skeleton's best layout (a note names it). Errors name the
/// file (the hints file for a domain it gives that no layout satisfies).
[[nodiscard]] Expected<Workload> loadWorkload(const std::string& path, const WorkloadOptions& options);

/// True when inputs like `path` carry a variant space of their own that loadWorkload() searches
/// (a skeleton's layouts); `explore` ranks it when no --space is given.
[[nodiscard]] bool hasOwnVariantSpace(const std::string& path);

/// The launches to predict: a program's runs (of `kernel` only, when named), else the selected
/// kernel (selectKernel()) launched once with the input's launch and the workload's notes. The
/// launches already carry loadWorkload()'s overrides. Errors: no such kernel; no launch ("the
/// input gives no launch", naming the file).
[[nodiscard]] Expected<std::vector<KernelRun>> workloadRuns(const Workload& workload, const std::string& kernel);

/// The launch of one kernel, for the commands that take one (explain, bound, place):
/// workloadRuns() of `kernel`, which must select a single kernel (selectKernel()'s Error
/// otherwise, as for a program of several kernels and no name).
[[nodiscard]] Expected<KernelRun> workloadRun(const Workload& workload, const std::string& kernel);

}  // namespace foresight
