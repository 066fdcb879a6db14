// SPDX-License-Identifier: Apache-2.0
/// \file
/// The skeleton frontend's entry points: read a `.sk` file (and the sample files its hints
/// name, relative to the skeleton), and produce the LoadedInput that `loadInput` returns for
/// skeletons — the layout a hints file pins, else the best layout on the reference GPU the
/// options name.
#pragma once

#include <string>

#include "foresight/frontend/input.h"
#include "foresight/frontend/input_options.h"
#include "foresight/frontend/skeleton/skeleton.h"
#include "foresight/frontend/skeleton/skeleton_parser.h"
#include "foresight/support/error.h"

namespace foresight::skeleton {

/// Reads, parses and loads the sample files of one skeleton.
[[nodiscard]] Expected<Skeleton> loadSkeletonFile(const std::string& path,
                                                  const ParseOptions& options = {});

/// loadInput() for `.sk`: the skeleton's default layout (lowering.h) on `options.gpu`, lowered to
/// a KernelInput with its launch; `options.macros` are the -D values (integers). Without a GPU,
/// coalescing is judged with 32-byte sectors and the summary is left for summarize() to derive.
/// The layout search itself is `searchLayouts` (foresight predict/explore).
[[nodiscard]] Expected<LoadedInput> loadSkeletonInput(const std::string& path,
                                                      const InputOptions& options);

/// Parses skeleton text and loads its samples relative to `baseDir` ("" = do not load samples).
[[nodiscard]] Expected<Skeleton> loadSkeletonFromString(const std::string& text,
                                                        const std::string& sourceName,
                                                        const std::string& baseDir,
                                                        const ParseOptions& options = {});

}  // namespace foresight::skeleton
