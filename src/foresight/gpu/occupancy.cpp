// SPDX-License-Identifier: Apache-2.0
/// \file
/// The occupancy calculator. Each limiting factor is computed on its own (the block count it alone
/// would allow) with the allocation rules of NVIDIA's cuda_occupancy.h (CC >= 2.0) and of the
/// CUDA Occupancy Calculator spreadsheet (CC 1.x per-block register allocation).
#include "foresight/gpu/occupancy.h"

#include <algorithm>
#include <array>
#include <climits>
#include <string>
#include <utility>

namespace foresight {

namespace {

constexpr int kNoLimit = INT_MAX;

long long roundUp(long long value, long long unit) { return (value + unit - 1) / unit * unit; }

int clampToInt(long long value) { return static_cast<int>(std::min<long long>(value, kNoLimit)); }

std::string str(long long value) { return std::to_string(value); }

/// The limits the rules divide by must be positive, and the reservation must not be negative.
Expected<void> checkGpu(const Gpu& gpu) {
  const GpuLimits& l = gpu.limits;
  const bool warpMode = l.registerGranularity == RegisterGranularity::Warp;
  const std::array<std::pair<const char*, long long>, 4> divisors{{
      {"warp size", gpu.warpSize.value},
      {"register allocation unit", l.registerAllocUnit.value},
      {"shared memory allocation unit", l.sharedAllocUnit.value},
      {warpMode ? "register file partition count" : "warp allocation granularity",
       warpMode ? l.registerFilePartitions.value : l.warpAllocGranularity.value},
  }};
  for (const auto& [what, value] : divisors) {
    if (value <= 0) {
      return makeError("GPU '" + gpu.name + "' has an invalid " + what + " (" + str(value) + ")");
    }
  }
  if (l.sharedReservedPerBlock.value < 0) {
    return makeError("GPU '" + gpu.name + "' has a negative shared memory reservation per block (" +
                     str(l.sharedReservedPerBlock.value) + ")");
  }
  return {};
}

/// Registers: sets the allocation fields of `occ` and returns the block limit, or an error when
/// one block needs more than the per-thread or per-block register limit.
Expected<int> registerLimit(const Gpu& gpu, const BlockResources& block, Occupancy& occ) {
  const GpuLimits& l = gpu.limits;
  const long long regs = block.registersPerThread;
  if (regs < 0) return makeError("registers per thread must not be negative, got " + str(regs));
  if (regs > l.registersPerThread.value) {
    return makeError("registers per thread: the kernel uses " + str(regs) +
                     ", above the limit of " + str(l.registersPerThread.value));
  }
  if (regs == 0) return kNoLimit;  // unknown register count: registers do not limit

  const long long warpSize = gpu.warpSize.value;
  const long long unit = l.registerAllocUnit.value;
  const long long warps = occ.warpsPerBlock;
  if (l.registerGranularity == RegisterGranularity::Block) {
    // CC 1.x (Occupancy Calculator): warps rounded up to the warp allocation granularity, then
    // the whole block's registers rounded up to the allocation unit.
    const long long perBlock =
        roundUp(roundUp(warps, l.warpAllocGranularity.value) * warpSize * regs, unit);
    occ.registersAllocatedPerBlock = clampToInt(perBlock);
    if (perBlock > l.registersPerBlock.value) {
      return makeError("registers per block: the block needs " + str(perBlock) +
                       ", above the limit of " + str(l.registersPerBlock.value));
    }
    return clampToInt(l.registersPerSm.value / perBlock);
  }

  // CC >= 2.0 (cuda_occupancy.h): each warp's registers are rounded up to the allocation unit, and
  // each warp lives in one register-file partition, so the SM holds (warps fitting in one
  // partition) x partitions. The launch check counts the block's warps rounded up to a multiple
  // of the partitions, as the hardware assumes every partition gets the same share.
  const long long partitions = l.registerFilePartitions.value;
  const long long perWarp = roundUp(regs * warpSize, unit);
  const long long checked = perWarp * roundUp(warps, partitions);
  occ.registersAllocatedPerWarp = clampToInt(perWarp);
  occ.registersAllocatedPerBlock = clampToInt(perWarp * warps);
  if (checked > l.registersPerBlock.value) {
    return makeError("registers per block: the block needs " + str(checked) + " (" + str(perWarp) +
                     " per warp for " + str(warps) + " warps, counted as " +
                     str(roundUp(warps, partitions)) + " for " + str(partitions) +
                     " register-file partitions), above the limit of " +
                     str(l.registersPerBlock.value));
  }
  const long long warpsPerSm = l.registersPerSm.value / partitions / perWarp * partitions;
  return clampToInt(warpsPerSm / warps);
}

/// Shared memory: sets `occ.sharedAllocatedPerBlock` and returns the block limit, or an error
/// when one block asks for more than the per-block limit.
Expected<int> sharedMemoryLimit(const Gpu& gpu, const BlockResources& block, Occupancy& occ) {
  const GpuLimits& l = gpu.limits;
  const long long asked = block.sharedPerBlock;
  const long long reserved = l.sharedReservedPerBlock.value;
  if (asked < 0)
    return makeError("shared memory per block must not be negative, got " + str(asked));
  // cuda_occupancy.h adds the reservation even when the kernel uses no shared memory (CC >= 8.0),
  // and raises the per-block limit by the same amount.
  const long long allocated = roundUp(asked + reserved, l.sharedAllocUnit.value);
  occ.sharedAllocatedPerBlock = allocated;
  if (asked > l.sharedPerBlock.value || allocated > l.sharedPerBlock.value + reserved) {
    return makeError("shared memory per block: the block asks for " + str(asked) +
                     " B, above the limit of " + str(l.sharedPerBlock.value) + " B");
  }
  occ.sharedCapacity = l.sharedPerSm.value;
  if (block.carveoutPercent) {
    Expected<long long> capacity = carveoutCapacity(gpu, *block.carveoutPercent, allocated);
    if (!capacity) return std::move(capacity).takeError();
    occ.sharedCapacity = *capacity;
  }
  if (allocated == 0) return kNoLimit;
  return clampToInt(occ.sharedCapacity / allocated);
}

/// Why no block fits, for the one factor that allows zero blocks.
std::string zeroBlocksDetail(const Gpu& gpu, const BlockResources& block, const Occupancy& occ) {
  const GpuLimits& l = gpu.limits;
  switch (occ.limiter) {
    case OccupancyLimiter::Warps:
      return "the block has " + str(occ.warpsPerBlock) + " warps, the SM holds " +
             str(l.warpsPerSm.value);
    case OccupancyLimiter::Registers:
      return "the block needs " + str(occ.registersAllocatedPerBlock) + " registers, the SM has " +
             str(l.registersPerSm.value);
    case OccupancyLimiter::SharedMemory:
      return "the block needs " + str(occ.sharedAllocatedPerBlock) + " B, the SM has " +
             str(occ.sharedCapacity) + " B";
    case OccupancyLimiter::Blocks:
      return "the SM holds " + str(l.blocksPerSm.value) + " blocks";
    case OccupancyLimiter::Threads:
      return "the block has " + str(block.threadsPerBlock) + " threads, the SM holds " +
             str(l.threadsPerSm.value);
  }
  return {};
}

}  // namespace

const char* occupancyLimiterName(OccupancyLimiter l) {
  switch (l) {
    case OccupancyLimiter::Warps:
      return "warps";
    case OccupancyLimiter::Registers:
      return "registers";
    case OccupancyLimiter::SharedMemory:
      return "shared_memory";
    case OccupancyLimiter::Blocks:
      return "blocks";
    case OccupancyLimiter::Threads:
      return "threads";
  }
  return "unknown";
}

Expected<long long> carveoutCapacity(const Gpu& gpu, int percent, long long allocatedPerBlock) {
  const GpuLimits& l = gpu.limits;
  if (!l.sharedCarveouts) {
    return makeError("the GPU description lists no shared-memory carveouts (limits.shared_carveouts): its L1 and "
                     "shared memory are not one configurable array, so a carveout does not apply");
  }
  if (percent < 0 || percent > 100) return makeError("the carveout must be a percentage in 0..100, got " + str(percent));
  const long long wanted = (static_cast<long long>(percent) * l.sharedPerSm.value + 99) / 100;
  const long long needed = std::max(wanted, allocatedPerBlock);
  for (long long c : l.sharedCarveouts->value) {
    if (c >= needed) return c;
  }
  return l.sharedCarveouts->value.back();
}

Expected<Occupancy> computeOccupancy(const Gpu& gpu, const BlockResources& block) {
  const GpuLimits& l = gpu.limits;
  if (auto valid = checkGpu(gpu); !valid) return std::move(valid).takeError();
  if (block.threadsPerBlock <= 0) {
    return makeError("threads per block must be positive, got " + str(block.threadsPerBlock));
  }
  if (block.threadsPerBlock > l.threadsPerBlock.value) {
    return makeError("threads per block: the block has " + str(block.threadsPerBlock) +
                     ", above the limit of " + str(l.threadsPerBlock.value));
  }

  Occupancy occ;
  occ.warpsPerBlock = (block.threadsPerBlock + gpu.warpSize.value - 1) / gpu.warpSize.value;
  auto byRegisters = registerLimit(gpu, block, occ);
  if (!byRegisters) return std::move(byRegisters).takeError();
  auto byShared = sharedMemoryLimit(gpu, block, occ);
  if (!byShared) return std::move(byShared).takeError();

  occ.limitByWarps = l.warpsPerSm.value / occ.warpsPerBlock;
  occ.limitByRegisters = *byRegisters;
  occ.limitBySharedMemory = *byShared;
  occ.limitByBlocks = l.blocksPerSm.value;
  occ.limitByThreads = l.threadsPerSm.value / block.threadsPerBlock;

  // The smallest limit wins; on a tie the first factor in enum order is reported.
  const std::array<std::pair<OccupancyLimiter, int>, 5> limits{{
      {OccupancyLimiter::Warps, occ.limitByWarps},
      {OccupancyLimiter::Registers, occ.limitByRegisters},
      {OccupancyLimiter::SharedMemory, occ.limitBySharedMemory},
      {OccupancyLimiter::Blocks, occ.limitByBlocks},
      {OccupancyLimiter::Threads, occ.limitByThreads},
  }};
  const auto smallest =
      std::min_element(limits.begin(), limits.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  occ.limiter = smallest->first;
  occ.blocksPerSm = smallest->second;
  if (occ.blocksPerSm <= 0) {
    return makeError(std::string("no block fits on an SM: the ") +
                     occupancyLimiterName(occ.limiter) + " limit allows 0 blocks (" +
                     zeroBlocksDetail(gpu, block, occ) + ")");
  }
  occ.warpsPerSm = occ.blocksPerSm * occ.warpsPerBlock;
  occ.fraction =
      l.warpsPerSm.value > 0 ? static_cast<double>(occ.warpsPerSm) / l.warpsPerSm.value : 0.0;
  return occ;
}

}  // namespace foresight
