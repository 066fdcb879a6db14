// SPDX-License-Identifier: Apache-2.0
/// \file
/// Options of the `emulate` model: variant, warp policy, hit-rate overrides, stream caps and the
/// TEG what-if switches (docs/models.md, "emulate").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "foresight/memory/memory_traffic.h"

namespace foresight {

/// Variants of the emulate model.
enum class EmulateVariant {
  Modern,  ///< sectors, L1/L2/DRAM with predicted hit rates, bounded queues, tail wave, launch overhead
  Saake,   ///< SAAKE as published: one GM resource, 1 or 32 transactions, no cache unless a
           ///< hit rate is given, unbounded queues, ceil waves, no launch overhead
};
/// "modern", "saake".
[[nodiscard]] const char* emulateVariantName(EmulateVariant v);
[[nodiscard]] std::optional<EmulateVariant> parseEmulateVariant(const std::string& name);

/// TEG's what-if switches (lai-teg-and-bound.md §8.4): each removes one penalty.
struct WhatIf {
  bool conflictFreeShared = false;   ///< every shared access takes its minimum wavefronts
  bool conflictFreeRegisters = false;  ///< every FFMA reads its operands without a register-bank conflict
  bool perfectCoalescing = false;    ///< every global access takes its minimum sectors
  bool infiniteBandwidth = false;    ///< shared, L1, L2 and DRAM gaps are 0
  bool allL1Hits = false;            ///< every global load hits in L1
  bool allL2Hits = false;            ///< every L1 miss (and store) is served by L2
  bool noAddressArithmetic = false;  ///< integer instructions feeding only addresses are removed
  bool fullOccupancy = false;        ///< registers and shared memory do not limit resident blocks
  /// Instructions (IR block, index) left out of the emulation: a rewrite's instructions whose
  /// work another one now does (the accesses a vector access replaces, advise/fixes.h).
  std::vector<std::pair<int, int>> removed;
  [[nodiscard]] bool any() const {
    return conflictFreeShared || conflictFreeRegisters || perfectCoalescing || infiniteBandwidth || allL1Hits || allL2Hits ||
           noAddressArithmetic || fullOccupancy || !removed.empty();
  }
};

/// Options of the emulate model.
struct EmulateOptions {
  EmulateVariant variant = EmulateVariant::Modern;
  /// Warp selection; GTO (SAAKE) unless set to round robin (TEG).
  bool roundRobin = false;
  /// Measured hit rates, overriding the predicted ones for every global load.
  std::optional<double> l1HitRate;
  std::optional<double> l2HitRate;
  /// Dynamic warp instructions emulated per SM and run; longer streams are sampled and the SM
  /// time scaled (docs/models.md). At least 256 per warp are kept.
  long long maxOpsPerRun = 12000;
  /// Kernel launch overhead in cycles; negative = the variant's default (modern: the GPU's
  /// `sm.launch_overhead` when it has one, else 3000, the gpgpu-sim SM90 launch latency,
  /// anchors.md §5; saake: 0).
  double launchOverheadCycles = -1;
  /// Requests a memory unit's queue holds before issue stalls (modern); 0 = unbounded.
  double memoryQueue = 64;
  /// The memory engine's traffic of this launch when the caller already has it (predict()
  /// shares one analysis between the model and the floors); null = analysed here.
  std::shared_ptr<const MemoryTraffic> memory;
  WhatIf whatIf;
};

}  // namespace foresight
