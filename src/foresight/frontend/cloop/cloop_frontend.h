// SPDX-License-Identifier: Apache-2.0
/// \file
/// The C loop frontend (CGPredict, seed 001; docs/input-cloop.md): a plain single-threaded C file
/// whose loop nests are marked `#pragma cgpredict kernel` is compiled with Clang/LLVM 14,
/// instrumented, executed in a child process at three small sizes (the traced size, 1/2 and 1/4),
/// and analysed: warps, access classes and L2 misses come from the traced size; per-thread
/// counts, trip counts and launches are fitted over the three sizes and extrapolated to the
/// requested size (`-D` or the file's `#define`). Each marked nest becomes one kernel with a
/// KernelIR (per-lane addresses of a sample warp), a CGPredict workload summary and a launch.
/// CGPredict's optimization advice runs through InputOptions::cloopAdvisor (advise/cloop_advice.h).
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "foresight/frontend/cloop/advice.h"
#include "foresight/frontend/cloop/trace.h"
#include "foresight/frontend/cloop/workload.h"
#include "foresight/frontend/input.h"
#include "foresight/frontend/input_options.h"

namespace foresight::cloop {

/// Tuning of the frontend (defaults follow the paper).
struct CloopOptions {
  RunLimits limits;
  int l2Ways = 16;           ///< L2 associativity (not published for the TK1)
  int analysedBatches = 2;   ///< batches fed to the cache analyzer
  /// Shared-memory rule of the tiling advice: paper_fitted (default, cgpredict.md §8.4) or the
  /// literal Eqs. 19-23 through the model.
  bool smemLiteral = false;
};

/// One marked loop nest at the requested size.
struct CloopKernel {
  KernelInput input;        ///< KernelIR + CGPredict workload summary
  Launch launch;            ///< one launch at the requested size
  double launches = 1;      ///< launches per program run at the requested size
  int line = 0;             ///< line of the marked loop
  std::vector<CountFit> fits;  ///< the reported fits (launches, extents, per-thread counts)
  std::map<std::string, CountFit> allFits;  ///< every fit, per memory operation ("op<id>") too
  std::array<double, kNumAccessClasses> classShare{};   ///< share of warp memory instructions
  std::array<double, kNumAccessClasses> dramPerInst{};  ///< L2 misses per warp instruction
  std::vector<Advice> advice;
  std::vector<std::string> notes;
};

/// The analysed program.
struct CloopProgram {
  std::string path;
  std::vector<long long> tracedSizes;  ///< values of the first size macro, largest first
  std::string sizeMacro;
  long long targetSize = 0;
  std::vector<CloopKernel> kernels;
};

/// Analyses `path` for the GPU in `options.gpu` (required).
[[nodiscard]] Expected<CloopProgram> analyzeCloop(const std::string& path, const InputOptions& options,
                                                  const CloopOptions& cloopOptions = {});

/// loadInput() for `.c` files: the kernels, the selected (or only) kernel's launch, notes (with
/// advice when `options.cloopAdvisor` is set).
[[nodiscard]] Expected<LoadedInput> loadCloopInput(const std::string& path, const InputOptions& options);

}  // namespace foresight::cloop
