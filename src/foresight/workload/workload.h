// SPDX-License-Identifier: Apache-2.0
/// \file
/// `loadWorkload`: what an input file means to every command and library caller — the kernels and
/// the launch to predict. It is loadInput() (frontend/input.h) for every input kind except
/// skeletons, whose meaning is GROPHECY's: the best layout of the layout search (or the one a
/// hints file pins), lowered to a kernel and launch. loadInput() alone gives a skeleton's
/// default layout, which no command predicts; the search predicts, so it cannot live in the
/// frontend (docs/architecture.md), and this layer sits above the advisors.
#pragma once

#include <string>

#include "foresight/frontend/input.h"
#include "foresight/frontend/input_options.h"
#include "foresight/model/model_options.h"
#include "foresight/support/error.h"

namespace foresight {

/// Options of loadWorkload().
struct WorkloadOptions {
  /// GPU (required for skeletons), launch, kernel, -D macros, hints, toolchain, progress. For a
  /// skeleton the macros must be integers, a launch's block pins the layout's thread block
  /// (x = the last parallel dimension) and its grid is ignored (it follows from the layout).
  InputOptions input;
  /// The model that ranks a skeleton's layouts; Auto = the default model for skeletons.
  ModelOptions searchModel;
  /// A skeleton's hints file (`--hints`): search domain, pinned layout, peripheral costs.
  std::string layoutHints;
  /// The most layouts a skeleton's search may evaluate (`--max-variants`).
  long long maxLayouts = 1'000'000;
};

/// The input's kernels and launch; a skeleton's best layout (a note names it). Errors name the
/// file (the hints file for a domain it gives that no layout satisfies).
[[nodiscard]] Expected<LoadedInput> loadWorkload(const std::string& path, const WorkloadOptions& options);

}  // namespace foresight
