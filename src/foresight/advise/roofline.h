// SPDX-License-Identifier: Apache-2.0
/// \file
/// What `explain`'s roofline and occupancy charts show (issue 17): the kernel's floating-point
/// work against the bytes it moves at each memory level (its arithmetic intensity there) with the
/// GPU's peaks, and the occupancy its resources allow at every block size.
///
/// Roofline (Williams et al.): at a level with bandwidth B and a pipe with peak P, a kernel of
/// intensity I = flops / bytes can reach at most min(P, I × B); the ridge P / B separates
/// memory-bound (I below it) from compute-bound intensities. Bytes per level come from the memory
/// engine (L1: every sector requested; L2: L1 misses and stores; DRAM: what reaches it).
#pragma once

#include <string>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/gpu/occupancy.h"
#include "foresight/ir/kernel_input.h"
#include "foresight/ir/launch.h"
#include "foresight/memory/memory_traffic.h"
#include "foresight/support/error.h"

namespace foresight {

/// One memory level of the roofline.
struct RooflineLevel {
  std::string name;          ///< "l1", "l2", "dram"
  double bytes = 0;          ///< moved at this level by the launch
  double bandwidthGBs = 0;   ///< the GPU's peak; 0 = the description gives none
  [[nodiscard]] double intensity(double flops) const { return bytes > 0 ? flops / bytes : 0; }
};

/// One compute roof.
struct RooflinePeak {
  std::string name;     ///< "fp32", "fp64"
  double gflops = 0;    ///< SMs × schedulers / gap × warp size × 2 × clock
};

/// The kernel's point per level and the GPU's roofs.
struct Roofline {
  double flops = 0;     ///< floating-point operations of the launch (an FMA counts 2)
  double seconds = 0;   ///< the predicted time the point is placed at
  std::vector<RooflineLevel> levels;
  std::vector<RooflinePeak> peaks;
  [[nodiscard]] double gflops() const { return seconds > 0 ? flops / seconds / 1e9 : 0; }
};

/// The roofline of one launch predicted in `seconds`; `memory` is the memory engine's traffic
/// (null: DRAM only, with the compulsory bytes).
[[nodiscard]] Expected<Roofline> roofline(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                          const MemoryTraffic* memory, double seconds);

/// Occupancy at one block size.
struct OccupancyPoint {
  long long threads = 0;
  int blocksPerSm = 0;
  int warpsPerSm = 0;
  double fraction = 0;
  OccupancyLimiter limiter = OccupancyLimiter::Warps;
};

/// Occupancy of the kernel's registers and shared memory (static + the launch's dynamic) at
/// every block size from one warp to the GPU's limit, in whole warps; sizes that cannot run are
/// left out.
[[nodiscard]] std::vector<OccupancyPoint> occupancyByBlockSize(const KernelInput& kernel, const Launch& launch,
                                                               const Gpu& gpu);

}  // namespace foresight
