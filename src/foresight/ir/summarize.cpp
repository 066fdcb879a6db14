// SPDX-License-Identifier: Apache-2.0
/// \file
/// KernelIR → WorkloadSummary. Every instruction is weighted by how often one warp executes its
/// block. Global, constant and texture accesses are memory instructions; their class and
/// transaction count come from the lane addresses under the GPU's coalescing rule (CC 1.0/1.1,
/// CC 1.2/1.3, or 32-byte sectors on everything newer), or from the instruction's pattern summary.
#include "foresight/ir/summarize.h"

#include "foresight/memory/coalescing.h"

namespace foresight {

namespace {

/// Class and transactions of one memory instruction on this GPU.
struct Classified {
  AccessClass cls = AccessClass::Coalesced;
  double transactions = 1;
  double bytesPerWarp = 0;
};

Expected<Classified> classify(const MemoryAccess& m, const Gpu& gpu) {
  Classified out;
  if (m.laneAddresses.empty()) {
    if (!m.pattern) {
      return makeError(std::string("a ") + memorySpaceName(m.space) +
                       " access has neither lane addresses nor a pattern");
    }
    out.cls = *m.pattern;
    out.transactions = m.transactionsPerInst.value_or(out.cls == AccessClass::Uncoalesced ? gpu.warpSize.value : 1);
    out.bytesPerWarp = static_cast<double>(gpu.warpSize.value) * m.widthBytes;
    return out;
  }
  int active = 0;
  for (long long a : m.laneAddresses) active += a >= 0 ? 1 : 0;
  out.bytesPerWarp = static_cast<double>(active) * m.widthBytes;

  Expected<AccessClass> pattern = classifyAccessClass(m.laneAddresses, m.widthBytes);
  if (!pattern) return std::move(pattern).takeError();
  if (*pattern == AccessClass::Constant) {
    out.cls = AccessClass::Constant;
    out.transactions = 1;
  } else if (gpu.ccMajor == 1 && gpu.ccMinor < 2) {
    Expected<SegmentTransactions> t = countTransactionsCc10(m.laneAddresses, m.widthBytes);
    if (!t) return std::move(t).takeError();
    out.cls = t->coalesced ? AccessClass::Coalesced : AccessClass::Uncoalesced;
    out.transactions = t->transactions;
  } else if (gpu.ccMajor == 1) {
    Expected<SegmentTransactions> t = countTransactionsCc12(m.laneAddresses, m.widthBytes);
    if (!t) return std::move(t).takeError();
    out.cls = t->coalesced ? AccessClass::Coalesced : AccessClass::Uncoalesced;
    out.transactions = t->transactions;
  } else {
    SectorOptions options;
    if (const MemoryLevel* dram = gpu.memoryForResource("dram"); dram && dram->sector) {
      options.sectorBytes = dram->sector->value;
    }
    Expected<SectorCount> t = countSectors(m.laneAddresses, m.widthBytes, options);
    if (!t) return std::move(t).takeError();
    out.cls = t->coalesced ? AccessClass::Coalesced : AccessClass::Uncoalesced;
    out.transactions = t->sectors;
  }
  if (m.pattern) out.cls = *m.pattern;
  if (m.transactionsPerInst) out.transactions = *m.transactionsPerInst;
  return out;
}

}  // namespace

Expected<WorkloadSummary> summarize(const KernelIR& kernel, const Gpu& gpu) {
  WorkloadSummary s;
  std::array<double, kNumAccessClasses> transactionSum{};
  double bytesSum = 0;
  for (const BasicBlock& block : kernel.blocks) {
    const double weight = block.executionsPerWarp;
    for (const Instruction& inst : block.instructions) {
      s.flopsPerThread += weight * inst.flops;
      const bool globalMemory = inst.memory && (inst.memory->space == MemorySpace::Global ||
                                                inst.memory->space == MemorySpace::Constant ||
                                                inst.memory->space == MemorySpace::Texture);
      if (!globalMemory) {
        s.compInsts += weight;
        s.compByClass[static_cast<int>(inst.cls)] += weight;
        if (inst.barrier) s.synchInsts += weight;
        continue;
      }
      Expected<Classified> c = classify(*inst.memory, gpu);
      if (!c) {
        Error e = std::move(c).takeError();
        e.message = "kernel '" + kernel.name + "', block '" + block.label + "', instruction '" +
                    inst.opcode + "': " + e.message;
        return e;
      }
      const int idx = static_cast<int>(c->cls);
      s.memory[idx].insts += weight;
      transactionSum[idx] += weight * c->transactions;
      bytesSum += weight * c->bytesPerWarp;
    }
  }
  for (int i = 0; i < kNumAccessClasses; ++i) {
    // Dynamic-count-weighted average of transactions per instruction (grophecy.md A7).
    if (s.memory[i].insts > 0) s.memory[i].transactionsPerInst = transactionSum[i] / s.memory[i].insts;
  }
  if (s.memInsts() > 0) s.loadBytesPerWarp = bytesSum / s.memInsts();  // Eq. 10-11
  if (s.totalInsts() <= 0) return makeError("kernel '" + kernel.name + "' executes no instructions");
  return s;
}

}  // namespace foresight
