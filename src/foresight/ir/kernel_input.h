// SPDX-License-Identifier: Apache-2.0
/// \file
/// `KernelInput`: what a frontend hands to the models for one kernel.
#pragma once

#include <optional>
#include <string>

#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/workload_summary.h"

namespace foresight {

/// What a frontend hands to the models: the kernel IR (name, resources, blocks) and, when the
/// frontend knows it directly (summary files, skeleton layouts), the workload summary.
struct KernelInput {
  KernelIR ir;
  std::optional<WorkloadSummary> summary;  ///< if empty, derived from `ir` by summarize()
  std::string symbol{};  ///< linker symbol when it differs from ir.name (a mangled C++ name); may be empty
};

}  // namespace foresight
