// SPDX-License-Identifier: Apache-2.0
/// \file
/// Derives the WorkloadSummary of the closed-form models from a KernelIR: counts dynamic
/// instructions per thread, classifies each global access (modern sector rule, or the CC 1.0 /
/// 1.3 coalescing rules on those GPUs), and averages transactions per class.
#pragma once

#include "foresight/gpu/gpu.h"
#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/launch.h"
#include "foresight/ir/workload_summary.h"
#include "foresight/support/error.h"

namespace foresight {

/// Summarises a kernel for one GPU. Shared-memory, local and barrier instructions count as
/// computation (GROPHECY §7.2); global, constant and texture accesses are memory instructions.
[[nodiscard]] Expected<WorkloadSummary> summarize(const KernelIR& kernel, const Gpu& gpu);

}  // namespace foresight
