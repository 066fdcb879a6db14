// SPDX-License-Identifier: Apache-2.0
/// \file
/// Physical floors of one kernel launch on one GPU (docs/models.md#physical-floors): times no
/// execution can beat, whatever the model says.
///  - DRAM: compulsory bytes (the launch's footprint, MemoryTraffic::compulsoryBytes()) not
///    resident in L2 at the start (all of them with a cold L2) / peak DRAM bandwidth
///    (`[memory.dram] bandwidth`);
///  - L2: compulsory bytes / peak L2 bandwidth (`[memory.l2] bandwidth`): every byte of the
///    footprint passes the L2 at least once, resident or not;
///  - per pipe (fp32, fp64, int, sfu, tensor): dynamic warp instructions of the class x the
///    pipe's gap / (SMs x schedulers), i.e. the class's operations / the pipe's peak rate;
///  - issue: all dynamic warp instructions / (SMs x schedulers x issue width);
///  - ld/st: memory warp instructions x the LD/ST pipe's gap / (SMs x schedulers);
///  - shared: shared-memory bank wavefronts / the wavefronts the GPU's shared bandwidth serves
///    (bandwidth / (banks x bank width));
///  - sgemm-mix (GPUs with a measured `[sgemm_mix]`, kernels with FFMA and shared loads): the
///    FFMA and shared loads / (F_T x the FP32 pipe's rate), Lai's Eq. 4.10 for any kernel;
///    the bound of `foresight bound FILE` (model/kernel_bound.h) is the largest of these;
///  - atomics (GPUs with `same_address_atomic`/`same_address_atomic_int`, `atomic_unit_op` or
///    `sector_rmw` on the L2), the longest of: the global atomics to the launch's most-updated
///    address x the L2's time per atomic of their kind (f32 adds; every other kind), since the
///    L2 applies them one after another; the busiest atomic unit's sector-request lanes x
///    `atomic_unit_op`; all sector-request lanes x `sector_rmw` (the chip's atomic units together);
///  - partial writes (GPUs with `sector_rmw` on the L2): the store sectors written only partly
///    (MemoryTraffic::partialStoreSectors) x the L2's time per sector read-modify-write;
///  - barriers (GPUs with `[barrier]`): the block barriers of the launch x the cycles each keeps
///    the SM's barrier unit busy (`block + arrival x warps per block`) / SMs, or one block's own
///    barriers one after another (`latency + arrival x warps` each), whichever is longer;
///  - block dispatch (GPUs with `[sm] block_dispatch`): the blocks of the busiest SM after its
///    first, ceil(blocks / SMs) − 1, x the cycles between two blocks the SM can start.
/// Matrix instructions count their pipe work (Instruction::pipeWork), not 1.
/// Every prediction goes through applyFloors() (predict() and explain): a raw time below the
/// largest floor is raised to it, with a warning that names the floor and the model's raw time.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/ir/launch.h"
#include "foresight/memory/memory_traffic.h"
#include "foresight/model/predict.h"
#include "foresight/model/prediction.h"
#include "foresight/support/error.h"

namespace foresight {

/// The pipes with a floor, in report order.
inline constexpr std::array<InstrClass, 5> kFloorPipes = {InstrClass::Fp32, InstrClass::Fp64, InstrClass::Int,
                                                          InstrClass::Sfu, InstrClass::Tensor};

/// The floors of one launch, in seconds (0 = nothing to bound, or the GPU gives no rate).
struct PhysicalFloors {
  double compulsoryBytes = 0;
  double residentBytes = 0;  ///< of them, in L2 at the start (MemoryTraffic::residentBytes)
  double dramSeconds = 0;
  double l2Seconds = 0;
  std::array<double, kNumInstrClasses> pipeWarpInsts{};  ///< whole launch, by InstrClass
  std::array<double, kNumInstrClasses> pipeSeconds{};    ///< by InstrClass (kFloorPipes only)
  double warpInsts = 0;                                  ///< whole launch, all classes
  double issueSeconds = 0;
  double memoryWarpInsts = 0;    ///< whole launch: loads, stores and atomics of every space
  double ldstSeconds = 0;
  double sharedWavefronts = 0;   ///< whole launch (1 per shared instruction where not counted)
  double sharedSeconds = 0;
  double mixWarpInsts = 0;       ///< whole launch: FFMA and shared loads (sgemm-mix floor)
  int mixLdsBits = 0;            ///< the most executed shared-load width (F_T's row)
  double mixThroughput = 0;      ///< F_T of that width; 0 = no sgemm-mix floor
  double mixSeconds = 0;
  double hotAtomicOps = 0;       ///< atomics to the most-updated address (MemoryTraffic::hotAtomicOps)
  double atomicSectorLanes = 0;  ///< MemoryTraffic::atomicSectorLanes
  double atomicHotUnitLanes = 0; ///< MemoryTraffic::atomicHotUnitLanes
  double atomicAddressSeconds = 0;  ///< the most-updated address alone
  double atomicUnitSeconds = 0;     ///< the atomic units (busiest one, or all together)
  double atomicSeconds = 0;         ///< the longer of the two
  double partialStoreSectors = 0;  ///< MemoryTraffic::partialStoreSectors
  double partialWriteSeconds = 0;
  double barriersPerWarp = 0;    ///< block barriers each warp (and so each block) passes
  double barrierSeconds = 0;
  double blocksPerSm = 0;        ///< blocks of the busiest SM: ceil(blocks / SMs)
  double dispatchSeconds = 0;

  /// Every floor by name, in report order: "dram", "l2", the pipes of kFloorPipes, "issue", "ldst",
  /// "shared", "sgemm-mix", "atomics", "partial-writes", "barriers", "block-dispatch" (0 where
  /// nothing bounds).
  [[nodiscard]] std::vector<std::pair<std::string, double>> named() const;
  /// The largest floor and its name; {"", 0} when all are 0.
  [[nodiscard]] std::pair<std::string, double> largest() const;
};

/// The L2's time for a launch's atomics (seconds): the most-updated address's operations one
/// after another (f32 adds at `same_address_atomic`, others at `same_address_atomic_int`), and
/// the atomic units' (the busiest unit's sector-request lanes × `atomic_unit_op`, or all of them
/// × `sector_rmw`); 0 where the GPU gives no rate.
struct AtomicSeconds {
  double address = 0;
  double units = 0;
  [[nodiscard]] double longest() const { return std::max(address, units); }
};
[[nodiscard]] AtomicSeconds atomicSeconds(const MemoryTraffic& traffic, const Gpu& gpu);

/// What the atomics' serialized time adds to a kernel whose other work takes `rest` (any unit,
/// the same for both): `atomic` × min(1, `atomic` / `rest`). The atomic unit is busy a fraction
/// ρ = atomic / rest of the kernel; at ρ >= 1 its queue backs up into the SMs and the two add
/// (our reduce_shuffle: 88 and 255 µs where the atomics alone take 58 and 225, the sum about
/// 30), while a unit busy a small fraction delays the rest by that fraction of its time
/// (simveit's reductions: one atomicAdd per block, 128 µs of atomics inside a 1.33 ms read that
/// takes the DRAM time alone). Continuous in ρ; 0 when either is 0.
[[nodiscard]] double addedAtomicTime(double atomic, double rest);

/// The dynamic warp instructions of the launch by class, from the IR's blocks (executions per
/// warp x warps), or the workload summary when the input gives one (summary, skeleton and C
/// inputs) or the IR has no blocks; and the floors.
[[nodiscard]] PhysicalFloors computeFloors(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                           const MemoryTraffic& traffic);

/// Adds the floors to `p.values` (floor_*_us, compulsory_bytes) and raises `p` to the largest
/// one when its time is below it (cycles, seconds and resource utilisations follow; a warning
/// names the floor, the raise and the model's raw time; the value raw_time_us keeps it; the
/// bound becomes the floor's resource, throughput, and its sentence keeps the model's own).
void applyFloors(Prediction& p, const PhysicalFloors& floors, const Gpu& gpu);

/// The resource a floor (a name of PhysicalFloors::named()) charges: "dram" → dram, a pipe → its
/// resource, "issue" → issue, "ldst" → l1, "shared" → shared, "sgemm-mix" → fp32, "atomics" →
/// l2, "barriers" → barrier, "block-dispatch" → parallelism.
[[nodiscard]] Resource floorResource(std::string_view name);

/// computeFloors() with `known` traffic, or the memory engine's analysis of the launch.
[[nodiscard]] Expected<PhysicalFloors> launchFloors(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                                    const MemoryTraffic* known = nullptr);

/// computeFloors() with the memory engine's traffic for the launch, then applyFloors().
/// `known`: the launch's traffic when the caller already has it (else analysed here).
[[nodiscard]] Expected<Prediction> withFloors(Prediction p, const KernelInput& kernel, const Launch& launch,
                                              const Gpu& gpu, const MemoryTraffic* known = nullptr);

}  // namespace foresight
