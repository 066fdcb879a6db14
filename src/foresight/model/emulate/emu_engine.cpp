// SPDX-License-Identifier: Apache-2.0
/// \file
/// The emulation loop: an issue stage (per scheduler, policy order, readiness), an execute
/// stage (admission on units) and a barrier stage (block release), over PipelineUnit and
/// WarpScheduler state.
#include "foresight/model/emulate/emu_engine.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "foresight/model/emulate/units/pipeline_unit.h"
#include "foresight/model/emulate/units/warp_scheduler.h"

namespace foresight::emu {

namespace {

constexpr double kEps = 1e-9;

/// The smallest of `bounds[w]` over `warps`. Out of line so that the minimum stays in a
/// register: inlined into the engine's loop, GCC kept it on the stack (a store per warp).
[[gnu::noinline]] double leastBound(const std::vector<int>& warps, const double* bounds) {
  double least = kUnbounded;
  for (const int w : warps) least = std::min(least, bounds[w]);
  return least;
}

struct WarpState {
  const EmuOp* ops = nullptr;  // the warp's stream (EmuWarp::ops)
  size_t numOps = 0;
  int scheduler = 0;           // warp % schedulers
  size_t pos = 0;
  double depReady = 0;        // operands of the current op are ready
  double sameWarpUntil = 0;   // TEG: inactive until
  double barrierRelease = 0;  // released from the last barrier at
  bool atBarrier = false;
  bool done = false;
  int waitingFor = -1;  // block that must retire before this warp starts
  double maxFinish = 0;     // over its ops but posted writes (barriers and slots wait for these)
  double postedFinish = 0;  // over its posted writes (the SM's time waits for these too)
  std::vector<double> regReady;
  // With listeners only: the unit whose result each register waits on, the unit of the
  // current op's last operand, and the warp's previous issue (IssueEvent's wait).
  std::vector<int> regUnit;
  int depUnit = -1;
  double lastIssue = 0;
  // The current op's readiness, prepared when the warp reaches it (prepareReadiness): the
  // terms that stay fixed until it issues, and the bounded queues it waits on.
  double fixedReady = 0;
  StallReason fixedReason = StallReason::Dependency;
  int numQueues = 0;
  struct QueueTerm {
    const PipelineUnit* instance;
    double queuedCycles;  // maxQueued × gap: the queue's length in cycles
    int unit;
  };
  std::array<QueueTerm, 4> queues{};
};

struct BlockState {
  int live = 0;     // warps not done
  int arrived = 0;  // warps waiting at the barrier
  double arrivalMax = 0;
  double maxFinish = 0;  // over its warps' ops
  bool retired = false;
};

class Engine {
 public:
  Engine(const EmuProgram& p, const EmuMachine& m, const Perturbation& pert,
         std::span<EmuListener* const> listeners)
      : p_(p), m_(m), pert_(pert), listeners_(listeners) {}

  Expected<EmuResult> run() {
    if (Expected<void> ok = validate(); !ok) return ok.error();
    setup();
    EmuResult result;
    double t = 0;
    int done = 0;
    for (const WarpState& w : warps_) done += w.done ? 1 : 0;
    // A scheduler that found no ready warp sleeps until the earliest ready time it saw: ready
    // times only grow (dependences, queues) except when a barrier releases or a block retires,
    // which wakes every scheduler (wakeEpoch_). This skips rescans that cannot issue.
    std::vector<double> wakeAt(schedulers_.size(), 0);
    std::vector<long long> sleepEpoch(schedulers_.size(), -1);
    // Unless a listener reads stalls, a scan skips a warp whose last computed ready time is still
    // ahead: ready times only grow until the warp issues or a barrier release or block
    // retirement resets them (readyBound_), so the skipped warp cannot issue and the same warps
    // issue at the same times; a scheduler may only wake once more, early, to find nothing.
    // Stall listeners are told each stall's exact end, so with them every warp is computed.
    const bool bounded = std::none_of(listeners_.begin(), listeners_.end(), [](const EmuListener* l) { return l->needsStalls(); });
    while (done < static_cast<int>(warps_.size())) {
      double next = kUnbounded;
      for (size_t s = 0; s < schedulers_.size(); ++s) {
        WarpScheduler& sched = schedulers_[s];
        if (sched.nextIssue() > t + kEps) {
          next = std::min(next, sched.nextIssue());
          continue;
        }
        if (sleepEpoch[s] == wakeEpoch_ && wakeAt[s] > t + kEps) {
          next = std::min(next, wakeAt[s]);
          continue;
        }
        const Scan scan = bounded ? scanDue(sched, t + kEps) : scanAll(sched, t + kEps);
        if (scan.picked >= 0) {
          const double gap = issueGapFor(scan.picked);
          sched.issued(scan.picked, t, gap);
          if (issue(scan.picked, static_cast<int>(s), t)) ++done;
          ++result.issued;
          next = std::min(next, sched.nextIssue());
        } else {
          if (scan.earliest < kUnbounded) {
            if (!bounded) {
              for (EmuListener* l : listeners_) l->onStall({static_cast<int>(s), scan.reason, scan.unit, t, scan.earliest});
            }
            next = std::min(next, scan.earliest);
          }
          wakeAt[s] = scan.earliest;
          sleepEpoch[s] = wakeEpoch_;
        }
      }
      if (done >= static_cast<int>(warps_.size())) break;
      if (next == kUnbounded) return makeError("emulation deadlock: every warp waits at a barrier that cannot release");
      t = std::max(t, next);  // fix 1: the clock never runs backwards
    }
    double cycles = 0;
    for (const WarpState& w : warps_) cycles = std::max({cycles, w.maxFinish, w.postedFinish});  // fix 2
    result.cycles = cycles;
    for (EmuListener* l : listeners_) l->onEnd(cycles);
    return result;
  }

 private:
  /// One scheduler's scan at one step: the warp it issues (-1: none), else when it may next.
  struct Scan {
    int picked = -1;
    double earliest = kUnbounded;  ///< smallest ready time (bound) when none issues
    StallReason reason = StallReason::Dependency;
    int unit = -1;
  };

  /// Without stall listeners: only warps whose bound is due are computed; when none issues, the
  /// scheduler sleeps until the smallest bound, i.e. the smallest of the skipped bounds and of
  /// the ready times just computed (taken in a second, short pass in a register).
  Scan scanDue(const WarpScheduler& sched, double due) {
    Scan scan;
    scan.picked = sched.select([&](int w) {
      double& bound = readyBound_[static_cast<size_t>(w)];
      if (bound > due) return false;
      StallReason r = StallReason::Dependency;
      int u = -1;
      bound = readyTime(w, r, u);
      return bound <= due;
    });
    if (scan.picked < 0) scan.earliest = leastBound(sched.warps(), readyBound_.data());
    return scan;
  }

  /// With a stall listener: every warp's ready time is computed, and a stall's reason is the
  /// earliest warp's.
  Scan scanAll(const WarpScheduler& sched, double due) {
    Scan scan;
    double earliest = kUnbounded;
    scan.picked = sched.select([&](int w) {
      StallReason r = StallReason::Dependency;
      int u = -1;
      const double ready = readyTime(w, r, u);
      readyBound_[static_cast<size_t>(w)] = ready;
      if (ready <= due) return true;
      if (ready < earliest) {
        earliest = ready;
        scan.reason = r;
        scan.unit = u;
      }
      return false;
    });
    scan.earliest = earliest;
    return scan;
  }

  Expected<void> validate() const {
    if (m_.schedulers < 1) return makeError("the emulated SM needs at least one scheduler");
    if (!(m_.issueGap >= 0)) return makeError("the issue gap must not be negative");
    if (!(m_.blockOverhead >= 0)) return makeError("the block overhead must not be negative");
    for (const UnitSpec& u : m_.units) {
      if (!(u.latency >= 0) || !(u.gap >= 0)) return makeError("unit '" + u.name + "' has a negative latency or gap");
    }
    for (const EmuInstr& in : p_.instrs) {
      for (int r : in.src) if (r < 0 || r >= p_.numRegisters) return makeError("register out of range");
      for (int r : in.dst) if (r < 0 || r >= p_.numRegisters) return makeError("register out of range");
      if (in.region < 0 || in.region >= static_cast<int>(p_.regions.size())) return makeError("region out of range");
    }
    for (const EmuWarp& w : p_.warps) {
      for (const EmuOp& op : w.ops) {
        if (op.instr < 0 || op.instr >= static_cast<int>(p_.instrs.size())) return makeError("instruction out of range");
        if (op.numUses < 0 || op.numUses > static_cast<int>(op.uses.size())) return makeError("bad use count");
        for (int i = 0; i < op.numUses; ++i) {
          if (op.uses[i].unit < 0 || op.uses[i].unit >= static_cast<int>(m_.units.size())) {
            return makeError("op uses unit " + std::to_string(op.uses[i].unit) + ", which the machine lacks");
          }
        }
      }
    }
    return {};
  }

  void setup() {
    const int nUnits = static_cast<int>(m_.units.size());
    instances_.clear();
    instances_.resize(static_cast<size_t>(nUnits) * m_.schedulers);
    for (int s = 0; s < m_.schedulers; ++s) schedulers_.emplace_back(m_.policy);
    units_.resize(static_cast<size_t>(nUnits));
    for (int u = 0; u < nUnits; ++u) {
      const UnitSpec& spec = m_.units[u];
      UnitRun& r = units_[static_cast<size_t>(u)];
      r.regional = pert_.unit == u && pert_.region >= 0;
      r.latency = spec.latency * factor(u, false, -1);
      r.gap = spec.gap * factor(u, true, -1);
      r.perScheduler = spec.scope == UnitScope::Scheduler;
      r.maxQueued = spec.maxQueued;
    }
    warps_.assign(p_.warps.size(), WarpState{});
    readyBound_.assign(p_.warps.size(), -kUnbounded);
    int maxBlock = 0;
    for (const EmuWarp& w : p_.warps) maxBlock = std::max(maxBlock, w.block);
    blocks_.assign(static_cast<size_t>(maxBlock) + 1, BlockState{});
    for (size_t i = 0; i < p_.warps.size(); ++i) {
      warps_[i].ops = p_.warps[i].ops.data();
      warps_[i].numOps = p_.warps[i].ops.size();
      warps_[i].scheduler = static_cast<int>(i % static_cast<size_t>(m_.schedulers));
      warps_[i].regReady.assign(static_cast<size_t>(p_.numRegisters), 0.0);
      if (!listeners_.empty()) warps_[i].regUnit.assign(static_cast<size_t>(p_.numRegisters), -1);
      warps_[i].waitingFor = p_.warps[i].after;
      if (p_.warps[i].ops.empty()) {
        warps_[i].done = true;
      } else {
        ++blocks_[p_.warps[i].block].live;
        if (warps_[i].waitingFor < 0) schedulerOf(static_cast<int>(i)).addWarp(static_cast<int>(i));
      }
    }
    for (size_t i = 0; i < warps_.size(); ++i) {
      if (!warps_[i].done) prepareReadiness(static_cast<int>(i));
    }
    for (size_t b = 0; b < blocks_.size(); ++b) {
      if (blocks_[b].live == 0) retire(static_cast<int>(b));
    }
  }

  [[nodiscard]] double factor(int unit, bool gap, int region) const {
    if (pert_.unit != unit || pert_.gap != gap) return 1.0;
    if (pert_.region >= 0 && pert_.region != region) return 1.0;
    return pert_.factor;
  }
  // A unit's latency and gap for an op of `region`: from the run's table (the perturbation
  // applied when it covers every region), through factor() only for a perturbed unit of a
  // region drill-down.
  [[nodiscard]] double latencyOf(int unit, int region) const {
    const UnitRun& u = units_[static_cast<size_t>(unit)];
    return u.regional ? m_.units[unit].latency * factor(unit, false, region) : u.latency;
  }
  [[nodiscard]] double gapOf(int unit, int region) const {
    const UnitRun& u = units_[static_cast<size_t>(unit)];
    return u.regional ? m_.units[unit].gap * factor(unit, true, region) : u.gap;
  }
  [[nodiscard]] double issueGapFor(int warp) const {
    const WarpState& ws = warps_[warp];
    return m_.issueGap * factor(kIssueUnit, true, p_.instrs[ws.ops[ws.pos].instr].region);
  }

  /// The scheduler that issues warp `warp` (warps are dealt round robin).
  WarpScheduler& schedulerOf(int warp) { return schedulers_[static_cast<size_t>(warps_[warp].scheduler)]; }

  PipelineUnit& instance(int unit, int warp) {
    const int s = units_[static_cast<size_t>(unit)].perScheduler ? warps_[warp].scheduler : 0;
    return instances_[static_cast<size_t>(unit) * m_.schedulers + s];
  }

  /// Prepares warp `w`'s readiness for its current op: the terms fixed until it issues
  /// (operands, barrier release, same-warp latency) and the bounded queues of its units.
  /// Called when the warp reaches an op and whenever one of those terms changes.
  void prepareReadiness(int w) {
    WarpState& ws = warps_[w];
    double ready = ws.depReady;
    StallReason reason = StallReason::Dependency;
    if (ws.barrierRelease > ready) {
      ready = ws.barrierRelease;
      reason = StallReason::Barrier;
    }
    if (ws.sameWarpUntil > ready) {
      ready = ws.sameWarpUntil;
      reason = StallReason::SameWarp;
    }
    ws.fixedReady = ready;
    ws.fixedReason = reason;
    ws.numQueues = 0;
    const EmuOp& op = ws.ops[ws.pos];
    const int region = p_.instrs[op.instr].region;
    for (int i = 0; i < op.numUses; ++i) {
      const int u = op.uses[i].unit;
      const double gap = gapOf(u, region);
      const double maxQueued = units_[static_cast<size_t>(u)].maxQueued;
      if (maxQueued == kUnbounded || gap <= 0) continue;  // an unbounded queue never holds issue back
      ws.queues[static_cast<size_t>(ws.numQueues++)] = {&instance(u, w), maxQueued * gap, u};
    }
  }

  /// Earliest cycle warp `w` may issue its current op (+inf when done or at a barrier).
  double readyTime(int w, StallReason& reason, int& unit) const {
    const WarpState& ws = warps_[w];
    if (ws.done || ws.atBarrier || ws.waitingFor >= 0) {
      reason = StallReason::Barrier;
      return kUnbounded;
    }
    double ready = ws.fixedReady;
    reason = ws.fixedReason;
    for (int i = 0; i < ws.numQueues; ++i) {
      const WarpState::QueueTerm& term = ws.queues[static_cast<size_t>(i)];
      const double q = term.instance->queueReady(term.queuedCycles);
      if (q > ready) {
        ready = q;
        reason = StallReason::Queue;
        unit = term.unit;
      }
    }
    return ready;
  }

  /// Issues warp w's current op at t; returns true when the warp finished its stream.
  bool issue(int w, int scheduler, double t) {
    WarpState& ws = warps_[w];
    const EmuOp& op = ws.ops[ws.pos];
    const EmuInstr& in = p_.instrs[op.instr];
    readyBound_[static_cast<size_t>(w)] = -kUnbounded;
    IssueEvent ev;
    ev.warp = w;
    ev.scheduler = scheduler;
    ev.opIndex = static_cast<int>(ws.pos);
    ev.instr = op.instr;
    ev.region = in.region;
    ev.cycle = t;
    const bool tracking = !listeners_.empty();
    if (tracking) {
      int unit = -1;
      ev.ready = std::min(t, readyTime(w, ev.waitReason, unit));
      ev.waitUnit = ev.waitReason == StallReason::Queue ? unit : ev.waitReason == StallReason::Dependency ? ws.depUnit : -1;
      ev.waitFrom = std::min(ws.lastIssue, ev.ready);
      ws.lastIssue = t;
    }
    double finish = t;
    int finishUnit = -1;
    double sameWarp = 0;
    for (int i = 0; i < op.numUses; ++i) {
      const int u = op.uses[i].unit;
      const UnitAdmission a = instance(u, w).admit(u, t, op.uses[i].count, latencyOf(u, in.region), gapOf(u, in.region));
      if (a.done > finish) finishUnit = u;
      finish = std::max(finish, a.done);
      sameWarp = std::max(sameWarp, m_.units[u].sameWarpIssue * factor(u, false, in.region));
      if (tracking) ev.admissions.push_back(a);
    }
    // The compiler's stall count (SASS control bits) holds the warp's next issue back; it
    // encodes the latency of the instruction's pipeline, so it scales with that latency.
    if (in.issueStall > 0 && op.numUses > 0) sameWarp = std::max(sameWarp, in.issueStall * factor(op.uses[0].unit, false, in.region));
    ev.finish = finish;
    for (int r : in.dst) ws.regReady[r] = finish;
    if (tracking) {
      for (int r : in.dst) ws.regUnit[r] = finishUnit;
    }
    const bool posted = p_.instrs[op.instr].posted;
    double& lastFinish = posted ? ws.postedFinish : ws.maxFinish;
    lastFinish = std::max(lastFinish, finish);
    ws.sameWarpUntil = t + sameWarp;
    for (EmuListener* l : listeners_) l->onIssue(ev);
    ++ws.pos;
    const bool finished = ws.pos >= ws.numOps;
    BlockState& block = blocks_[p_.warps[w].block];
    if (in.barrier) {
      // Barrier stage: the warp waits until every live warp of its block arrived and all their
      // earlier instructions finished (saake.md §5.4).
      ws.atBarrier = !finished;
      block.arrivalMax = std::max({block.arrivalMax, ws.maxFinish, t + m_.issueGap});
      if (!finished) ++block.arrived;
    }
    if (!posted) block.maxFinish = std::max(block.maxFinish, finish);
    if (finished) {
      ws.done = true;
      schedulerOf(w).removeWarp(w);
      if (--block.live == 0) retire(p_.warps[w].block);
    } else {
      const EmuOp& next = ws.ops[ws.pos];
      double dep = 0;
      int depUnit = -1;
      for (int r : p_.instrs[next.instr].src) {
        if (ws.regReady[r] > dep) {
          dep = ws.regReady[r];
          if (tracking) depUnit = ws.regUnit[r];
        }
      }
      ws.depReady = dep;
      ws.depUnit = depUnit;
      prepareReadiness(w);
    }
    if (block.arrived > 0 && block.arrived >= block.live) releaseBarrier(p_.warps[w].block);
    return finished;
  }

  /// The block's last op finished: warps of blocks waiting for its slot start then.
  void retire(int b) {
    BlockState& block = blocks_[b];
    block.retired = true;
    ++wakeEpoch_;
    for (size_t i = 0; i < warps_.size(); ++i) {
      if (warps_[i].waitingFor != b) continue;
      warps_[i].waitingFor = -1;
      const double start = block.maxFinish + m_.blockOverhead * factor(kBlockUnit, false, -1);
      warps_[i].depReady = std::max(warps_[i].depReady, start);
      warps_[i].lastIssue = std::max(warps_[i].lastIssue, start);  // the warp starts then
      readyBound_[i] = -kUnbounded;
      if (!warps_[i].done) prepareReadiness(static_cast<int>(i));
      if (!warps_[i].done) schedulerOf(static_cast<int>(i)).addWarp(static_cast<int>(i));
    }
  }

  void releaseBarrier(int b) {
    BlockState& block = blocks_[b];
    const double release = block.arrivalMax;
    for (size_t i = 0; i < warps_.size(); ++i) {
      if (p_.warps[i].block != b || !warps_[i].atBarrier) continue;
      warps_[i].atBarrier = false;
      warps_[i].barrierRelease = release;
      readyBound_[i] = -kUnbounded;
      prepareReadiness(static_cast<int>(i));
    }
    block.arrived = 0;
    block.arrivalMax = 0;
    ++wakeEpoch_;
    for (EmuListener* l : listeners_) l->onBarrier({b, release});
  }

  const EmuProgram& p_;
  const EmuMachine& m_;
  const Perturbation& pert_;
  std::span<EmuListener* const> listeners_;
  /// Per unit, what this run uses on every admission and readiness check.
  struct UnitRun {
    double latency = 0, gap = 0;  ///< with the perturbation when it covers every region
    double maxQueued = kUnbounded;
    bool regional = false;        ///< perturbed for one region only: latencyOf/gapOf ask factor()
    bool perScheduler = true;     ///< UnitScope::Scheduler: one instance per scheduler
  };
  std::vector<UnitRun> units_;
  std::vector<PipelineUnit> instances_;
  std::vector<WarpScheduler> schedulers_;
  std::vector<WarpState> warps_;
  std::vector<BlockState> blocks_;
  long long wakeEpoch_ = 0;  ///< barrier releases and block retirements so far
  std::vector<double> readyBound_;  ///< per warp: a lower bound of its ready time (-inf: compute)
};

}  // namespace

Expected<EmuResult> runEmulation(const EmuProgram& program, const EmuMachine& machine,
                                 const Perturbation& perturbation,
                                 std::span<EmuListener* const> listeners) {
  Engine engine(program, machine, perturbation, listeners);
  return engine.run();
}

}  // namespace foresight::emu
