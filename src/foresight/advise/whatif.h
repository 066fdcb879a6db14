// SPDX-License-Identifier: Apache-2.0
/// \file
/// TEG's what-if switches (lai-teg-and-bound.md §4.7, §8.4): re-emulate the launch with one
/// penalty removed (bank conflicts, uncoalescing, finite bandwidth, cache misses, address
/// arithmetic, limited occupancy) and report what it costs in cycles: the penalty breakdown.
#pragma once

#include <string>
#include <vector>

#include "foresight/model/emulate/emulate_model.h"
#include "foresight/model/model_options.h"

namespace foresight {

/// One switch and its effect.
struct WhatIfResult {
  std::string name;        ///< "conflict-free-shared", "perfect-coalescing", ...
  std::string description;
  double cycles = 0;       ///< T with the switch on
  double penalty = 0;      ///< T_base - T_switch: cycles the penalty costs (may be < 0)
  double speedup = 1;      ///< T_base / T_switch
};

/// Every switch, in a fixed order: conflict-free-shared, conflict-free-registers, perfect-coalescing,
/// infinite-bandwidth, all-l1-hits, all-l2-hits, no-address-arithmetic, full-occupancy. Each
/// switch's time is the emulation's with the switch on, raised to the physical floors of the
/// launch as the switch changes it (model/floors.h: the kernel, traffic or GPU of the matching
/// analyzeModelWhatIf() switch; no-address-arithmetic keeps the kernel's floors), so that no
/// switch claims a time physics forbids. `baseCycles`: the launch's emulated time through the
/// same floors (predict()'s with the emulate model).
[[nodiscard]] Expected<std::vector<WhatIfResult>> analyzeWhatIf(const KernelInput& kernel,
                                                                const Launch& launch, const Gpu& gpu,
                                                                const EmulateOptions& options,
                                                                double baseCycles);

/// Same, re-lowering `base`'s kernel (sharing its stream cache) under each switch; `kernel` is
/// the input `base` emulates (its floors).
[[nodiscard]] Expected<std::vector<WhatIfResult>> analyzeWhatIf(const emu::KernelEmulation& base,
                                                                const KernelInput& kernel, double baseCycles);

/// The same switch times against another base time: penalty and speedup taken again (for
/// switches run before the base time was known).
void rebaseWhatIf(std::vector<WhatIfResult>& results, double baseCycles);

/// The switches any registered model can answer from its inputs, each predict()ed again (with the
/// floors, so that no switch claims a time physics forbids): infinite-bandwidth (the memory
/// levels' gaps scaled by 1e-9, model/sensitivity.h), all-l1-hits and all-l2-hits (the memory
/// engine's traffic with every load sector an L1 hit, or every L1 miss and store served by L2;
/// the compulsory bytes stay), conflict-free-shared (every shared access at the wavefronts a
/// full warp of its width needs without conflicts), conflict-free-registers (every
/// instruction's register-bank conflict degree 1), perfect-coalescing (every global site at the
/// sectors a full warp of its width fills and the L1 lines they span, its hits and misses
/// scaled with its sectors), full-occupancy (the kernel's registers and shared memory not
/// counted). A model that does not read what a switch changes reports it at 1.00x. Removing
/// address arithmetic needs the emulation's dependence analysis and is analyzeWhatIf()'s only.
/// `baseCycles`: predict()'s time of the launch with `model`.
[[nodiscard]] Expected<std::vector<WhatIfResult>> analyzeModelWhatIf(const KernelInput& kernel, const Launch& launch,
                                                                     const Gpu& gpu, const ModelOptions& model,
                                                                     double baseCycles);

}  // namespace foresight
