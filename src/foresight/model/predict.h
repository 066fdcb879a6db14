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

/// Predicts one kernel launch on one GPU with the model chosen in `options`: the model's time,
/// raised to the launch's physical floors (floors.h), plus the GPU's `launch_latency` for a
/// launch timed alone (addLaunchLatency()).
[[nodiscard]] Expected<Prediction> predict(const KernelInput& kernel, const Launch& launch,
                                           const Gpu& gpu, const ModelOptions& options);

/// A launch timed alone (LaunchTiming::Alone: CUDA events just before and after it) also waits
/// for the host to submit it, which back-to-back launches hide behind the kernel before them:
/// adds the GPU's `launch_latency` to `p`'s time (cycles and utilisations follow) and the value
/// launch_latency_us. Nothing for LaunchTiming::Stream or a GPU without the figure. After the
/// floors: no work of the kernel happens during it.
void addLaunchLatency(Prediction& p, const Launch& launch, const Gpu& gpu);

}  // namespace foresight
