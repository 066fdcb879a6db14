// SPDX-License-Identifier: Apache-2.0
/// \file
/// The `emulate` model: one SM's resident blocks emulated (emu_engine.h) and scaled to the
/// launch. Modern: the busiest SM runs B = ceil(blocks / SMs) blocks in M slots; up to 3M of
/// them are emulated with slots refilled as blocks retire (waves overlap, the last wave may be
/// partial); when B is larger, one wave (M blocks) is emulated too and the remaining blocks
/// cost the steady-state slope: T_SM = T(3M) + (B - 3M) x (T(3M) - T(M)) / 2M, so the
/// pipeline fill and drain count once, not once per emulated group. T = T_SM + launch overhead. Saake: T = T_SM(M) x
/// ceil(blocks / (M x SMs)), every wave starting empty (saake.md ambiguity 7). A stream cap multiplies
/// T_SM by (full dynamic instructions / emulated). The bound is the sensitivity analysis's
/// (sensitivity.h): the parameter whose +10% moves T most.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "foresight/model/emulate/emu_engine.h"
#include "foresight/model/emulate/emulate_lowering.h"
#include "foresight/model/prediction.h"

namespace foresight {
struct SensitivityReport;  // sensitivity.h
}  // namespace foresight

namespace foresight::emu {

/// Perturbation::unit value that denotes the launch overhead.
inline constexpr int kLaunchUnit = -3;

/// Timing of one whole launch.
struct KernelTiming {
  double cycles = 0;      ///< whole launch, SM cycles
  double smCycles = 0;    ///< one full wave's SM time (scaled by the stream cap)
  double tailCycles = 0;  ///< the last partial wave's SM time (0 when none)
  double fullWaves = 0;   ///< full waves timed at smCycles (saake: ceil of all waves)
  double launchOverhead = 0;
  /// Modern: the L2's serialized time for the launch's atomics (floors.h atomicSeconds()), added
  /// after the SM time as the default model adds it; it scales with the L2 unit's gap.
  double atomicCycles = 0;
  long long issued = 0;   ///< ops emulated
};

/// A launch lowered once and timed under any perturbation (the sensitivity analysis reruns it).
class KernelEmulation {
 public:
  static Expected<KernelEmulation> create(const KernelInput& kernel, const Launch& launch,
                                          const Gpu& gpu, const EmulateOptions& options);
  /// The launch a builder describes (what-if variants of one kernel share its stream cache).
  static Expected<KernelEmulation> fromBuilder(EmulationBuilder builder);
  /// Times the launch; listeners see the full-wave SM only.
  [[nodiscard]] Expected<KernelTiming> run(const Perturbation& perturbation = {},
                                           std::span<EmuListener* const> listeners = {}) const;
  /// Unit specs (identical in the full and tail machines).
  [[nodiscard]] const std::vector<UnitSpec>& units() const { return full_.machine.units; }
  [[nodiscard]] const LoweredSm& fullWave() const { return full_; }
  [[nodiscard]] const std::optional<LoweredSm>& tailWave() const { return tail_; }
  [[nodiscard]] const EmulationBuilder& builder() const { return builder_; }
  [[nodiscard]] double issueGap() const { return full_.machine.issueGap; }
  [[nodiscard]] double blockOverhead() const { return full_.machine.blockOverhead; }
  [[nodiscard]] int schedulers() const { return full_.machine.schedulers; }
  /// The unit whose gap scales KernelTiming::atomicCycles (the L2's), -1 when none.
  [[nodiscard]] int atomicUnit() const { return l2Unit_; }

 private:
  KernelEmulation(EmulationBuilder b) : builder_(std::move(b)) {}
  EmulationBuilder builder_;
  LoweredSm full_;
  std::optional<LoweredSm> tail_;
  double fullWaves_ = 0;
  // Modern extrapolation: blocks of the busiest SM, of the long and of the short emulation.
  double blocksTotal_ = 0, blocksLong_ = 0, blocksShort_ = 0;
  double launchOverhead_ = 0;
  double atomicCycles_ = 0;  ///< KernelTiming::atomicCycles unperturbed
  int l2Unit_ = -1;          ///< the unit whose gap scales them (the L2's), -1: none
};

/// The Prediction of an emulated launch from its baseline timing and sensitivity report (the
/// bound is the report's); `explain` reuses the report it prints.
[[nodiscard]] Prediction makeEmulatePrediction(const KernelEmulation& emulation, const KernelTiming& timing,
                                               const SensitivityReport& sensitivity, const Gpu& gpu,
                                               const EmulateOptions& options);

/// The emulate model behind predict(): timing, occupancy, per-resource busy time, bound from
/// sensitivity, and intermediate values.
[[nodiscard]] Expected<Prediction> predictEmulate(const KernelInput& kernel, const Launch& launch,
                                                  const Gpu& gpu, const EmulateOptions& options);

}  // namespace foresight::emu
