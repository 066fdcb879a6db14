// SPDX-License-Identifier: Apache-2.0
/// \file
/// Running the instrumented program and turning its trace into CGPredict's statistics:
/// pseudo-threads (iterations of the mapped loops) → warps → blocks → batches (cgpredict.md §3),
/// access classes per warp instruction (§4.2), L2 misses from the lock-step-interleaved
/// transaction stream (§4.4), per-thread operation counts (§5), and cross-thread dependences.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "foresight/frontend/cloop/program.h"
#include "foresight/ir/access_class.h"
#include "foresight/support/error.h"

namespace foresight::cloop {

/// Limits of the child process that runs the user's code.
struct RunLimits {
  double cpuSeconds = 120;                ///< RLIMIT_CPU
  long long memoryBytes = 4LL << 30;      ///< RLIMIT_AS
  long long traceBytes = 1LL << 30;       ///< RLIMIT_FSIZE (the trace file, read whole for analysis)
  double wallSeconds = 300;               ///< killed (with its process group) after this long
};

/// Runs `executable` through runProcess (support/process.h: own process group, stdin and
/// stdout /dev/null) under `limits`, writing the trace to `traceFile` ($CGP_TRACE). A crash,
/// time-out or memory exhaustion is an Error about `sourcePath`.
[[nodiscard]] Expected<void> runTraced(const std::string& executable, const std::string& traceFile,
                                       const RunLimits& limits, const std::string& sourcePath);

/// How warps, batches and the L2 are formed.
struct AnalysisOptions {
  long long l2Bytes = 128 * 1024;
  int l2LineBytes = 64;
  int l2Ways = 16;              ///< not published for the TK1 (cgpredict.md §4.1 [choice])
  int warpSize = 32;
  long long blocksPerBatch = 8; ///< resident blocks per SM x SMs
  int analysedBatches = 2;      ///< the paper analyses at least 2 (cgpredict.md §3)
  bool checkDependences = true;
  /// Optional: arrays whose last two dimensions are swapped before analysis (the transposition
  /// the coalescing advice proposes), by index into InstrumentedProgram::arrays.
  std::vector<int> transposed;
};

/// Statistics of one static memory operation over the analysed warps.
struct MemOpStats {
  std::array<double, kNumAccessClasses> warpInsts{};  ///< by AccessClass
  double lines = 0;    ///< distinct L2 lines touched (general-mode transactions)
  double misses = 0;   ///< L2 misses
  double conflictSum = 0;   ///< shared ops: Σ conflict degree X over warp instructions
  double sharedInsts = 0;   ///< shared ops: warp instructions
};

/// One memory operation's addresses as an affine function of the pseudo-thread and of the
/// operation's occurrence within it: offset = c0 + cx·tx + cy·ty + cj·j bytes from the start of
/// its array, j = 0, 1, ... the operation's executions by thread (tx, ty). Fitted on the analysed
/// threads of the first launch and checked against every one of their events.
struct AffineAccess {
  bool valid = false;  ///< every analysed event of the operation follows the function
  int array = -1;      ///< InstrumentedProgram::arrays index
  double c0 = 0, cx = 0, cy = 0, cj = 0;
};

/// Everything measured for one kernel (marked loop nest) in one trace.
struct KernelTrace {
  long long launches = 0;
  double threads = 0;       ///< pseudo-threads summed over launches
  double extentX = 0;       ///< mapped x extent (inner mapped loop's trips), mean over launches
  double extentY = 1;       ///< mapped y extent (outer loop's trips in 2-D)
  double compInsts = 0;     ///< summed over all threads and launches
  std::array<double, kNumInstrClasses> compByClass{};
  double flops = 0;
  double memInsts = 0;      ///< memory events summed over all threads and launches
  std::vector<double> opEvents;  ///< memory events by static op id, all threads and launches
  // Analysed warps of the first launch:
  double analysedWarps = 0;
  std::array<double, kNumAccessClasses> classInsts{};   ///< warp instructions by class
  std::array<double, kNumAccessClasses> classMisses{};  ///< L2 misses by class
  std::array<double, kNumAccessClasses> classLines{};   ///< distinct lines by class
  std::vector<MemOpStats> ops;  ///< indexed by static memory-op id (only this kernel's are used)
  /// One warp's memory instructions (first warp of the first launch): op id and lane addresses
  /// (synthetic, cudaMalloc-like bases; -1 = inactive lane), for the KernelIR lowering.
  std::vector<std::pair<int, std::vector<long long>>> sampleWarp;
  /// Per static memory operation (indexed like `ops`): its affine address function.
  std::vector<AffineAccess> affine;
};

/// Reads the trace file and analyses every kernel.
[[nodiscard]] Expected<std::vector<KernelTrace>> analyzeTrace(const InstrumentedProgram& program,
                                                              const std::string& traceFile,
                                                              const AnalysisOptions& options,
                                                              const std::string& sourcePath);

}  // namespace foresight::cloop
