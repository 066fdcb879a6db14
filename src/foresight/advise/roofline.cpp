// SPDX-License-Identifier: Apache-2.0
/// \file
/// Roofline and occupancy curve (roofline.h).
#include "foresight/advise/roofline.h"

#include "foresight/model/floors.h"
#include "foresight/model/kernel_bound.h"

namespace foresight {

Expected<Roofline> roofline(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                            const MemoryTraffic* memory, double seconds) {
  Expected<double> flops = launchFlops(kernel, launch, gpu);
  if (!flops) return std::move(flops).takeError();
  Roofline r;
  r.flops = *flops;
  r.seconds = seconds;
  auto bandwidth = [&](const char* resource) {
    const MemoryLevel* m = gpu.memoryForResource(resource);
    return m && m->bandwidth ? m->bandwidth->value : 0.0;
  };
  if (memory) {
    const double sb = memory->sectorBytes;
    r.levels.push_back({"l1", (memory->loadSectors + memory->storeSectors) * sb, bandwidth("l1")});
    r.levels.push_back(
        {"l2", (memory->loadSectors - memory->l1HitSectors + memory->storeSectors) * sb, bandwidth("l2")});
    r.levels.push_back({"dram", memory->dramBytes(), bandwidth("dram")});
  } else {
    Expected<PhysicalFloors> floors = launchFloors(kernel, launch, gpu);
    if (!floors) return std::move(floors).takeError();
    r.levels.push_back({"dram", floors->compulsoryBytes, bandwidth("dram")});
  }
  const double perPipe = gpu.warpSize.value * 2.0 * gpu.smCount.value * gpu.clockGhz.value * gpu.schedulersPerSm.value;
  for (const auto& [cls, name] : {std::pair{InstrClass::Fp32, "fp32"}, std::pair{InstrClass::Fp64, "fp64"}}) {
    if (const Pipeline* p = gpu.pipeline(cls); p && p->gap.value > 0) r.peaks.push_back({name, perPipe / p->gap.value});
  }
  return r;
}

std::vector<OccupancyPoint> occupancyByBlockSize(const KernelInput& kernel, const Launch& launch, const Gpu& gpu) {
  std::vector<OccupancyPoint> out;
  const long long warp = static_cast<long long>(gpu.warpSize.value);
  const long long most = static_cast<long long>(gpu.limits.threadsPerBlock.value);
  for (long long threads = warp; threads <= most; threads += warp) {
    BlockResources b = blockResources(kernel.ir.resources, launch);
    b.threadsPerBlock = static_cast<int>(threads);
    Expected<Occupancy> o = computeOccupancy(gpu, b);
    if (!o) continue;
    out.push_back({threads, o->blocksPerSm, o->warpsPerSm, o->fraction, o->limiter});
  }
  return out;
}

}  // namespace foresight
