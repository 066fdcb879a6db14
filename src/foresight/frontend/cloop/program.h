// SPDX-License-Identifier: Apache-2.0
/// \file
/// What the instrumenter knows statically about a marked C program: its kernels (marked loop
/// nests), their loops, basic blocks (with Table 2 operation counts) and memory operations, the
/// arrays they touch; and the instrumented executable that writes the dynamic trace.
/// Building it needs LLVM (instrument.cpp); everything else in the frontend reads only this.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "foresight/frontend/cloop/markers.h"
#include "foresight/gpu/gpu.h"
#include "foresight/support/error.h"

namespace foresight::cloop {

/// One marked loop nest = one CUDA kernel.
struct StaticKernel {
  std::string name;
  std::string function;
  int line = 0;            ///< line of the marked `for`
  int gridDims = 1;        ///< 1 or 2 mapped loops
  long long blockX = 256;
  long long blockY = 1;
  std::array<int, 2> mappedLoops{-1, -1};  ///< loop ids: [0] outer (y in 2-D, x in 1-D), [1] inner (x)
  std::vector<std::string> shared;         ///< shared-memory hints
};

/// A loop inside a kernel.
struct StaticLoop {
  int kernel = 0;
  int parent = -1;  ///< enclosing loop id inside the kernel, -1 for the marked loop
  int depth = 0;    ///< 0 = the marked loop
  int line = 0;
};

/// A basic block inside a kernel, with its operation counts (cgpredict.md §5, Table 2).
struct StaticBlock {
  int kernel = 0;
  double compInsts = 0;  ///< computation instructions per execution
  std::array<double, kNumInstrClasses> byClass{};
  double flops = 0;
};

/// Where a memory operation goes once the kernel runs on the GPU (shared-memory hints).
enum class OpSpace {
  Global,          ///< global memory: classified and fed to the L2
  Shared,          ///< a read or write of a shared-hinted array: bank conflicts (X)
  GlobalToShared,  ///< a global load whose value is stored straight into a shared array
  SharedFill,      ///< that store (its cost is part of the global→shared load)
};

/// A load or store inside a kernel.
struct StaticMemOp {
  int kernel = 0;
  OpSpace space = OpSpace::Global;
  bool isStore = false;
  int bytes = 4;
  int line = 0;
  int array = -1;  ///< index into InstrumentedProgram::arrays, -1 when unknown
};

/// A global array (or other underlying object) accessed by a kernel.
struct StaticArray {
  std::string name;
  long long bytes = 0;              ///< 0 = unknown size
  int elemBytes = 4;
  std::vector<long long> dims;      ///< C dimensions, outermost first, when it is an array type
};

/// The instrumented program and its static description.
struct InstrumentedProgram {
  std::string executable;  ///< writes the trace to the file named by $CGP_TRACE
  std::vector<StaticKernel> kernels;
  std::vector<StaticLoop> loops;
  std::vector<StaticBlock> blocks;
  std::vector<StaticMemOp> memOps;
  std::vector<StaticArray> arrays;
};

/// Trace event kinds (top 4 bits of each 32-bit trace word; the id is in the low 28 bits).
enum class Event : unsigned {
  KernelBegin = 1,
  KernelEnd = 2,
  LoopEnter = 3,
  LoopNext = 4,
  LoopExit = 5,
  Block = 6,
  Mem = 7,    ///< followed by the 64-bit address (two words, low first)
  Array = 8,  ///< followed by the 64-bit base address of array `id`
};

/// Whether this build has the C loop frontend (LLVM found at configure time).
[[nodiscard]] bool cloopAvailable();

/// Compiles `path` with clang (the `defines` as -D), runs the pre-pipeline of cgpredict.md §10,
/// checks the marked regions (unknown calls, blocked promotion), instruments them and links
/// the executable into `workDir`. Each clang run is limited to `clangTimeoutSeconds`
/// (`--tool-timeout`; 0 = kClangTimeoutSeconds).
[[nodiscard]] Expected<InstrumentedProgram> buildInstrumented(
    const std::string& path, const SourceMarkers& markers,
    const std::vector<std::pair<std::string, std::string>>& defines, const std::string& workDir,
    double clangTimeoutSeconds = 0);

/// clang compiles and links a one-file program in seconds; two minutes means it hangs.
inline constexpr double kClangTimeoutSeconds = 120;

}  // namespace foresight::cloop
