// SPDX-License-Identifier: Apache-2.0
/// \file
/// Ranked fixes (issue 17 item 1): the code changes worth making for one kernel launch, best
/// first, each with the speedup the emulate model predicts for it, the source lines it concerns
/// and one sentence of why. A fix's speedup is the matching what-if of TEG's penalty breakdown
/// (advise/whatif.h: the launch emulated again with that penalty removed), or, where the change
/// is a number the user can set (a register cap), the launch emulated again with that number.
///
/// Which what-if answers which change:
///   conflict-free-shared    pad or re-index the shared arrays (lines: the shared accesses with
///                           more than one wavefront per request)
///   perfect-coalescing      make a warp's lanes touch consecutive addresses (lines: the global
///                           accesses with more sectors per request than their width needs)
///   conflict-free-registers another register tile (lines: advise/register_conflicts.h)
///   full-occupancy          cap the registers (predicted with the cap) or shrink the shared
///                           memory per block (the limiter's own change)
///   no-address-arithmetic   compute addresses once (pointer increments, hoisting, unrolling)
///   all-l1-hits/all-l2-hits keep reused data on chip (lines: the loads most served off-SM), only
///                           when the loads fetch more from L2/DRAM than their footprint
///   (placement)             put arrays in other memories (PORPLE, advise/placement/place.h): the
///                           chosen plan against the kernel as written, both predicted with the
///                           emulate model (lines: the moved arrays' accesses)
///   infinite-bandwidth      move fewer bytes: listed last, as the bound of what less traffic
///                           can bring (no change removes every byte)
/// A what-if that saves less than 5 % is no fix. Speedups of different fixes do not multiply:
/// each is measured against the kernel as it is.
#pragma once

#include <string>
#include <vector>

#include "foresight/advise/placement/place.h"
#include "foresight/advise/register_conflicts.h"
#include "foresight/advise/whatif.h"
#include "foresight/memory/memory_traffic.h"

namespace foresight {

/// One source line a fix concerns.
struct FixLine {
  std::string file;
  int line = 0;
  std::string detail;  ///< "32 wavefronts per request", "32.0 sectors per request, 4 at best"
};

/// One change worth making.
struct Fix {
  std::string kind;    ///< "shared-bank-conflicts", "coalescing", "register-banks", "occupancy",
                       ///< "address-arithmetic", "on-chip-reuse", "placement", "memory-traffic"
  std::string change;  ///< what to do, imperative
  std::string why;     ///< one sentence: the evidence
  std::vector<FixLine> lines;  ///< worst first; empty when the input has no line information
  std::string basis;           ///< how the speedup was predicted ("what-if perfect-coalescing")
  double cyclesBefore = 0;     ///< the emulated launch as it is
  double cyclesAfter = 0;      ///< with the fix
  double speedup = 1;          ///< cyclesBefore / cyclesAfter
  bool upperBound = false;     ///< the speedup is a bound no single change reaches (memory-traffic)
};

/// What rankFixes() reads: the emulated launch and its analysis (explainKernel()'s).
struct FixInputs {
  const KernelInput* kernel = nullptr;
  Launch launch;
  const Gpu* gpu = nullptr;
  EmulateOptions emulate;
  const MemoryTraffic* memory = nullptr;  ///< the memory engine's traffic of the launch, or null
  double baseCycles = 0;                  ///< the emulated cycles the what-ifs compare with
  std::vector<WhatIfResult> whatIf;       ///< analyzeWhatIf()'s switches
  std::vector<RegisterConflictLine> conflicts;
  /// PORPLE's placement of the launch's arrays with emulate times, or null (no per-lane
  /// addresses: not a CUDA input).
  const PlaceResult* placement = nullptr;
};

/// The smallest speedup that makes a change a fix.
inline constexpr double kFixThreshold = 1.05;

/// The fixes, best (largest speedup) first, then the memory-traffic bound.
[[nodiscard]] Expected<std::vector<Fix>> rankFixes(const FixInputs& in);

}  // namespace foresight
