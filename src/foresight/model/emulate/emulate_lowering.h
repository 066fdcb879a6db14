// SPDX-License-Identifier: Apache-2.0
/// \file
/// KernelIR + Launch + Gpu → what the emulator runs for one SM: the machine (units with latency
/// and gap from the GPU description) and the resident warps' op streams (from
/// KernelIR::streams, sampled and weighted by stream_sampling.h, or synthesizeStream()), with
/// global accesses costed in sectors through L1/L2/DRAM and shared accesses in bank wavefronts.
///
/// Hit levels are predicted before timing, deterministically, so every perturbed run of the
/// sensitivity analysis sees the same split (saake.md §4, common random numbers): the
/// memory-hierarchy engine (memory/hierarchy.h) gives each global access site its L1 and L2
/// hit rates and its DRAM write-backs over the whole launch, and each emulated op splits its
/// sectors accordingly. Measured rates (EmulateOptions::l1HitRate / l2HitRate) replace the
/// prediction when given.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "foresight/ir/warp_stream.h"

#include "foresight/gpu/occupancy.h"
#include "foresight/ir/launch.h"
#include "foresight/memory/memory_traffic.h"
#include "foresight/model/emulate/emu_program.h"
#include "foresight/model/emulate/emulate_options.h"
#include "foresight/model/emulate/stream_sampling.h"
#include "foresight/model/predict.h"

namespace foresight::emu {

/// One SM's emulation and what its memory accesses cost.
struct LoweredSm {
  EmuProgram program;
  EmuMachine machine;
  double scale = 1;          ///< full dynamic instructions / emulated (sampling, grid weight)
  double gridWeight = 1;     ///< the grid's average block / the emulated ones (stream_sampling.h)
  long long sampledWindows = 0;  ///< windows of the sampled warp streams (0 = whole streams)
  int blocks = 0;            ///< resident block slots
  int activeSms = 0;         ///< SMs sharing L2/DRAM bandwidth
  // Memory statistics over the emulated ops.
  double globalRequests = 0;  ///< global/local/texture warp requests
  double sectors = 0;         ///< their sectors (saake: transactions)
  double l1Hits = 0;          ///< sectors served by L1
  double l2Hits = 0;          ///< sectors served by L2
  double dramSectors = 0;     ///< sectors served by DRAM
  double sharedRequests = 0;
  double wavefronts = 0;
};

/// Streams fetched from KernelIR::streams, shared by the builders of one kernel (the what-if
/// switches re-lower the launch; the frontend's interpreter runs once per warp).
struct StreamCache {
  std::mutex mutex;
  std::map<std::pair<long long, int>, CachedStream> streams;
};

/// Everything that does not depend on the number of resident blocks: the kernel (synthesized
/// from the summary when the IR has no blocks), its regions, occupancy and removed
/// instructions.
class EmulationBuilder {
 public:
  /// Errors for a launch that cannot run (occupancy) or a kernel without instructions.
  static Expected<EmulationBuilder> create(const KernelInput& kernel, const Launch& launch,
                                           const Gpu& gpu, const EmulateOptions& options);
  /// One SM running `blocksPerSm` resident blocks while `activeSms` SMs share the chip; with
  /// `emulatedBlocks` > blocksPerSm, later blocks refill the slots of retiring ones (block i
  /// waits for block i - blocksPerSm).
  [[nodiscard]] Expected<LoweredSm> build(int blocksPerSm, int activeSms, int emulatedBlocks = 0) const;

  /// The same kernel under other options (a what-if switch), sharing the stream cache.
  [[nodiscard]] EmulationBuilder withOptions(const EmulateOptions& options) const;

  [[nodiscard]] const Occupancy& occupancy() const { return occupancy_; }
  /// Resident blocks per SM used for timing (the occupancy's, or full occupancy's what-if).
  [[nodiscard]] int blocksPerSm() const { return blocksPerSm_; }
  [[nodiscard]] const Launch& launch() const { return launch_; }
  [[nodiscard]] const Gpu& gpu() const { return *gpu_; }
  [[nodiscard]] const EmulateOptions& options() const { return options_; }
  [[nodiscard]] const std::vector<std::string>& regionNames() const { return regionNames_; }
  [[nodiscard]] const std::vector<std::string>& notes() const { return notes_; }
  /// The memory engine's traffic of the whole launch (null for the saake variant).
  [[nodiscard]] const MemoryTraffic* memory() const { return memory_.get(); }
  [[nodiscard]] std::shared_ptr<const MemoryTraffic> sharedMemory() const { return memory_; }

 private:
  EmulationBuilder() = default;
  KernelIR ir_;
  Launch launch_;
  const Gpu* gpu_ = nullptr;
  EmulateOptions options_;
  Occupancy occupancy_;
  int blocksPerSm_ = 0;
  std::vector<std::vector<int>> region_;   ///< [block][index] → region
  std::vector<std::vector<bool>> removed_; ///< [block][index] → dropped by noAddressArithmetic
  std::vector<std::string> regionNames_;
  std::vector<std::string> notes_;
  std::shared_ptr<StreamCache> cache_;
  std::shared_ptr<const MemoryTraffic> memory_;
  std::map<std::pair<int, int>, int> siteIndex_;  ///< (block, index) → memory_->sites
  [[nodiscard]] Expected<const CachedStream*> cachedStream(long long block, int warp) const;
};

/// TEG's memory-concurrency cap (lai-teg-and-bound.md §4.3, Eqs. 3.1-3.2): the outstanding
/// warp memory requests per unit that saturate peak bandwidth by Little's law,
/// C_mem = B_peak x latency / (units x warpSize x elementBytes x clock). GT200 double
/// precision: 141.7e9 x 440 / (10 x 32 x 8 x 1.296e9) = 18.8.
[[nodiscard]] inline double memoryConcurrency(double bandwidthBytesPerSecond, double latencyCycles,
                                              int units, int warpSize, int elementBytes,
                                              double clockHz) {
  return bandwidthBytesPerSecond * latencyCycles /
         (static_cast<double>(units) * warpSize * elementBytes * clockHz);
}

/// A KernelIR equivalent to a workload summary (for summary inputs): per round, one load per
/// access class, computation depending on the loads (Hong & Kim's memory then computation
/// periods), and the barriers; execution counts are the summary's per-thread counts.
[[nodiscard]] KernelIR kernelFromSummary(const WorkloadSummary& summary, const std::string& name);

}  // namespace foresight::emu
