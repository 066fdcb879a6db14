// SPDX-License-Identifier: Apache-2.0
/// \file
/// CGPredict's optimization hints (§4.4), with their predicted effect.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "foresight/frontend/cloop/program.h"
#include "foresight/frontend/cloop/trace.h"
#include "foresight/frontend/cloop/workload.h"
#include "foresight/gpu/gpu.h"
#include "foresight/ir/launch.h"
#include "foresight/model/predict.h"

namespace foresight::cloop {

/// One optimization suggestion with its predicted effect (CGPredict §4.4).
struct Advice {
  std::string kind;     ///< "transpose", "shared-memory", "padding"
  std::string message;  ///< what to change
  double secondsBefore = 0;
  double secondsAfter = 0;
};

/// What the advisor reads about one kernel.
struct AdviceContext {
  const KernelInput& input;  ///< the kernel as analysed (summary at the requested size)
  const Launch& launch;
  const std::array<double, kNumAccessClasses>& classShare;
  const std::map<std::string, CountFit>& fits;
  int kernel;                       ///< index into program.kernels
  const KernelTrace& traced;        ///< the traced size's statistics
  const InstrumentedProgram& program;
  const std::string& traceFile;     ///< re-analysed with a transposed array
  const AnalysisOptions& analysis;
  double target;                    ///< requested size
  const Gpu& gpu;
  bool smemLiteral;                 ///< predict tiling with the literal shared-memory rule
  const std::string& path;
};

/// Transpose (uncoalesced and memory-bound), shared-memory tiling (shared data re-read in an
/// inner loop, memory-bound), padding (a tile read down a column; measured X >= 2 on hinted
/// arrays).
[[nodiscard]] std::vector<Advice> adviseKernel(const AdviceContext& context);

}  // namespace foresight::cloop
