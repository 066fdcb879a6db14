// SPDX-License-Identifier: Apache-2.0
/// \file
/// The emulator's only output channel (after llvm-mca's HWEventListener): typed events sent to
/// listeners. Utilization, timelines and attribution are listeners (emu_listeners.h); the engine
/// does not know they exist. Every hook defaults to doing nothing.
#pragma once

#include <vector>

#include "foresight/model/emulate/emu_program.h"

namespace foresight::emu {

/// One unit occupied by an issued op.
struct UnitAdmission {
  int unit = 0;
  double admit = 0;   ///< first request admitted
  double count = 1;   ///< requests
  double busy = 0;    ///< count * gap: cycles the unit cannot admit anything else
  double done = 0;    ///< admit + (count - 1) * gap + latency
};

/// Why a scheduler issued nothing over an interval of cycles.
enum class StallReason {
  Dependency,  ///< every warp waits for an operand (a latency)
  Barrier,     ///< every warp waits at a barrier
  Queue,       ///< a unit's input queue is full (a throughput)
  SameWarp,    ///< TEG same-warp issue latency
};

/// An op was issued by a scheduler.
struct IssueEvent {
  int warp = 0;
  int scheduler = 0;
  int opIndex = 0;   ///< index in the warp's stream
  int instr = 0;     ///< EmuProgram::instrs index
  int region = 0;
  double cycle = 0;  ///< issue cycle
  double finish = 0; ///< when a dependent may issue
  std::vector<UnitAdmission> admissions;
  /// The warp's wait before this op: from its previous issue (or its start) `waitFrom`, it
  /// could not issue until `ready` for `waitReason` (Dependency: an operand of `waitUnit`'s
  /// result; Queue: `waitUnit`'s full queue; Barrier; SameWarp: the issue latency of the
  /// previous op), then waited from `ready` to `cycle` for its scheduler (other warps issued).
  double waitFrom = 0;
  double ready = 0;
  StallReason waitReason = StallReason::Dependency;
  int waitUnit = -1;
};

/// A scheduler stalled from `from` to `to`.
struct StallEvent {
  int scheduler = 0;
  StallReason reason = StallReason::Dependency;
  int unit = -1;  ///< for Queue: the unit whose queue is full
  double from = 0;
  double to = 0;
};

/// A block's warps passed a barrier at `release`.
struct BarrierEvent {
  int block = 0;
  double release = 0;
};

/// Receives the emulator's events.
class EmuListener {
 public:
  virtual ~EmuListener() = default;
  virtual void onIssue(const IssueEvent& /*event*/) {}
  virtual void onStall(const StallEvent& /*event*/) {}
  /// Whether this listener reads onStall(). Stall events carry each stall's exact end, so the
  /// engine computes every warp's ready time at every scan while a listener needs them; without
  /// one it may skip warps whose bound is still ahead (the same issues at the same times).
  [[nodiscard]] virtual bool needsStalls() const { return false; }
  virtual void onBarrier(const BarrierEvent& /*event*/) {}
  /// The emulation ended at `cycles` (max finish).
  virtual void onEnd(double /*cycles*/) {}
};

}  // namespace foresight::emu
