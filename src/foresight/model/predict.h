// SPDX-License-Identifier: Apache-2.0
/// \file
/// The one prediction entry point: a pure function of (kernel, launch, GPU, options), with no
/// global state, safe to call from many threads (the autotuner use case).
#pragma once

#include <optional>
#include <string>

#include "foresight/gpu/gpu.h"
#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/launch.h"
#include "foresight/ir/workload_summary.h"
#include "foresight/model/model_options.h"
#include "foresight/model/prediction.h"
#include "foresight/support/error.h"

namespace foresight {

/// What a frontend hands to the models: the kernel IR (name, resources, blocks) and, when the
/// frontend knows it directly (summary files, skeleton layouts), the workload summary.
struct KernelInput {
  KernelIR ir;
  std::optional<WorkloadSummary> summary;  ///< if empty, derived from `ir` by summarize()
  std::string symbol{};  ///< linker symbol when it differs from ir.name (a mangled C++ name); may be empty
};

/// Predicts one kernel launch on one GPU with the model chosen in `options`.
[[nodiscard]] Expected<Prediction> predict(const KernelInput& kernel, const Launch& launch,
                                           const Gpu& gpu, const ModelOptions& options);

}  // namespace foresight
