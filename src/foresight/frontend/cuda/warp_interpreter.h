// SPDX-License-Identifier: Apache-2.0
/// \file
/// `WarpInterpreter`: constant propagation by execution. It runs one warp of a PTX kernel with
/// the concrete thread and block ids, launch dimensions and scalar arguments of a launch; every
/// integer register holds 32 per-lane values that are either known or unknown (loaded from
/// memory, or from an argument that was not given). Branches on known predicates are taken
/// per lane (divergent paths reconverge at the immediate post-dominator, as on SIMT hardware),
/// so loop trip counts and branch outcomes follow from the launch; addresses of memory
/// instructions are exact per lane where known. A trip hint for line L turns the loads of L that
/// feed the loop bounds into concrete values (see boundLoads_), so the compiler's own loop
/// code (unrolled main loop plus remainder) runs exactly N iterations. A branch that is still
/// on an unknown predicate needs a hint
/// (`--trip FILE:LINE=N` for a loop, a branch probability otherwise), or is an Error naming the
/// source line. Each run yields one warp's dynamic stream (lazily, per requested warp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "foresight/frontend/cuda/ptx_cfg.h"
#include "foresight/frontend/cuda/ptx_module.h"
#include "foresight/ir/launch.h"
#include "foresight/support/error.h"

namespace foresight::cuda {

/// A loop trip count given by the user for a source line: `--trip FILE:LINE=N`.
struct TripHint {
  std::string file;  ///< file name (matched against the end of the PTX `.file` path)
  int line = 0;
  long long trips = 0;
};

/// What the `if` on a hinted line runs as its body (source_if.h): how `--branch` maps onto the
/// compiled branch. kNone: no `if` starts on the line (a branch of library code inlined there,
/// a `?:`, or no source): P is the probability that the compiled branch is taken.
enum class IfBody : std::uint8_t { kNone, kStatement, kReturn, kBreak, kContinue };

/// A branch probability given by the user for a source line: `--branch FILE:LINE=P`, the share
/// of the undecided lanes that run the body of the `if` on that line.
struct BranchHint {
  std::string file;
  int line = 0;
  double takenProbability = 0.5;  ///< the share of lanes that run the `if`'s body (kNone: that take the branch)
  IfBody body = IfBody::kNone;    ///< set by the frontend from the source
};

/// True when `path` ends with the path `name` at a '/' boundary ("a/b/x.cu" ends with "x.cu"
/// and "b/x.cu", not with "_x.cu"): how hints name source files.
[[nodiscard]] bool endsWithPath(const std::string& path, const std::string& name);

/// The branch hint that names `line` of the source file `path` (the first, if several), or null.
[[nodiscard]] const BranchHint* branchHintAt(const std::vector<BranchHint>& hints, const std::string& path, int line);

/// What one kernel run needs besides the PTX.
struct InterpreterOptions {
  Launch launch;                     ///< grid, block, dynamic shared memory
  /// Scalar value per parameter ordinal (pointers get synthetic bases; absent = unknown).
  std::map<int, long long> scalarArgs;
  std::vector<int> pointerParams;     ///< parameter ordinals that are pointers
  /// Contents of pointer parameters' arrays by ordinal (Launch::arrayData): global and generic
  /// loads at known addresses inside them read these values (a trip hint's bound loads excepted).
  std::map<int, ArrayData> arrayData;
  std::vector<std::string> paramNames;  ///< source names by ordinal, for messages
  std::vector<TripHint> trips;
  std::vector<BranchHint> branches;
  /// Guard against non-terminating loops: instructions executed one by one (folded iterations,
  /// whose end is solved for, do not count).
  long long maxInstructionsPerWarp = 200'000'000;
  std::string kernelName;             ///< name used in messages (demangled)
  bool recordStream = false;          ///< keep the dynamic stream (instruction, mask) in order
  /// Fold loops whose iterations repeat (see WarpTrace::folds): interpretation time then does
  /// not grow with their trip counts.
  bool foldLoops = true;
};

/// Iterations of a loop that were not executed one by one. A loop is folded at a visit of its
/// header when its last three iterations ran the same path (same instructions with the same
/// masks, same SIMT stack at the header, no hint-resolved branch, the same inputs and outputs
/// of every non-affine integer operation: and, or, xor, not, shr, div, rem, min, max, abs,
/// mul.hi, shfl, shl by a register) and every known register, every comparison operand and
/// (when the stream is recorded) every lane address advanced by the same amount in each. The
/// iterations that follow then differ only by those constant steps until the first comparison
/// changes its outcome (or leaves its type's range), which is solved for exactly; the
/// `repeats` iterations before that one are added to the counts (× the last iteration's), the
/// registers advanced by repeats × step, and execution resumes. A loop whose exit depends on
/// unknown data (a trip hint) or whose steps change is executed one iteration at a time.
struct LoopFold {
  int header = 0;             ///< CFG block of the loop header
  size_t streamBegin = 0;     ///< the last executed iteration: stream[streamBegin, streamEnd)
  size_t streamEnd = 0;
  size_t addressBegin = 0;    ///< its records in streamAddresses: [addressBegin, addressEnd)
  size_t addressEnd = 0;
  long long repeats = 0;      ///< times it repeats right after streamEnd without being recorded
  /// Per address record of the iteration: the per-lane address step of each repeat.
  std::vector<std::vector<long long>> addressStep;
  /// Folds of inner loops inside the recorded iteration (indices [innerBegin, innerEnd) of the
  /// run's folds): every repeat repeats them too, their addresses shifted by this fold's steps.
  /// An outer loop folds only when its three compared iterations hold the same inner folds
  /// (same places, repeats and address steps), so analysis time is flat in its trip count too.
  size_t innerBegin = 0;
  size_t innerEnd = 0;
};

/// Per static instruction statistics of one warp run.
struct InstructionStats {
  long long executions = 0;    ///< times issued with at least one active lane
  long long activeLanes = 0;   ///< summed over executions
  long long knownRequests = 0;  ///< memory executions whose addresses were all known
  long long units = 0;         ///< summed sectors (global/local/const) or wavefronts (shared)
  long long dataDependent = 0;  ///< memory executions with an unknown address
  /// Of the data-dependent executions: the base of the allocation (pointerBase()) every unknown
  /// address stayed in (a pointer parameter plus unknown data), 0 when untracked or several;
  /// nullopt before the first.
  std::optional<long long> allocation;
  std::vector<long long> firstAddresses;  ///< lane addresses of the first known execution
};

/// The allocation of the data-dependent executions of `seen` and `next` together
/// (InstructionStats::allocation): the common one, 0 when they differ.
[[nodiscard]] inline std::optional<long long> mergeAllocation(std::optional<long long> seen, std::optional<long long> next) {
  if (!seen) return next;
  if (!next) return seen;
  return *seen == *next ? seen : std::optional<long long>(0);
}

/// How a branch on unknown data, or a load feeding a hinted loop bound, was resolved.
struct ResolvedBranch {
  int instruction = 0;
  std::string how;  ///< "trip hint 16", "probability 0.25"
};

/// One execution of a memory instruction by a warp, with its lane addresses.
struct LaneAccess {
  size_t position = 0;  ///< in the warp's recorded stream (0-based; folded repeats not counted)
  int instruction = 0;  ///< static instruction index
  /// Byte address per lane (negative = inactive lane); empty when an active lane's address
  /// depends on untracked values (data-dependent).
  std::vector<long long> lanes;
};

/// One warp's execution (PTX or SASS: warp_executor.h).
struct WarpTrace {
  std::vector<long long> blockExecutions;  ///< per CFG block
  std::vector<std::map<int, long long>> edges;  ///< per CFG block: successor → times taken
  std::vector<InstructionStats> instructions;  ///< per PTX instruction
  long long dynamicInstructions = 0;
  std::vector<ResolvedBranch> hintedBranches;
  /// (instruction index, lanes that execute it) in execution order, when recordStream was set.
  std::vector<std::pair<int, std::uint32_t>> stream;
  /// Lane addresses of executed memory instructions, in order, when the stream or the
  /// addresses are recorded: the PTX run keeps those whose addresses were all known, the SASS
  /// run every one (empty lanes: data-dependent).
  std::vector<LaneAccess> accesses;
  /// Folded loop iterations, in stream order (recorded only with the stream or the addresses; the counts above
  /// include every folded iteration). With folds, `stream` holds the executed instructions
  /// only: expandedLength() gives the full length, expandStream() the full stream.
  std::vector<LoopFold> folds;
  long long foldedIterations = 0;  ///< loop iterations folded instead of executed
  /// What the run assumed, by source line ("k.cu:3: …"): initial values of module variables,
  /// atomics that serialize, defaults taken for branches of library code.
  std::vector<std::string> notes;
};

/// Dynamic instructions of the warp's full stream (recorded + folded repeats).
[[nodiscard]] long long expandedLength(const WarpTrace& trace);

/// Calls `emit(instruction, mask, lanes)` for positions [begin, end) of the full stream of a
/// trace recorded with recordStream (folded repeats reproduced with their address steps;
/// `lanes` is null for instructions without a recorded address or with a data-dependent one).
void expandStream(const WarpTrace& trace, long long begin, long long end,
                  const std::function<void(int, std::uint32_t, const std::vector<long long>*)>& emit);

/// The memory space an address belongs to; also used to build lane addresses.
enum class PtxSpace { Global, Shared, Local, Const, Param, Generic };

/// What one warp access with these lane addresses costs (negative = inactive lane): bank
/// wavefronts for shared memory, distinct addresses for constant memory, 32-byte sectors
/// otherwise. An atomic (atom, red, ATOMG, ATOMS, RED) serializes the lanes that update the
/// same address: a global one costs, per sector, as many passes as the most lanes on one
/// address of that sector; a shared one the larger of its wavefronts and the most lanes on
/// one address. `lanesPerRequest` is the lanes the shared banks serve together (32; 8 for
/// ldmatrix/stmatrix, which fetch one 8 x 8 matrix, 8 rows of 16 bytes, per pass). Shared by
/// the PTX and the SASS runs.
[[nodiscard]] Expected<long long> accessUnits(std::span<const long long> lanes, int widthBytes, PtxSpace space,
                                              bool atomic = false, int lanesPerRequest = 32);

/// The most active lanes (address ≥ 0) that share one address: 1 when all differ.
[[nodiscard]] int sameAddressLanes(std::span<const long long> lanes);

/// A warp shuffle's mode (PTX's shfl.sync, SASS's SHFL).
enum class ShuffleMode { Up, Down, Bfly, Idx };
/// The mode spelled `name` in either case (up, down, bfly, idx); nullopt for another name.
[[nodiscard]] std::optional<ShuffleMode> shuffleMode(std::string_view name);

/// Where a warp shuffle of mode `mode` makes `lane` read from, with operands b and c (c's bits
/// 0-4 the clamp, 8-12 the segment mask), per the PTX ISA: the source lane and whether it was in
/// range (when not, the lane reads its own value). Shared by the PTX and the SASS runs.
struct ShuffleSource {
  int lane = 0;
  bool inRange = false;
};
[[nodiscard]] ShuffleSource shuffleSource(ShuffleMode mode, int lane, std::uint32_t b, std::uint32_t c);

/// Executes warps of one kernel.
class WarpInterpreter {
 public:
  WarpInterpreter(const PtxModule& module, const PtxKernel& kernel, const PtxCfg& cfg,
                  InterpreterOptions options, std::string fileName);

  /// Runs warp `warp` (0-based within the block) of block `block` (linear block index).
  [[nodiscard]] Expected<WarpTrace> run(long long block, int warp) const;

  /// Synthetic base address of pointer parameter `ordinal`: (ordinal + 1) × kPointerWindow.
  [[nodiscard]] static long long pointerBase(int ordinal);
  /// The `bytes` bytes at synthetic address `address` from `arrays` (InterpreterOptions::
  /// arrayData): nullopt outside every given array. Shared by the PTX and SASS runs.
  [[nodiscard]] static std::optional<std::uint64_t> arrayValue(const std::map<int, ArrayData>& arrays, long long address,
                                                               int bytes);
  /// Bytes of address space each pointer parameter's allocation owns from its base.
  static constexpr long long kPointerWindow = 1LL << 40;

 private:
  const PtxModule& module_;
  const PtxKernel& kernel_;
  const PtxCfg& cfg_;
  InterpreterOptions options_;
  std::string fileName_;
  std::map<std::string, long long> sharedOffsets_;  ///< shared variable → byte offset
  std::map<std::string, long long> globalBases_;    ///< module .global/.const variable → base
  /// Initialised module variables by base address: loads at known addresses inside them read
  /// their initial values.
  std::map<long long, const PtxVariable*> initialised_;
  std::map<std::string, int> paramOrdinal_;
  /// Loads that produce a hinted loop's bounds: instruction → (trip count, as-index). A single
  /// bound load at the hinted line yields N; two or more (CSR-style start/end pointers) yield
  /// N × element index, so that end − start = N.
  std::map<int, std::pair<long long, bool>> boundLoads_;
};

}  // namespace foresight::cuda
