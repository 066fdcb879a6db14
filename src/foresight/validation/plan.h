// SPDX-License-Identifier: Apache-2.0
/// \file
/// Run plans: the resolved experiments written as a line-oriented text file that the GPU runner
/// (validation/runner/) reads without a TOML library. Manifests are parsed and checked in one
/// place (manifest.cpp); the runner only sees concrete numbers. Format: docs/validation.md.
///
/// Sample:
///   foresight-plan 1
///   experiment gemm_tiled t16
///   source validation/matmul/gemm_tiled.cu
///   rotate 1
///   reinit 0
///   flush 0
///   define N 1024
///   buffer A f32 1048576 input random
///   scalar n i32 1024
///   launch gemm_tiled 64 64 1 16 16 1 0 1 A B C n
///   carveout 9          (only when the manifest's launch sets one: it applies to the launch above)
///   check gemm C 0.0001 inputs A B params 1024 1024 1024
///   end
#pragma once

#include <string>
#include <vector>

#include "foresight/validation/manifest.h"

namespace foresight {

/// The plan text for these experiment variants, in order.
[[nodiscard]] std::string writePlan(const std::vector<ResolvedExperiment>& experiments);

}  // namespace foresight
