// SPDX-License-Identifier: Apache-2.0
/// \file
/// One re-emulation per what-if switch.
#include "foresight/advise/whatif.h"

#include <iterator>

#include "foresight/support/parallel.h"

namespace foresight {

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
    const emu::KernelTiming& t = *timings[i];
    WhatIfResult r;
    r.name = kSwitches[i].name;
    r.description = kSwitches[i].description;
    r.cycles = t.cycles;
    r.penalty = baseCycles - t.cycles;
    r.speedup = t.cycles > 0 ? baseCycles / t.cycles : 1;
    out.push_back(r);
  }
  return out;
}

}  // namespace foresight
