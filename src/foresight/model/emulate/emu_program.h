// SPDX-License-Identifier: Apache-2.0
/// \file
/// What the abstract kernel emulator (SAAKE Algorithm 1, TEG's timing engine) runs: a machine of
/// latency/gap units (`EmuMachine`) and one SM's resident warps, each with a stream of abstract
/// operations (`EmuProgram`). Both are plain data built by the lowering (emulate_lowering.h) or by
/// hand in tests (the paper's 3-warp example is five ops on two units).
///
/// Timing rules of one op issued at cycle t on a use (unit u, count n):
///   admit_u  = max(t, pipeAdmit[u])            (unbounded queue: issue never waits for u)
///   pipeAdmit[u] = admit_u + n * G[u]           (n requests: sectors, wavefronts, transactions)
///   done_u   = admit_u + (n - 1) * G[u] + L[u]  (the last request's result)
///   finish   = max over uses of done_u          (a dependent may issue at `finish`)
/// The clock only moves forward; the kernel's SM time is the maximum finish over all ops. A
/// block's slot refills `blockOverhead` cycles after the last finish of its ops that are not
/// posted writes.
#pragma once

#include <array>
#include <limits>
#include <string>
#include <vector>

#include "foresight/model/resource.h"

namespace foresight::emu {

inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

/// Which hardware instance of a unit an op uses.
enum class UnitScope {
  Scheduler,  ///< one instance per scheduler (SM sub-partition pipes: fp32, int, sfu, ...)
  Sm,         ///< one instance per SM (shared memory, L1, and the SM's share of L2 and DRAM)
};

/// A pipelined server described by latency L and gap G (SAAKE §2.2).
struct UnitSpec {
  std::string name;                    ///< report name: "fp32", "dram", "gm", ...
  Resource resource = Resource::Fp32;  ///< bound vocabulary
  double latency = 0;                  ///< cycles from admission to a dependent's issue
  double gap = 0;                      ///< cycles between two admissions (1 / throughput)
  UnitScope scope = UnitScope::Scheduler;
  /// Requests that may wait in the unit's input queue before issue stalls (saake.md §5.5,
  /// ambiguity 9): issue waits while pipeAdmit - t > maxQueued * gap. kUnbounded = Algorithm 1.
  double maxQueued = kUnbounded;
  /// TEG's same-warp issue latency: the issuing warp stays inactive this long (0 = none).
  double sameWarpIssue = 0;
};

/// One unit an op occupies, and for how many requests.
struct Use {
  int unit = 0;
  double count = 1;  ///< may be fractional: expected sectors under a hit-rate split
};

/// One static instruction: register operands, barrier flag and source region.
struct EmuInstr {
  std::vector<int> src;  ///< registers read (indices < EmuProgram::numRegisters)
  std::vector<int> dst;  ///< registers written
  bool barrier = false;  ///< block-wide barrier (__syncthreads)
  int region = 0;        ///< index into EmuProgram::regions
  std::string label;     ///< opcode, for timelines
  int irBlock = -1;      ///< the KernelIR instruction it lowers (block, index); -1: synthesized
  int irIndex = -1;
  /// Minimum cycles before the warp's next instruction (SASS stall count; modern variant), in
  /// units of the latency of the instruction's first unit: perturbing that latency scales it.
  double issueStall = 0;
  /// A posted write (a global store; modern variant): it occupies its units as any op, but
  /// neither its warp's barrier nor its block's slot waits for it to finish; the SM's time does.
  bool posted = false;
};

/// One dynamic operation of a warp: which static instruction, which units.
struct EmuOp {
  int instr = 0;
  int numUses = 0;
  std::array<Use, 4> uses{};
};

/// One warp of the emulated SM.
struct EmuWarp {
  int block = 0;  ///< index of its block among the emulated blocks (barrier scope)
  std::vector<EmuOp> ops;
  /// Block whose retirement (all its warps' ops finished) frees the slot this warp's block
  /// starts in (-1 = resident from cycle 0): later waves refill slots as blocks retire.
  int after = -1;
};

/// The machine: units, schedulers and the issue rule.
struct EmuMachine {
  std::vector<UnitSpec> units;
  int schedulers = 1;
  double issueGap = 1;  ///< cycles between two issues of one scheduler (1 / issue width)
  /// Cycles between a block's retirement and the start of the block that refills its slot
  /// (the GPU's block_overhead: retirement and dispatch; modern variant; 0 = none).
  double blockOverhead = 0;
  enum class Policy { Gto, RoundRobin } policy = Policy::Gto;
};

/// The warps of one SM and their instructions.
struct EmuProgram {
  std::vector<EmuInstr> instrs;
  std::vector<EmuWarp> warps;  ///< warp i runs on scheduler i % schedulers
  int numRegisters = 0;
  std::vector<std::string> regions = {"all"};  ///< region names (source-line ranges)
};

/// Scales one parameter of one unit, optionally only for ops of one region (sensitivity).
struct Perturbation {
  int unit = -1;        ///< -1 = none; EmuMachine::units index, or kIssueUnit
  bool gap = false;     ///< scale the gap (else the latency and same-warp issue latency)
  double factor = 1;
  int region = -1;      ///< -1 = every op
};
/// Perturbation::unit value that denotes the schedulers' issue gap.
inline constexpr int kIssueUnit = -2;
/// Perturbation::unit value that denotes the machine's block overhead (EmuMachine::blockOverhead).
inline constexpr int kBlockUnit = -4;

}  // namespace foresight::emu
