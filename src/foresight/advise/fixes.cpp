// SPDX-License-Identifier: Apache-2.0
/// \file
/// Ranked fixes (fixes.h): what-if switches turned into code changes with source lines.
#include "foresight/advise/fixes.h"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cmath>
#include <iterator>
#include <map>
#include <tuple>
#include <utility>

#include "foresight/advise/roofline.h"
#include "foresight/gpu/occupancy.h"
#include "foresight/memory/hierarchy.h"
#include "foresight/model/emulate/emulate_model.h"
#include "foresight/model/floors.h"
#include "foresight/model/predict.h"
#include "foresight/support/parallel.h"

namespace foresight {

namespace {

const WhatIfResult* findSwitch(const FixInputs& in, const char* name) {
  for (const WhatIfResult& w : in.whatIf) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

/// What a what-if switch means as a code change.
struct FixText {
  const char* whatIf;  ///< the switch whose speedup the fix takes
  const char* kind;
  const char* change;
  const char* why;     ///< empty: the caller writes it from the numbers
};

constexpr FixText kSharedConflicts{
    "conflict-free-shared", "shared-bank-conflicts",
    "pad each row of the shared array by one element (tile[32][33]) or index it so that the 32 lanes of a warp "
    "fall in 32 different banks",
    "shared-memory accesses take more bank wavefronts per request than their width needs"};
constexpr FixText kCoalescing{
    "perfect-coalescing", "coalescing",
    "make consecutive threads (threadIdx.x) touch consecutive addresses: swap the index roles, or stage the "
    "access through a shared-memory tile",
    "global accesses fetch more sectors, or pass through L1 more times, per warp request than the bytes they "
    "use need"};
constexpr FixText kRegisterBanks{
    "conflict-free-registers", "register-banks",
    "choose a register tile whose FFMA operands fall in different register banks (another tile shape or unroll "
    "order)",
    "FFMA instructions read two or more source registers from one bank and wait for the extra reads"};
constexpr FixText kSharedOccupancy{"full-occupancy", "occupancy", "", ""};
constexpr FixText kAddressArithmetic{
    "no-address-arithmetic", "address-arithmetic",
    "compute addresses once: advance pointers instead of recomputing indices, hoist invariant index arithmetic "
    "out of loops, or unroll",
    "integer instructions that only feed addresses take issue slots from the work"};
constexpr FixText kReuseL1{"all-l1-hits", "on-chip-reuse",
                           "keep reused data on chip: tile it through shared memory (or use larger tiles), or "
                           "reorder the loops so that a block re-reads what it read last",
                           ""};
constexpr FixText kReuseL2{"all-l2-hits", kReuseL1.kind, kReuseL1.change, ""};
constexpr FixText kMemoryTraffic{
    "infinite-bandwidth", "memory-traffic",
    "move fewer bytes: narrower types, fusing with the kernel that produces or consumes the data, or keeping "
    "reused data on chip",
    "the memory levels' bandwidth sets the time; this is the most that less traffic can bring"};

/// The fix `t` describes, when its switch saves at least kFixThreshold.
std::optional<Fix> fromSwitch(const FixInputs& in, const FixText& t) {
  const WhatIfResult* w = findSwitch(in, t.whatIf);
  if (!w || w->cycles <= 0 || w->speedup < kFixThreshold) return std::nullopt;
  Fix f;
  f.kind = t.kind;
  f.change = t.change;
  f.why = t.why;
  f.basis = std::string("what-if ") + t.whatIf;
  f.cyclesBefore = in.baseCycles;
  f.cyclesAfter = w->cycles;
  f.speedup = w->speedup;
  for (const WhatIfResult& own : in.timingWhatIf) {
    if (own.name == t.whatIf && own.cycles > 0) f.modelSpeedup = own.speedup;
  }
  return f;
}

/// The reported timing model's speedup for `kernel` launched as `launch`, when explain reports
/// a model other than emulate. The changes predicted so (a register cap, another launch) change
/// which blocks run together, so the model's prediction computes its own memory traffic.
Expected<std::optional<double>> modelSpeedupOf(const FixInputs& in, const KernelInput& kernel, const Launch& launch) {
  if (!in.timing || in.timingCycles <= 0) return std::optional<double>();
  ModelOptions model = *in.timing;
  model.emulate.memory.reset();
  Expected<Prediction> p = predict(kernel, launch, *in.gpu, model);
  if (!p) return std::move(p).takeError();
  if (p->cycles <= 0) return std::optional<double>();
  return std::optional<double>(in.timingCycles / p->cycles);
}

/// The emulated cycles of `kernel` launched as `launch`, raised to its physical floors as the
/// base time is (FixInputs::baseCycles), and the launch's compulsory bytes and global requests.
struct Emulated {
  double cycles = 0;
  double compulsoryBytes = 0;
  double requests = 0;  ///< global and local warp requests (loads and stores), 0 = unknown

  /// The same work as the launch whose traffic is `m`: the same distinct bytes and as many
  /// warp requests, each within 1 % (a changed launch or -D value that computes other elements,
  /// or fewer of them, differs in one or the other).
  [[nodiscard]] bool sameWork(const MemoryTraffic& m) const {
    const auto near = [](double a, double b) { return std::abs(a - b) <= 0.01 * std::max({a, b, 1.0}); };
    return near(compulsoryBytes, m.compulsoryBytes()) && near(requests, m.loadRequests + m.storeRequests);
  }
};
Expected<Emulated> emulateLaunch(const FixInputs& in, const KernelInput& kernel, const Launch& launch,
                                 const EmulateOptions& options) {
  Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(kernel, launch, *in.gpu, options);
  if (!e) return std::move(e).takeError();
  Expected<emu::KernelTiming> t = e->run();
  if (!t) return std::move(t).takeError();
  Expected<PhysicalFloors> floors = launchFloors(kernel, launch, *in.gpu, e->builder().memory());
  if (!floors) return std::move(floors).takeError();
  const MemoryTraffic* m = e->builder().memory();
  return Emulated{std::max(t->cycles, floors->largest().second * in.gpu->clockGhz.value * 1e9),
                  floors->compulsoryBytes, m ? m->loadRequests + m->storeRequests : 0};
}

/// A fix measured on a changed kernel or launch that emulates in `cycles`: those against the
/// base, and the reported model's speedup of the same change; nullopt when it saves less than
/// kFixThreshold. The caller says what the change is and why.
Expected<std::optional<Fix>> measuredFix(const FixInputs& in, const char* kind, const KernelInput& kernel,
                                         const Launch& launch, double cycles) {
  if (cycles <= 0 || in.baseCycles / cycles < kFixThreshold) return std::optional<Fix>();
  Expected<std::optional<double>> own = modelSpeedupOf(in, kernel, launch);
  if (!own) return std::move(own).takeError();
  Fix f;
  f.kind = kind;
  f.cyclesBefore = in.baseCycles;
  f.cyclesAfter = cycles;
  f.speedup = in.baseCycles / cycles;
  f.modelSpeedup = *own;
  return std::optional<Fix>(std::move(f));
}

/// A trial's fix when it saves at least kFixThreshold against the base (FixInputs::baseCycles),
/// with the reported model's speedup of the same change.
Expected<std::optional<Fix>> judgeTrial(const FixInputs& in, FixTrial trial) {
  Expected<std::optional<Fix>> measured =
      measuredFix(in, trial.fix.kind.c_str(), trial.kernel, trial.launch, trial.fix.cyclesAfter);
  if (!measured || !*measured) return measured;
  Fix& f = **measured;
  f.change = std::move(trial.fix.change);
  f.why = std::move(trial.fix.why);
  f.lines = std::move(trial.fix.lines);
  f.basis = std::move(trial.fix.basis);
  return measured;
}

/// A change of the input tried for a fix: the kernel the input then gives, and its emulation.
struct Tried {
  InputChange change;
  KernelInput kernel;
  Emulated emulated;
};

/// The fastest of `changes` that does the same work as the launch (Emulated::sameWork); a change
/// the input refuses (it does not compile or launch so) or the emulation cannot run (shared
/// memory, registers) is no fix.
std::optional<Tried> fastestSameWork(const FixInputs& in, const std::vector<InputChange>& changes) {
  // Each change is rebuilt and emulated on its own (side by side); the first fastest wins.
  std::vector<std::optional<Tried>> tried(changes.size());
  parallelFor(changes.size(), [&](size_t c) {
    Expected<KernelInput> k = in.input.rebuild(changes[c]);
    if (!k) return;
    Expected<Emulated> e = emulateLaunch(in, *k, changes[c].launch, in.emulate);
    if (!e || e->cycles <= 0 || !e->sameWork(*in.memory)) return;
    tried[c] = Tried{changes[c], std::move(*k), *e};
  });
  std::optional<Tried> best;
  for (std::optional<Tried>& t : tried) {
    if (t && (!best || t->emulated.cycles < best->emulated.cycles)) best = std::move(t);
  }
  return best;
}

/// Lines ordered by weight (largest first), each with the detail of its heaviest instruction.
class LineTally {
 public:
  void add(const Instruction& in, double weight, std::string detail) {
    if (in.sourceLine <= 0 || weight <= 0) return;
    Entry& e = lines_[{in.sourceFile, in.sourceLine}];
    e.weight += weight;
    if (weight > e.heaviest) {
      e.heaviest = weight;
      e.detail = std::move(detail);
    }
  }
  [[nodiscard]] std::vector<FixLine> worstFirst(size_t most = 5) const {
    std::vector<std::pair<double, FixLine>> all;
    for (const auto& [where, e] : lines_)
      all.push_back({e.weight, FixLine{where.first, where.second, e.detail}});
    std::stable_sort(all.begin(), all.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<FixLine> out;
    for (size_t i = 0; i < all.size() && i < most; ++i) out.push_back(all[i].second);
    return out;
  }

 private:
  struct Entry {
    double weight = 0, heaviest = 0;
    std::string detail;
  };
  std::map<std::pair<std::string, int>, Entry> lines_;
};

/// Shared accesses that take more bank wavefronts per request than a full warp of their width
/// needs (one per `banks x bank width` bytes: 1 for 4-B words, 4 for 16-B ones on 32 banks of
/// 4 B), weighted by the extra wavefronts a warp issues.
std::vector<FixLine> conflictedSharedLines(const KernelIR& ir, const Gpu& gpu) {
  LineTally tally;
  for (const BasicBlock& b : ir.blocks) {
    for (const Instruction& in : b.instructions) {
      if (!in.memory || in.memory->space != MemorySpace::Shared) continue;
      const double w = in.memory->wavefrontsPerInst;
      const double ideal = conflictFreeSharedWavefronts(gpu, in.memory->widthBytes);
      if (w <= 1.05 * ideal) continue;
      tally.add(in, (w - ideal) * b.executionsPerWarp,
                fmt::format("{} {:.3g} wavefronts per request ({:.0f} without conflicts)",
                            in.memory->isStore ? "stores:" : "loads:", w, ideal));
    }
  }
  return tally.worstFirst();
}

/// Global accesses that take more than their width needs: more sectors per request than a full
/// warp's bytes fill, or more L1 wavefronts (passes) per request than the lines those bytes span
/// — the two costs the perfect-coalescing what-if removes.
std::vector<FixLine> uncoalescedLines(const KernelIR& ir, const MemoryTraffic& m,
                                      double sectorsPerLine) {
  LineTally tally;
  for (const SiteTraffic& s : m.sites) {
    const Instruction* in = siteInstruction(ir, s);
    if (!in || !in->memory || s.requests <= 0) continue;
    const double ideal = idealSectorsPerRequest(in->memory->widthBytes, m.sectorBytes);
    const double idealLines = std::max(1.0, std::ceil(ideal / sectorsPerLine));
    const double perRequest = s.sectors / s.requests;
    const double passesPerRequest = s.wavefronts > 0 ? s.wavefronts / s.requests : 0;
    const char* what = in->memory->isStore ? "stores:" : "loads:";
    if (perRequest > 1.25 * ideal) {
      tally.add(
          *in, s.sectors - ideal * s.requests,
          fmt::format("{} {:.3g} sectors per request, {:.0f} at best", what, perRequest, ideal));
    } else if (passesPerRequest > 1.25 * idealLines) {
      tally.add(*in, (passesPerRequest - idealLines) * sectorsPerLine * s.requests,
                fmt::format("{} {:.3g} L1 wavefronts per request, {:.0f} at best", what, passesPerRequest,
                            idealLines));
    }
  }
  return tally.worstFirst();
}

/// Loads most served from beyond the SM (L2 or DRAM sectors).
std::vector<FixLine> offChipLoadLines(const KernelIR& ir, const MemoryTraffic& m) {
  LineTally tally;
  for (const SiteTraffic& s : m.sites) {
    const Instruction* in = siteInstruction(ir, s);
    if (!in || !in->memory || in->memory->isStore || s.sectors <= 0) continue;
    const double off = s.sectors - s.l1Hits;
    if (off <= 0) continue;
    tally.add(*in, off,
              fmt::format("{:.0f}% of its sectors come from L2 or DRAM", 100 * off / s.sectors));
  }
  return tally.worstFirst(3);
}

/// Register-limited occupancy: the largest per-thread cap (a multiple of 8) that fits the most
/// blocks the other limits allow, emulated with that cap.
Expected<std::optional<Fix>> registerCap(const FixInputs& in, const Occupancy& now) {
  const int registers = in.kernel->ir.resources.registers;
  const int others =
      std::min({now.limitByWarps, now.limitBySharedMemory, now.limitByBlocks, now.limitByThreads});
  int cap = 0, capBlocks = now.blocksPerSm;
  for (int r = (registers - 1) / 8 * 8; r >= 16; r -= 8) {
    BlockResources block = blockResources(in.kernel->ir.resources, in.launch);
    block.registersPerThread = r;
    Expected<Occupancy> o = computeOccupancy(*in.gpu, block);
    if (!o) continue;
    if (o->blocksPerSm > capBlocks) {
      cap = r;
      capBlocks = o->blocksPerSm;
    }
    if (capBlocks >= others) break;
  }
  if (cap == 0) return std::optional<Fix>();
  KernelInput capped = *in.kernel;
  capped.ir.resources.registers = cap;
  Expected<Emulated> t = emulateLaunch(in, capped, in.launch, in.emulate);
  if (!t) return std::move(t).takeError();
  Expected<std::optional<Fix>> measured = measuredFix(in, "occupancy", capped, in.launch, t->cycles);
  if (!measured || !*measured) return measured;
  Fix& f = **measured;
  f.change = fmt::format(
      "cap the registers at {} per thread (__launch_bounds__({}, {}) or --maxrregcount {})", cap,
      in.launch.threadsPerBlock(), capBlocks, cap);
  f.why = fmt::format(
      "{} registers per thread let {} blocks of {} threads share an SM; {} fit {} (spills the cap may "
      "cause are not predicted)",
      registers, now.blocksPerSm, in.launch.threadsPerBlock(), cap, capBlocks);
  f.basis = fmt::format("emulated with {} registers per thread", cap);
  return measured;
}

/// Block sizes worth trying for a launch whose occupancy is below the most its resources allow:
/// the smallest reaching that most, 256 and the largest power of two reaching it (at most
/// three, the current size left out).
std::vector<long long> blockSizeCandidates(const std::vector<OccupancyPoint>& points, long long current,
                                           double now) {
  double best = now;
  for (const OccupancyPoint& p : points) best = std::max(best, p.fraction);
  std::vector<long long> out;
  if (best <= now + 1e-9) return out;
  const auto add = [&](long long threads) {
    if (threads != current && std::find(out.begin(), out.end(), threads) == out.end()) out.push_back(threads);
  };
  long long largestPow2 = 0;
  for (const OccupancyPoint& p : points) {
    if (p.fraction < best - 1e-9) continue;
    if (out.empty()) add(p.threads);
    if (p.threads == 256) add(256);
    if ((p.threads & (p.threads - 1)) == 0) largestPow2 = p.threads;
  }
  if (largestPow2) add(largestPow2);
  return out;
}

/// Another 1-D block size with more resident warps, the grid scaled to keep the launch's
/// threads, re-read from the input and emulated; the fastest that does the same work.
Expected<std::optional<FixTrial>> launchShape(const FixInputs& in, const Occupancy& now) {
  const Launch& launch = in.launch;
  const KernelIR& ir = in.kernel->ir;
  // A 2-D or 3-D block changes shape, not size, and shared memory is usually sized by the block:
  // neither is a change the kernel as written is known to accept.
  if (!in.input.rebuild || !in.memory || launch.block.y != 1 || launch.block.z != 1 ||
      ir.resources.staticSharedBytes > 0 || launch.dynamicSharedBytes > 0) {
    return std::optional<FixTrial>();
  }
  const long long threads = launch.grid.x * launch.block.x;
  std::vector<InputChange> changes;
  for (long long size : blockSizeCandidates(occupancyByBlockSize(*in.kernel, launch, *in.gpu), launch.block.x,
                                            now.fraction)) {
    Launch l = launch;
    l.block.x = size;
    l.grid.x = (threads + size - 1) / size;
    changes.push_back({l, {}, {}});
  }
  // The same work: the kernel indexes by blockDim (a kernel built for one block size would
  // touch other bytes, or fewer).
  std::optional<Tried> best = fastestSameWork(in, changes);
  if (!best) return std::optional<FixTrial>();
  const Launch l = best->change.launch;
  Expected<Occupancy> then = computeOccupancy(*in.gpu, blockResources(best->kernel.ir.resources, l));
  if (!then) return std::move(then).takeError();
  FixTrial trial{Fix{}, std::move(best->kernel), l};
  Fix& f = trial.fix;
  f.kind = "launch-shape";
  f.cyclesAfter = best->emulated.cycles;
  f.change = fmt::format("launch blocks of {} threads: <<<{}, {}>>> (--grid {} --block {}), the same {} threads",
                         l.block.x, l.grid.x, l.block.x, l.grid.x, l.block.x, threads);
  f.why = fmt::format("blocks of {} threads fill {:.0f}% of an SM's warp slots (limited by {}); blocks of {} fill "
                      "{:.0f}%",
                      launch.block.x, 100 * now.fraction, occupancyLimiterName(now.limiter), l.block.x,
                      100 * then->fraction);
  f.basis = fmt::format("the input re-read for grid {} and block {}, emulated", l.grid.x, l.block.x);
  return std::optional<FixTrial>(std::move(trial));
}

/// The unroll factor the unroll fix tries (nvcc's own default for a loop it unrolls).
constexpr int kUnrollFactor = 4;

/// A loop worth unrolling: innermost, at least kUnrollFactor iterations per entry, and its
/// `for` statement on a line of the input's own source.
struct UnrollCandidate {
  double share = 0;  ///< of the kernel's dynamic warp instructions
  double trips = 0;
  int forLine = 0;   ///< the `for` statement's line
  LineEdit edit;     ///< the `for` line with the pragma before `for`, or the pragma line above
  std::string how;   ///< how the change is written
};

/// The column of the `for` keyword that opens a statement on `text`, or npos.
size_t forKeyword(const std::string& text) {
  for (size_t at = text.find("for"); at != std::string::npos; at = text.find("for", at + 3)) {
    const bool startsWord = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    size_t next = at + 3;
    while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
    if (startsWord && next < text.size() && text[next] == '(') return at;
  }
  return std::string::npos;
}

/// True when the compiler kept `loop` rolled: no memory (else floating-point) instruction of its
/// body appears twice for one source line. An unrolled body repeats each access once per copy;
/// unrolling it again by another factor is not the change this fix means (and ptxas's own
/// unrolling beyond NVVM's leaves accesses that the frontend pairs with PTX only by line).
bool keptRolled(const KernelIR& ir, const Loop& loop) {
  std::map<std::tuple<std::string, int, std::string>, int> memory, arithmetic;
  for (int b : loop.blocks) {
    if (b < 0 || static_cast<size_t>(b) >= ir.blocks.size()) continue;
    for (const Instruction& i : ir.blocks[static_cast<size_t>(b)].instructions) {
      if (i.sourceLine <= 0) continue;
      const auto key = std::make_tuple(i.sourceFile, i.sourceLine, i.opcode);
      if (i.memory) {
        ++memory[key];
      } else if (i.cls == InstrClass::Fp32 || i.cls == InstrClass::Fp64 || i.cls == InstrClass::Sfu ||
                 i.cls == InstrClass::Tensor) {
        ++arithmetic[key];
      }
    }
  }
  const auto repeats = [](const auto& counts) {
    return std::any_of(counts.begin(), counts.end(), [](const auto& c) { return c.second > 1; });
  };
  if (!memory.empty()) return !repeats(memory);
  return !arithmetic.empty() && !repeats(arithmetic);
}

/// The factor of a `#pragma unroll N` line (0 without N: unrolled fully), or nullopt when the
/// line is no unroll pragma.
std::optional<int> unrollPragma(const std::string& line) {
  const size_t at = line.find("#pragma unroll");
  if (at == std::string::npos) return std::nullopt;
  const std::string rest = line.substr(at + 14);
  const size_t digit = rest.find_first_of("0123456789");
  if (digit == std::string::npos || rest.find_first_not_of(" \t") != digit) return 0;
  return std::atoi(rest.c_str() + digit);
}

/// The innermost loops holding at least a tenth of the warp instructions, most first (two at
/// most: each costs a compilation), whose `for` line the source shows: the pragma goes before
/// the `for`, or replaces a `#pragma unroll N` above it with N below the factor (a loop the
/// author kept rolled, often by mistake); a loop whose pragma unrolls more is left alone.
std::vector<UnrollCandidate> unrollCandidates(const FixInputs& in) {
  const KernelIR& ir = in.kernel->ir;
  const auto weight = [&](int b) {
    const BasicBlock& block = ir.blocks[static_cast<size_t>(b)];
    return block.executionsPerWarp * static_cast<double>(block.instructions.size());
  };
  double total = 0;
  for (size_t b = 0; b < ir.blocks.size(); ++b) total += weight(static_cast<int>(b));
  std::vector<UnrollCandidate> out;
  for (const Loop& loop : ir.loops) {
    const auto inLoop = [&](int b) { return std::find(loop.blocks.begin(), loop.blocks.end(), b) != loop.blocks.end(); };
    const bool innermost = std::none_of(ir.loops.begin(), ir.loops.end(), [&](const Loop& other) {
      return &other != &loop && other.header != loop.header && inLoop(other.header);
    });
    if (!innermost || loop.tripCount < kUnrollFactor || total <= 0) continue;
    double w = 0;
    std::map<std::pair<std::string, int>, int> lines;  // the loop's source lines, branches counted twice
    for (int b : loop.blocks) {
      if (b < 0 || static_cast<size_t>(b) >= ir.blocks.size()) continue;
      w += weight(b);
      for (const Instruction& i : ir.blocks[static_cast<size_t>(b)].instructions) {
        if (i.sourceLine > 0) lines[{i.sourceFile, i.sourceLine}] += i.cls == InstrClass::Control ? 2 : 1;
      }
    }
    if (w < 0.1 * total || !keptRolled(ir, loop)) continue;
    std::vector<std::pair<int, std::pair<std::string, int>>> ranked;
    for (const auto& [where, n] : lines) ranked.push_back({n, where});
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [n, where] : ranked) {
      const std::optional<std::string> text = in.input.sourceLine(where.first, where.second);
      const size_t at = text ? forKeyword(*text) : std::string::npos;
      if (at == std::string::npos) continue;
      if (text->find("unroll") != std::string::npos) break;
      const std::optional<std::string> above = in.input.sourceLine(where.first, where.second - 1);
      const std::optional<int> pragma = above ? unrollPragma(*above) : std::nullopt;
      if (pragma && (*pragma == 0 || *pragma >= kUnrollFactor)) break;
      if (pragma) {
        const size_t hash = above->find("#pragma");
        out.push_back({w / total, loop.tripCount, where.second,
                       LineEdit{where.first, where.second - 1,
                                above->substr(0, hash) + fmt::format("#pragma unroll {}", kUnrollFactor)},
                       fmt::format("#pragma unroll {} in place of #pragma unroll {} above it", kUnrollFactor,
                                   *pragma)});
      } else {
        std::string edited = *text;
        edited.insert(at, fmt::format("_Pragma(\"unroll {}\") ", kUnrollFactor));
        out.push_back({w / total, loop.tripCount, where.second, LineEdit{where.first, where.second, edited},
                       fmt::format("#pragma unroll {} before it", kUnrollFactor)});
      }
      break;
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.share > b.share; });
  if (out.size() > 2) out.resize(2);
  return out;
}

/// The loop whose unrolling the emulation predicts to save the most: the source compiled again
/// with the pragma and emulated.
Expected<std::optional<FixTrial>> unrollLoop(const FixInputs& in) {
  if (!in.input.rebuild || !in.input.sourceLine) return std::optional<FixTrial>();
  // The fastest candidate (the first of equals): the only one that can be the fix, since a
  // fix is judged by its time alone (judgeTrial()).
  std::optional<FixTrial> best;
  for (const UnrollCandidate& c : unrollCandidates(in)) {
    Expected<KernelInput> k = in.input.rebuild(InputChange{in.launch, {c.edit}, {}});
    if (!k) continue;  // the compiler refused the change: not a fix
    Expected<Emulated> e = emulateLaunch(in, *k, in.launch, in.emulate);
    if (!e) return std::move(e).takeError();
    if (e->cycles <= 0 || (best && e->cycles >= best->fix.cyclesAfter)) continue;
    FixTrial trial{Fix{}, std::move(*k), in.launch};
    Fix& f = trial.fix;
    f.kind = "unroll";
    f.cyclesAfter = e->cycles;
    f.change = fmt::format("unroll the loop at {}:{} by {} ({})", c.edit.file, c.forLine, kUnrollFactor, c.how);
    f.why = fmt::format(
        "the loop holds {:.0f}% of the warp instructions and runs {:.3g} iterations per entry; unrolled, a warp "
        "issues the loads of {} iterations before it waits on them, and branches once per {} iterations",
        100 * c.share, c.trips, kUnrollFactor, kUnrollFactor);
    f.lines.push_back({c.edit.file, c.forLine, fmt::format("{:.0f}% of the warp instructions", 100 * c.share)});
    f.basis = fmt::format("the source compiled again with #pragma unroll {} and emulated", kUnrollFactor);
    best = std::move(trial);
  }
  return best;
}

/// Accesses of one basic block that a vector access can replace: each lane of `members[j]`
/// touches the element right after its bytes in `members[j - 1]`, and the first one's lanes are
/// aligned to the vector's size.
struct VectorGroup {
  int block = 0;
  std::vector<int> members;  ///< instruction indices, the lowest address first
  int width = 0;             ///< bytes per lane of each member
};

/// An atomic or reduction (PTX `atom`/`red`, SASS ATOM/ATOMG/RED/REDG): never vectorized.
bool atomicOpcode(const std::string& opcode) {
  for (const char* prefix : {"atom", "red", "ATOM", "RED"}) {
    if (opcode.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

/// The vector accesses the kernel could use: in each block, global or shared accesses of 4 or 8
/// bytes per lane with known addresses (their first recorded execution) whose lanes touch k
/// consecutive elements, k = 4 (4-byte elements: a 16-byte vector), else 2, aligned to k x width
/// bytes.
std::vector<VectorGroup> vectorGroups(const KernelIR& ir) {
  std::vector<VectorGroup> out;
  for (size_t b = 0; b < ir.blocks.size(); ++b) {
    const std::vector<Instruction>& code = ir.blocks[b].instructions;
    const auto vectorizable = [](const Instruction& i) {
      return i.memory && !i.memory->dataDependent && i.memory->laneAddresses.size() >= 32 &&
             (i.memory->space == MemorySpace::Global || i.memory->space == MemorySpace::Shared) &&
             (i.memory->widthBytes == 4 || i.memory->widthBytes == 8) && !atomicOpcode(i.opcode);
    };
    // Widest vectors first, so that two pairs do not take the elements of one 16-byte vector.
    std::vector<bool> used(code.size(), false);
    for (int k = 4; k >= 2; k /= 2) {
      for (size_t lead = 0; lead < code.size(); ++lead) {
        if (used[lead] || !vectorizable(code[lead])) continue;
        const MemoryAccess& m = *code[lead].memory;
        const long long bytes = static_cast<long long>(k) * m.widthBytes;
        if (bytes > 16) continue;
        const bool active =
            std::any_of(m.laneAddresses.begin(), m.laneAddresses.end(), [](long long a) { return a >= 0; });
        const bool aligned = std::all_of(m.laneAddresses.begin(), m.laneAddresses.end(),
                                         [&](long long a) { return a < 0 || a % bytes == 0; });
        if (!active || !aligned) continue;
        std::vector<int> members{static_cast<int>(lead)};
        for (int j = 1; j < k && static_cast<int>(members.size()) == j; ++j) {
          const long long shift = static_cast<long long>(j) * m.widthBytes;
          for (size_t other = 0; other < code.size(); ++other) {
            if (other == lead || used[other] || !vectorizable(code[other])) continue;
            const MemoryAccess& o = *code[other].memory;
            if (o.isStore != m.isStore || o.space != m.space || o.widthBytes != m.widthBytes ||
                o.laneAddresses.size() != m.laneAddresses.size()) {
              continue;
            }
            bool next = true;
            for (size_t lane = 0; lane < m.laneAddresses.size() && next; ++lane) {
              const long long a = m.laneAddresses[lane];
              next = a < 0 ? o.laneAddresses[lane] < 0 : o.laneAddresses[lane] == a + shift;
            }
            if (next) {
              members.push_back(static_cast<int>(other));
              break;
            }
          }
        }
        if (static_cast<int>(members.size()) != k) continue;
        for (int i : members) used[static_cast<size_t>(i)] = true;
        out.push_back({static_cast<int>(b), std::move(members), m.widthBytes});
      }
    }
  }
  return out;
}

/// The vector accesses in place of their groups: the first member widened to the whole vector
/// and taking the others' registers (a load writes them all, a store reads them all), the others
/// left out of the emulation (WhatIf::removed) and no longer memory accesses.
std::pair<KernelInput, std::vector<std::pair<int, int>>> vectorized(const KernelInput& kernel,
                                                                      const std::vector<VectorGroup>& groups) {
  KernelInput out = kernel;
  std::vector<std::pair<int, int>> removed;
  for (const VectorGroup& g : groups) {
    std::vector<Instruction>& code = out.ir.blocks[static_cast<size_t>(g.block)].instructions;
    Instruction& lead = code[static_cast<size_t>(g.members[0])];
    lead.memory->widthBytes = g.width * static_cast<int>(g.members.size());
    lead.memory->transactionsPerInst.reset();  // the scalar access's count: the lanes give the vector's
    // Shared memory: the vector moves the same bytes through the banks, in as many passes.
    for (size_t j = 1; j < g.members.size(); ++j) {
      lead.memory->wavefrontsPerInst += code[static_cast<size_t>(g.members[j])].memory->wavefrontsPerInst;
    }
    for (size_t j = 1; j < g.members.size(); ++j) {
      Instruction& other = code[static_cast<size_t>(g.members[j])];
      std::vector<int>& regs = lead.memory->isStore ? lead.src : lead.dst;
      const std::vector<int>& theirs = lead.memory->isStore ? other.src : other.dst;
      regs.insert(regs.end(), theirs.begin(), theirs.end());
      other.memory.reset();
      other.cls = InstrClass::Int;
      removed.push_back({g.block, g.members[j]});
    }
  }
  return {std::move(out), std::move(removed)};
}

/// Vector accesses in place of the groups of scalar ones, emulated.
Expected<std::optional<FixTrial>> vectorizeAccesses(const FixInputs& in) {
  const std::vector<VectorGroup> groups = vectorGroups(in.kernel->ir);
  if (groups.empty()) return std::optional<FixTrial>();
  auto [kernel, removed] = vectorized(*in.kernel, groups);
  EmulateOptions options = in.emulate;
  options.whatIf.removed = std::move(removed);
  Expected<Emulated> e = emulateLaunch(in, kernel, in.launch, options);
  if (!e) return std::move(e).takeError();
  const VectorGroup& first = groups.front();
  const Instruction& lead = in.kernel->ir.blocks[static_cast<size_t>(first.block)].instructions[static_cast<size_t>(first.members[0])];
  const int k = static_cast<int>(first.members.size());
  const char* type = first.width == 8 ? "double2, longlong2" : k == 4 ? "float4, int4" : "float2, int2";
  FixTrial trial{Fix{}, std::move(kernel), in.launch};
  Fix& f = trial.fix;
  f.kind = "vectorize";
  f.cyclesAfter = e->cycles;
  f.change = fmt::format(
      "access the {} consecutive elements each thread {} as one {}-byte vector ({}: reinterpret_cast to a "
      "pointer of it, the address {}-byte aligned)",
      k, lead.memory->isStore ? "writes" : "reads", k * first.width, type, k * first.width);
  size_t scalar = 0;
  for (const VectorGroup& g : groups) {
    scalar += g.members.size();
    const Instruction& i = in.kernel->ir.blocks[static_cast<size_t>(g.block)].instructions[static_cast<size_t>(g.members[0])];
    const bool listed = std::any_of(f.lines.begin(), f.lines.end(),
                                    [&](const FixLine& l) { return l.file == i.sourceFile && l.line == i.sourceLine; });
    if (i.sourceLine > 0 && !listed && f.lines.size() < 5) {
      f.lines.push_back({i.sourceFile, i.sourceLine,
                         fmt::format("{} {}-byte {}s of adjacent elements", g.members.size(), g.width,
                                     i.memory->isStore ? "store" : "load")});
    }
  }
  f.why = fmt::format("{} scalar {} {} instructions of the kernel touch adjacent, aligned elements of one thread; {} "
                      "vector instructions do their work",
                      scalar, memorySpaceName(lead.memory->space), lead.memory->isStore ? "store" : "load", groups.size());
  f.basis = "the kernel emulated with the vector accesses in place of the scalar ones";
  return std::optional<FixTrial>(std::move(trial));
}

/// The macros a -D fix tries, the input's own -D values first (each costs two compilations).
constexpr size_t kMostMacros = 3;

/// A -D value the kernel is compiled with, doubled or halved, with the launch as it is or its
/// grid's x scaled by the inverse ratio (a coarsening factor: each thread then does more or
/// less), each compiled, re-read and emulated: the fastest that does the same work (the same
/// distinct bytes), so that a problem size or a block shape the launch does not follow is no fix.
Expected<std::optional<FixTrial>> defineChange(const FixInputs& in) {
  if (!in.input.rebuild || in.input.macros.empty() || !in.memory) return std::optional<FixTrial>();
  std::vector<InputChange> changes;
  for (size_t m = 0; m < in.input.macros.size() && m < kMostMacros; ++m) {
    const auto& [name, value] = in.input.macros[m];
    for (const long long to : {value * 2, value / 2}) {
      if (to < 1 || to == value) continue;
      changes.push_back({in.launch, {}, {{name, to}}});
      Launch scaled = in.launch;
      scaled.grid.x = std::max<long long>(1, (in.launch.grid.x * value + to - 1) / to);
      if (scaled.grid.x != in.launch.grid.x) changes.push_back({scaled, {}, {{name, to}}});
    }
  }
  std::optional<Tried> best = fastestSameWork(in, changes);
  if (!best) return std::optional<FixTrial>();
  const Launch l = best->change.launch;
  const auto [macro, to] = best->change.macros.front();
  long long from = 0;
  for (const auto& [name, value] : in.input.macros) {
    if (name == macro) from = value;
  }
  const bool regrid = l.grid.x != in.launch.grid.x;
  FixTrial trial{Fix{}, std::move(best->kernel), l};
  Fix& f = trial.fix;
  f.kind = "define";
  f.cyclesAfter = best->emulated.cycles;
  f.change = fmt::format("compile with -D {}={} (now {}){}", macro, to, from,
                         regrid ? fmt::format(" and launch --grid {} (now {}): each thread does {} as much", l.grid.x,
                                              in.launch.grid.x, to > from ? "twice" : "half")
                                : "");
  f.why = fmt::format("the kernel compiled and launched so does the same work (the same {:.3g} MB of distinct data) in "
                      "less time",
                      in.memory->compulsoryBytes() / 1e6);
  f.basis = fmt::format("the source compiled with -D {}={}{} and emulated", macro, to,
                        regrid ? fmt::format(", launched with grid {}", l.grid.x) : "");
  return std::optional<FixTrial>(std::move(trial));
}

/// How a placement is written in CUDA.
const char* placementHow(Placement p) {
  switch (p) {
    case Placement::Global: return "global memory";
    case Placement::ReadOnly: return "the read-only path (const __restrict__ or __ldg)";
    case Placement::Texture: return "a texture";
    case Placement::Shared: return "shared memory (staged per block)";
    case Placement::Constant: return "__constant__ memory";
    case Placement::PersistingL2: return "the persisting L2 (an access policy window)";
  }
  return "?";
}

/// PORPLE's chosen plan as a fix, when it differs from the kernel as written and its predicted
/// time saves at least kFixThreshold.
std::optional<Fix> placementFix(const FixInputs& in) {
  const PlaceResult& r = *in.placement;
  // The fastest timed plan other than the kernel as written (the placement model's choice
  // may place an array where the timing model cannot follow it yet: then the next one).
  const ScoredPlan* original = nullptr;
  for (const ScoredPlan& s : r.plans) {
    if (s.label == "original") original = &s;
  }
  const ScoredPlan* chosen = nullptr;
  for (const ScoredPlan& s : r.plans) {
    if (!original || !s.seconds || s.plan == original->plan) continue;
    if (!chosen || *s.seconds < *chosen->seconds) chosen = &s;
  }
  if (!chosen || r.original.seconds <= 0) return std::nullopt;
  const double speedup = r.original.seconds / *chosen->seconds;
  if (speedup < kFixThreshold) return std::nullopt;
  Fix f;
  f.kind = "placement";
  std::string moves;
  std::string arrays;
  for (size_t a = 0; a < chosen->plan.size() && a < r.profile.arrays.size(); ++a) {
    if (chosen->plan[a] == original->plan[a]) continue;
    const std::string& name = r.profile.arrays[a].name;
    moves += fmt::format("{}'{}' in {}", moves.empty() ? "" : ", ", name, placementHow(chosen->plan[a]));
    arrays += (arrays.empty() ? "" : ", ") + name;
    for (const ProfiledSite& site : r.profile.sites) {
      const size_t colon = site.where.rfind(':');
      if (site.array != static_cast<int>(a) || colon == std::string::npos || f.lines.size() >= 5) continue;
      const std::string file = site.where.substr(0, colon);
      const int line = std::atoi(site.where.c_str() + colon + 1);
      const bool listed = std::any_of(f.lines.begin(), f.lines.end(),
                                      [&](const FixLine& l) { return l.file == file && l.line == line; });
      if (line <= 0 || listed) continue;
      f.lines.push_back({file, line, fmt::format("{} of '{}'", site.store ? "store" : "load", name)});
    }
  }
  f.change = "put " + moves +
             (chosen->label == "chosen" ? " (foresight place --emit-patch writes the change)"
                                        : " (foresight place's " + chosen->label + " plan)");
  f.why = fmt::format("where the kernel keeps {} its accesses wait longer; the kernel emulated with the plan applied "
                      "runs faster",
                      arrays);
  f.basis = "placement, emulated with the plan applied";
  f.cyclesBefore = r.original.cycles;
  f.cyclesAfter = r.original.cycles / speedup;
  f.speedup = speedup;
  return f;
}

}  // namespace

FixTrials tryFixChanges(const FixInputs& in) {
  // Independent changes, each emulated on its own: side by side (support/parallel.h), each into
  // its slot.
  using Tryer = Expected<std::optional<FixTrial>> (*)(const FixInputs&, const Occupancy&);
  const Tryer tryers[] = {
      [](const FixInputs& i, const Occupancy& o) { return launchShape(i, o); },
      [](const FixInputs& i, const Occupancy&) { return vectorizeAccesses(i); },
      [](const FixInputs& i, const Occupancy&) { return defineChange(i); },
      [](const FixInputs& i, const Occupancy&) { return unrollLoop(i); },
  };
  constexpr size_t kTryers = std::size(tryers);
  FixTrials out(kTryers, Expected<std::optional<FixTrial>>(std::optional<FixTrial>()));
  if (!in.kernel || !in.gpu) return out;
  Expected<Occupancy> now = computeOccupancy(*in.gpu, blockResources(in.kernel->ir.resources, in.launch));
  if (!now) {
    out[0] = std::move(now).takeError();
    return out;
  }
  parallelFor(kTryers, [&](size_t k) { out[k] = tryers[k](in, *now); });
  return out;
}

Expected<std::vector<Fix>> rankFixes(const FixInputs& in) { return rankFixes(in, tryFixChanges(in)); }

Expected<std::vector<Fix>> rankFixes(const FixInputs& in, FixTrials trials) {
  if (!in.kernel || !in.gpu) return makeError("rankFixes needs the kernel and the GPU");
  const KernelIR& ir = in.kernel->ir;
  std::vector<Fix> out;
  if (std::optional<Fix> f = fromSwitch(in, kSharedConflicts)) {
    f->lines = conflictedSharedLines(ir, *in.gpu);
    out.push_back(std::move(*f));
  }
  if (std::optional<Fix> f = fromSwitch(in, kCoalescing)) {
    if (in.memory) f->lines = uncoalescedLines(ir, *in.memory, sectorsPerL1Line(*in.gpu, in.memory->sectorBytes));
    out.push_back(std::move(*f));
  }
  if (std::optional<Fix> f = fromSwitch(in, kRegisterBanks)) {
    for (const RegisterConflictLine& c : in.conflicts) {
      if (c.line > 0 && f->lines.size() < 5) {
        f->lines.push_back(
            {c.file, c.line, fmt::format("{} of {} FFMA read {} operands from one bank", c.conflicted, c.checked,
                                         c.maxDegree)});
      }
    }
    out.push_back(std::move(*f));
  }
  Expected<Occupancy> now = computeOccupancy(*in.gpu, blockResources(ir.resources, in.launch));
  if (!now) return std::move(now).takeError();
  // The register cap is tried only where the full-occupancy what-if pays and registers limit
  // the blocks; the other changes were tried ahead (tryFixChanges()) and are judged here, in
  // this order, the first error in it reported as the one a sequential run would stop at.
  std::optional<Fix> sharedOccupancy = fromSwitch(in, kSharedOccupancy);
  if (sharedOccupancy && now->limiter == OccupancyLimiter::Registers) {
    Expected<std::optional<Fix>> cap = registerCap(in, *now);
    if (!cap) return std::move(cap).takeError();
    if (*cap) out.push_back(std::move(**cap));
  }
  if (sharedOccupancy && now->limiter == OccupancyLimiter::SharedMemory) {
    Fix& f = *sharedOccupancy;
    f.change = fmt::format(
        "use less shared memory per block (now {} B allocated), for example a smaller tile or fewer stages",
        now->sharedAllocatedPerBlock);
    f.why = fmt::format("shared memory limits an SM to {} blocks ({:.0f}% of its warps)", now->blocksPerSm,
                        100 * now->fraction);
    out.push_back(std::move(f));
  }
  for (Expected<std::optional<FixTrial>>& t : trials) {
    if (!t) return std::move(t).takeError();
    if (!*t) continue;
    Expected<std::optional<Fix>> judged = judgeTrial(in, std::move(**t));
    if (!judged) return std::move(judged).takeError();
    if (*judged) out.push_back(std::move(**judged));
  }
  if (std::optional<Fix> f = fromSwitch(in, kAddressArithmetic)) out.push_back(std::move(*f));
  if (in.placement) {
    if (std::optional<Fix> f = placementFix(in)) out.push_back(std::move(*f));
  }
  if (in.memory) {
    // Reuse on chip: only when the loads fetch from L2 or DRAM more than the launch's footprint
    // (when the addresses tell it), so that a tile or a loop order has repeats to serve; the
    // speedup is the larger of the all-L1-hits and all-L2-hits switches. Data both read and
    // written counts as written in the footprint, so the loads' share of it is all of it.
    const MemoryTraffic& m = *in.memory;
    const double offChipBytes = (m.loadSectors - m.l1HitSectors) * m.sectorBytes;
    const double footprint = m.compulsoryReadBytes + m.compulsoryWriteBytes;
    std::optional<Fix> l1 = fromSwitch(in, kReuseL1);
    std::optional<Fix> l2 = fromSwitch(in, kReuseL2);
    std::optional<Fix> f = l1 && (!l2 || l1->speedup >= l2->speedup) ? std::move(l1) : std::move(l2);
    if (f && footprint > 0 && offChipBytes > 1.25 * footprint) {
      f->lines = offChipLoadLines(ir, m);
      f->why = fmt::format("loads fetch {:.3g} MB from L2 or DRAM for {:.3g} MB of distinct data",
                           offChipBytes / 1e6, footprint / 1e6);
      out.push_back(std::move(*f));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Fix& a, const Fix& b) { return a.speedup > b.speedup; });
  // The bandwidth bound comes last: no single change removes every byte.
  if (std::optional<Fix> f = fromSwitch(in, kMemoryTraffic)) {
    f->upperBound = true;
    out.push_back(std::move(*f));
  }
  return out;
}

}  // namespace foresight
