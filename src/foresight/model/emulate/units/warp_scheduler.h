// SPDX-License-Identifier: Apache-2.0
/// \file
/// `WarpScheduler`: one scheduler (SM sub-partition) and its warp-selection policy: greedy-then-
/// oldest (SAAKE, after Rogers et al.) or round robin (TEG's `next = (current + 1) % W`).
#pragma once

#include <vector>

#include "foresight/model/emulate/emu_program.h"

namespace foresight::emu {

/// One warp scheduler: its warps (oldest first), the last warp it issued, and its issue slot.
class WarpScheduler {
 public:
  explicit WarpScheduler(EmuMachine::Policy policy) : policy_(policy) {}
  WarpScheduler(const WarpScheduler&) = delete;
  WarpScheduler& operator=(const WarpScheduler&) = delete;
  WarpScheduler(WarpScheduler&&) = default;

  void addWarp(int warp) { warps_.push_back(warp); }
  [[nodiscard]] const std::vector<int>& warps() const { return warps_; }

  /// Calls `visit(warp)` on the warps in policy order until it returns true; returns the warp
  /// accepted, or -1. GTO: the last issued warp first (greedy), then oldest first. Round robin:
  /// starting after the last issued warp.
  template <class Visit>
  int select(Visit&& visit) const {
    const int n = static_cast<int>(warps_.size());
    if (n == 0) return -1;
    if (policy_ == EmuMachine::Policy::Gto) {
      if (last_ >= 0 && visit(warps_[last_])) return last_;
      for (int i = 0; i < n; ++i) {
        if (i != last_ && visit(warps_[i])) return i;
      }
      return -1;
    }
    for (int k = 1; k <= n; ++k) {
      const int i = (last_ + k + n) % n;
      if (visit(warps_[i])) return i;
    }
    return -1;
  }

  /// Records that the warp at position `slot` issued at `t`; the next issue is `gap` later.
  void issued(int slot, double t, double gap) {
    last_ = slot;
    nextIssue_ = t + gap;
  }
  /// Cycle of the scheduler's next free issue slot.
  [[nodiscard]] double nextIssue() const { return nextIssue_; }

 private:
  EmuMachine::Policy policy_;
  std::vector<int> warps_;
  int last_ = -1;  // position in warps_ (round robin starts at 0)
  double nextIssue_ = 0;
};

}  // namespace foresight::emu
