// SPDX-License-Identifier: Apache-2.0
/// \file
/// `WarpScheduler`: one scheduler (SM sub-partition) and its warp-selection policy: greedy-then-
/// oldest (SAAKE, after Rogers et al.) or round robin (TEG's `next = (current + 1) % W`).
#pragma once

#include <algorithm>
#include <vector>

#include "foresight/model/emulate/emu_program.h"

namespace foresight::emu {

/// One warp scheduler: the warps it may issue (started and not finished, oldest first), the
/// last warp it issued, and its issue slot. Warps that cannot issue for good (finished, or not
/// started because their block slot is still taken) are left out of the scan: they would never
/// be accepted, so the choice is the same as over all warps, and the scan stays short.
class WarpScheduler {
 public:
  explicit WarpScheduler(EmuMachine::Policy policy) : policy_(policy) {}
  WarpScheduler(const WarpScheduler&) = delete;
  WarpScheduler& operator=(const WarpScheduler&) = delete;
  WarpScheduler(WarpScheduler&&) = default;

  /// Adds warp `warp` to the scan (kept in warp order: lower = older).
  void addWarp(int warp) {
    warps_.insert(std::upper_bound(warps_.begin(), warps_.end(), warp), warp);
    lastHere_ = lastHere_ || warp == last_;
  }
  /// Removes warp `warp` from the scan (it finished).
  void removeWarp(int warp) {
    auto it = std::lower_bound(warps_.begin(), warps_.end(), warp);
    if (it != warps_.end() && *it == warp) warps_.erase(it);
    if (warp == last_) lastHere_ = false;
  }
  [[nodiscard]] const std::vector<int>& warps() const { return warps_; }

  /// Calls `visit(warp)` on the warps in policy order until it returns true; returns the warp
  /// accepted, or -1. GTO: the last issued warp first (greedy), then oldest first. Round robin:
  /// starting after the last issued warp.
  template <class Visit>
  int select(Visit&& visit) const {
    const int n = static_cast<int>(warps_.size());
    if (n == 0) return -1;
    if (policy_ == EmuMachine::Policy::Gto) {
      if (lastHere_ && visit(last_)) return last_;
      for (int w : warps_) {
        if (w != last_ && visit(w)) return w;
      }
      return -1;
    }
    const int start = static_cast<int>(std::upper_bound(warps_.begin(), warps_.end(), last_) - warps_.begin());
    for (int k = 0; k < n; ++k) {
      const int w = warps_[(start + k) % n];
      if (visit(w)) return w;
    }
    return -1;
  }

  /// Records that warp `warp` issued at `t`; the next issue is `gap` later.
  void issued(int warp, double t, double gap) {
    last_ = warp;
    lastHere_ = true;  // only warps in the scan issue
    nextIssue_ = t + gap;
  }
  /// Cycle of the scheduler's next free issue slot.
  [[nodiscard]] double nextIssue() const { return nextIssue_; }

 private:
  EmuMachine::Policy policy_;
  std::vector<int> warps_;  // ascending
  int last_ = -1;           // warp id
  bool lastHere_ = false;   // last_ is in warps_ (GTO tries it first)
  double nextIssue_ = 0;
};

}  // namespace foresight::emu
