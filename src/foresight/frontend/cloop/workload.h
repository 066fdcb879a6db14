// SPDX-License-Identifier: Apache-2.0
/// \file
/// From traces to model inputs: fits of the per-thread counts over the traced sizes, CGPredict's
/// workload summary at the requested size (classes and L2 misses from the traced size, counts
/// from the fits), and the KernelIR lowering with per-lane addresses.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "foresight/frontend/cloop/program.h"
#include "foresight/frontend/cloop/trace.h"
#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/launch.h"
#include "foresight/ir/workload_summary.h"

namespace foresight::cloop {

/// A count fitted over the traced sizes: value(n) = a + b n^degree.
struct CountFit {
  std::string quantity;
  int degree = 0;
  double a = 0;
  double b = 0;
  double checkError = 0;  ///< relative error of the fit at the smallest traced size
  [[nodiscard]] double at(double n) const;
};

/// Fits value(n) = a + b n^d through the two largest sizes, d the rounded log-log slope (0..3);
/// checks the fit at the smallest size. `n` and `v` are largest first.
[[nodiscard]] CountFit fitCount(const std::string& name, const std::array<double, 3>& n,
                                const std::array<double, 3>& v);

/// CGPredict's per-thread workload of kernel `kernel` at size `target`: each memory operation's
/// fitted count ("op<id>" in `fits`) split by its traced classes, with its traced L2 misses per
/// warp instruction; paper-mode transactions; shared-memory terms; computation from "comp".
[[nodiscard]] WorkloadSummary summaryAt(const KernelTrace& traced, const std::map<std::string, CountFit>& fits,
                                        double target, const InstrumentedProgram& prog, int kernel, int warpSize,
                                        int lineBytes);

/// The KernelIR: one block per memory operation (executions per warp = its fitted count; lane
/// addresses of its first execution by the sample warp), a barrier block, one block per
/// computation class.
[[nodiscard]] KernelIR lowerToIr(const std::string& name, int kernelId, const KernelTrace& traced,
                                 const InstrumentedProgram& prog, const WorkloadSummary& w,
                                 const std::map<std::string, CountFit>& fits, double target,
                                 const std::string& path);

/// Attaches to `ir` (lowerToIr() of the same kernel, fits and target) the per-warp streams the
/// memory engine replays (ir/counted_streams.h): each global operation's affine address function
/// (AffineAccess) from the three traced sizes (`traced`, sizes `n`, largest first), every
/// coefficient fitted over the sizes like the counts (fitCount) and taken at `target`; thread
/// (tx, ty) of the launch is the mapped iterations' pair, tx < `extentX`, ty < `extentY`. Arrays
/// get distinct synthetic bases, (ordinal + 1) << 40. An operation without a valid function at
/// every size (data-dependent or piecewise addresses, e.g. i % 32) is marked data-dependent,
/// with its sample warp's sector count: the engine charges it to DRAM and leaves it out of the
/// footprint.
/// Returns the source lines of the global operations without an affine function (empty when
/// every one has one).
std::vector<int> attachAddressStreams(KernelIR& ir, int kernelId, const std::array<const KernelTrace*, 3>& traced,
                          const std::array<double, 3>& n, double target, const InstrumentedProgram& prog,
                          const std::map<std::string, CountFit>& fits, const Launch& launch, double extentX,
                          double extentY, int warpSize);

}  // namespace foresight::cloop
