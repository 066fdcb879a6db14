// SPDX-License-Identifier: Apache-2.0
/// \file
/// Physical floors and their application to a prediction.
#include "foresight/model/floors.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "foresight/memory/hierarchy.h"

namespace foresight {

std::vector<std::pair<std::string, double>> PhysicalFloors::named() const {
  std::vector<std::pair<std::string, double>> out{{"dram", dramSeconds}, {"l2", l2Seconds}};
  for (InstrClass c : kFloorPipes) out.emplace_back(instrClassName(c), pipeSeconds[static_cast<int>(c)]);
  out.emplace_back("issue", issueSeconds);
  out.emplace_back("ldst", ldstSeconds);
  out.emplace_back("shared", sharedSeconds);
  out.emplace_back("sgemm-mix", mixSeconds);
  out.emplace_back("atomics", atomicSeconds);
  out.emplace_back("partial-writes", partialWriteSeconds);
  out.emplace_back("barriers", barrierSeconds);
  out.emplace_back("block-dispatch", dispatchSeconds);
  return out;
}

Resource floorResource(std::string_view name) {
  if (name == "ldst") return resourceOfPipe(InstrClass::Ldst);
  if (name == "sgemm-mix") return Resource::Fp32;
  if (name == "atomics" || name == "partial-writes") return Resource::L2;
  if (name == "barriers") return Resource::Barrier;
  if (name == "block-dispatch") return Resource::Parallelism;
  return parseResource(name).value_or(Resource::Issue);  // dram, shared, issue and the pipes
}

std::pair<std::string, double> PhysicalFloors::largest() const {
  std::pair<std::string, double> best{"", 0.0};
  for (auto& floor : named()) {
    if (floor.second > best.second) best = std::move(floor);
  }
  return best;
}

AtomicSeconds atomicSeconds(const MemoryTraffic& traffic, const Gpu& gpu) {
  AtomicSeconds s;
  const MemoryLevel* l2 = gpu.memoryForResource("l2");
  if (!l2) return s;
  // f32 adds take the L2's float time; every other atomic its integer time (none: no floor).
  const double floatOps = std::min(traffic.hotAtomicFloatOps, traffic.hotAtomicOps);
  if (l2->sameAddressAtomicUs) s.address += floatOps * l2->sameAddressAtomicUs->value * 1e-6;
  if (l2->sameAddressAtomicIntUs) s.address += (traffic.hotAtomicOps - floatOps) * l2->sameAddressAtomicIntUs->value * 1e-6;
  // The atomic units: the busiest alone, and all of them together (sector_rmw is the chip's
  // time per sector operation).
  if (l2->atomicUnitOpUs) s.units = traffic.atomicHotUnitLanes * l2->atomicUnitOpUs->value * 1e-6;
  if (l2->sectorRmwUs) s.units = std::max(s.units, traffic.atomicSectorLanes * l2->sectorRmwUs->value * 1e-6);
  return s;
}

double addedAtomicTime(double atomic, double rest) {
  if (!(atomic > 0)) return 0;
  if (!(rest > 0)) return atomic;
  return atomic * std::min(1.0, atomic / rest);
}

PhysicalFloors computeFloors(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                             const MemoryTraffic& traffic) {
  PhysicalFloors f;
  const double warpSize = std::max(1, gpu.warpSize.value);
  const double warps = static_cast<double>(launch.blocks()) *
                       std::ceil(static_cast<double>(launch.threadsPerBlock()) / warpSize);
  // Per-warp dynamic instructions by class.
  std::array<double, kNumInstrClasses> perWarp{};  // pipe work (matrix instructions: their work)
  double allPerWarp = 0, memoryPerWarp = 0, wavefrontsPerWarp = 0, ffmaPerWarp = 0;
  std::map<int, double> ldsPerWarpByBits;
  if (kernel.summary || kernel.ir.blocks.empty()) {
    if (kernel.summary) {
      const WorkloadSummary& s = *kernel.summary;
      perWarp = s.compByClass;  // all zero = unknown split: only the issue floor applies
      allPerWarp = s.totalInsts();
      f.barriersPerWarp = s.synchInsts;
    }
  } else {
    for (const BasicBlock& b : kernel.ir.blocks) {
      const double e = b.executionsPerWarp;
      for (const Instruction& in : b.instructions) {
        allPerWarp += e;
        if (in.barrier) f.barriersPerWarp += e;
        if (!in.memory) {
          perWarp[static_cast<int>(in.cls)] += e * in.pipeWork;
          if (in.cls == InstrClass::Fp32 && in.opcode.rfind("FFMA", 0) == 0) ffmaPerWarp += e;
          continue;
        }
        memoryPerWarp += e;
        if (in.memory->space != MemorySpace::Shared) continue;
        wavefrontsPerWarp += e * std::max(1.0, in.memory->wavefrontsPerInst);
        if (!in.memory->isStore) ldsPerWarpByBits[in.memory->widthBytes * 8] += e;
      }
    }
  }
  const double clockHz = gpu.clockGhz.value * 1e9;
  const double schedulers = static_cast<double>(gpu.smCount.value) * gpu.schedulersPerSm.value;
  for (InstrClass c : kFloorPipes) {
    const int i = static_cast<int>(c);
    f.pipeWarpInsts[i] = perWarp[i] * warps;
    const Pipeline* pipe = gpu.pipeline(c);
    if (pipe && schedulers > 0 && clockHz > 0) f.pipeSeconds[i] = f.pipeWarpInsts[i] * pipe->gap.value / schedulers / clockHz;
  }
  f.warpInsts = allPerWarp * warps;
  const double issueRate = schedulers * gpu.issueWidth.value;
  if (issueRate > 0 && clockHz > 0) f.issueSeconds = f.warpInsts / issueRate / clockHz;
  f.memoryWarpInsts = memoryPerWarp * warps;
  if (const Pipeline* ldst = gpu.pipeline(InstrClass::Ldst); ldst && schedulers > 0 && clockHz > 0) {
    f.ldstSeconds = f.memoryWarpInsts * ldst->gap.value / schedulers / clockHz;
  }
  f.sharedWavefronts = wavefrontsPerWarp * warps;
  // The shared array serves one wavefront per sharedWavefront() cycles on each SM.
  if (const SharedWavefront w = sharedWavefront(gpu); w.banksKnown && w.cycles > 0 && clockHz > 0) {
    f.sharedSeconds = f.sharedWavefronts * w.cycles / gpu.smCount.value / clockHz;
  }
  // Lai's instruction-mix throughput (Eq. 4.10), where the GPU has it measured.
  const Pipeline* fp32 = gpu.pipeline(InstrClass::Fp32);
  if (gpu.sgemmMix && ffmaPerWarp > 0 && !ldsPerWarpByBits.empty() && fp32 && schedulers > 0 && clockHz > 0) {
    const auto widest = std::max_element(ldsPerWarpByBits.begin(), ldsPerWarpByBits.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
    if (const Param<double>* ft = gpu.sgemmMix->forWidth(widest->first); ft && ft->value > 0) {
      double lds = 0;
      for (const auto& [bits, n] : ldsPerWarpByBits) lds += n;
      f.mixLdsBits = widest->first;
      f.mixThroughput = ft->value;
      f.mixWarpInsts = (ffmaPerWarp + lds) * warps;
      f.mixSeconds = f.mixWarpInsts * fp32->gap.value / schedulers / clockHz / ft->value;
    }
  }
  f.hotAtomicOps = traffic.hotAtomicOps;
  f.atomicSectorLanes = traffic.atomicSectorLanes;
  f.atomicHotUnitLanes = traffic.atomicHotUnitLanes;
  const AtomicSeconds atomics = atomicSeconds(traffic, gpu);
  f.atomicAddressSeconds = atomics.address;
  f.atomicUnitSeconds = atomics.units;
  f.atomicSeconds = atomics.longest();
  if (const MemoryLevel* l2 = gpu.memoryForResource("l2")) {
    f.partialStoreSectors = traffic.partialStoreSectors;
    if (l2->sectorRmwUs) f.partialWriteSeconds = f.partialStoreSectors * l2->sectorRmwUs->value * 1e-6;
  }
  if (gpu.barrier && f.barriersPerWarp > 0 && clockHz > 0) {
    const double warpsPerBlock = std::ceil(static_cast<double>(launch.threadsPerBlock()) / warpSize);
    const double unitCycles =
        f.barriersPerWarp * static_cast<double>(launch.blocks()) * gpu.barrier->busyCycles(warpsPerBlock) / gpu.smCount.value;
    const double chainCycles = f.barriersPerWarp * gpu.barrier->aloneCycles(warpsPerBlock);
    f.barrierSeconds = std::max(unitCycles, chainCycles) / clockHz;
  }
  if (gpu.blockDispatchCycles && clockHz > 0) {
    f.blocksPerSm = std::ceil(static_cast<double>(launch.blocks()) / gpu.smCount.value);
    // The SM's first block starts with the launch: the dispatch spaces the others.
    f.dispatchSeconds = (f.blocksPerSm - 1) * gpu.blockDispatchCycles->value / clockHz;
  }
  f.compulsoryBytes = traffic.compulsoryBytes();
  f.residentBytes = traffic.residentBytes;
  const MemoryLevel* dram = gpu.memoryForResource("dram");
  if (dram && dram->bandwidth && dram->bandwidth->value > 0) f.dramSeconds = traffic.coldBytes() / (dram->bandwidth->value * 1e9);
  const MemoryLevel* l2 = gpu.memoryForResource("l2");
  if (l2 && l2->bandwidth && l2->bandwidth->value > 0) f.l2Seconds = f.compulsoryBytes / (l2->bandwidth->value * 1e9);
  return f;
}

void applyFloors(Prediction& p, const PhysicalFloors& f, const Gpu& gpu) {
  auto add = [&](std::string name, double value, std::string note) {
    p.values.push_back({std::move(name), value, std::move(note)});
  };
  add("compulsory_bytes", f.compulsoryBytes, "distinct bytes the launch moves (memory engine)");
  if (f.residentBytes > 0) {
    add("resident_bytes", f.residentBytes, "of them, bytes in L2 when the launch starts (warm L2)");
    add("floor_dram_us", f.dramSeconds * 1e6, "compulsory bytes not resident in L2 / peak DRAM bandwidth");
  } else {
    add("floor_dram_us", f.dramSeconds * 1e6, "compulsory bytes / peak DRAM bandwidth");
  }
  add("floor_l2_us", f.l2Seconds * 1e6, "compulsory bytes / peak L2 bandwidth");
  for (InstrClass c : kFloorPipes) {
    add(fmt::format("floor_{}_us", instrClassName(c)), f.pipeSeconds[static_cast<int>(c)] * 1e6,
        fmt::format("{} warp instructions x gap / (SMs x schedulers)", instrClassName(c)));
  }
  add("floor_issue_us", f.issueSeconds * 1e6, "warp instructions / (SMs x schedulers x issue width)");
  add("floor_ldst_us", f.ldstSeconds * 1e6, "memory warp instructions x LD/ST gap / (SMs x schedulers)");
  add("floor_shared_us", f.sharedSeconds * 1e6, "shared bank wavefronts / the shared bandwidth's wavefronts");
  if (f.hotAtomicOps > 0 || f.atomicSectorLanes > 0) {
    add("floor_atomics_us", f.atomicSeconds * 1e6,
        f.atomicUnitSeconds > f.atomicAddressSeconds
            ? "the L2's atomic units: sector-request lanes of the busiest unit x atomic_unit_op, or of all x sector_rmw"
            : "atomics to the most-updated address x the L2's same-address atomic time");
  }
  if (f.partialWriteSeconds > 0) {
    add("partial_store_sectors", f.partialStoreSectors, "store sectors written only partly (memory engine)");
    add("floor_partial_writes_us", f.partialWriteSeconds * 1e6, "partly written store sectors x the L2's sector read-modify-write time");
  }
  if (f.barriersPerWarp > 0 && gpu.barrier) {
    add("floor_barriers_us", f.barrierSeconds * 1e6,
        "block barriers x the barrier unit's cycles per barrier / SMs, or one block's barriers in a row");
  }
  if (f.dispatchSeconds > 0) {
    add("floor_block_dispatch_us", f.dispatchSeconds * 1e6, "blocks of the busiest SM after its first x the SM's cycles between two block starts");
  }
  if (f.mixThroughput > 0) {
    add("floor_sgemm_mix_us", f.mixSeconds * 1e6,
        fmt::format("FFMA and shared loads / (F_T {:.3f} (LDS.{}) x FP32 rate)", f.mixThroughput, f.mixLdsBits));
  }
  const auto [name, floorSeconds] = f.largest();
  if (floorSeconds <= 0 || !(p.seconds < floorSeconds)) return;
  const double raw = p.seconds;
  add("raw_time_us", raw * 1e6, "the model's time before the floor");
  p.warnings.push_back(fmt::format(
      "physical floor: the {} model predicted {:.4g} us, below the {} floor of {:.4g} us; raised by {:.4g} us "
      "({:.3g}x)",
      p.variant.empty() ? p.model : p.model + "/" + p.variant, raw * 1e6, name, floorSeconds * 1e6,
      (floorSeconds - raw) * 1e6, raw > 0 ? floorSeconds / raw : 0.0));
  // The floor sets the time, so it is the bound; the model's own bound stays in the sentence.
  const Bound own = p.bound;
  p.bound = {floorResource(name), BoundMode::Throughput};
  p.boundExplanation = fmt::format("the {} floor sets the time (the model alone: {} ({}), {:.4g} us{}{})", name,
                                   resourceName(own.resource), boundModeName(own.mode), raw * 1e6,
                                   p.boundExplanation.empty() ? "" : ": ", p.boundExplanation);
  const double scale = raw > 0 ? floorSeconds / raw : 0;
  p.seconds = floorSeconds;
  p.cycles = raw > 0 ? p.cycles * scale : floorSeconds * gpu.clockGhz.value * 1e9;
  for (ResourceUse& r : p.resources) r.utilization = p.cycles > 0 ? r.busyCycles / p.cycles : 0;
}

Expected<PhysicalFloors> launchFloors(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                      const MemoryTraffic* known) {
  if (known) return computeFloors(kernel, launch, gpu, *known);
  Expected<MemoryTraffic> traffic =
      analyzeMemory(kernel.ir, kernel.summary ? &*kernel.summary : nullptr, launch, gpu);
  if (!traffic) return std::move(traffic).takeError();
  return computeFloors(kernel, launch, gpu, *traffic);
}

Expected<Prediction> withFloors(Prediction p, const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                const MemoryTraffic* known) {
  Expected<PhysicalFloors> floors = launchFloors(kernel, launch, gpu, known);
  if (!floors) return std::move(floors).takeError();
  applyFloors(p, *floors, gpu);
  return p;
}

}  // namespace foresight
