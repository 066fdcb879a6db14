// SPDX-License-Identifier: Apache-2.0
/// \file
/// `WorkloadSummary`: the per-thread instruction and memory statistics the closed-form models
/// (MWP-CWP, roofline) consume — GROPHECY's Table 2 and CGPredict's kernel parameters. It is
/// derived from a KernelIR (memory/summarize.h) or given directly by the summary frontend.
#pragma once

#include <array>

#include "foresight/gpu/gpu.h"
#include "foresight/ir/access_class.h"

namespace foresight {


/// Global-memory instructions of one access class, per thread (= per warp).
struct MemoryClassStats {
  double insts = 0;                 ///< dynamic warp memory instructions per thread
  double transactionsPerInst = 1;   ///< memory transactions per warp instruction (Uncoal_per_mw)
  /// DRAM transactions (L2 misses) per warp instruction; negative = unknown (every transaction
  /// goes to DRAM). Used by CGPredict's variant.
  double dramTransactionsPerInst = -1;
};

/// Per-thread workload statistics of one kernel.
struct WorkloadSummary {
  double compInsts = 0;   ///< computation instructions per thread (incl. shared ld/st, barriers)
  std::array<MemoryClassStats, kNumAccessClasses> memory{};  ///< indexed by AccessClass
  double synchInsts = 0;  ///< barriers per thread (counted in compInsts too)
  double loadBytesPerWarp = 128;  ///< average bytes per warp memory instruction (Eq. 11)
  /// Optional split of compInsts by pipeline (for roofline and the emulator); all zero = unknown.
  std::array<double, kNumInstrClasses> compByClass{};
  double flopsPerThread = 0;  ///< floating-point operations per thread, when known
  // CGPredict's shared-memory terms (Eqs. 19-22), per thread; zero for kernels without shared
  // memory. Only the cgpredict variant reads them.
  double smemLoadInsts = 0;         ///< global→shared load instructions (no_smem_load_inst)
  double smemConflictWeighted = 0;  ///< Σ conflict degree X over shared-memory access instructions

  [[nodiscard]] const MemoryClassStats& mem(AccessClass c) const {
    return memory[static_cast<int>(c)];
  }
  MemoryClassStats& mem(AccessClass c) { return memory[static_cast<int>(c)]; }
  /// All global memory instructions per thread.
  [[nodiscard]] double memInsts() const {
    return memory[0].insts + memory[1].insts + memory[2].insts;
  }
  /// Total_insts = Comp_insts + Mem_insts.
  [[nodiscard]] double totalInsts() const { return compInsts + memInsts(); }
};

}  // namespace foresight
