// SPDX-License-Identifier: Apache-2.0
/// \file
/// `explore`: model-driven search over a kernel's compile-time and launch parameters (issue 18).
/// Every variant of a SearchSpace is built (CUDA sources: compiled with the variant's `-D`
/// macros, through the compile cache; other inputs: loaded once per variant) and read as every
/// command reads an input (loadWorkload(), workloadRun(): a skeleton is its best layout, a C
/// program's kernel has its own launch), launched with
/// launch expressions evaluated over the fixed macros and the variant's values, and predicted
/// with one model; the variants come back ranked by predicted time. Variants run in parallel
/// on the machine's cores; the order of the result does not depend on the threads.
///
/// A variant that cannot be built or launched (a compile error, a block over the GPU's limit,
/// a launch expression dividing by zero) is kept, unranked, with the reason: autotuning spaces
/// hold infeasible points. When no variant can be predicted the search is an Error carrying
/// the first variant's reason.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "foresight/explore/space.h"
#include "foresight/frontend/input_options.h"
#include "foresight/ir/launch.h"
#include "foresight/model/model_options.h"
#include "foresight/model/prediction.h"
#include "foresight/support/error.h"

namespace foresight {

/// The launch of each variant, as expressions over the macros (validation/expression.h
/// grammar: integers, names, + - * / %, cdiv, min, max). Empty grid/block: the input's launch.
struct LaunchExpressions {
  std::vector<std::string> grid;   ///< 1 to 3 expressions
  std::vector<std::string> block;  ///< 1 to 3 expressions
  std::string dynamicShared;       ///< bytes; empty = 0 (or the input's)
  /// Scalar arguments: a real number ("1.5") is taken as it is, anything else is an integer
  /// expression ("N", "N*N").
  std::vector<std::pair<std::string, std::string>> args;
  /// Array sizes in bytes by pointer parameter (`--array`): integer expressions ("4*N*N").
  std::vector<std::pair<std::string, std::string>> arrays;
  /// Array contents by pointer parameter (`--data`, ArrayData's syntax): pattern parameters
  /// are expressions over the variant's macros.
  std::vector<std::pair<std::string, std::string>> data;
  L2Start l2Start = L2Start::Cold;  ///< every variant's (`--l2`)
};

/// One variant's outcome.
struct ExploredVariant {
  long long index = 0;                        ///< position in the space's enumeration
  std::map<std::string, long long> values;    ///< the space's parameters
  std::optional<Launch> launch;               ///< when the expressions evaluated
  std::optional<Prediction> prediction;       ///< when predicted
  std::string error;                          ///< why it was not predicted
  std::string kernel;                         ///< the kernel's name in the input
  std::string frontend;                       ///< "cuda", "ptx", …
};

/// Options of explore().
struct ExploreOptions {
  std::string input;            ///< any input loadWorkload() reads (.cu, .ptx, .cubin, .sass, .toml, .c, .sk)
  InputOptions inputOptions;    ///< GPU, kernel, fixed macros, includes, hints, toolchain
  SearchSpace space;
  LaunchExpressions launch;
  ModelOptions model;
  long long maxVariants = 10000;  ///< a larger space is refused before any work
  unsigned threads = 0;           ///< 0 = every core
  /// Only the variants whose index i has i % shards == shard (`--shard shard/shards`): a search
  /// split over processes or machines, put back together by mergeExploreReports().
  long long shard = 0;
  long long shards = 1;
  /// Told as each variant is done (from the worker threads, one call at a time): the variant,
  /// how many are done and how many there are.
  std::function<void(const ExploredVariant&, long long done, long long total)> onVariant;
};

/// The search's outcome.
struct ExploreResult {
  long long spaceSize = 0;
  long long shard = 0, shards = 1;  ///< which part of the space this is
  std::string frontend, kernel;      ///< of the input (from the first variant that loaded)
  std::string model, variant;        ///< the model predicted with ("mwp-cwp", "modern")
  /// Predicted variants fastest first (ties in enumeration order), then the others in
  /// enumeration order.
  std::vector<ExploredVariant> variants;
  int predicted = 0;
};

/// Builds, launches and predicts every variant of the space (exhaustive search), or of one
/// shard of it. A parameter that is also a fixed macro (`inputOptions.macros`) is an Error. Unsharded, a search in which no variant predicts is an Error; a shard may
/// come back with none predicted.
[[nodiscard]] Expected<ExploreResult> explore(const ExploreOptions& options);

/// "-D TX=256 -D UNROLL=2": a variant's values as nvcc/foresight macro flags.
[[nodiscard]] std::string defineLine(const std::map<std::string, long long>& values);

}  // namespace foresight
