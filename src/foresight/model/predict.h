// SPDX-License-Identifier: Apache-2.0
/// \file
/// The one prediction entry point: a pure function of (kernel, launch, GPU, options), with no
/// global state, safe to call from many threads (the autotuner use case).
#pragma once

#include "foresight/gpu/gpu.h"
#include "foresight/ir/kernel_input.h"
#include "foresight/ir/launch.h"
#include "foresight/model/model_options.h"
#include "foresight/model/prediction.h"
#include "foresight/support/error.h"

namespace foresight {

/// Predicts one kernel launch on one GPU with the model chosen in `options`.
[[nodiscard]] Expected<Prediction> predict(const KernelInput& kernel, const Launch& launch,
                                           const Gpu& gpu, const ModelOptions& options);

}  // namespace foresight
