// SPDX-License-Identifier: Apache-2.0
/// \file
/// Listeners over the emulator's events: per-unit utilization (three definitions, saake.md
/// §10.2 #3), a bounded issue timeline, and per-region attribution of unit busy time.
#pragma once

#include <map>
#include <vector>

#include "foresight/model/emulate/emu_events.h"

namespace foresight::emu {

/// Busy time per unit.
class UtilizationListener : public EmuListener {
 public:
  explicit UtilizationListener(int units) : throughput_(units), literal_(units), unionBusy_(units),
                                            lastStart_(units, -1), openEnd_(units, -1), openStart_(units, -1), requests_(units) {}
  void onIssue(const IssueEvent& e) override;
  void onEnd(double cycles) override;
  /// Σ count x gap: cycles the unit could admit nothing else (throughput utilization x T).
  [[nodiscard]] double throughputBusy(int unit) const { return throughput_[unit]; }
  /// Algorithm 1's literal accumulation, min(t - start[r], L[r]) at each issue (credits the
  /// previous request, never the last; kept for fidelity).
  [[nodiscard]] double literalBusy(int unit) const { return literal_[unit]; }
  /// Length of the union of [admit, done) intervals.
  [[nodiscard]] double intervalBusy(int unit) const { return unionBusy_[unit]; }
  [[nodiscard]] double requests(int unit) const { return requests_[unit]; }
  /// Latencies for the literal form, by unit (set before running).
  std::vector<double> latency;

 private:
  std::vector<double> throughput_, literal_, unionBusy_, lastStart_, openEnd_, openStart_, requests_;
};

/// The first `limit` issues: (warp, cycle, instr, finish).
class TimelineListener : public EmuListener {
 public:
  struct Entry {
    int warp;
    double cycle;
    int instr;
    double finish;
    int unit;  ///< the unit whose result took longest (-1: none)
  };
  explicit TimelineListener(size_t limit) : limit_(limit) {}
  void onIssue(const IssueEvent& e) override {
    if (entries_.size() >= limit_) return;
    int unit = -1;
    double done = e.cycle;
    for (const UnitAdmission& a : e.admissions) {
      if (a.done > done) {
        done = a.done;
        unit = a.unit;
      }
    }
    entries_.push_back({e.warp, e.cycle, e.instr, e.finish, unit});
  }
  [[nodiscard]] const std::vector<Entry>& entries() const { return entries_; }

 private:
  size_t limit_;
  std::vector<Entry> entries_;
};

/// Throughput busy time per (region, unit) and issued ops per region.
class AttributionListener : public EmuListener {
 public:
  void onIssue(const IssueEvent& e) override {
    ++issued_[e.region];
    for (const UnitAdmission& a : e.admissions) busy_[{e.region, a.unit}] += a.busy;
  }
  [[nodiscard]] double busy(int region, int unit) const {
    auto it = busy_.find({region, unit});
    return it == busy_.end() ? 0 : it->second;
  }
  [[nodiscard]] long long issued(int region) const {
    auto it = issued_.find(region);
    return it == issued_.end() ? 0 : it->second;
  }

 private:
  std::map<std::pair<int, int>, double> busy_;
  std::map<int, long long> issued_;
};

/// Per static instruction: ops issued, and the cycles its warps waited before issuing it, by
/// reason and unit (IssueEvent's wait), and for their scheduler once ready.
class InstructionWaitListener : public EmuListener {
 public:
  struct Waits {
    long long issued = 0;
    std::map<std::pair<int, int>, double> stalled;  ///< (StallReason, unit or -1) -> cycles
    double notSelected = 0;                           ///< ready, another warp issued
  };
  explicit InstructionWaitListener(size_t instrs) : waits_(instrs) {}
  void onIssue(const IssueEvent& e) override {
    Waits& w = waits_[static_cast<size_t>(e.instr)];
    ++w.issued;
    if (e.ready > e.waitFrom) w.stalled[{static_cast<int>(e.waitReason), e.waitUnit}] += e.ready - e.waitFrom;
    if (e.cycle > e.ready) w.notSelected += e.cycle - e.ready;
  }
  [[nodiscard]] const std::vector<Waits>& waits() const { return waits_; }

 private:
  std::vector<Waits> waits_;
};

/// Cycles each scheduler spent stalled, by reason.
class StallListener : public EmuListener {
 public:
  void onStall(const StallEvent& e) override { cycles_[static_cast<int>(e.reason)] += e.to - e.from; }
  [[nodiscard]] bool needsStalls() const override { return true; }
  [[nodiscard]] double cycles(StallReason r) const { return cycles_[static_cast<int>(r)]; }

 private:
  double cycles_[4] = {0, 0, 0, 0};
};

}  // namespace foresight::emu
