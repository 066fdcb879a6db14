// SPDX-License-Identifier: Apache-2.0
/// \file
/// The CLI side of skeleton inputs, shared by `predict`, `explore` and `explain`: the command
/// line turned into SkeletonSearchOptions (workload/skeleton_search.h), one search per
/// `--gpu a,b,c` with a progress line on stderr, and the view.
#pragma once

#include "common_options.h"
#include "foresight/model/predict.h"

namespace foresight::cli {

/// True when the input is a skeleton (.sk).
[[nodiscard]] bool isSkeletonInput(const std::string& path);

/// The best (or pinned) layout of a skeleton on the first --gpu, lowered to a kernel and launch
/// (the layout search ranks with MWP-CWP; `explain` then emulates the winner).
struct SkeletonKernel {
  KernelInput kernel;
  Launch launch;
  Gpu gpu;
};
[[nodiscard]] Expected<SkeletonKernel> bestSkeletonKernel(const CommonOptions& options);

/// foresight predict FILE.sk: the best (or pinned) layout per GPU.
int runSkeletonPredict(const CommonOptions& options);

/// foresight explore FILE.sk: all layouts ranked; `top` rows per GPU (0 = all); CSV or JSON.
/// Only for skeleton inputs (commands/explore.cpp sends the others to the kernel search).
int runSkeletonExplore(const CommonOptions& options, long long top, bool csv);

}  // namespace foresight::cli
