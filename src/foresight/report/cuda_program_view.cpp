// SPDX-License-Identifier: Apache-2.0
/// \file
/// Text and JSON rendering of `foresight ir`.
#include "foresight/report/cuda_program_view.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

namespace foresight::cuda {

namespace {


std::string memoryText(const MemoryAccess& m) {
  std::string s = fmt::format("{} {} B {}", memorySpaceName(m.space), m.widthBytes, m.isStore ? "store" : "load");
  if (m.dataDependent && m.laneAddresses.empty()) {
    return s + ": data-dependent address" + (m.allocation && !m.allocation->name.empty() ? " in " + m.allocation->name : "");
  }
  if (m.space == MemorySpace::Shared) {
    if (m.wavefrontsPerInst > 0) s += fmt::format(": {:.4g} wavefronts/request", m.wavefrontsPerInst);
  } else if (m.transactionsPerInst) {
    s += fmt::format(": {:.4g} sectors/request", *m.transactionsPerInst);
  }
  if (m.dataDependent) s += " (partly data-dependent)";
  return s;
}

const char* tripSourceName(TripCountSource s) {
  switch (s) {
    case TripCountSource::Known: return "known";
    case TripCountSource::FromLaunch: return "launch";
    case TripCountSource::Hinted: return "hint";
  }
  return "known";
}

}  // namespace

void CudaProgramView::printText(std::ostream& os) const {
  for (const CudaKernel& k : program_.kernels) {
    os << fmt::format("kernel {} ({})  arch {}  isa {}\n", k.name, k.mangled, program_.arch, program_.isa);
    if (!program_.sassStatus.empty()) os << "sass: not used: " << program_.sassStatus << "\n";
    if (k.resources) {
      const CubinKernel& r = *k.resources;
      os << fmt::format("resources: {} registers, {} B stack frame, {} B shared, {} barriers", r.registers, r.frameBytes,
                        r.sharedBytes, r.barriers);
      if (r.maxThreads[0]) os << fmt::format(", max threads {}", *r.maxThreads[0]);
      os << "\n";
      os << fmt::format("params at c[0x0][0x{:x}], {} B:", r.paramBankOffset, r.paramBytes);
      for (const CubinParam& p : r.params) {
        const std::string n = p.ordinal < static_cast<int>(k.paramNames.size()) ? k.paramNames[p.ordinal] : "?";
        os << fmt::format(" {}@+{}({} B)", n, p.offset, p.size);
      }
      os << "\n";
    }
    if (k.sass) {
      os << fmt::format("sass ({}): {} instructions, {} with control bits:", k.sass->table, k.sass->instructions,
                        k.sass->withControlBits);
      for (int c = 0; c < kNumInstrClasses; ++c) {
        if (k.sass->byClass[c]) os << fmt::format(" {} {}", instrClassName(static_cast<InstrClass>(c)), k.sass->byClass[c]);
      }
      os << fmt::format("\n  memory mapped to ptx by line: {} paired, {} sass and {} ptx unpaired; spills: {} stores ({} B), {} loads ({} B)",
                        k.sass->memoryPaired, k.sass->unmatchedSass, k.sass->unmatchedPtx, k.sass->spillStores,
                        k.sass->spillStoreBytes, k.sass->spillLoads, k.sass->spillLoadBytes);
      if (!k.sass->unknownOpcodes.empty()) {
        os << "; not in the table:";
        for (const std::string& u : k.sass->unknownOpcodes) os << " " << u;
      }
      os << "\n";
    }
    os << fmt::format("dynamic instructions per warp: {:.6g} (ptx, mean of {} warps of block 0)\n",
                      k.dynamicInstructionsPerWarp, k.sampledWarps);
    if (k.sass && k.sass->dynamicInstructionsPerWarp) {
      os << fmt::format("dynamic sass instructions per warp: {:.6g}\n", *k.sass->dynamicInstructionsPerWarp);
    } else if (k.sass) {
      os << "dynamic sass instructions per warp: unavailable: " << k.sass->dynamicStatus << "\n";
    }
    if (k.ir.longestWarpShare > 1) {
      os << fmt::format("longest warp: {:.4g}x the mean warp's instructions\n", k.ir.longestWarpShare);
    }
    for (size_t li = 0; li < k.ir.loops.size(); ++li) {
      const Loop& l = k.ir.loops[li];
      os << fmt::format("loop at {}:{} header {}: trip count {:.6g} ({})\n", k.loopLocations[li].first, k.loopLocations[li].second,
                        k.ir.blocks[l.header].label, l.tripCount, tripSourceName(l.source));
    }
    for (const BasicBlock& b : k.ir.blocks) {
      os << fmt::format("block {}  x{:.6g}\n", b.label, b.executionsPerWarp);
      for (const Instruction& i : b.instructions) {
        std::string line = fmt::format("  {:>4}  {:<22} {:<7}", i.sourceLine, i.opcode, instrClassName(i.cls));
        if (i.memory) line += "  " + memoryText(*i.memory);
        if (i.barrier) line += "  barrier";
        while (!line.empty() && line.back() == ' ') line.pop_back();
        os << line << "\n";
      }
    }
    for (const std::string& n : k.notes) os << "note: " << n << "\n";
  }
}

nlohmann::json CudaProgramView::toJson() const {
  nlohmann::json out;
  out["input"] = program_.path;
  out["arch"] = program_.arch;
  out["isa"] = program_.isa;
  out["sass_status"] = program_.sassStatus;
  out["kernels_in_file"] = program_.kernelNames;
  nlohmann::json kernels = nlohmann::json::array();
  for (const CudaKernel& k : program_.kernels) {
    nlohmann::json j;
    j["name"] = k.name;
    j["mangled"] = k.mangled;
    j["params"] = k.paramNames;
    if (k.resources) {
      const CubinKernel& r = *k.resources;
      j["resources"] = {{"registers", r.registers}, {"stack_frame_bytes", r.frameBytes}, {"shared_bytes", r.sharedBytes},
                        {"barriers", r.barriers}, {"param_bank_offset", r.paramBankOffset}, {"param_bytes", r.paramBytes}};
    }
    if (k.sass) {
      nlohmann::json byClass;
      for (int c = 0; c < kNumInstrClasses; ++c) byClass[instrClassName(static_cast<InstrClass>(c))] = k.sass->byClass[c];
      j["sass"] = {{"table", k.sass->table}, {"instructions", k.sass->instructions}, {"by_class", byClass},
                   {"memory_paired", k.sass->memoryPaired}, {"spill_stores", k.sass->spillStores},
                   {"spill_loads", k.sass->spillLoads}, {"spill_store_bytes", k.sass->spillStoreBytes},
                   {"spill_load_bytes", k.sass->spillLoadBytes}, {"unpaired_sass", k.sass->unmatchedSass},
                   {"unpaired_ptx", k.sass->unmatchedPtx}};
      if (k.sass->dynamicInstructionsPerWarp) {
        j["sass"]["dynamic_instructions_per_warp"] = *k.sass->dynamicInstructionsPerWarp;
      } else {
        j["sass"]["dynamic_status"] = k.sass->dynamicStatus;
      }
    }
    j["dynamic_instructions_per_warp"] = k.dynamicInstructionsPerWarp;
    j["sampled_warps"] = k.sampledWarps;
    j["longest_warp_share"] = k.ir.longestWarpShare;
    nlohmann::json loops = nlohmann::json::array();
    for (size_t li = 0; li < k.ir.loops.size(); ++li) {
      const Loop& l = k.ir.loops[li];
      loops.push_back({{"file", k.loopLocations[li].first}, {"line", k.loopLocations[li].second},
                       {"trip_count", l.tripCount}, {"source", tripSourceName(l.source)}});
    }
    j["loops"] = loops;
    nlohmann::json blocks = nlohmann::json::array();
    for (const BasicBlock& b : k.ir.blocks) {
      nlohmann::json insts = nlohmann::json::array();
      for (const Instruction& i : b.instructions) {
        nlohmann::json ij = {{"opcode", i.opcode}, {"class", instrClassName(i.cls)}, {"line", i.sourceLine}};
        if (i.memory) {
          const MemoryAccess& m = *i.memory;
          ij["memory"] = {{"space", memorySpaceName(m.space)}, {"width", m.widthBytes}, {"store", m.isStore},
                          {"data_dependent", m.dataDependent}};
          if (m.allocation && !m.allocation->name.empty()) ij["memory"]["array"] = m.allocation->name;
          if (m.transactionsPerInst) ij["memory"]["sectors_per_request"] = *m.transactionsPerInst;
          if (m.wavefrontsPerInst > 0) ij["memory"]["wavefronts_per_request"] = m.wavefrontsPerInst;
        }
        insts.push_back(ij);
      }
      blocks.push_back({{"label", b.label}, {"executions_per_warp", b.executionsPerWarp}, {"instructions", insts}});
    }
    j["blocks"] = blocks;
    j["notes"] = k.notes;
    kernels.push_back(j);
  }
  out["kernels"] = kernels;
  return out;
}

}  // namespace foresight::cuda
