// SPDX-License-Identifier: Apache-2.0
/// \file
/// Model dispatch: resolves `auto` (default_model.h), calls the model's family (registry.h) with
/// the memory engine's analysis on demand, and raises the result to the launch's physical floors
/// (floors.h).
#include "foresight/model/predict.h"

#include "foresight/memory/hierarchy.h"
#include "foresight/model/default_model.h"
#include "foresight/model/floors.h"
#include "foresight/model/registry.h"

namespace foresight {

Expected<Prediction> predict(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                             const ModelOptions& requested) {
  if (Expected<void> ok = checkLaunchLimits(launch); !ok) return std::move(ok).takeError();
  // Library callers that leave the model on auto get the CUDA default's model, with their own
  // `variant` when that model is MWP-CWP; the CLI and validate resolve auto (model and variant)
  // by input kind before calling.
  ModelOptions options = requested;
  if (options.model == ModelKind::Auto) {
    options = resolveDefaultModel(requested, InputKind::Cuda);
    if (options.model == ModelKind::MwpCwp) options.variant = requested.variant;
  }
  const WorkloadSummary* given = kernel.summary ? &*kernel.summary : nullptr;
  // One memory analysis per call (or the caller's), shared by the model and the DRAM floor.
  std::shared_ptr<const MemoryTraffic> traffic = options.emulate.memory;
  const MemoryAnalysis memory = [&]() -> Expected<std::shared_ptr<const MemoryTraffic>> {
    if (!traffic) {
      Expected<MemoryTraffic> t = analyzeMemory(kernel.ir, given, launch, gpu);
      if (!t) return std::move(t).takeError();
      traffic = std::make_shared<const MemoryTraffic>(std::move(*t));
    }
    return traffic;
  };
  const ModelFamily* family = findModelFamily(options.model);
  if (!family) return makeError("unknown model");
  Expected<Prediction> raw = family->predict(kernel, launch, gpu, options, memory);
  if (!raw) return raw;
  Expected<std::shared_ptr<const MemoryTraffic>> t = memory();
  if (!t) return std::move(t).takeError();
  applyFloors(*raw, computeFloors(kernel, launch, gpu, **t), gpu);
  addLaunchLatency(*raw, launch, gpu);
  return raw;
}

void addLaunchLatency(Prediction& p, const Launch& launch, const Gpu& gpu) {
  if (launch.timing != LaunchTiming::Alone || !gpu.launchLatencyUs || !(gpu.launchLatencyUs->value > 0)) return;
  const double seconds = gpu.launchLatencyUs->value * 1e-6;
  p.values.push_back({"launch_latency_us", gpu.launchLatencyUs->value,
                      "the host's submission of a launch timed alone (events around it), added to the time"});
  p.seconds += seconds;
  p.cycles += seconds * gpu.clockGhz.value * 1e9;
  for (ResourceUse& r : p.resources) r.utilization = p.cycles > 0 ? r.busyCycles / p.cycles : 0;
}

}  // namespace foresight
