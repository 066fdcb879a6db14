// SPDX-License-Identifier: Apache-2.0
/// \file
/// Source-line attribution (issue 17 item 2, `explain --lines`): per source line, the
/// instructions it compiled to, the warp instructions the emulated SM issued from it, and the
/// cycles its warps waited before issuing them, with the reason they waited most — as Nsight
/// Compute's source view (warp stall sampling) and uiCA's per-instruction table report.
///
/// A warp's wait before an op (IssueEvent, emu_events.h) runs from its previous issue to the
/// op's issue. The part before the op could issue is a stall, charged to the op's line with its
/// binding reason: an operand (the unit whose result it waits for: `dram`, `l2`, `fp32`, …), a
/// full unit queue (throughput), a barrier, or the issue latency of the previous op; the rest
/// is the scheduler issuing other warps ("not selected"), which hides latency rather than
/// costing it. Cycles are warp-cycles of the emulated SM (every resident warp, one full wave).
#pragma once

#include <string>
#include <vector>

#include "foresight/ir/kernel_ir.h"
#include "foresight/model/emulate/emulate_model.h"

namespace foresight {

/// One reason the warps of a line waited, with its cycles.
struct LineWait {
  std::string reason;  ///< "operand", "queue", "barrier", "issue latency"
  std::string unit;    ///< the unit for operand and queue waits ("dram", "shared", …); else empty
  double cycles = 0;
};

/// One source line's cost.
struct SourceLineCost {
  std::string file;
  int line = 0;                  ///< 0: instructions without line information
  int instructions = 0;          ///< static instructions of the line the emulation ran
  long long issued = 0;          ///< warp instructions issued (emulated SM)
  double stallCycles = 0;        ///< warp-cycles waited before they could issue
  double notSelectedCycles = 0;  ///< warp-cycles ready while other warps issued
  std::vector<LineWait> waits;   ///< by cycles, largest first
};

/// One issue of the emulated SM (explain's timeline chart).
struct TimelineEntry {
  int warp = 0;
  double cycle = 0;   ///< issue
  double finish = 0;  ///< when a dependent may issue
  std::string op;     ///< opcode
  std::string unit;   ///< the unit whose result took longest; empty when none
};

/// What one emulation run with listeners tells about the launch's source.
struct EmulationTrace {
  std::vector<SourceLineCost> lines;     ///< every line the emulation ran, most stall cycles first
  std::vector<TimelineEntry> timeline;   ///< the full wave's first issues, in issue order
};

/// Runs the emulation once and returns its per-line costs and its first `timelineIssues` issues.
[[nodiscard]] Expected<EmulationTrace> traceEmulation(const emu::KernelEmulation& emulation, const KernelIR& ir,
                                                      size_t timelineIssues);

}  // namespace foresight
