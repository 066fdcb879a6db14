// SPDX-License-Identifier: Apache-2.0
/// \file
/// The memory-hierarchy engine (provisional: launch totals from the workload summary, every
/// sector served by DRAM; replaced by the reuse-distance engine).
#include "foresight/memory/hierarchy.h"

#include "foresight/ir/summarize.h"

namespace foresight {

Expected<MemoryTraffic> analyzeMemory(const KernelIR& ir, const WorkloadSummary* summary,
                                      const Launch& launch, const Gpu& gpu,
                                      const MemoryAnalysisOptions& options) {
  WorkloadSummary s;
  if (summary) {
    s = *summary;
  } else {
    Expected<WorkloadSummary> derived = summarize(ir, gpu);
    if (!derived) return std::move(derived).takeError();
    s = *derived;
  }
  MemoryTraffic t;
  const MemoryLevel* dram = gpu.memoryForResource("dram");
  t.sectorBytes = dram && dram->sector ? static_cast<double>(dram->sector->value) : 32.0;
  const long long warpSize = std::max(1, gpu.warpSize.value);
  const double warps = static_cast<double>(launch.blocks()) *
                       static_cast<double>((launch.threadsPerBlock() + warpSize - 1) / warpSize);
  for (const MemoryClassStats& m : s.memory) {
    t.loadRequests += m.insts * warps;
    t.loadSectors += m.insts * warps * m.transactionsPerInst;
  }
  const double h1 = options.l1HitRate.value_or(0.0), h2 = options.l2HitRate.value_or(0.0);
  t.l1HitSectors = t.loadSectors * h1;
  t.l2HitSectors = t.loadSectors * (1 - h1) * h2;
  t.dramReadSectors = t.loadSectors * (1 - h1) * (1 - h2);
  t.notes.push_back("memory: provisional totals from the workload summary");
  return t;
}

}  // namespace foresight
