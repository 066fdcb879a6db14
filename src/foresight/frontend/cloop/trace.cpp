// SPDX-License-Identifier: Apache-2.0
/// \file
/// Child-process execution of the instrumented program and the trace analysis
/// (cgpredict.md §3 warp formation, §4.2 classification, §4.4 cache analyzer, §5 counts).
#include "foresight/frontend/cloop/trace.h"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "foresight/memory/bank_conflicts.h"
#include "foresight/memory/coalescing.h"
#include "foresight/memory/lru_cache.h"
#include "foresight/support/process.h"

namespace foresight::cloop {

namespace {

std::string gib(long long bytes) {
  std::ostringstream os;
  if (bytes >= (1LL << 30)) os << static_cast<double>(bytes) / (1LL << 30) << " GiB";
  else os << bytes / (1LL << 20) << " MiB";
  return os.str();
}

}  // namespace

Expected<void> runTraced(const std::string& executable, const std::string& traceFile,
                         const RunLimits& limits, const std::string& sourcePath) {
  const std::string prefix = "the traced program (this file compiled at the trace size) ";
  ProcessRequest request;
  request.argv = {executable};
  request.name = "the traced program";
  request.timeoutSeconds = limits.wallSeconds;
  request.captureStdout = false;  // stdin and stdout are /dev/null; stderr is kept for messages
  request.environment = {{"CGP_TRACE", traceFile}};
  request.limits.cpuSeconds = limits.cpuSeconds;
  request.limits.addressSpaceBytes = limits.memoryBytes;
  request.limits.fileSizeBytes = limits.traceBytes;
  request.limits.noCoreDump = true;
  Expected<ProcessResult> run = runProcess(request);
  if (!run) {
    if (run.error().message.rfind("cannot run '", 0) != 0) {
      Error e = std::move(run).takeError();
      e.file = sourcePath;
      return e;
    }
    return makeError(prefix + "could not be started (its static data may exceed the " + gib(limits.memoryBytes) +
                         " memory limit): " + run.error().message,
                     sourcePath, 0);
  }
  if (run->timedOut) {
    return makeError(prefix + "did not finish within " + std::to_string(static_cast<int>(limits.wallSeconds)) +
                         " s of wall-clock time and was stopped (endless loop, or a trace size too large?)",
                     sourcePath, 0);
  }
  if (run->signal != 0) {
    const int sig = run->signal;
    if (sig == SIGXCPU || sig == SIGKILL) {
      return makeError(prefix + "exceeded its CPU-time limit of " + std::to_string(static_cast<int>(limits.cpuSeconds)) +
                           " s and was stopped (endless loop, or a trace size too large?)",
                       sourcePath, 0);
    }
    if (sig == SIGXFSZ) {
      return makeError(prefix + "wrote a trace larger than " + gib(limits.traceBytes) +
                           "; choose smaller sizes in '#pragma cgpredict trace(...)'",
                       sourcePath, 0);
    }
    return makeError(prefix + "crashed (" + std::string(::strsignal(sig)) +
                         "); if it allocates memory, it may have exceeded the " + gib(limits.memoryBytes) +
                         " memory limit",
                     sourcePath, 0);
  }
  if (run->exitCode != 0) {
    std::string err = run->err;
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
    return makeError(prefix + "exited with status " + std::to_string(run->exitCode) +
                         (err.empty() ? "" : " (" + err.substr(0, 200) + ")") + "; main() must return 0",
                     sourcePath, 0);
  }
  return {};
}

namespace {

constexpr std::uint64_t kNoThread = ~0ULL;

struct AddrState {
  std::uint64_t writer = kNoThread;
  std::uint64_t reader = kNoThread;
  bool manyReaders = false;
  int writeOp = -1;
  int readOp = -1;
};

/// State of the launch being read.
struct Launch {
  int kernel = -1;
  std::vector<std::pair<int, long long>> stack;  ///< loop id, iteration
  long long extentX = 0;
  long long extentY = 0;
  bool analysed = false;  ///< first launch of its kernel: keep analysed threads' events
  std::unordered_map<std::uint64_t, std::vector<std::pair<int, std::uint64_t>>> events;
  std::unordered_map<std::uint64_t, AddrState> addrs;
  std::map<int, std::uint64_t> arrayBase;
};

std::string threadName(std::uint64_t key, int dims) {
  const long long tx = static_cast<long long>(key & 0xffffffffULL);
  const long long ty = static_cast<long long>(key >> 32);
  return dims == 2 ? "(" + std::to_string(ty) + ", " + std::to_string(tx) + ")" : "(" + std::to_string(tx) + ")";
}

/// CGPredict's class of one warp instruction (memory/coalescing.h); a request with no active
/// lane cannot occur here (every instruction has at least the lane that issued it).
AccessClass classify(const std::vector<long long>& lanes, int bytes) {
  Expected<AccessClass> c = classifyAccessClass(lanes, bytes);
  return c ? *c : AccessClass::Uncoalesced;
}

}  // namespace

Expected<std::vector<KernelTrace>> analyzeTrace(const InstrumentedProgram& prog, const std::string& traceFile,
                                                const AnalysisOptions& opt, const std::string& sourcePath) {
  std::vector<std::uint32_t> words;
  {
    std::ifstream in(traceFile, std::ios::binary | std::ios::ate);
    if (!in) return makeError("the traced program wrote no trace", sourcePath, 0);
    const std::streamsize size = in.tellg();
    in.seekg(0);
    words.resize(static_cast<size_t>(size / 4));
    in.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(words.size() * 4));
  }
  std::vector<KernelTrace> out(prog.kernels.size());
  for (KernelTrace& k : out) {
    k.ops.assign(prog.memOps.size(), MemOpStats{});
    k.opEvents.assign(prog.memOps.size(), 0);
  }

  // Synthetic array bases: 256-B aligned, in array order (as successive cudaMallocs would give).
  std::vector<std::uint64_t> synthBase(prog.arrays.size(), 0);
  {
    std::uint64_t next = 1ULL << 32;
    for (size_t a = 0; a < prog.arrays.size(); ++a) {
      synthBase[a] = next;
      const std::uint64_t bytes = prog.arrays[a].bytes > 0 ? static_cast<std::uint64_t>(prog.arrays[a].bytes) : (1ULL << 30);
      next += (bytes + 255) / 256 * 256 + 256;
    }
  }
  std::vector<bool> transposed(prog.arrays.size(), false);
  for (int a : opt.transposed) {
    if (a >= 0 && static_cast<size_t>(a) < transposed.size()) transposed[static_cast<size_t>(a)] = true;
  }

  Launch cur;
  auto mapAddress = [&](int op, std::uint64_t addr) -> std::uint64_t {
    const int a = prog.memOps[static_cast<size_t>(op)].array;
    if (a < 0) return addr;
    auto it = cur.arrayBase.find(a);
    if (it == cur.arrayBase.end() || addr < it->second) return addr;
    std::uint64_t off = addr - it->second;
    const StaticArray& arr = prog.arrays[static_cast<size_t>(a)];
    if (transposed[static_cast<size_t>(a)] && arr.dims.size() >= 2) {
      const std::uint64_t eb = static_cast<std::uint64_t>(arr.elemBytes);
      const std::uint64_t rows = static_cast<std::uint64_t>(arr.dims[arr.dims.size() - 2]);
      const std::uint64_t cols = static_cast<std::uint64_t>(arr.dims.back());
      const std::uint64_t e = off / eb, rem = off % eb;
      const std::uint64_t slice = e / (rows * cols), in = e % (rows * cols);
      const std::uint64_t r = in / cols, c = in % cols;
      off = (slice * rows * cols + c * rows + r) * eb + rem;
    }
    return synthBase[static_cast<size_t>(a)] + off;
  };

  // Affine address functions of the kernel's global operations over the analysed threads: the
  // coefficients from thread (0,0), its x and y neighbours and its second occurrence, then every
  // event checked.
  auto fitAffine = [&](int kernel, KernelTrace& kt) {
    kt.affine.assign(prog.memOps.size(), AffineAccess{});
    struct Obs {
      long long tx, ty, j;
      long long offset;
    };
    std::vector<std::vector<Obs>> obs(prog.memOps.size());
    std::vector<bool> broken(prog.memOps.size(), false);
    for (const auto& [key, evs] : cur.events) {
      const long long tx = static_cast<long long>(key & 0xffffffffULL);
      const long long ty = static_cast<long long>(key >> 32);
      std::unordered_map<int, long long> occ;
      for (const auto& [op, addr] : evs) {
        const StaticMemOp& sop = prog.memOps[static_cast<size_t>(op)];
        if (sop.kernel != kernel) continue;
        const long long j = occ[op]++;
        const int a = sop.array;
        if (a < 0 || !cur.arrayBase.count(a) || addr < synthBase[static_cast<size_t>(a)]) {
          broken[static_cast<size_t>(op)] = true;
          continue;
        }
        obs[static_cast<size_t>(op)].push_back({tx, ty, j, static_cast<long long>(addr - synthBase[static_cast<size_t>(a)])});
      }
    }
    for (size_t op = 0; op < obs.size(); ++op) {
      const std::vector<Obs>& o = obs[op];
      if (o.empty() || broken[op]) continue;
      auto find = [&](long long tx, long long ty, long long j) -> const Obs* {
        for (const Obs& x : o) {
          if (x.tx == tx && x.ty == ty && x.j == j) return &x;
        }
        return nullptr;
      };
      // The origin: the analysed thread with the smallest (ty, tx).
      const Obs* origin = &o.front();
      for (const Obs& x : o) {
        if (x.j == 0 && (x.ty < origin->ty || (x.ty == origin->ty && x.tx < origin->tx) || origin->j != 0)) origin = &x;
      }
      AffineAccess f;
      f.array = prog.memOps[op].array;
      const Obs* nx = find(origin->tx + 1, origin->ty, 0);
      const Obs* ny = find(origin->tx, origin->ty + 1, 0);
      const Obs* nj = find(origin->tx, origin->ty, 1);
      f.cx = nx ? static_cast<double>(nx->offset - origin->offset) : 0;
      f.cy = ny ? static_cast<double>(ny->offset - origin->offset) : 0;
      f.cj = nj ? static_cast<double>(nj->offset - origin->offset) : 0;
      f.c0 = static_cast<double>(origin->offset) - f.cx * static_cast<double>(origin->tx) -
             f.cy * static_cast<double>(origin->ty);
      bool ok = true;
      for (const Obs& x : o) {
        const double predicted = f.c0 + f.cx * static_cast<double>(x.tx) + f.cy * static_cast<double>(x.ty) +
                                 f.cj * static_cast<double>(x.j);
        if (std::fabs(predicted - static_cast<double>(x.offset)) > 0.5) {
          ok = false;
          break;
        }
      }
      f.valid = ok;
      kt.affine[op] = f;
    }
  };

  auto finishLaunch = [&]() -> Expected<void> {
    const StaticKernel& sk = prog.kernels[static_cast<size_t>(cur.kernel)];
    KernelTrace& kt = out[static_cast<size_t>(cur.kernel)];
    const double ex = static_cast<double>(cur.extentX);
    const double ey = sk.gridDims == 2 ? static_cast<double>(cur.extentY) : 1.0;
    kt.extentX = (kt.extentX * static_cast<double>(kt.launches) + ex) / static_cast<double>(kt.launches + 1);
    kt.extentY = (kt.extentY * static_cast<double>(kt.launches) + ey) / static_cast<double>(kt.launches + 1);
    kt.threads += ex * ey;
    ++kt.launches;
    if (!cur.analysed) return {};

    // Warp formation: (block, warp) → lanes' event lists, aligned by (op, occurrence).
    const long long bx = sk.blockX, by = sk.blockY;
    const long long gridX = std::max<long long>(1, (cur.extentX + bx - 1) / bx);
    struct Warp {
      std::vector<std::pair<int, std::vector<long long>>> insts;
    };
    std::map<std::pair<long long, long long>, Warp> warps;  // (linear block, warp in block)
    // Build warps lane by lane in lane order so lane 0's order defines the instruction order.
    std::map<std::pair<long long, long long>, std::vector<std::pair<long long, const std::vector<std::pair<int, std::uint64_t>>*>>> lanes;
    for (auto& [key, evs] : cur.events) {
      const long long tx = static_cast<long long>(key & 0xffffffffULL);
      const long long ty = static_cast<long long>(key >> 32);
      const long long block = tx / bx + (ty / by) * gridX;
      if (block / opt.blocksPerBatch >= opt.analysedBatches) continue;
      const long long tid = tx % bx + (ty % by) * bx;
      lanes[{block, tid / opt.warpSize}].push_back({tid % opt.warpSize, &evs});
    }
    for (auto& [wk, ls] : lanes) {
      std::sort(ls.begin(), ls.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      Warp& warp = warps[wk];
      std::map<std::pair<int, long long>, size_t> slot;  // (op, occurrence) → instruction
      for (const auto& [lane, evs] : ls) {
        std::unordered_map<int, long long> occ;
        for (const auto& [op, addr] : *evs) {
          const std::pair<int, long long> key{op, occ[op]++};
          auto it = slot.find(key);
          size_t idx = 0;
          if (it == slot.end()) {
            idx = warp.insts.size();
            slot[key] = idx;
            warp.insts.push_back({op, std::vector<long long>(static_cast<size_t>(opt.warpSize), -1)});
          } else {
            idx = it->second;
          }
          warp.insts[idx].second[static_cast<size_t>(lane)] = static_cast<long long>(addr);
        }
      }
    }
    if (!warps.empty()) kt.sampleWarp = warps.begin()->second.insts;
    fitAffine(cur.kernel, kt);
    kt.analysedWarps = static_cast<double>(warps.size());

    // Cache analyzer: per batch, for n: for block: for warp: the warp's n-th instruction.
    LruCache l2(opt.l2Bytes, opt.l2LineBytes, opt.l2Ways);
    std::map<long long, std::vector<const Warp*>> byBatch;
    size_t longest = 0;
    for (const auto& [wk, warp] : warps) {
      byBatch[wk.first / opt.blocksPerBatch].push_back(&warp);
      longest = std::max(longest, warp.insts.size());
    }
    std::vector<std::uint64_t> lines;
    for (const auto& [batch, ws] : byBatch) {
      for (size_t n = 0; n < longest; ++n) {
        for (const Warp* w : ws) {
          if (n >= w->insts.size()) continue;
          const auto& [op, addrs] = w->insts[n];
          const StaticMemOp& sop = prog.memOps[static_cast<size_t>(op)];
          if (sop.space == OpSpace::Shared) {
            Expected<int> x = cgpredictConflictDegree(addrs, sop.bytes);
            kt.ops[static_cast<size_t>(op)].conflictSum += x ? *x : 1;
            kt.ops[static_cast<size_t>(op)].sharedInsts += 1;
            continue;
          }
          if (sop.space != OpSpace::Global) {
            kt.ops[static_cast<size_t>(op)].sharedInsts += 1;  // global→shared pair: counted, not cached
            continue;
          }
          const AccessClass c = classify(addrs, sop.bytes);
          const int ci = static_cast<int>(c);
          lines.clear();
          for (long long a : addrs) {
            if (a < 0) continue;
            const std::uint64_t line = static_cast<std::uint64_t>(a) / static_cast<std::uint64_t>(opt.l2LineBytes);
            if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
          }
          double misses = 0;
          for (std::uint64_t line : lines) {
            if (!l2.access(line * static_cast<std::uint64_t>(opt.l2LineBytes))) misses += 1;
          }
          kt.classInsts[ci] += 1;
          kt.classMisses[ci] += misses;
          kt.classLines[ci] += static_cast<double>(lines.size());
          MemOpStats& os = kt.ops[static_cast<size_t>(op)];
          os.warpInsts[ci] += 1;
          os.lines += static_cast<double>(lines.size());
          os.misses += misses;
        }
      }
    }
    return {};
  };

  size_t i = 0;
  const size_t n = words.size();
  while (i < n) {
    const std::uint32_t w = words[i++];
    const Event ev = static_cast<Event>(w >> 28);
    const int id = static_cast<int>(w & 0x0fffffffu);
    std::uint64_t addr = 0;
    if (ev == Event::Mem || ev == Event::Array) {
      if (i + 2 > n) break;
      addr = static_cast<std::uint64_t>(words[i]) | (static_cast<std::uint64_t>(words[i + 1]) << 32);
      i += 2;
    }
    switch (ev) {
      case Event::KernelBegin: {
        if (id < 0 || static_cast<size_t>(id) >= prog.kernels.size()) return makeError("corrupt trace", sourcePath, 0);
        const bool first = out[static_cast<size_t>(id)].launches == 0;
        cur = Launch{};
        cur.kernel = id;
        cur.analysed = first;
        break;
      }
      case Event::Array:
        cur.arrayBase[id] = addr;
        break;
      case Event::LoopEnter:
        cur.stack.push_back({id, 0});
        break;
      case Event::LoopNext:
        for (auto it = cur.stack.rbegin(); it != cur.stack.rend(); ++it) {
          if (it->first == id) {
            ++it->second;
            break;
          }
        }
        break;
      case Event::LoopExit: {
        bool onStack = false;
        for (const auto& e : cur.stack) onStack |= e.first == id;
        if (!onStack || cur.kernel < 0) break;
        const StaticKernel& sk = prog.kernels[static_cast<size_t>(cur.kernel)];
        while (!cur.stack.empty()) {
          const auto [lid, it] = cur.stack.back();
          cur.stack.pop_back();
          if (lid == sk.mappedLoops[0]) {
            if (sk.gridDims == 2) cur.extentY = std::max(cur.extentY, it);
            else cur.extentX = std::max(cur.extentX, it);
          } else if (sk.gridDims == 2 && lid == sk.mappedLoops[1]) {
            cur.extentX = std::max(cur.extentX, it);
          }
          if (lid == id) break;
        }
        break;
      }
      case Event::KernelEnd:
        if (cur.kernel >= 0) {
          Expected<void> done = finishLaunch();
          if (!done) return std::move(done).takeError();
        }
        cur = Launch{};
        break;
      case Event::Block: {
        if (cur.kernel < 0 || static_cast<size_t>(id) >= prog.blocks.size()) break;
        const StaticBlock& b = prog.blocks[static_cast<size_t>(id)];
        KernelTrace& kt = out[static_cast<size_t>(cur.kernel)];
        kt.compInsts += b.compInsts;
        kt.flops += b.flops;
        for (int c = 0; c < kNumInstrClasses; ++c) kt.compByClass[static_cast<size_t>(c)] += b.byClass[static_cast<size_t>(c)];
        break;
      }
      case Event::Mem: {
        if (cur.kernel < 0 || static_cast<size_t>(id) >= prog.memOps.size()) break;
        const StaticKernel& sk = prog.kernels[static_cast<size_t>(cur.kernel)];
        KernelTrace& kt = out[static_cast<size_t>(cur.kernel)];
        kt.memInsts += 1;
        kt.opEvents[static_cast<size_t>(id)] += 1;
        // The pseudo-thread: iteration of the mapped loops.
        long long tx = -1, ty = 0;
        if (!cur.stack.empty() && cur.stack[0].first == sk.mappedLoops[0]) {
          if (sk.gridDims == 1) {
            tx = cur.stack[0].second;
          } else if (cur.stack.size() > 1 && cur.stack[1].first == sk.mappedLoops[1]) {
            ty = cur.stack[0].second;
            tx = cur.stack[1].second;
          }
        }
        if (tx < 0) break;  // outside the mapped loops (2-D: between the two mapped loops)
        const std::uint64_t key = (static_cast<std::uint64_t>(ty) << 32) | static_cast<std::uint64_t>(tx);
        const std::uint64_t mapped = mapAddress(id, addr);
        const StaticMemOp& op = prog.memOps[static_cast<size_t>(id)];
        if (opt.checkDependences && op.space == OpSpace::Global) {
          AddrState& s = cur.addrs[addr];
          auto dependence = [&](const char* kind, std::uint64_t other, int otherOp) -> Error {
            const StaticMemOp& o = prog.memOps[static_cast<size_t>(otherOp)];
            const std::string arr = op.array >= 0 ? "'" + prog.arrays[static_cast<size_t>(op.array)].name + "'" : "memory";
            return makeError(std::string("loop-carried dependence (") + kind + ") between pseudo-threads: iteration " +
                                 threadName(key, sk.gridDims) + " of kernel '" + sk.name + "' " +
                                 (op.isStore ? "writes" : "reads") + " an element of " + arr + " that iteration " +
                                 threadName(other, sk.gridDims) + " " + (o.isStore ? "writes" : "reads") +
                                 " (line " + std::to_string(o.line) +
                                 "); GPU threads run these in parallel, so the loop cannot be mapped as it is "
                                 "(CGPredict reports, and does not insert, synchronization)",
                             sourcePath, op.line);
          };
          if (op.isStore) {
            if (s.writer != kNoThread && s.writer != key) return dependence("write after write", s.writer, s.writeOp);
            if ((s.reader != kNoThread && s.reader != key) || s.manyReaders) {
              return dependence("write after read", s.reader, s.readOp);
            }
            s.writer = key;
            s.writeOp = id;
          } else {
            if (s.writer != kNoThread && s.writer != key) return dependence("read after write", s.writer, s.writeOp);
            if (s.reader == kNoThread) {
              s.reader = key;
              s.readOp = id;
            } else if (s.reader != key) {
              s.manyReaders = true;
            }
          }
        }
        if (cur.analysed) {
          const long long bx = sk.blockX, by = sk.blockY;
          // Row 0 of blocks needs no grid width; later rows come after the first inner exit.
          const long long gridX = cur.extentX > 0 ? (cur.extentX + bx - 1) / bx : 0;
          const long long block = tx / bx + (ty / by) * gridX;
          if (ty / by == 0 || gridX > 0) {
            if (block / opt.blocksPerBatch < opt.analysedBatches) cur.events[key].push_back({id, mapped});
          }
        }
        break;
      }
      default:
        return makeError("corrupt trace (unknown event)", sourcePath, 0);
    }
  }
  return out;
}

}  // namespace foresight::cloop
