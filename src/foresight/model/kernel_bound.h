// SPDX-License-Identifier: Apache-2.0
/// \file
/// The attainable time of one kernel launch as compiled (`foresight bound FILE --kernel K`;
/// docs/bound.md): Lai's upper-bound reasoning applied to the kernel's own instruction mix
/// instead of an ideal SGEMM. No execution of this code can beat the largest of its physical
/// floors (model/floors.h: compulsory DRAM bytes, each pipe's work, issue slots, the LD/ST
/// path, shared-memory wavefronts and, where measured, Lai's FFMA + LDS mix throughput F_T);
/// every prediction is raised to the same floors, so no prediction is below the bound.
/// Besides the bound, the inner loop's mix read from the kernel (SASS for CUDA inputs):
/// multiply-adds, matrix instructions, shared loads by width and what else it issues per
/// iteration, the accumulators (the register tile) and shared elements loaded per FMA.
#pragma once

#include <map>
#include <string>

#include "foresight/gpu/gpu.h"
#include "foresight/ir/launch.h"
#include "foresight/model/floors.h"
#include "foresight/model/predict.h"
#include "foresight/support/error.h"

namespace foresight {

/// The instruction mix of the kernel's hottest loop body: the basic block that executes the
/// most multiply-adds (FMA or matrix instructions; without any, the most instructions).
struct InnerLoopMix {
  std::string label;              ///< the block's label ("0x0230" for SASS)
  std::string sourceFile;         ///< source of its first instruction with a line
  int sourceLine = 0;
  double iterationsPerWarp = 0;   ///< the block's executions per warp
  int instructions = 0;           ///< per iteration, all
  int fmas = 0;                   ///< FP32/FP64 fused multiply-adds (FFMA, DFMA, fma.rn)
  int matrixInstructions = 0;     ///< HMMA, DMMA, HGMMA, mma.sync … (pipe work other than 1)
  std::map<int, int> sharedLoadsByBits;  ///< shared loads per width in bits
  int sharedStores = 0;
  int globalAccesses = 0;         ///< global, local, texture and constant accesses
  int barriers = 0;
  int other = 0;                  ///< everything else: address arithmetic, loop control …
  /// Accumulator chains: FMAs whose addend no earlier FMA of the iteration produced (it comes
  /// from the previous iteration); the C elements per thread of a GEMM.
  int accumulators = 0;
  /// fmas / accumulators: k-steps per iteration (unrolling); 0 without accumulators.
  [[nodiscard]] double kSteps() const { return accumulators > 0 ? static_cast<double>(fmas) / accumulators : 0; }
  /// 4-byte elements read from shared memory per FMA; 0 without FMAs.
  [[nodiscard]] double sharedElementsPerFma() const;
  /// Lai's FFMA share of the iteration (Eq. 4.10's first factor, measured on the code).
  [[nodiscard]] double fmaShare() const { return instructions > 0 ? static_cast<double>(fmas) / instructions : 0; }
};

/// The bound of one launch.
struct KernelBound {
  PhysicalFloors floors;
  double seconds = 0;        ///< the largest floor
  std::string binding;       ///< its name ("dram", "fp32", "tensor", "issue", "ldst", "shared", "sgemm-mix" …)
  double flops = 0;          ///< floating-point operations of the launch (matrix instructions included)
  [[nodiscard]] double gflops() const { return seconds > 0 ? flops / seconds / 1e9 : 0; }
  InnerLoopMix loop;
  bool hasLoop = false;      ///< false for inputs without basic blocks (summaries)
};

/// The hottest loop body's mix (nullopt for an IR without blocks).
[[nodiscard]] std::optional<InnerLoopMix> innerLoopMix(const KernelIR& ir);

/// Floating-point operations of the launch (an FMA counts 2, matrix instructions included): the
/// workload summary's flops per thread (summarized from the IR when the input has none) times
/// its threads.
[[nodiscard]] Expected<double> launchFlops(const KernelInput& kernel, const Launch& launch, const Gpu& gpu);

/// The launch's floors (the compulsory bytes from `known` traffic, or the memory engine's
/// analysis of the launch) and the bound.
[[nodiscard]] Expected<KernelBound> kernelBound(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                                const MemoryTraffic* known = nullptr);

}  // namespace foresight
