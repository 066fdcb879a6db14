// SPDX-License-Identifier: Apache-2.0
/// \file
/// One re-emulation per what-if switch.
#include "foresight/advise/whatif.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>

#include "foresight/memory/hierarchy.h"

#include "foresight/model/floors.h"
#include "foresight/model/predict.h"
#include "foresight/model/sensitivity.h"
#include "foresight/support/parallel.h"

namespace foresight {

namespace {

/// The kernel with every shared access at the wavefronts a full warp of its width needs without
/// bank conflicts (one per `banks x bank width` bytes: 1 for 4-B words on 32 x 4-B banks).
KernelInput withoutSharedConflicts(const KernelInput& kernel, const Gpu& gpu) {
  KernelInput out = kernel;
  for (BasicBlock& b : out.ir.blocks) {
    for (Instruction& in : b.instructions) {
      if (!in.memory || in.memory->space != MemorySpace::Shared) continue;
      in.memory->wavefrontsPerInst =
          std::min(in.memory->wavefrontsPerInst, conflictFreeSharedWavefronts(gpu, in.memory->widthBytes));
    }
  }
  return out;
}

/// The traffic with every global access site at the sectors a full warp of its width fills and
/// the L1 lines those span (the emulation's perfect-coalescing switch, as launch totals). Fewer
/// sectors carry the same data: the L2 misses (and the DRAM sectors they read) and the DRAM
/// write-backs stay, up to the sectors left, and the hits shrink to the rest; the stores write
/// whole sectors (no read-modify-writes).
MemoryTraffic perfectlyCoalesced(const MemoryTraffic& t, const KernelIR& ir, double sectorsPerLine) {
  MemoryTraffic out = t;
  for (SiteTraffic& s : out.sites) {
    const Instruction* in = siteInstruction(ir, s);
    if (!in || !in->memory || s.requests <= 0) continue;
    const double ideal = idealSectorsPerRequest(in->memory->widthBytes, t.sectorBytes);
    const double c = s.sectors > ideal * s.requests ? ideal * s.requests / s.sectors : 1.0;
    const double lines = std::max(1.0, std::ceil(ideal / sectorsPerLine)) * s.requests;
    const SiteTraffic before = s;
    if (c < 1) {
      const double kept = c * s.sectors;
      if (s.isStore) {
        s.l2Hits *= c;
        s.dramSectors = std::min(s.dramSectors, kept);
        s.partialSectors = 0;
      } else {
        const double misses = std::max(0.0, s.sectors - s.l1Hits - s.l2Hits);
        const double missesLeft = std::min(misses, kept);
        if (misses > 0) s.dramSectors *= missesLeft / misses;
        const double hits = s.l1Hits + s.l2Hits;
        const double scale = hits > 0 ? (kept - missesLeft) / hits : 0;
        s.l1Hits *= scale;
        s.l1SplitHits *= scale;
        s.l2Hits *= scale;
      }
      s.sectors = kept;
    }
    if (s.wavefronts > lines) s.wavefronts = lines;
    if (s.isStore) {
      out.storeSectors -= before.sectors - s.sectors;
      out.dramWriteSectors -= before.dramSectors - s.dramSectors;
      out.partialStoreSectors -= before.partialSectors - s.partialSectors;
      out.storeWavefronts -= before.wavefronts - s.wavefronts;
    } else {
      out.loadSectors -= before.sectors - s.sectors;
      out.l1HitSectors -= before.l1Hits - s.l1Hits;
      out.l1SplitHitSectors -= before.l1SplitHits - s.l1SplitHits;
      out.l2HitSectors -= before.l2Hits - s.l2Hits;
      out.dramReadSectors -= before.dramSectors - s.dramSectors;
      out.loadWavefronts -= before.wavefronts - s.wavefronts;
    }
  }
  return out;
}

/// A switch's result against the base time.
WhatIfResult switchResult(std::string name, std::string description, double baseCycles, double cycles) {
  return {std::move(name), std::move(description), cycles, baseCycles - cycles, cycles > 0 ? baseCycles / cycles : 1};
}

/// What a switch changes for a model that is not the emulation (and for the floors of every
/// model): the GPU, the traffic or the kernel (a copy of the kernel only for the switches that
/// need one: its IR can be large).
struct Changed {
  Gpu gpu;
  ModelOptions model;  ///< model.emulate.memory: the launch's traffic, changed by the switch
  const KernelInput* kernel;
  std::optional<KernelInput> changedKernel;
  Launch launch;
  [[nodiscard]] const KernelInput& input() const { return changedKernel ? *changedKernel : *kernel; }
};

/// One switch: the emulation's flag and, for every other model and for the floors, the change
/// (null: the emulation alone can remove this penalty).
struct Switch {
  const char* name;
  const char* description;
  bool WhatIf::*flag;
  void (*apply)(Changed&, const MemoryTraffic&);
};

void setTraffic(Changed& c, MemoryTraffic t) { c.model.emulate.memory = std::make_shared<const MemoryTraffic>(std::move(t)); }

const Switch kSwitches[] = {
    {"conflict-free-shared", "no shared-memory bank conflicts", &WhatIf::conflictFreeShared,
     [](Changed& c, const MemoryTraffic&) { c.changedKernel = withoutSharedConflicts(*c.kernel, c.gpu); }},
    {"conflict-free-registers", "no register-bank conflicts (FFMA operands)", &WhatIf::conflictFreeRegisters,
     [](Changed& c, const MemoryTraffic&) {
       c.changedKernel = *c.kernel;
       for (BasicBlock& b : c.changedKernel->ir.blocks) {
         for (Instruction& in : b.instructions) in.bankConflictDegree = 1;
       }
     }},
    {"perfect-coalescing", "every global access takes its minimum sectors", &WhatIf::perfectCoalescing,
     [](Changed& c, const MemoryTraffic& t) {
       setTraffic(c, perfectlyCoalesced(t, c.kernel->ir, sectorsPerL1Line(c.gpu, t.sectorBytes)));
     }},
    {"infinite-bandwidth", "shared, L1, L2 and DRAM gaps are zero", &WhatIf::infiniteBandwidth,
     [](Changed& c, const MemoryTraffic&) {
       for (const GpuTimingParameter& p : gpuTimingParameters(c.gpu)) {
         if (p.memoryLevel && p.mode == BoundMode::Throughput) p.scale(c.gpu, 1e-9);
       }
       // The L2's sector read-modify-writes (partly written sectors, atomics) are its
       // throughput too.
       for (MemoryLevel& level : c.gpu.memory) {
         if (level.sectorRmwUs) level.sectorRmwUs->value *= 1e-9;
       }
     }},
    {"all-l1-hits", "every global load hits in L1", &WhatIf::allL1Hits,
     [](Changed& c, const MemoryTraffic& t) {
       MemoryTraffic hit = t;
       hit.l1HitSectors = t.loadSectors;
       hit.l1SplitHitSectors = 0;  // no request waits for a miss
       for (SiteTraffic& s : hit.sites) s.l1SplitHits = 0;
       hit.l2HitSectors = 0;
       hit.dramReadSectors = 0;
       setTraffic(c, std::move(hit));
     }},
    {"all-l2-hits", "every L1 miss and store is served by L2", &WhatIf::allL2Hits,
     [](Changed& c, const MemoryTraffic& t) {
       MemoryTraffic hit = t;
       hit.l2HitSectors = t.loadSectors - t.l1HitSectors;
       hit.dramReadSectors = 0;
       hit.dramWriteSectors = 0;
       setTraffic(c, std::move(hit));
     }},
    {"no-address-arithmetic", "integer instructions that only feed addresses are removed",
     &WhatIf::noAddressArithmetic, nullptr},
    {"full-occupancy", "registers and shared memory do not limit resident blocks", &WhatIf::fullOccupancy,
     [](Changed& c, const MemoryTraffic&) {
       c.changedKernel = *c.kernel;
       c.changedKernel->ir.resources.registers = 0;
       c.changedKernel->ir.resources.staticSharedBytes = 0;
       c.launch.dynamicSharedBytes = 0;
     }},
};

}  // namespace

Expected<std::vector<WhatIfResult>> analyzeWhatIf(const KernelInput& kernel, const Launch& launch,
                                                  const Gpu& gpu, const EmulateOptions& options,
                                                  double baseCycles) {
  Expected<emu::KernelEmulation> base = emu::KernelEmulation::create(kernel, launch, gpu, options);
  if (!base) return std::move(base).takeError();
  return analyzeWhatIf(*base, kernel, baseCycles);
}

Expected<std::vector<WhatIfResult>> analyzeWhatIf(const emu::KernelEmulation& base, const KernelInput& kernel,
                                                  double baseCycles) {
  const emu::EmulationBuilder& builder = base.builder();
  const Gpu& gpu = builder.gpu();
  const Launch& launch = builder.launch();
  // The floors read the launch's traffic: the emulation's, or (saake, which has none) the
  // memory engine's, once.
  ModelOptions withTraffic;
  withTraffic.emulate.memory = builder.sharedMemory();
  if (!withTraffic.emulate.memory) {
    Expected<ModelOptions> analyzed = withMemoryTraffic(kernel, launch, gpu, withTraffic);
    if (!analyzed) return std::move(analyzed).takeError();
    withTraffic = std::move(*analyzed);
  }
  const MemoryTraffic& traffic = *withTraffic.emulate.memory;
  // Each switch is an independent emulation: run them on the cores, results in switch order.
  // Its time is the emulation's, raised to the floors of the changed launch (applyFloors()), as
  // the base time is: no switch claims a time physics forbids.
  constexpr std::size_t kCount = std::size(kSwitches);
  std::vector<Expected<double>> cycles(kCount, Expected<double>(0.0));
  parallelFor(kCount, [&](std::size_t i) {
    EmulateOptions o = builder.options();
    o.whatIf.*(kSwitches[i].flag) = true;
    Expected<emu::KernelEmulation> e = emu::KernelEmulation::fromBuilder(builder.withOptions(o));
    if (!e) {
      cycles[i] = std::move(e).takeError();
      return;
    }
    Expected<emu::KernelTiming> t = e->run();
    if (!t) {
      cycles[i] = std::move(t).takeError();
      return;
    }
    Changed c{gpu, withTraffic, &kernel, std::nullopt, launch};
    if (kSwitches[i].apply) kSwitches[i].apply(c, traffic);
    Expected<PhysicalFloors> floors = launchFloors(c.input(), c.launch, c.gpu, c.model.emulate.memory.get());
    if (!floors) {
      cycles[i] = std::move(floors).takeError();
      return;
    }
    cycles[i] = std::max(t->cycles, floors->largest().second * c.gpu.clockGhz.value * 1e9);
  });
  std::vector<WhatIfResult> out;
  for (std::size_t i = 0; i < kCount; ++i) {
    if (!cycles[i]) return std::move(cycles[i]).takeError();
    out.push_back(switchResult(kSwitches[i].name, kSwitches[i].description, baseCycles, *cycles[i]));
  }
  return out;
}

void rebaseWhatIf(std::vector<WhatIfResult>& results, double baseCycles) {
  for (WhatIfResult& r : results) r = switchResult(std::move(r.name), std::move(r.description), baseCycles, r.cycles);
}

Expected<std::vector<WhatIfResult>> analyzeModelWhatIf(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                                       const ModelOptions& model, double baseCycles) {
  Expected<ModelOptions> base = withMemoryTraffic(kernel, launch, gpu, model);
  if (!base) return std::move(base).takeError();
  const MemoryTraffic& traffic = *base->emulate.memory;
  std::vector<const Switch*> switches;
  for (const Switch& s : kSwitches) {
    if (s.apply) switches.push_back(&s);
  }
  std::vector<Expected<Prediction>> predictions(switches.size(), Expected<Prediction>(Prediction{}));
  parallelFor(switches.size(), [&](std::size_t i) {
    Changed c{gpu, *base, &kernel, std::nullopt, launch};
    switches[i]->apply(c, traffic);
    predictions[i] = predict(c.input(), c.launch, c.gpu, c.model);
  });
  std::vector<WhatIfResult> out;
  for (std::size_t i = 0; i < switches.size(); ++i) {
    if (!predictions[i]) return std::move(predictions[i]).takeError();
    out.push_back(switchResult(switches[i]->name, switches[i]->description, baseCycles, predictions[i]->cycles));
  }
  return out;
}

}  // namespace foresight
