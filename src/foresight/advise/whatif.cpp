// SPDX-License-Identifier: Apache-2.0
/// \file
/// One re-emulation per what-if switch.
#include "foresight/advise/whatif.h"

#include <iterator>
#include <optional>

#include "foresight/model/predict.h"
#include "foresight/model/sensitivity.h"
#include "foresight/support/parallel.h"

namespace foresight {

namespace {

/// A switch's result against the base time.
WhatIfResult switchResult(const char* name, const char* description, double baseCycles, double cycles) {
  return {name, description, cycles, baseCycles - cycles, cycles > 0 ? baseCycles / cycles : 1};
}

}  // namespace

Expected<std::vector<WhatIfResult>> analyzeWhatIf(const KernelInput& kernel, const Launch& launch,
                                                  const Gpu& gpu, const EmulateOptions& options,
                                                  double baseCycles) {
  Expected<emu::KernelEmulation> base = emu::KernelEmulation::create(kernel, launch, gpu, options);
  if (!base) return std::move(base).takeError();
  return analyzeWhatIf(*base, baseCycles);
}

Expected<std::vector<WhatIfResult>> analyzeWhatIf(const emu::KernelEmulation& base, double baseCycles) {
  const EmulateOptions& options = base.builder().options();
  struct Switch {
    const char* name;
    const char* description;
    bool WhatIf::*flag;
  };
  static const Switch kSwitches[] = {
      {"conflict-free-shared", "no shared-memory bank conflicts", &WhatIf::conflictFreeShared},
      {"conflict-free-registers", "no register-bank conflicts (FFMA operands)", &WhatIf::conflictFreeRegisters},
      {"perfect-coalescing", "every global access takes its minimum sectors", &WhatIf::perfectCoalescing},
      {"infinite-bandwidth", "shared, L1, L2 and DRAM gaps are zero", &WhatIf::infiniteBandwidth},
      {"all-l1-hits", "every global load hits in L1", &WhatIf::allL1Hits},
      {"all-l2-hits", "every L1 miss and store is served by L2", &WhatIf::allL2Hits},
      {"no-address-arithmetic", "integer instructions that only feed addresses are removed", &WhatIf::noAddressArithmetic},
      {"full-occupancy", "registers and shared memory do not limit resident blocks", &WhatIf::fullOccupancy},
  };
  // Each switch is an independent emulation: run them on the cores, results in switch order.
  constexpr std::size_t kCount = std::size(kSwitches);
  std::vector<Expected<emu::KernelTiming>> timings(kCount, Expected<emu::KernelTiming>(emu::KernelTiming{}));
  parallelFor(kCount, [&](std::size_t i) {
    EmulateOptions o = options;
    o.whatIf.*(kSwitches[i].flag) = true;
    Expected<emu::KernelEmulation> e = emu::KernelEmulation::fromBuilder(base.builder().withOptions(o));
    timings[i] = e ? e->run() : Expected<emu::KernelTiming>(std::move(e).takeError());
  });
  std::vector<WhatIfResult> out;
  for (std::size_t i = 0; i < kCount; ++i) {
    if (!timings[i]) return std::move(timings[i]).takeError();
    out.push_back(switchResult(kSwitches[i].name, kSwitches[i].description, baseCycles, timings[i]->cycles));
  }
  return out;
}

Expected<std::vector<WhatIfResult>> analyzeModelWhatIf(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                                       const ModelOptions& model, double baseCycles) {
  Expected<ModelOptions> base = withMemoryTraffic(kernel, launch, gpu, model);
  if (!base) return std::move(base).takeError();
  const MemoryTraffic& traffic = *base->emulate.memory;
  // What a switch changes: the GPU, the traffic or the kernel's resources (a copy of the kernel
  // only for the switch that needs one: its IR can be large).
  struct Changed {
    Gpu gpu;
    ModelOptions model;
    const KernelInput* kernel;
    std::optional<KernelInput> changedKernel;
    Launch launch;
  };
  struct Switch {
    const char* name;
    const char* description;
    void (*apply)(Changed&, const MemoryTraffic&);
  };
  static const Switch kSwitches[] = {
      {"infinite-bandwidth", "shared, L1, L2 and DRAM gaps are zero",
       [](Changed& c, const MemoryTraffic&) {
         for (const GpuTimingParameter& p : gpuTimingParameters(c.gpu)) {
           if (p.memoryLevel && p.mode == BoundMode::Throughput) p.scale(c.gpu, 1e-9);
         }
       }},
      {"all-l1-hits", "every global load hits in L1",
       [](Changed& c, const MemoryTraffic& t) {
         MemoryTraffic hit = t;
         hit.l1HitSectors = t.loadSectors;
         hit.l2HitSectors = 0;
         hit.dramReadSectors = 0;
         c.model.emulate.memory = std::make_shared<const MemoryTraffic>(std::move(hit));
       }},
      {"all-l2-hits", "every L1 miss and store is served by L2",
       [](Changed& c, const MemoryTraffic& t) {
         MemoryTraffic hit = t;
         hit.l2HitSectors = t.loadSectors - t.l1HitSectors;
         hit.dramReadSectors = 0;
         hit.dramWriteSectors = 0;
         c.model.emulate.memory = std::make_shared<const MemoryTraffic>(std::move(hit));
       }},
      {"full-occupancy", "registers and shared memory do not limit resident blocks",
       [](Changed& c, const MemoryTraffic&) {
         c.changedKernel = *c.kernel;
         c.changedKernel->ir.resources.registers = 0;
         c.changedKernel->ir.resources.staticSharedBytes = 0;
         c.launch.dynamicSharedBytes = 0;
       }},
  };
  constexpr std::size_t kCount = std::size(kSwitches);
  std::vector<Expected<Prediction>> predictions(kCount, Expected<Prediction>(Prediction{}));
  parallelFor(kCount, [&](std::size_t i) {
    Changed c{gpu, *base, &kernel, std::nullopt, launch};
    kSwitches[i].apply(c, traffic);
    predictions[i] = predict(c.changedKernel ? *c.changedKernel : kernel, c.launch, c.gpu, c.model);
  });
  std::vector<WhatIfResult> out;
  for (std::size_t i = 0; i < kCount; ++i) {
    if (!predictions[i]) return std::move(predictions[i]).takeError();
    out.push_back(switchResult(kSwitches[i].name, kSwitches[i].description, baseCycles, predictions[i]->cycles));
  }
  return out;
}

}  // namespace foresight
