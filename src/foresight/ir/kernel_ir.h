// SPDX-License-Identifier: Apache-2.0
/// \file
/// `KernelIR`: what one warp of a kernel executes, the common language of all frontends and
/// models. Basic blocks hold instructions; each instruction has a class (→ pipeline), register
/// operands (→ dependences), and optionally a memory access with per-lane addresses or a
/// pattern summary. Blocks carry how often one warp executes them (trip counts and branch
/// probabilities already folded in); loops keep their trip count and where it came from.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/gpu/occupancy.h"
#include "foresight/ir/launch.h"
#include "foresight/ir/workload_summary.h"

namespace foresight {

class WarpStreamSource;  // ir/warp_stream.h

/// Address space of a memory instruction.
enum class MemorySpace { Global, Shared, Local, Constant, Texture };
/// "global", "shared", "local", "constant", "texture".
[[nodiscard]] const char* memorySpaceName(MemorySpace s);

/// Cache operator of a global or local access (PTX `ld`/`st` qualifiers and `ld.global.nc`;
/// the SASS equivalents). Default = `.ca` for loads (cached in L1 and L2 where the GPU caches
/// global loads in L1), `.wb` for stores.
enum class CacheOp {
  Default,
  Cg,  ///< cache in L2 only, bypass L1 (`ld.cg`, `__ldcg`, `st.cg`)
  Cs,  ///< streaming, evict first (`ld.cs`, `st.cs`, `__ldcs`, `__stcs`)
  Lu,  ///< last use (`ld.lu`)
  Cv,  ///< volatile, fetch again (`ld.cv`, `__ldcv`)
  Nc,  ///< read-only / texture path (`ld.global.nc`, `__ldg`)
  Wt,  ///< write-through to system memory (`st.wt`)
};
/// "default", "cg", "cs", "lu", "cv", "nc", "wt".
[[nodiscard]] const char* cacheOpName(CacheOp c);

/// One warp-level memory access.
struct MemoryAccess {
  MemorySpace space = MemorySpace::Global;
  bool isStore = false;
  int widthBytes = 4;  ///< bytes per lane
  CacheOp cacheOp = CacheOp::Default;
  /// Byte address per lane for a representative execution (negative = inactive lane); empty
  /// when only a pattern summary is known.
  std::vector<long long> laneAddresses;
  /// Pattern summary when lane addresses are absent (or to override them).
  std::optional<AccessClass> pattern;
  std::optional<double> transactionsPerInst;  ///< override of the counted transactions
  /// The address depends on data loaded from memory (CUDA frontend): `laneAddresses` is empty
  /// and `pattern` / `transactionsPerInst` hold a conservative estimate.
  bool dataDependent = false;
  /// Where a data-dependent address is known to stay: the array it indexes (a pointer parameter
  /// plus unknown data, `x[cols[j]]`), as the byte range [begin, end) of that array's address
  /// window (the same address space as `laneAddresses`) and its name for messages. Absent when
  /// the frontend could not tell.
  struct Allocation {
    long long begin = 0;
    long long end = 0;
    std::string name;
    std::optional<long long> bytes;  ///< the array's size when the launch gives it (Launch::arrayBytes)
  };
  std::optional<Allocation> allocation;
  /// Shared memory: average bank wavefronts per execution (CUDA frontend); 0 = not computed.
  double wavefrontsPerInst = 0;
};

/// One instruction as executed by a warp.
struct Instruction {
  std::string opcode;  ///< as the frontend saw it ("FFMA", "ld.global.f32", "comp")
  InstrClass cls = InstrClass::Fp32;
  std::vector<int> dst;  ///< destination virtual registers
  std::vector<int> src;  ///< source virtual registers
  std::optional<MemoryAccess> memory;
  bool barrier = false;  ///< __syncthreads / BAR.SYNC
  double flops = 0;      ///< floating-point operations per lane (2 for an FMA)
  /// Cycles the warp's next instruction must wait after this one issues, from the SASS control
  /// bits (the stall count ptxas encodes for fixed-latency dependences); 0 = unknown.
  int stallCycles = 0;
  /// Register-bank conflict degree of an FFMA: the most distinct source registers it
  /// reads from one bank (register_banks.h); its operands take that many cycles to read.
  /// 1 = conflict-free or unknown (the GPU gives no bank function).
  int bankConflictDegree = 1;
  /// How long the instruction holds its pipe, in units of the class's gap: 1 for ordinary
  /// instructions; a matrix instruction's multiply-adds over the pipe's unit of work (a
  /// tensor MMA counts per 4096 FP16 multiply-adds, frontend/cuda/isa/mma_shape.h).
  double pipeWork = 1;
  std::string sourceFile;  ///< source file of the instruction, when the frontend knows it
  int sourceLine = 0;      ///< 1-based source line; 0 = unknown
};

/// Where a loop's trip count came from.
enum class TripCountSource { Known, FromLaunch, Hinted };

/// A natural loop over basic blocks.
struct Loop {
  int header = 0;              ///< index of the header block
  std::vector<int> blocks;     ///< indices of the blocks in the loop body (header included)
  double tripCount = 1;
  TripCountSource source = TripCountSource::Known;
};

/// A basic block.
struct BasicBlock {
  std::string label;
  std::vector<Instruction> instructions;
  std::vector<int> successors;
  double executionsPerWarp = 1;  ///< dynamic executions by one warp, all loops folded in
};

/// Per-thread resources reported by the compiler or the frontend.
struct ThreadResources {
  int registers = 0;             ///< 0 = unknown
  long long staticSharedBytes = 0;  ///< per block
  long long localBytes = 0;         ///< per thread (spills, stack)
};

/// What occupancy needs of one launch of a kernel with these resources: its threads per block,
/// registers per thread, static plus dynamic shared memory and the carveout.
[[nodiscard]] BlockResources blockResources(const ThreadResources& resources, const Launch& launch);

/// A global array the kernel's accesses fall in: the address window of a pointer parameter
/// (CUDA frontend: each pointer parameter without a given base address owns a window of its
/// own, in the address space of `MemoryAccess::laneAddresses`). What placement analyses
/// (`foresight place`) attribute accesses to.
struct ArrayWindow {
  std::string name;     ///< the parameter's name
  long long begin = 0;  ///< first byte address of the window
  long long end = 0;    ///< one past its last
  std::optional<long long> bytes;  ///< the allocation's size when the launch gives it (Launch::arrayBytes)
};

/// One kernel.
struct KernelIR {
  std::string name;
  std::vector<BasicBlock> blocks;
  std::vector<Loop> loops;
  ThreadResources resources;
  /// The global arrays accesses are attributed to (empty when the frontend cannot tell).
  std::vector<ArrayWindow> arrays;
  /// The longest executed warp's dynamic instructions over the executed warps' mean (>= 1; 1 =
  /// balanced, or one warp known): the block counts above are the mean warp's, and a block's
  /// slot stays busy until its longest warp ends (a triangular loop's first warp).
  double longestWarpShare = 1;
  /// Per-warp dynamic streams (ir/warp_stream.h) when the frontend can execute warps; null =
  /// derive a stream from the blocks (synthesizeStream()).
  std::shared_ptr<const WarpStreamSource> streams;
};

}  // namespace foresight
