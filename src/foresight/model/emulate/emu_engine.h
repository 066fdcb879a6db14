// SPDX-License-Identifier: Apache-2.0
/// \file
/// The abstract emulation engine: SAAKE's Algorithm 1 generalised to N schedulers with an issue
/// gap, GTO or round-robin selection, bounded unit queues, TEG's same-warp issue latency and
/// block barriers. It replays an EmuProgram on an EmuMachine and reports only through listeners
/// and the final cycle count.
///
/// Defects of Algorithm 1 (saake.md §10.2) and how this engine fixes them:
///  1. the clock could run backwards (stale earl_t): each step recomputes every warp's ready
///     time and moves the clock to max(t, min ready) over all schedulers;
///  2. the result took each warp's *last* instruction's finish: the result is the maximum
///     finish over all ops (a long store issued earlier can finish last);
///  3. utilization credited the previous request and never the last: the engine emits every
///     admission; UtilizationListener computes the literal, interval-union and throughput forms;
///  9. queue lengths were unspecified: UnitSpec::maxQueued (kUnbounded reproduces §4.1).
/// Per step, a scheduler whose issue slot is free issues the first ready warp in policy order;
/// the cost is O(dynamic ops x warps per scheduler).
#pragma once

#include <span>

#include "foresight/model/emulate/emu_events.h"
#include "foresight/model/emulate/emu_program.h"
#include "foresight/support/error.h"

namespace foresight::emu {

/// Result of one emulation.
struct EmuResult {
  double cycles = 0;     ///< maximum finish over all ops (SM time)
  long long issued = 0;  ///< ops issued
};

/// Emulates `program` on `machine` with one parameter perturbed (sensitivity) and sends events
/// to `listeners`. Errors for an op naming a unit or register out of range.
[[nodiscard]] Expected<EmuResult> runEmulation(const EmuProgram& program, const EmuMachine& machine,
                                               const Perturbation& perturbation = {},
                                               std::span<EmuListener* const> listeners = {});

}  // namespace foresight::emu
