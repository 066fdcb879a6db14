// SPDX-License-Identifier: Apache-2.0
/// \file
/// `PipelineUnit`: the state of one instance of a latency/gap server (SAAKE's `pipe_admit[r]`).
/// Requests wait in an input queue; the queue may be bounded (EmuUnitSpec::maxQueued).
#pragma once

#include <algorithm>

#include "foresight/model/emulate/emu_events.h"

namespace foresight::emu {

/// One pipelined server instance: when it can admit the next request.
class PipelineUnit {
 public:
  PipelineUnit() = default;
  PipelineUnit(const PipelineUnit&) = delete;
  PipelineUnit& operator=(const PipelineUnit&) = delete;
  PipelineUnit(PipelineUnit&&) = default;

  /// Earliest cycle at which an op may issue without overfilling a queue `queuedCycles` long
  /// (maxQueued requests × gap; an unbounded queue never holds issue back, so it is not asked).
  [[nodiscard]] double queueReady(double queuedCycles) const { return pipeAdmit_ - queuedCycles; }

  /// Admits `count` requests issued at `t`: SAAKE's admit = max(t, pipe_admit), then
  /// pipe_admit = admit + count * gap; the last request is done (count - 1) * gap + latency
  /// after the first is admitted. A fractional count below 1 (an expected share of a request,
  /// e.g. the DRAM part of a 99%-L2-hit request) adds count x latency: the expected wait.
  UnitAdmission admit(int unit, double t, double count, double latency, double gap) {
    UnitAdmission a;
    a.unit = unit;
    a.admit = std::max(t, pipeAdmit_);
    a.count = count;
    a.busy = count * gap;
    pipeAdmit_ = a.admit + a.busy;
    a.done = a.admit + std::max(0.0, count - 1) * gap + latency * std::min(1.0, count);
    return a;
  }

 private:
  double pipeAdmit_ = -kUnbounded;
};

}  // namespace foresight::emu
