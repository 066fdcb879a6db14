// SPDX-License-Identifier: Apache-2.0
/// \file
/// Ranked fixes (issue 17 item 1): the code changes worth making for one kernel launch, best
/// first, each with the speedup the emulate model predicts for it, the source lines it concerns
/// and one sentence of why. A fix's speedup is the matching what-if of TEG's penalty breakdown
/// (advise/whatif.h: the launch emulated again with that penalty removed), or, where the change
/// is a number the user can set (a register cap), the launch emulated again with that number.
///
/// Which what-if answers which change:
///   conflict-free-shared    pad or re-index the shared arrays (lines: the shared accesses with
///                           more than one wavefront per request)
///   perfect-coalescing      make a warp's lanes touch consecutive addresses (lines: the global
///                           accesses with more sectors per request than their width needs)
///   conflict-free-registers another register tile (lines: advise/register_conflicts.h)
///   full-occupancy          cap the registers (predicted with the cap) or shrink the shared
///                           memory per block (the limiter's own change)
///   no-address-arithmetic   compute addresses once (pointer increments, hoisting, unrolling)
///   all-l1-hits/all-l2-hits keep reused data on chip (lines: the loads most served off-SM), only
///                           when the loads fetch more from L2/DRAM than their footprint
///   (placement)             put arrays in other memories (PORPLE, advise/placement/place.h): the
///                           chosen plan against the kernel as written, both predicted with the
///                           emulate model (lines: the moved arrays' accesses)
///   (launch shape)          another 1-D block size with more resident warps, the grid scaled to
///                           keep the launch's threads: the input re-read for that launch (its
///                           addresses follow the launch) and emulated; offered only when the
///                           re-read launch touches the same distinct bytes (the kernel indexes
///                           by blockDim, not by a constant block size) and uses no shared memory
///   (vectorize)             accesses of one basic block whose lanes touch 2 or 4 adjacent
///                           elements of one thread (4 or 8 bytes each, known addresses, the
///                           first aligned to the vector): the first widened to the vector and
///                           given the others' registers, the others left out of the emulation
///                           (WhatIf::removed); assumes no store to those elements between them
///   (define)                each -D value the kernel is compiled with that InputAccess::macros
///                           lists (`--try-defines`; three at most) doubled and halved, the
///                           grid as it is or its x scaled by the inverse ratio, compiled, re-read
///                           and emulated; the fastest that touches the same distinct bytes
///   (unroll)                the innermost loops that hold the most warp instructions, each
///                           compiled again with `_Pragma("unroll 4")` before its `for` (the
///                           same line: hints keep their lines) and emulated: what nvcc makes of
///                           the unrolled loop (loads of four iterations in flight, one branch)
///   infinite-bandwidth      move fewer bytes: listed last, as the bound of what less traffic
///                           can bring (no change removes every byte)
/// A what-if that saves less than 5 % is no fix. Speedups of different fixes do not multiply:
/// each is measured against the kernel as it is.
///
/// When explain reports another model's time (MWP-CWP), each fix also carries that model's
/// speedup for the same change where the model can express it: its own what-if of the same name,
/// or its prediction of the changed kernel or launch (a register cap, a launch shape).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "foresight/advise/placement/place.h"
#include "foresight/advise/register_conflicts.h"
#include "foresight/advise/whatif.h"
#include "foresight/memory/memory_traffic.h"

namespace foresight {

/// One source line a fix concerns.
struct FixLine {
  std::string file;
  int line = 0;
  std::string detail;  ///< "32 wavefronts per request", "32.0 sectors per request, 4 at best"
};

/// One change worth making.
struct Fix {
  std::string kind;    ///< "shared-bank-conflicts", "coalescing", "register-banks", "occupancy",
                       ///< "launch-shape", "define", "vectorize", "unroll", "address-arithmetic",
                       ///< "on-chip-reuse",
                       ///< "placement", "memory-traffic"
  std::string change;  ///< what to do, imperative
  std::string why;     ///< one sentence: the evidence
  std::vector<FixLine> lines;  ///< worst first; empty when the input has no line information
  std::string basis;           ///< how the speedup was predicted ("what-if perfect-coalescing")
  double cyclesBefore = 0;     ///< the emulated launch as it is
  double cyclesAfter = 0;      ///< with the fix
  double speedup = 1;          ///< cyclesBefore / cyclesAfter
  bool upperBound = false;     ///< the speedup is a bound no single change reaches (memory-traffic)
  /// The reported timing model's speedup for the same change (FixInputs::timing), when that
  /// model is not emulate and can express the change.
  std::optional<double> modelSpeedup;
};

/// One line of the kernel's source replaced, for a fix that changes the source.
struct LineEdit {
  std::string file;  ///< as the IR names it (Instruction::sourceFile)
  int line = 0;      ///< 1-based
  std::string text;  ///< the whole new line
};

/// A change of the input a fix predicts: another launch, source lines, `-D` values.
struct InputChange {
  Launch launch;
  std::vector<LineEdit> edits;
  std::vector<std::pair<std::string, long long>> macros;  ///< set (replacing the input's value)
};

/// The input behind the kernel, for the fixes that change it and predict the result
/// (explainWorkload() gives it for kernel files; empty members: those fixes are not predicted).
struct InputAccess {
  /// The kernel as the input gives it with `change`: for its launch (a CUDA kernel's addresses
  /// are resolved per launch), with its edits applied to the source and its macros set, the
  /// source compiled again; an Error when the input cannot be so changed (an edit of a file
  /// that is not the input's own source, a macro of an input that is not compiled).
  std::function<Expected<KernelInput>(const InputChange& change)> rebuild;
  /// The integer macros the kernel is compiled with that a `-D` fix tries (empty: none is
  /// tried): the input's own `-D NAME=VALUE`, then the source's `#ifndef NAME` /
  /// `#define NAME VALUE` defaults.
  std::vector<std::pair<std::string, long long>> macros;
  /// Line `line` (1-based) of the source file the IR names `file`, when that file is the input's
  /// own source (a .cu file); nullopt otherwise.
  std::function<std::optional<std::string>(const std::string& file, int line)> sourceLine;
};

/// What rankFixes() reads: the emulated launch and its analysis (explainKernel()'s).
struct FixInputs {
  const KernelInput* kernel = nullptr;
  Launch launch;
  const Gpu* gpu = nullptr;
  EmulateOptions emulate;
  const MemoryTraffic* memory = nullptr;  ///< the memory engine's traffic of the launch, or null
  /// The emulated cycles the what-ifs compare with, through predict()'s floors.
  double baseCycles = 0;
  std::vector<WhatIfResult> whatIf;       ///< analyzeWhatIf()'s switches
  std::vector<RegisterConflictLine> conflicts;
  /// PORPLE's placement of the launch's arrays with emulate times, or null (no per-lane
  /// addresses: not a CUDA input).
  const PlaceResult* placement = nullptr;
  /// The input, to predict a launch change or a source change; empty: neither is predicted.
  InputAccess input;
  /// The model explain reports when it is not emulate (null otherwise), its cycles for the
  /// launch and its what-ifs (analyzeModelWhatIf()): each fix's modelSpeedup.
  const ModelOptions* timing = nullptr;
  double timingCycles = 0;
  std::vector<WhatIfResult> timingWhatIf;
};

/// The smallest speedup that makes a change a fix.
inline constexpr double kFixThreshold = 1.05;

/// A change of the kernel or its launch, emulated ahead of the judgement: the fix as it would
/// read (kind, change, why, lines, basis; cyclesAfter = the emulated cycles), the kernel and
/// the launch it was emulated with.
struct FixTrial {
  Fix fix;
  KernelInput kernel;
  Launch launch;
};
/// Per change tried (launch shape, vectorized accesses, a -D value, an unrolled loop), in order.
using FixTrials = std::vector<Expected<std::optional<FixTrial>>>;

/// The changes rankFixes() emulates, tried: they read the kernel, launch, GPU, emulate
/// options, traffic and input only — not the base time, the what-ifs or the timing model's
/// cycles — so explain runs them beside the analyses that produce those.
[[nodiscard]] FixTrials tryFixChanges(const FixInputs& in);

/// The fixes, best (largest speedup) first, then the memory-traffic bound; `trials` are
/// tryFixChanges() of the same inputs (the first overload tries them itself).
[[nodiscard]] Expected<std::vector<Fix>> rankFixes(const FixInputs& in);
[[nodiscard]] Expected<std::vector<Fix>> rankFixes(const FixInputs& in, FixTrials trials);

}  // namespace foresight
