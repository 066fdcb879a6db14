// SPDX-License-Identifier: Apache-2.0
/// \file
/// One re-emulation per what-if switch.
#include "foresight/advise/whatif.h"

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
      {"perfect-coalescing", "every global access takes its minimum sectors", &WhatIf::perfectCoalescing},
      {"infinite-bandwidth", "shared, L1, L2 and DRAM gaps are zero", &WhatIf::infiniteBandwidth},
      {"all-l1-hits", "every global load hits in L1", &WhatIf::allL1Hits},
      {"all-l2-hits", "every L1 miss and store is served by L2", &WhatIf::allL2Hits},
      {"no-address-arithmetic", "integer instructions that only feed addresses are removed", &WhatIf::noAddressArithmetic},
      {"full-occupancy", "registers and shared memory do not limit resident blocks", &WhatIf::fullOccupancy},
  };
  std::vector<WhatIfResult> out;
  for (const Switch& s : kSwitches) {
    EmulateOptions o = options;
    o.whatIf.*(s.flag) = true;
    Expected<emu::KernelEmulation> e = emu::KernelEmulation::fromBuilder(base.builder().withOptions(o));
    if (!e) return std::move(e).takeError();
    Expected<emu::KernelTiming> t = e->run();
    if (!t) return std::move(t).takeError();
    WhatIfResult r;
    r.name = s.name;
    r.description = s.description;
    r.cycles = t->cycles;
    r.penalty = baseCycles - t->cycles;
    r.speedup = t->cycles > 0 ? baseCycles / t->cycles : 1;
    out.push_back(r);
  }
  return out;
}

}  // namespace foresight
