// SPDX-License-Identifier: Apache-2.0
// Runner host logic: CPU references for the manifest's [check] section, computed in double
// precision, and the relative error ||out - ref|| / ||ref|| that the tolerance bounds.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "plan_reader.h"

namespace runner {

/// Host copies of buffers by name (raw bytes in the buffer's element type).
using HostBuffers = std::map<std::string, std::vector<unsigned char>>;

/// The gemm reference compares at most this many rows of C (evenly spaced, first and last
/// included); smaller products are compared whole.
inline constexpr long long kGemmCheckRows = 16;

/// Runs the check of `e` on `inputs` (their initial contents) and `output` (the kernel's result).
/// Sets `relError` (NaN or any non-finite output makes it infinite). Returns false with `error`
/// for an unknown reference, wrong parameters or missing buffers.
bool runCheck(const PlanExperiment& e, const HostBuffers& inputs,
              const std::vector<unsigned char>& output, double& relError, std::string& error);

}  // namespace runner
