// SPDX-License-Identifier: Apache-2.0
/// \file
/// Wave scaling, launch overhead, and the Prediction of the emulate model.
#include "foresight/model/emulate/emulate_model.h"

#include <algorithm>
#include <cmath>

#include "foresight/model/emulate/emu_listeners.h"
#include "foresight/model/emulate/sensitivity.h"
#include "foresight/model/floors.h"

namespace foresight::emu {

Expected<KernelEmulation> KernelEmulation::create(const KernelInput& kernel, const Launch& launch,
                                                  const Gpu& gpu, const EmulateOptions& options) {
  Expected<EmulationBuilder> b = EmulationBuilder::create(kernel, launch, gpu, options);
  if (!b) return std::move(b).takeError();
  return fromBuilder(std::move(*b));
}

Expected<KernelEmulation> KernelEmulation::fromBuilder(EmulationBuilder builder) {
  KernelEmulation e(std::move(builder));
  const Launch& launch = e.builder_.launch();
  const Gpu& gpu = e.builder_.gpu();
  const EmulateOptions& options = e.builder_.options();
  const long long blocks = launch.blocks();
  if (blocks <= 0) return makeError("the launch has no blocks");
  const int sms = std::max(1, gpu.smCount.value);
  const int m = std::max(1, e.builder_.blocksPerSm());
  const long long perWave = static_cast<long long>(m) * sms;
  const bool modern = options.variant == EmulateVariant::Modern;
  if (modern) {
    // Blocks of the busiest SM, dealt round robin; up to three waves are emulated with slots
    // refilled as blocks retire (so waves overlap as on hardware), the rest scaled.
    const long long perSm = (blocks + sms - 1) / sms;
    const int active = static_cast<int>(std::min<long long>(sms, blocks));
    const int slots = static_cast<int>(std::min<long long>(m, perSm));
    const int emulated = static_cast<int>(std::min<long long>(perSm, static_cast<long long>(slots) * 3));
    Expected<LoweredSm> f = e.builder_.build(slots, active, emulated);
    if (!f) return std::move(f).takeError();
    e.full_ = std::move(*f);
    e.fullWaves_ = 1;
    if (perSm > emulated) {
      Expected<LoweredSm> one = e.builder_.build(slots, active, slots);
      if (!one) return std::move(one).takeError();
      e.tail_ = std::move(*one);
      e.blocksTotal_ = static_cast<double>(perSm);
      e.blocksLong_ = emulated;
      e.blocksShort_ = slots;
    }
  } else {
    // SAAKE: T_SM(M) x ceil(blocks / (M x SMs)) (ceil: saake.md ambiguity 7).
    const int resident = static_cast<int>(std::min<long long>(m, (blocks + sms - 1) / sms));
    Expected<LoweredSm> f = e.builder_.build(resident, static_cast<int>(std::min<long long>(sms, blocks)));
    if (!f) return std::move(f).takeError();
    e.full_ = std::move(*f);
    e.fullWaves_ = std::ceil(static_cast<double>(blocks) / static_cast<double>(perWave));
  }
  // Launch overhead: the option, else the GPU's calibrated launch-to-launch time, else 3000
  // cycles (modern); the faithful variant has none.
  double defaultOverhead = 0;
  if (modern) defaultOverhead = gpu.launchOverheadUs ? gpu.launchOverheadUs->value * 1e3 * gpu.clockGhz.value : 3000.0;
  e.launchOverhead_ = options.launchOverheadCycles >= 0 ? options.launchOverheadCycles : defaultOverhead;
  // Atomics to one address (or atomic unit) do not overlap the rest of the work
  // (docs/models.md#modern-variant): their serialized time is added, as the default model adds
  // it; with infinite bandwidth (what-if) the L2 applies them at once.
  const MemoryTraffic* memory = e.builder_.memory();
  if (modern && memory && !options.whatIf.infiniteBandwidth) {
    e.atomicCycles_ = atomicSeconds(*memory, gpu).longest() * gpu.clockGhz.value * 1e9;
    const std::vector<UnitSpec>& units = e.full_.machine.units;
    for (size_t u = 0; u < units.size() && e.l2Unit_ < 0; ++u) {
      if (units[u].resource == Resource::L2) e.l2Unit_ = static_cast<int>(u);
    }
  }
  return e;
}

Expected<KernelTiming> KernelEmulation::run(const Perturbation& perturbation,
                                            std::span<EmuListener* const> listeners) const {
  KernelTiming t;
  Expected<EmuResult> full = runEmulation(full_.program, full_.machine, perturbation, listeners);
  if (!full) return std::move(full).takeError();
  t.smCycles = full->cycles * full_.scale;
  t.issued = full->issued;
  if (tail_) {
    Expected<EmuResult> tail = runEmulation(tail_->program, tail_->machine, perturbation);
    if (!tail) return std::move(tail).takeError();
    t.tailCycles = tail->cycles * tail_->scale;
    t.issued += tail->issued;
  }
  t.fullWaves = fullWaves_;
  t.launchOverhead = launchOverhead_ * (perturbation.unit == kLaunchUnit ? perturbation.factor : 1.0);
  const bool l2Gap = perturbation.unit >= 0 && perturbation.unit == l2Unit_ && perturbation.gap && perturbation.region < 0;
  t.atomicCycles = atomicCycles_ * (l2Gap ? perturbation.factor : 1.0);
  if (blocksLong_ > blocksShort_) {
    // Steady-state extrapolation from the long (3 waves) and short (1 wave) emulations.
    const double perBlock = std::max(0.0, (t.smCycles - t.tailCycles) / (blocksLong_ - blocksShort_));
    t.fullWaves = (t.smCycles + (blocksTotal_ - blocksLong_) * perBlock) / std::max(1e-12, t.smCycles);
    t.tailCycles = 0;
  }
  t.cycles = t.fullWaves * t.smCycles + t.tailCycles + t.atomicCycles + t.launchOverhead;
  return t;
}

Expected<Prediction> predictEmulate(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                    const EmulateOptions& options) {
  Expected<KernelEmulation> emulation = KernelEmulation::create(kernel, launch, gpu, options);
  if (!emulation) return std::move(emulation).takeError();
  Expected<KernelTiming> timing = emulation->run();
  if (!timing) return std::move(timing).takeError();
  SensitivityOptions so;
  so.regions = false;
  so.central = options.variant != EmulateVariant::Saake;
  so.fit = so.central;
  Expected<SensitivityReport> sens = analyzeSensitivity(*emulation, so);
  if (!sens) return std::move(sens).takeError();
  return makeEmulatePrediction(*emulation, *timing, *sens, gpu, options);
}

Prediction makeEmulatePrediction(const KernelEmulation& emulation, const KernelTiming& timingRef,
                                 const SensitivityReport& sensRef, const Gpu& gpu,
                                 const EmulateOptions& options) {
  const KernelTiming* timing = &timingRef;
  const SensitivityReport* sens = &sensRef;
  const KernelEmulation* emulationPtr = &emulation;
  Prediction p;
  p.model = "emulate";
  p.variant = emulateVariantName(options.variant);
  p.cycles = timing->cycles;
  p.seconds = timing->cycles / (gpu.clockGhz.value * 1e9);
  p.occupancy = emulationPtr->builder().occupancy();
  p.bound = sens->bound;
  const Elasticity& top = sens->entries.front();
  char buf[160];
  std::snprintf(buf, sizeof buf, "the %s %s moves the kernel time most (elasticity %.2f: +10%% -> %+.1f%%)",
                top.unit.c_str(), top.parameter == BoundMode::Latency ? "latency" : "gap",
                top.elasticity, top.elasticity * 10);
  p.boundExplanation = buf;
  std::array<double, kNumResources> busy{};
  std::array<bool, kNumResources> seen{};
  for (const ResourceAlone& a : sens->alone) {
    const int r = static_cast<int>(a.resource);
    busy[r] = std::max(busy[r], a.cycles);
    seen[r] = true;
  }
  for (int r = 0; r < kNumResources; ++r) {
    if (!seen[r]) continue;
    p.resources.push_back({static_cast<Resource>(r), busy[r], p.cycles > 0 ? busy[r] / p.cycles : 0});
  }
  const LoweredSm& full = emulationPtr->fullWave();
  p.values.push_back({"blocks_resident", static_cast<double>(full.blocks), "block slots of the emulated SM"});
  p.values.push_back({"warps_emulated", static_cast<double>(full.program.warps.size()), "warps emulated"});
  p.values.push_back({"T_SM", timing->smCycles, "cycles of the emulated blocks on one SM"});
  p.values.push_back({"T_SM_multiplier", timing->fullWaves, "blocks of the busiest SM / emulated (saake: waves)"});
  p.values.push_back({"stream_scale", full.scale, "full dynamic instructions / emulated (stream cap)"});
  if (full.sampledWindows > 0) {
    p.values.push_back({"sampled_windows", static_cast<double>(full.sampledWindows), "stream windows over the emulated warps' whole runs"});
  }
  if (std::abs(full.gridWeight - 1) > 1e-9) {
    p.values.push_back({"grid_weight", full.gridWeight, "average block of the grid / emulated blocks (instructions)"});
  }
  p.values.push_back({"launch_overhead", timing->launchOverhead, "cycles"});
  if (timing->atomicCycles > 0) {
    p.values.push_back({"atomic_cycles", timing->atomicCycles, "cycles the L2 applies the atomics one after another, added"});
  }
  p.values.push_back({"ops_emulated", static_cast<double>(timing->issued), "warp instructions emulated"});
  if (full.globalRequests > 0) {
    p.values.push_back({"sectors_per_request", full.sectors / full.globalRequests, "global sectors per warp request"});
    const double loads = full.l1Hits + full.l2Hits + full.dramSectors;
    if (loads > 0) {
      p.values.push_back({"l1_hit_rate", full.l1Hits / std::max(1e-12, full.sectors), "share of global sectors served by L1"});
      p.values.push_back({"l2_hit_rate", full.l2Hits / std::max(1e-12, full.l2Hits + full.dramSectors), "share of L2 lookups that hit"});
    }
  }
  if (const MemoryTraffic* mem = emulationPtr->builder().memory(); mem && mem->loadSectors + mem->storeSectors > 0) {
    p.values.push_back({"dram_read_bytes", mem->dramReadSectors * mem->sectorBytes, "launch, memory engine"});
    p.values.push_back({"dram_write_bytes", mem->dramWriteSectors * mem->sectorBytes, "launch, memory engine"});
    p.values.push_back({"footprint_bytes", mem->compulsoryBytes(), "distinct bytes the launch touches (compulsory DRAM traffic)"});
  }
  if (full.sharedRequests > 0) {
    p.values.push_back({"wavefronts_per_shared_request", full.wavefronts / full.sharedRequests, "bank wavefronts"});
  }
  p.values.push_back({"elasticity_sum", sens->sum, "Σ elasticities (≈ 1)"});
  for (const std::string& n : emulationPtr->builder().notes()) p.warnings.push_back(n);
  for (const std::string& n : sens->warnings) p.warnings.push_back(n);
  if (full.sampledWindows > 0) {
    char w[200];
    std::snprintf(w, sizeof w, "emulate: warp streams sampled (%lld windows spread over the whole runs); SM time scaled by %.3g (full / emulated instructions)",
                  full.sampledWindows, full.scale);
    p.warnings.push_back(w);
  } else if (full.scale > 1.0 + 1e-9) {
    char w[160];
    std::snprintf(w, sizeof w, "emulate: streams capped; SM time scaled by %.3g (full / emulated instructions)", full.scale);
    p.warnings.push_back(w);
  }
  return p;
}

}  // namespace foresight::emu
