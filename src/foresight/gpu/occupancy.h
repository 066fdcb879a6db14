// SPDX-License-Identifier: Apache-2.0
/// \file
/// The occupancy calculator: how many blocks and warps of a kernel fit on one SM, and which
/// resource limits them, following the CUDA occupancy calculator's rules (per-warp or per-block
/// register allocation units, shared-memory granularity and per-block reservation,
/// thread/warp/block limits per SM).
///
/// Rules (cuda_occupancy.h for per-warp allocation, CC >= 2.0; the Occupancy Calculator
/// spreadsheet for per-block allocation, CC 1.x):
/// - warps: warpsPerSm / ceil(threads / warpSize); threads: threadsPerSm / threads.
/// - registers, warp granularity: per warp roundUp(regs * warpSize, registerAllocUnit); each
///   register-file partition holds floor((registersPerSm / partitions) / perWarp) warps.
/// - registers, block granularity: roundUp(roundUp(warps, warpAllocGranularity) * warpSize * regs,
///   registerAllocUnit) per block; registersPerSm / that.
/// - shared memory: roundUp(shared + sharedReservedPerBlock, sharedAllocUnit) per block; the
///   reservation applies even to a block without shared memory, as in cuda_occupancy.h.
///
/// Example (H100, 256 threads, 32 registers, 0 B shared): 8 warps per block; registers allow
/// 4 partitions * (16384 / (32*32)) = 64 warps = 8 blocks; warps allow 64/8 = 8 blocks; shared
/// memory (the 1 KiB reservation only) allows 233472 / 1024 = 228; blocks allow 32;
/// result 8 blocks, 64 warps, limiter "warps" (ties are reported in the order of
/// `OccupancyLimiter`).
#pragma once

#include <optional>

#include "foresight/gpu/gpu.h"
#include "foresight/support/error.h"

namespace foresight {

/// What one block asks of an SM.
struct BlockResources {
  int threadsPerBlock = 0;
  int registersPerThread = 0;    ///< 0 = unknown; registers then do not limit.
  long long sharedPerBlock = 0;  ///< static + dynamic shared memory, bytes (without reservation)
  /// cudaFuncAttributePreferredSharedMemoryCarveout, percent of sharedPerSm; unset = the
  /// largest capacity (shared memory then limits blocks only at sharedPerSm).
  std::optional<int> carveoutPercent;
};

/// The factor that limits resident blocks per SM. On ties, the first in this order is reported.
enum class OccupancyLimiter { Warps, Registers, SharedMemory, Blocks, Threads };
/// "warps", "registers", "shared_memory", "blocks", "threads".
[[nodiscard]] const char* occupancyLimiterName(OccupancyLimiter l);

/// Result of the occupancy calculation for one SM.
struct Occupancy {
  int blocksPerSm = 0;
  int warpsPerBlock = 0;
  int warpsPerSm = 0;
  double fraction = 0;  ///< warpsPerSm / limits.warpsPerSm
  OccupancyLimiter limiter = OccupancyLimiter::Warps;
  // The block limit each factor alone would allow (INT_MAX when the factor does not limit).
  int limitByWarps = 0;
  int limitByRegisters = 0;
  int limitBySharedMemory = 0;
  int limitByBlocks = 0;
  int limitByThreads = 0;
  long long sharedAllocatedPerBlock = 0;  ///< after reservation and rounding, bytes
  long long sharedCapacity = 0;  ///< shared memory per SM blocks may use (the carveout's), bytes
  int registersAllocatedPerWarp = 0;      ///< after rounding (warp granularity), else 0
  int registersAllocatedPerBlock = 0;     ///< after rounding; 0 when registers are unknown
};

/// Blocks and warps per SM for one block shape. Errors when the block cannot run at all (too many
/// threads, registers or shared memory for one block, or zero blocks fit on an SM) or when the
/// GPU's allocation units are not positive; the message names the limit and both numbers.
/// The per-block register check counts the block's warps rounded up to a multiple of the
/// register-file partitions, as the hardware launch check does (cuda_occupancy.h).
[[nodiscard]] Expected<Occupancy> computeOccupancy(const Gpu& gpu, const BlockResources& block);

/// The shared capacity per SM that a carveout of `percent` selects, as CUDA does: `percent` of
/// sharedPerSm, rounded up to the next capacity the GPU lists (limits.shared_carveouts); when
/// that cannot hold one block of `allocatedPerBlock` bytes, the smallest capacity that can (the
/// attribute is a hint the driver overrides to run the kernel). An Error when the GPU lists no
/// carveouts or `percent` is outside 0..100. Example (H100, 228 KiB): 25 % = 57 KiB → 64 KiB;
/// 0 % with a 20 KiB block → 32 KiB.
[[nodiscard]] Expected<long long> carveoutCapacity(const Gpu& gpu, int percent, long long allocatedPerBlock);

}  // namespace foresight
