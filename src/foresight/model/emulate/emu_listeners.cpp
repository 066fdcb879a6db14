// SPDX-License-Identifier: Apache-2.0
/// \file
/// Utilization accounting.
#include "foresight/model/emulate/emu_listeners.h"

#include <algorithm>

namespace foresight::emu {

void UtilizationListener::onIssue(const IssueEvent& e) {
  for (const UnitAdmission& a : e.admissions) {
    const int u = a.unit;
    throughput_[u] += a.busy;
    requests_[u] += a.count;
    // Literal Algorithm 1: util[r] += min(t - start[r], L[r]); start[r] = t.
    const double lat = u < static_cast<int>(latency.size()) ? latency[u] : 0;
    if (lastStart_[u] >= 0) literal_[u] += std::min(e.cycle - lastStart_[u], lat);
    lastStart_[u] = e.cycle;
    // Interval union; admissions of one unit arrive in admit order per instance, close enough
    // for a report (overlaps from other instances are merged conservatively).
    if (openEnd_[u] < 0 || a.admit > openEnd_[u]) {
      if (openEnd_[u] >= 0) unionBusy_[u] += openEnd_[u] - openStart_[u];
      openStart_[u] = a.admit;
      openEnd_[u] = a.done;
    } else {
      openEnd_[u] = std::max(openEnd_[u], a.done);
    }
  }
}

void UtilizationListener::onEnd(double /*cycles*/) {
  for (size_t u = 0; u < openEnd_.size(); ++u) {
    if (openEnd_[u] >= 0) unionBusy_[u] += openEnd_[u] - openStart_[u];
    openEnd_[u] = -1;
  }
}

}  // namespace foresight::emu
