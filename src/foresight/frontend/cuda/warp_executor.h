// SPDX-License-Identifier: Apache-2.0
/// \file
/// `WarpExecution`: the one warp executor behind the PTX run (WarpInterpreter) and the SASS run
/// (runSassWarp). It owns what does not depend on the instruction set: the SIMT loop over the
/// CFG with reconvergence at immediate post-dominators (SimtStack), guards, the instruction
/// budget, the dynamic stream and its lane-address records, the per-instruction and per-block
/// counts, one resolver for branches and exits on unknown data (`--trip`, `--branch`, the
/// library default, and one error listing every branch no hint decides), and loop folding
/// (LoopFold). Each instruction set supplies only its semantics, as an `Isa` object with:
///
/// - `Flow flow(int i)`: whether instruction i is a branch, an exit/return, or anything else;
/// - `GuardLanes guard(int i, std::uint32_t mask)`: of `mask`, the lanes whose guard holds and
///   those whose guard is unknown (with the origin of the unknown value);
/// - `SourceLocation locate(int i)`: its source file and line, for hints and messages;
/// - `Expected<void> execute(int i, std::uint32_t on, std::uint32_t undecided, int origin)`:
///   runs a non-branch instruction in `on | undecided` and leaves its results in the
///   `undecided` lanes (guard unknown, no hint) unknown, of `origin`; it records its memory
///   accesses, comparisons and non-affine results through the execution;
/// - `R save()`: a copy of the register state; `std::optional<M> steps(const R& s0, …, s3,
///   Int128& repeats)`: the constant per-iteration steps of the registers over four visits of
///   a loop header (nullopt when some register does not advance by constant steps), lowering
///   `repeats` to keep values in range; `void advance(const M& steps, long long iterations)`.
///
/// The rules are the same for both instruction sets (docs/input-cuda.md#options):
/// - a branch on unknown data takes a `--trip` hint on its line (a loop test stays in its loop
///   N times), else a `--branch` probability (an error when the branch decides a loop): the
///   share P of the lanes that run the body of the `if` on that line, mapped onto the compiled
///   branch by takenShare() (BranchHint::body), else library code's default (a loop is left,
///   any other branch falls through); a SASS branch around a library slow path's call with no
///   hint skips the call (SourceLocation::skipsSlowPath); with no hint any other branch goes on
///   as library code does and ends in one error naming every such branch with the option that
///   decides it;
/// - an exit or return on unknown data is resolved the same way;
/// - any other instruction whose guard is unknown (an if-converted body) runs in the share P
///   of those lanes that the `--branch …=P` hint on its line gives (1 − P where no `if` starts
///   on the line: P is then the compiled branch's, over the body); without a hint, in all of
///   them, with its results there unknown;
/// - the stream records an instruction with the lanes that execute it (guard true or
///   undecided; for a branch or exit, before the hint decides), and the per-instruction
///   `activeLanes` counts the warp's active lanes at it.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "foresight/frontend/cuda/loop_folding.h"
#include "foresight/frontend/cuda/ptx_cfg.h"
#include "foresight/frontend/cuda/warp_interpreter.h"
#include "foresight/support/error.h"

namespace foresight::cuda {

/// Origins of unknown values, as the executor's messages name them; positive values are
/// arguments (ordinal + 1) that were not given.
inline constexpr int kOriginKnown = 0;
inline constexpr int kOriginMemory = -1;
inline constexpr int kOriginOther = -2;  ///< clocks, floating point, untracked instructions

/// What the executor needs to know of an instruction's control flow.
enum class Flow : std::uint8_t { kOther, kBranch, kExit };

/// The lanes of a mask whose guard holds (`on`) and whose guard is unknown.
struct GuardLanes {
  std::uint32_t on = 0;
  std::uint32_t unknown = 0;
  int origin = kOriginOther;  ///< of the unknown guard
};

/// Where an instruction comes from, for hints and messages.
struct SourceLocation {
  std::string path;       ///< the source file as the line table names it (hints match its end)
  int line = 0;
  std::string where;      ///< "kernel.cu:12", as hints name it
  std::string errorFile;  ///< the file errors about the line point at
  bool library = false;   ///< code the user did not write (inlined from a CUDA header)
  std::string inlinedFrom;
  bool skipsSlowPath = false;  ///< a branch around a library slow path (SassInstruction::skipsSlowPath)
};

/// What one warp run is given besides the instruction set.
struct ExecutionSetup {
  const PtxCfg* cfg = nullptr;
  std::uint32_t valid = 0;  ///< lanes that exist (the block may not fill the warp)
  const std::vector<TripHint>* trips = nullptr;
  const std::vector<BranchHint>* branches = nullptr;
  long long maxInstructions = 200'000'000;  ///< executed one by one (folded ones do not count)
  bool recordStream = false;
  bool recordAddresses = false;  ///< lane-address records without the stream
  bool foldLoops = true;
  std::string kernelName;               ///< for messages
  std::vector<std::string> paramNames;  ///< by ordinal, for messages about unknown arguments
  std::string untracked = "values the frontend does not track (floating point, clocks)";  ///< kOriginOther in messages
};

/// An instruction set made of callables, one per operation of the file comment's `Isa`:
/// makeIsa(flow, guard, locate, execute, save, steps, advance).
template <class FlowF, class GuardF, class LocateF, class ExecuteF, class SaveF, class StepsF, class AdvanceF>
struct IsaFunctions {
  FlowF flowOf;
  GuardF guardOf;
  LocateF locateOf;
  ExecuteF executeOne;
  SaveF saveRegisters;
  StepsF stepsOf;
  AdvanceF advanceBy;

  Flow flow(int i) { return flowOf(i); }
  GuardLanes guard(int i, std::uint32_t mask) { return guardOf(i, mask); }
  SourceLocation locate(int i) { return locateOf(i); }
  Expected<void> execute(int i, std::uint32_t on, std::uint32_t undecided, int origin) { return executeOne(i, on, undecided, origin); }
  auto save() { return saveRegisters(); }
  template <class R>
  auto steps(const R& s0, const R& s1, const R& s2, const R& s3, folding::Int128& repeats) {
    return stepsOf(s0, s1, s2, s3, repeats);
  }
  template <class M>
  void advance(const M& steps, long long iterations) {
    advanceBy(steps, iterations);
  }
};

template <class FlowF, class GuardF, class LocateF, class ExecuteF, class SaveF, class StepsF, class AdvanceF>
[[nodiscard]] IsaFunctions<FlowF, GuardF, LocateF, ExecuteF, SaveF, StepsF, AdvanceF> makeIsa(FlowF flow, GuardF guard, LocateF locate,
                                                                                             ExecuteF execute, SaveF save, StepsF steps,
                                                                                             AdvanceF advance) {
  return {std::move(flow), std::move(guard), std::move(locate), std::move(execute), std::move(save), std::move(steps), std::move(advance)};
}

/// One warp's execution over an instruction set (see the file comment).
class WarpExecution {
 public:
  WarpExecution(ExecutionSetup setup, size_t instructions) : setup_(std::move(setup)), locations_(instructions) {
    trace_.blockExecutions.assign(setup_.cfg->blocks.size(), 0);
    trace_.edges.assign(setup_.cfg->blocks.size(), {});
    trace_.instructions.assign(instructions, {});
  }

  // For the instruction set's semantics ---------------------------------------------------------

  /// True while some loop is collecting iterations to fold: the semantics then log their known
  /// integer comparisons and the inputs and outputs of their non-affine operations.
  [[nodiscard]] bool logging() const { return logging_; }
  void logComparison(const folding::Comparison& c) { setpLog_.push_back(c); }
  void addNonAffine(std::uint64_t hash) { nonAffine_ += hash; }
  /// Whether lane-address records are kept (recordAccess).
  [[nodiscard]] bool recording() const { return setup_.recordStream || setup_.recordAddresses; }
  /// Records the lane addresses (empty: data-dependent) of the instruction being executed.
  void recordAccess(int instruction, std::vector<long long> lanes) {
    trace_.accesses.push_back({static_cast<size_t>(executed_ - 1), instruction, std::move(lanes)});
  }
  [[nodiscard]] InstructionStats& stats(int instruction) { return trace_.instructions[static_cast<size_t>(instruction)]; }
  /// A load that a `--trip` hint set (a loop bound): says how, and keeps the loop around it
  /// from folding.
  void boundLoad(int instruction, std::string how) {
    ++resolved_;
    hinted(instruction, std::move(how));
  }
  /// A note on what the run assumed ("k.cu:3: …"), once.
  void note(std::string text) {
    if (std::find(trace_.notes.begin(), trace_.notes.end(), text) == trace_.notes.end()) trace_.notes.push_back(std::move(text));
  }

  /// Runs the warp.
  template <class Isa>
  [[nodiscard]] Expected<WarpTrace> run(Isa& isa);

 private:
  void hinted(int instruction, std::string how) {
    if (trace_.hintedBranches.empty() || trace_.hintedBranches.back().instruction != instruction) {
      trace_.hintedBranches.push_back({instruction, std::move(how)});
    }
  }
  [[nodiscard]] std::string originText(int origin) const {
    if (origin > 0) {
      const size_t ord = static_cast<size_t>(origin - 1);
      const std::string name = ord < setup_.paramNames.size() ? setup_.paramNames[ord] : "param_" + std::to_string(ord);
      return "argument '" + name + "', which was not given (pass --arg " + name + "=VALUE)";
    }
    if (origin == kOriginMemory) return "values loaded from memory";
    return setup_.untracked;
  }
  template <class Isa>
  [[nodiscard]] Expected<void> resolve(Isa& isa, int block, int index, int origin, std::uint32_t unknown, std::uint32_t& taken,
                                       Flow flow);
  template <class Isa>
  [[nodiscard]] double takenShare(Isa& isa, int block, const BranchHint& h, Flow flow) const;
  /// isa.locate(i), made once per instruction (resolutions repeat in every loop iteration).
  template <class Isa>
  [[nodiscard]] const SourceLocation& location(Isa& isa, int i) {
    std::optional<SourceLocation>& l = locations_[static_cast<size_t>(i)];
    if (!l) l = isa.locate(i);
    return *l;
  }
  [[nodiscard]] Error unresolvedError() const;

  /// The state at one visit of a loop header (what folding compares and advances).
  template <class Registers>
  struct Snapshot {
    Registers regs;
    std::vector<std::int64_t> simt;
    long long dynamic = 0;
    size_t streamSize = 0, accessSize = 0, setpSize = 0;
    std::uint64_t nonAffine = 0;
    long long resolved = 0;
    std::vector<long long> blockExecutions;
    std::vector<std::map<int, long long>> edges;
    std::vector<std::array<long long, 5>> counts;  ///< executions, activeLanes, knownRequests, units, dataDependent
  };
  template <class Isa, class Registers>
  [[nodiscard]] bool tryFold(Isa& isa, int header, const std::vector<Snapshot<Registers>>& snaps);

  /// A branch no hint decided: one error lists them all, each with its fix.
  struct Unresolved {
    std::string where;
    std::string file;
    int line = 0;
    int origin = 0;
    bool loop = false;  ///< the line holds a loop's exit test
  };

  ExecutionSetup setup_;
  WarpTrace trace_;
  long long executed_ = 0;   ///< instructions executed one by one (not folded)
  long long resolved_ = 0;   ///< branch decisions and bound loads made on unknown data
  bool logging_ = false;
  std::vector<folding::Comparison> setpLog_;
  std::uint64_t nonAffine_ = 0;
  std::map<int, long long> stayCounts_;  ///< per branch: stays of a trip-hinted loop test
  std::vector<Unresolved> unresolved_;
  std::vector<std::optional<SourceLocation>> locations_;  ///< per instruction, once located
};

/// The share of the undecided lanes that take the compiled branch, leave at the exit, or run
/// the predicated instruction (`flow` kBranch, kExit, kOther) under `--branch …=P`, the
/// probability that the `if` on that line runs its body. The body is the branch's side that is
/// not the join point (the fall-through when neither or both are: nvcc lays the then-part out
/// after the branch); a jump body (`if (c) return;`) is the side that leaves the kernel (the
/// taken side when neither or both do), `continue`/`goto` the taken side; an exit skips a
/// statement body and is a `return` body; a predicated instruction is the body. Without an
/// `if` on the line, P is the share that takes the compiled branch (over a predicated body).
template <class Isa>
double WarpExecution::takenShare(Isa& isa, int block, const BranchHint& h, Flow flow) const {
  const double p = h.takenProbability;
  if (flow == Flow::kOther) return h.body == IfBody::kNone ? 1 - p : p;
  if (h.body == IfBody::kNone) return p;
  if (flow == Flow::kExit) return h.body == IfBody::kStatement ? 1 - p : p;
  const PtxCfg& cfg = *setup_.cfg;
  const PtxBlock& b = cfg.blocks[static_cast<size_t>(block)];
  const auto leaves = [&](int to) { return to >= 0 && isa.flow(cfg.blocks[static_cast<size_t>(to)].first) == Flow::kExit; };
  bool bodyTaken = true;
  if (h.body == IfBody::kReturn) {
    if (leaves(b.taken) != leaves(b.fallthrough)) bodyTaken = leaves(b.taken);
  } else if (h.body == IfBody::kStatement) {
    bodyTaken = b.taken != b.ipdom && b.fallthrough == b.ipdom;
  }
  return bodyTaken ? p : 1 - p;
}

template <class Isa>
Expected<void> WarpExecution::resolve(Isa& isa, int block, int index, int origin, std::uint32_t unknown, std::uint32_t& taken,
                                      Flow flow) {
  const PtxCfg& cfg = *setup_.cfg;
  ++resolved_;
  const SourceLocation& at = location(isa, index);
  if (at.library) {
    // Library code the user did not write and cannot hint: a loop is left after one pass, any
    // other branch falls through.
    if (defaultTaken(cfg, block)) taken |= unknown;
    hinted(index, "the default for library code (" + at.inlinedFrom + "): " +
                      (exitedLoop(cfg, block) ? "the loop is left" : "falls through"));
    return {};
  }
  for (const TripHint& h : *setup_.trips) {
    if (h.line != at.line || !endsWithPath(at.path, h.file)) continue;
    if (tripHintTakes(cfg, block, h.trips, stayCounts_[index])) taken |= unknown;
    hinted(index, "trip hint " + std::to_string(h.trips));
    return {};
  }
  if (const BranchHint* h = branchHintAt(*setup_.branches, at.path, at.line)) {
    if (exitedLoop(cfg, block)) {
      return makeError("kernel '" + setup_.kernelName + "': the branch at " + at.where +
                           " decides a loop; give its trip count with --trip " + at.where + "=N instead of --branch",
                       at.errorFile, at.line);
    }
    taken |= probabilityLanes(unknown, takenShare(isa, block, *h, flow));
    hinted(index, "probability " + std::to_string(h->takenProbability));
    return {};
  }
  if (at.skipsSlowPath) {
    // Around a library slow path, with no hint, on data the run does not track: the fast
    // path, as normal data takes it (the parser notes it).
    taken |= unknown;
    hinted(index, "the fast path around a library slow path");
    return {};
  }
  // No hint: remember it, so that one error lists every such branch of the warp's path with
  // the option that resolves it, and go on as library code does.
  if (std::none_of(unresolved_.begin(), unresolved_.end(), [&](const Unresolved& u) { return u.where == at.where; })) {
    const auto lineOf = [&](int k) {
      const SourceLocation& x = location(isa, k);
      return x.path == at.path ? x.line : -1;
    };
    unresolved_.push_back({at.where, at.errorFile, at.line, origin, lineTestsLoop(cfg, at.line, lineOf)});
  }
  if (defaultTaken(cfg, block)) taken |= unknown;
  return {};
}

inline Error WarpExecution::unresolvedError() const {
  const auto fix = [&](const Unresolved& u) {
    if (u.origin > 0) return originText(u.origin);
    return originText(u.origin) + "; give " +
           (u.loop ? "the loop's trip count with --trip " + u.where + "=N"
                   : "the probability that its `if` runs the body with --branch " + u.where + "=P");
  };
  const Unresolved& first = unresolved_.front();
  const std::string& kernel = setup_.kernelName;
  if (unresolved_.size() == 1) {
    return makeError("kernel '" + kernel + "': the branch at " + first.where + " depends on " + fix(first), first.file, first.line);
  }
  std::string message = "kernel '" + kernel + "': " + std::to_string(unresolved_.size()) +
                        " branches depend on data the launch does not give:";
  for (size_t k = 0; k < unresolved_.size(); ++k) {
    message += (k ? "; (" : " (") + std::to_string(k + 1) + ") the branch at " + unresolved_[k].where + " depends on " +
               fix(unresolved_[k]);
  }
  return makeError(std::move(message), first.file, first.line);
}

template <class Isa, class Registers>
bool WarpExecution::tryFold(Isa& isa, int header, const std::vector<Snapshot<Registers>>& snaps) {
  using folding::Int128;
  const Snapshot<Registers>&s0 = snaps[0], &s1 = snaps[1], &s2 = snaps[2], &s3 = snaps[3];
  if (s1.simt != s0.simt || s2.simt != s0.simt || s3.simt != s0.simt || s3.resolved != s0.resolved) return false;
  if (s1.nonAffine - s0.nonAffine != s2.nonAffine - s1.nonAffine || s2.nonAffine - s1.nonAffine != s3.nonAffine - s2.nonAffine) {
    return false;
  }
  Int128 repeats = folding::kNever;
  // Registers: the same known-ness, known ones advancing by constant steps.
  auto moves = isa.steps(s0.regs, s1.regs, s2.regs, s3.regs, repeats);
  if (!moves) return false;
  // Comparisons: the same ones in each iteration, operands advancing by constant steps; the
  // iterations before the first change of outcome repeat the last one.
  const size_t n1 = s1.setpSize - s0.setpSize, n2 = s2.setpSize - s1.setpSize, n3 = s3.setpSize - s2.setpSize;
  if (n1 != n2 || n2 != n3) return false;
  for (size_t k = 0; k < n3; ++k) {
    const folding::Comparison &c1 = setpLog_[s0.setpSize + k], &c2 = setpLog_[s1.setpSize + k], &c3 = setpLog_[s2.setpSize + k];
    if (c1.index != c3.index || c2.index != c3.index || c1.lane != c3.lane || c2.lane != c3.lane) return false;
    if (c2.a - c1.a != c3.a - c2.a || c2.b - c1.b != c3.b - c2.b) return false;
    repeats = std::min(repeats, folding::firstChange(c3, c3.a - c2.a, c3.b - c2.b) - 1);
  }
  if (repeats == folding::kNever || repeats < 1) return false;  // no affine exit test, or it is imminent
  // Folds inside the iterations: alike in the three (placed by stream, or by address records
  // when only they are kept).
  size_t innerBegin = 0, innerEnd = 0;
  {
    const size_t p[4] = {s0.streamSize, s1.streamSize, s2.streamSize, s3.streamSize};
    const size_t a[4] = {s0.accessSize, s1.accessSize, s2.accessSize, s3.accessSize};
    if (!folding::innerFoldsAlike(trace_.folds, p, a, innerBegin, innerEnd, !setup_.recordStream)) return false;
  }
  // Lane addresses: constant steps too, and addresses stay addresses (no repeat below 0).
  const size_t a1 = s1.accessSize - s0.accessSize, a2 = s2.accessSize - s1.accessSize, a3 = s3.accessSize - s2.accessSize;
  if (a1 != a2 || a2 != a3) return false;
  std::vector<std::vector<long long>> addressStep;
  for (size_t k = 0; k < a3; ++k) {
    const std::vector<long long>& x = trace_.accesses[s0.accessSize + k].lanes;
    const std::vector<long long>& y = trace_.accesses[s1.accessSize + k].lanes;
    const std::vector<long long>& z = trace_.accesses[s2.accessSize + k].lanes;
    if (x.size() != z.size() || y.size() != z.size()) return false;
    std::vector<long long> step(z.size(), 0);
    for (size_t lane = 0; lane < z.size(); ++lane) {
      if ((x[lane] < 0) != (z[lane] < 0) || (y[lane] < 0) != (z[lane] < 0)) return false;
      if (z[lane] < 0) continue;
      if (y[lane] - x[lane] != z[lane] - y[lane]) return false;
      step[lane] = z[lane] - y[lane];
      if (step[lane] < 0) repeats = std::min<Int128>(repeats, z[lane] / -step[lane]);
    }
    addressStep.push_back(std::move(step));
  }
  if (repeats < 1) return false;
  const long long f = static_cast<long long>(std::min<Int128>(repeats, setup_.maxInstructions));
  isa.advance(*moves, f);
  for (size_t b = 0; b < trace_.blockExecutions.size(); ++b) {
    trace_.blockExecutions[b] += f * (s3.blockExecutions[b] - s2.blockExecutions[b]);
    for (const auto& [to, count] : s3.edges[b]) {
      auto before = s2.edges[b].find(to);
      trace_.edges[b][to] += f * (count - (before == s2.edges[b].end() ? 0 : before->second));
    }
  }
  for (size_t i = 0; i < trace_.instructions.size(); ++i) {
    InstructionStats& x = trace_.instructions[i];
    x.executions += f * (s3.counts[i][0] - s2.counts[i][0]);
    x.activeLanes += f * (s3.counts[i][1] - s2.counts[i][1]);
    x.knownRequests += f * (s3.counts[i][2] - s2.counts[i][2]);
    x.units += f * (s3.counts[i][3] - s2.counts[i][3]);
    x.dataDependent += f * (s3.counts[i][4] - s2.counts[i][4]);
  }
  trace_.dynamicInstructions += f * (s3.dynamic - s2.dynamic);
  trace_.foldedIterations += f;
  if (recording()) {
    trace_.folds.push_back({header, s2.streamSize, s3.streamSize, s2.accessSize, s3.accessSize, f, std::move(addressStep),
                            innerBegin, innerEnd});
  }
  return true;
}

template <class Isa>
Expected<WarpTrace> WarpExecution::run(Isa& isa) {
  const PtxCfg& cfg = *setup_.cfg;
  if (setup_.valid == 0) return std::move(trace_);
  SimtStack simt(cfg, setup_.valid);
  int pc = 0;
  std::uint32_t m = 0;

  // Loop folding: tracks of the loop headers' visits.
  using Registers = decltype(isa.save());
  using Track = folding::HeaderTrack<Snapshot<Registers>>;
  std::vector<char> isHeader(cfg.blocks.size(), 0);
  for (const PtxLoop& l : cfg.loops) isHeader[static_cast<size_t>(l.header)] = setup_.foldLoops ? 1 : 0;
  std::map<int, Track> tracks;
  int armed = 0;               // tracks holding snapshots
  std::uint64_t pathHash = 0;  // rolling hash of the executed (instruction, lanes) sequence
  auto snapshot = [&](Snapshot<Registers>& snap) {
    snap.regs = isa.save();
    snap.simt = simt.state();
    snap.dynamic = trace_.dynamicInstructions;
    snap.streamSize = trace_.stream.size();
    snap.accessSize = trace_.accesses.size();
    snap.setpSize = setpLog_.size();
    snap.nonAffine = nonAffine_;
    snap.resolved = resolved_;
    snap.blockExecutions = trace_.blockExecutions;
    snap.edges = trace_.edges;
    snap.counts.resize(trace_.instructions.size());
    for (size_t i = 0; i < trace_.instructions.size(); ++i) {
      const InstructionStats& x = trace_.instructions[i];
      snap.counts[i] = {x.executions, x.activeLanes, x.knownRequests, x.units, x.dataDependent};
    }
  };
  auto visitHeader = [&](int header) {
    Track& t = tracks[header];
    folding::visitHeader(t, executed_, pathHash, armed, snapshot, [&] { return tryFold(isa, header, t.snaps); });
    logging_ = armed > 0;
    if (!logging_ && !setpLog_.empty()) setpLog_.clear();
  };

  while (simt.next(pc, m)) {
    const PtxBlock& blk = cfg.blocks[static_cast<size_t>(pc)];
    if (isHeader[static_cast<size_t>(pc)]) visitHeader(pc);
    ++trace_.blockExecutions[static_cast<size_t>(pc)];
    std::uint32_t exitNow = 0;
    std::uint32_t taken = 0;
    bool isBranch = false;
    for (int i = blk.first; i < blk.end; ++i) {
      const Flow flow = isa.flow(i);
      const GuardLanes guard = isa.guard(i, m);
      InstructionStats& s = trace_.instructions[static_cast<size_t>(i)];
      ++s.executions;
      s.activeLanes += std::popcount(m);
      ++trace_.dynamicInstructions;
      if (++executed_ > setup_.maxInstructions) {  // executed, not folded: folds terminate
        const SourceLocation& at = location(isa, i);
        return makeError("kernel '" + setup_.kernelName + "': one warp executes more than " +
                             std::to_string(setup_.maxInstructions) + " instructions (loop at " + at.where +
                             " may not terminate for this launch)",
                         at.errorFile, at.line);
      }
      std::uint32_t on = guard.on;
      std::uint32_t undecided = 0;
      std::uint32_t lanes = guard.on | guard.unknown;  // the lanes that execute it
      if (guard.unknown && flow == Flow::kOther) {
        // An if-converted body: the hint on its line is the probability P that the `if` runs
        // its body, so it runs in a share P of the undecided lanes (1 − P when no `if` starts on
        // the line: P is the compiled branch's, over the body); without a hint, in all of them.
        const SourceLocation& at = location(isa, i);
        if (const BranchHint* h = branchHintAt(*setup_.branches, at.path, at.line)) {
          on |= probabilityLanes(guard.unknown, takenShare(isa, pc, *h, flow));
          lanes = on;
          hinted(i, "probability " + std::to_string(h->takenProbability) + " (predicated body)");
        } else {
          undecided = guard.unknown;
        }
      }
      pathHash = pathHash * folding::kHashBase + (static_cast<std::uint64_t>(i) << 32 | lanes);
      if (setup_.recordStream) trace_.stream.emplace_back(i, lanes);
      if (flow == Flow::kBranch) {
        isBranch = true;
        taken = on;
        if (guard.unknown) {
          if (Expected<void> r = resolve(isa, pc, i, guard.origin, guard.unknown, taken, flow); !r) return std::move(r).takeError();
        }
        continue;
      }
      if (flow == Flow::kExit) {
        // A data-dependent exit is a branch to the kernel's end: resolved like one, never run in
        // every undecided lane.
        if (guard.unknown) {
          if (Expected<void> r = resolve(isa, pc, i, guard.origin, guard.unknown, on, flow); !r) return std::move(r).takeError();
        }
        exitNow |= on;
        continue;
      }
      if ((on | undecided) == 0) continue;
      if (Expected<void> r = isa.execute(i, on, undecided, guard.origin); !r) return std::move(r).takeError();
    }
    const SimtStack::Edges edges = simt.finish(exitNow, isBranch, taken);
    for (int k = 0; k < edges.count; ++k) ++trace_.edges[static_cast<size_t>(pc)][edges.to[k]];
  }
  if (!unresolved_.empty()) return unresolvedError();
  return std::move(trace_);
}

}  // namespace foresight::cuda
