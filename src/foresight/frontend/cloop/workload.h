// SPDX-License-Identifier: Apache-2.0
/// \file
/// From traces to model inputs: fits of the per-thread counts over the traced sizes, CGPredict's
/// workload summary at the requested size (classes and L2 misses from the traced size, counts
/// from the fits), and the KernelIR lowering with per-lane addresses.
#pragma once

#include <array>
#include <map>
#include <string>

#include "foresight/frontend/cloop/program.h"
#include "foresight/frontend/cloop/trace.h"
#include "foresight/ir/kernel_ir.h"
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

}  // namespace foresight::cloop
