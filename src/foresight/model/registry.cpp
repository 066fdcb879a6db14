// SPDX-License-Identifier: Apache-2.0
/// \file
/// The model registry (registry.h): the two families' prediction functions and the table of
/// registered models.
#include "foresight/model/registry.h"

#include <array>
#include <memory>

#include "foresight/memory/hierarchy.h"
#include "foresight/memory/summarize.h"
#include "foresight/model/emulate/emulate_model.h"
#include "foresight/model/mwp_cwp.h"

namespace foresight {

namespace {

/// MWP-CWP: the workload summary (the input's, else derived from the IR for this GPU); the
/// modern variant also reads the memory engine's levels, the warps' independent loads, a lone
/// warp's issue time and the busiest pipe.
Expected<Prediction> predictWithMwpCwp(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                       const ModelOptions& options, const MemoryAnalysis& memory) {
  WorkloadSummary summary;
  if (kernel.summary) {
    summary = *kernel.summary;
  } else {
    Expected<WorkloadSummary> derived = summarize(kernel.ir, gpu);
    if (!derived) return std::move(derived).takeError();
    summary = *derived;
  }
  if (options.variant != MwpCwpVariant::Modern) {
    return predictMwpCwp(summary, kernel.ir.resources, launch, gpu, options);
  }
  Expected<std::shared_ptr<const MemoryTraffic>> traffic = memory();
  if (!traffic) return std::move(traffic).takeError();
  const MemoryLevel* shared = gpu.memoryLevel("shared");
  const Pipeline* sfu = gpu.pipeline(InstrClass::Sfu);
  // The shared array's SM cycles per bank wavefront; none where the GPU does not give its banks.
  const SharedWavefront wavefront = sharedWavefront(gpu);
  const ModernMemoryInputs modern{**traffic, loadGroups(kernel.ir),
                                  warpIssueCycles(kernel.ir, shared ? shared->latency.value : 0,
                                                  sfu ? sfu->latency.value : 0,
                                                  wavefront.banksKnown ? wavefront.cycles : 0),
                                  busiestPipe(kernel.ir, gpu), kernel.ir.longestWarpShare};
  return predictMwpCwp(summary, kernel.ir.resources, launch, gpu, options, &modern);
}

/// MWP-CWP from a summary alone: every variant but modern, which reads the memory engine.
Expected<Prediction> predictSummaryWithMwpCwp(const WorkloadSummary& workload, const ThreadResources& resources,
                                              const Launch& launch, const Gpu& gpu, const ModelOptions& options) {
  return predictMwpCwp(workload, resources, launch, gpu, options);
}

/// Emulate: replays the instructions (the summary only when the IR has no blocks) with the
/// memory engine's hit rates.
Expected<Prediction> predictWithEmulation(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                          const ModelOptions& options, const MemoryAnalysis& memory) {
  Expected<std::shared_ptr<const MemoryTraffic>> traffic = memory();
  if (!traffic) return std::move(traffic).takeError();
  EmulateOptions eo = options.emulate;
  eo.memory = *traffic;
  return emu::predictEmulate(kernel, launch, gpu, eo);
}

ModelOptions mwpCwp(MwpCwpVariant v) {
  ModelOptions o;
  o.model = ModelKind::MwpCwp;
  o.variant = v;
  return o;
}

ModelOptions emulate(EmulateVariant v) {
  ModelOptions o;
  o.model = ModelKind::Emulate;
  o.emulate.variant = v;
  return o;
}

const std::array<ModelFamily, 2> kFamilies{{
    {ModelKind::MwpCwp, "mwp-cwp", predictWithMwpCwp, predictSummaryWithMwpCwp},
    {ModelKind::Emulate, "emulate", predictWithEmulation, nullptr},
}};

const std::array<RegisteredModel, 6> kModels{{
    {"mwp-cwp", "hong-kim", "Hong & Kim, ISCA'09",
     "memory-warp vs compute-warp parallelism; every global access charged to DRAM", mwpCwp(MwpCwpVariant::HongKim)},
    {"mwp-cwp", "grophecy", "GROPHECY, SC'11 (seed 000)",
     "Hong & Kim's time with GROPHECY's bound (the least of MWP, CWP-1, N-1)", mwpCwp(MwpCwpVariant::Grophecy)},
    {"mwp-cwp", "cgpredict", "CGPredict, TECS'17 (seed 001)",
     "per-access-class L2 and DRAM latencies and CGPredict's time equations", mwpCwp(MwpCwpVariant::CGPredict)},
    {"mwp-cwp", "modern", "ours",
     "Hong & Kim's structure fed by the memory engine: per-level latency and bandwidth, MWP by Little's law",
     mwpCwp(MwpCwpVariant::Modern)},
    {"emulate", "modern", "ours (SAAKE + TEG)",
     "emulation of an SM's resident warps with sectors, L1/L2/DRAM hit rates, bounded queues, tail wave",
     emulate(EmulateVariant::Modern)},
    {"emulate", "saake", "SAAKE, PLDI'18 (seed 003)",
     "abstract kernel emulation as published: one GM resource, unbounded queues, whole waves",
     emulate(EmulateVariant::Saake)},
}};

}  // namespace

std::span<const ModelFamily> modelFamilies() { return kFamilies; }
std::span<const RegisteredModel> registeredModels() { return kModels; }

Expected<Prediction> predictFromSummary(const WorkloadSummary& workload, const ThreadResources& resources,
                                        const Launch& launch, const Gpu& gpu, const ModelOptions& options) {
  const ModelFamily* family = findModelFamily(options.model);
  if (!family) return makeError("unknown model");
  if (!family->predictSummary) {
    return makeError(std::string("the ") + family->name + " model needs a kernel's instructions, not a workload summary alone");
  }
  return family->predictSummary(workload, resources, launch, gpu, options);
}

const ModelFamily* findModelFamily(ModelKind kind) {
  for (const ModelFamily& f : kFamilies) {
    if (f.kind == kind) return &f;
  }
  return nullptr;
}

const ModelFamily* findModelFamily(std::string_view name) {
  for (const ModelFamily& f : kFamilies) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

const RegisteredModel* findModel(std::string_view family, std::string_view variant) {
  for (const RegisteredModel& m : kModels) {
    if (family == m.family && variant == m.variant) return &m;
  }
  return nullptr;
}

const RegisteredModel* registeredModelOf(const ModelOptions& options) {
  for (const RegisteredModel& m : kModels) {
    if (m.options.model != options.model) continue;
    if (options.model == ModelKind::MwpCwp && m.options.variant == options.variant) return &m;
    if (options.model == ModelKind::Emulate && m.options.emulate.variant == options.emulate.variant) return &m;
  }
  return nullptr;
}

const char* familyOfVariant(std::string_view variant) {
  const char* found = nullptr;
  for (const RegisteredModel& m : registeredModels()) {
    if (variant != m.variant) continue;
    if (found && std::string_view(found) != m.family) return nullptr;  // two families name it
    found = m.family;
  }
  return found;
}

std::vector<std::string> variantNames(std::string_view family) {
  std::vector<std::string> out;
  for (const RegisteredModel& m : kModels) {
    if (family == m.family) out.push_back(m.variant);
  }
  return out;
}

}  // namespace foresight
