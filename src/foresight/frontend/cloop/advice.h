// SPDX-License-Identifier: Apache-2.0
/// \file
/// What CGPredict's optimization hints (§4.4) are made of: one suggestion with its predicted
/// effect, and what the advisor reads about a kernel while its trace still exists. The advisor
/// itself predicts, so it lives above the models (advise/cloop_advice.h); analyzeCloop() calls it
/// through InputOptions::cloopAdvisor.
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
#include "foresight/ir/kernel_input.h"

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

}  // namespace foresight::cloop
