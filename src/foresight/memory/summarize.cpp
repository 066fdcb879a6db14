// SPDX-License-Identifier: Apache-2.0
/// \file
/// KernelIR → WorkloadSummary. Every instruction is weighted by how often one warp executes its
/// block. Global, constant and texture accesses are memory instructions; their class and
/// transaction count come from the lane addresses under the serialization rule the GPU
/// description gives the memory (segment-cc1.0, segment-cc1.2, line, sector, address), or from the
/// instruction's pattern summary.
#include "foresight/memory/summarize.h"

#include <algorithm>

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

  // The rule comes from the GPU description: the serialization of the memory the space lives in
  // (PORPLE's serialCondition), not from the architecture's name.
  const MemoryLevel* level = gpu.memoryForResource(m.space == MemorySpace::Constant ? "constant" : "dram");
  if (!level) level = gpu.memoryForResource("dram");
  switch (level->serialization) {
    case Serialization::Address: {
      // Constant memory: a broadcast costs one transaction, otherwise one per distinct address.
      std::vector<long long> distinct;
      for (long long a : m.laneAddresses) {
        if (a >= 0 && std::find(distinct.begin(), distinct.end(), a) == distinct.end()) distinct.push_back(a);
      }
      out.cls = distinct.size() <= 1 ? AccessClass::Constant : AccessClass::Uncoalesced;
      out.transactions = static_cast<double>(std::max<size_t>(1, distinct.size()));
      break;
    }
    case Serialization::SegmentCc10:
    case Serialization::SegmentCc12: {
      // On compute capability 1.x a broadcast is not special: it goes through the coalescing rule
      // (uncoalesced on 1.0, one segment per half-warp on 1.2; grophecy.md §10.3).
      Expected<SegmentTransactions> t = level->serialization == Serialization::SegmentCc10
                                            ? countTransactionsCc10(m.laneAddresses, m.widthBytes)
                                            : countTransactionsCc12(m.laneAddresses, m.widthBytes);
      if (!t) return std::move(t).takeError();
      out.cls = t->coalesced ? AccessClass::Coalesced : AccessClass::Uncoalesced;
      out.transactions = t->transactions;
      break;
    }
    case Serialization::Line:
    case Serialization::Sector:
    case Serialization::Bank: {
      SectorOptions options;
      if (level->sector) options.sectorBytes = level->sector->value;
      if (level->line) options.lineBytes = level->line->value;
      // "line" serialization counts whole lines as the transactions (Fermi L1, 64-B TK1 L2).
      if (level->serialization == Serialization::Line && level->line) options.sectorBytes = level->line->value;
      Expected<SectorCount> t = countSectors(m.laneAddresses, m.widthBytes, options);
      if (!t) return std::move(t).takeError();
      out.cls = *pattern == AccessClass::Constant ? AccessClass::Constant
                : t->coalesced                    ? AccessClass::Coalesced
                                                  : AccessClass::Uncoalesced;
      out.transactions = t->sectors;
      break;
    }
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
