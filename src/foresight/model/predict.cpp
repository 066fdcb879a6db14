// SPDX-License-Identifier: Apache-2.0
/// \file
/// Model dispatch: resolves `auto` (default_model.h), derives the workload summary when needed,
/// calls the model, and raises the result to the launch's physical floors (floors.h).
#include "foresight/model/predict.h"

#include "foresight/memory/hierarchy.h"
#include "foresight/memory/summarize.h"
#include "foresight/model/default_model.h"
#include "foresight/model/emulate/emulate_model.h"
#include "foresight/model/floors.h"
#include "foresight/model/mwp_cwp.h"

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
  // One memory analysis per call (or the caller's), shared by the models and the DRAM floor.
  std::shared_ptr<const MemoryTraffic> traffic = options.emulate.memory;
  const auto memory = [&]() -> Expected<const MemoryTraffic*> {
    if (!traffic) {
      Expected<MemoryTraffic> t = analyzeMemory(kernel.ir, given, launch, gpu);
      if (!t) return std::move(t).takeError();
      traffic = std::make_shared<const MemoryTraffic>(std::move(*t));
    }
    return traffic.get();
  };

  Expected<Prediction> raw = makeError("unknown model");
  if (options.model == ModelKind::Emulate) {
    // The emulator replays instructions; it reads the summary only when the IR has no blocks.
    Expected<const MemoryTraffic*> t = memory();
    if (!t) return std::move(t).takeError();
    EmulateOptions eo = options.emulate;
    eo.memory = traffic;
    raw = emu::predictEmulate(kernel, launch, gpu, eo);
  } else {
    WorkloadSummary summary;
    if (given) {
      summary = *given;
    } else {
      Expected<WorkloadSummary> derived = summarize(kernel.ir, gpu);
      if (!derived) return std::move(derived).takeError();
      summary = *derived;
    }
    if (options.variant == MwpCwpVariant::Modern) {
      Expected<const MemoryTraffic*> t = memory();
      if (!t) return std::move(t).takeError();
      const MemoryLevel* shared = gpu.memoryLevel("shared");
      const Pipeline* sfu = gpu.pipeline(InstrClass::Sfu);
      ModernMemoryInputs modern{**t, independentLoadsPerWarp(kernel.ir),
                                warpIssueCycles(kernel.ir, shared ? shared->latency.value : 0, sfu ? sfu->latency.value : 0),
                                busiestPipe(kernel.ir, gpu)};
      raw = predictMwpCwp(summary, kernel.ir.resources, launch, gpu, options, &modern);
    } else {
      raw = predictMwpCwp(summary, kernel.ir.resources, launch, gpu, options);
    }
  }
  if (!raw) return raw;
  Expected<const MemoryTraffic*> t = memory();
  if (!t) return std::move(t).takeError();
  applyFloors(*raw, computeFloors(kernel, launch, gpu, **t), gpu);
  return raw;
}

}  // namespace foresight
