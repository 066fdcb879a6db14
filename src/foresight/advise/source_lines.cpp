// SPDX-License-Identifier: Apache-2.0
/// \file
/// Source-line attribution (source_lines.h).
#include "foresight/advise/source_lines.h"

#include <algorithm>
#include <map>

#include "foresight/model/emulate/emu_listeners.h"

namespace foresight {

namespace {

const char* reasonName(emu::StallReason r) {
  switch (r) {
    case emu::StallReason::Dependency: return "operand";
    case emu::StallReason::Queue: return "queue";
    case emu::StallReason::Barrier: return "barrier";
    case emu::StallReason::SameWarp: return "issue latency";
  }
  return "?";
}

/// The waits the listener summed per static instruction, summed per source line.
std::vector<SourceLineCost> lineCosts(const emu::KernelEmulation& emulation, const KernelIR& ir,
                                      const emu::InstructionWaitListener& listener) {
  const emu::EmuProgram& program = emulation.fullWave().program;
  struct Acc {
    SourceLineCost cost;
    std::map<std::pair<std::string, std::string>, double> waits;
  };
  std::map<std::pair<std::string, int>, Acc> lines;
  const std::vector<emu::UnitSpec>& units = emulation.units();
  for (size_t i = 0; i < program.instrs.size(); ++i) {
    const emu::EmuInstr& e = program.instrs[i];
    std::string file;
    int line = 0;
    if (e.irBlock >= 0 && static_cast<size_t>(e.irBlock) < ir.blocks.size() &&
        static_cast<size_t>(e.irIndex) < ir.blocks[static_cast<size_t>(e.irBlock)].instructions.size()) {
      const Instruction& in = ir.blocks[static_cast<size_t>(e.irBlock)].instructions[static_cast<size_t>(e.irIndex)];
      if (in.sourceLine > 0) {
        file = in.sourceFile;
        line = in.sourceLine;
      }
    }
    Acc& acc = lines[{file, line}];
    const emu::InstructionWaitListener::Waits& w = listener.waits()[i];
    acc.cost.file = file;
    acc.cost.line = line;
    acc.cost.instructions += 1;
    acc.cost.issued += w.issued;
    acc.cost.notSelectedCycles += w.notSelected;
    for (const auto& [key, cycles] : w.stalled) {
      const auto reason = static_cast<emu::StallReason>(key.first);
      const bool named = (reason == emu::StallReason::Dependency || reason == emu::StallReason::Queue) &&
                         key.second >= 0 && static_cast<size_t>(key.second) < units.size();
      acc.waits[{reasonName(reason), named ? units[static_cast<size_t>(key.second)].name : std::string()}] += cycles;
      acc.cost.stallCycles += cycles;
    }
  }
  std::vector<SourceLineCost> out;
  for (auto& [where, acc] : lines) {
    for (const auto& [key, cycles] : acc.waits) acc.cost.waits.push_back({key.first, key.second, cycles});
    std::stable_sort(acc.cost.waits.begin(), acc.cost.waits.end(),
                     [](const LineWait& a, const LineWait& b) { return a.cycles > b.cycles; });
    out.push_back(std::move(acc.cost));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const SourceLineCost& a, const SourceLineCost& b) { return a.stallCycles > b.stallCycles; });
  return out;
}

/// The listener's issues with their opcodes and unit names.
std::vector<TimelineEntry> timelineOf(const emu::KernelEmulation& emulation, const emu::TimelineListener& listener) {
  const emu::EmuProgram& program = emulation.fullWave().program;
  const std::vector<emu::UnitSpec>& units = emulation.units();
  std::vector<TimelineEntry> out;
  out.reserve(listener.entries().size());
  for (const emu::TimelineListener::Entry& e : listener.entries()) {
    const bool named = e.unit >= 0 && static_cast<size_t>(e.unit) < units.size();
    out.push_back({e.warp, e.cycle, e.finish, program.instrs[static_cast<size_t>(e.instr)].label,
                   named ? units[static_cast<size_t>(e.unit)].name : std::string()});
  }
  return out;
}

}  // namespace

Expected<EmulationTrace> traceEmulation(const emu::KernelEmulation& emulation, const KernelIR& ir,
                                        size_t timelineIssues) {
  emu::InstructionWaitListener waits(emulation.fullWave().program.instrs.size());
  emu::TimelineListener timeline(timelineIssues);
  emu::EmuListener* listeners[] = {&waits, &timeline};
  Expected<emu::KernelTiming> run = emulation.run({}, listeners);
  if (!run) return std::move(run).takeError();
  return EmulationTrace{lineCosts(emulation, ir, waits), timelineOf(emulation, timeline)};
}

}  // namespace foresight
