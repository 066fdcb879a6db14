// SPDX-License-Identifier: Apache-2.0
/// \file
/// Fits of the traced counts, the workload summary at the requested size, and the KernelIR.
#include "foresight/frontend/cloop/workload.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "foresight/ir/counted_streams.h"
#include "foresight/memory/coalescing.h"

namespace foresight::cloop {

double CountFit::at(double n) const { return degree == 0 ? a : a + b * std::pow(n, degree); }

/// Fits value(n) = a + b n^d through the two largest sizes, d the rounded log-log slope
/// (0..3); checks the fit at the smallest size. `n` and `v` are largest first.
CountFit fitCount(const std::string& name, const std::array<double, 3>& n, const std::array<double, 3>& v) {
  CountFit f;
  f.quantity = name;
  if (std::fabs(v[0] - v[1]) <= 1e-9 * std::max(1.0, std::fabs(v[0]))) {
    f.degree = 0;
    f.a = v[0];
  } else {
    double slope = 1;
    if (v[0] > 0 && v[1] > 0) slope = std::log(v[0] / v[1]) / std::log(n[0] / n[1]);
    f.degree = static_cast<int>(std::clamp(std::lround(slope), 0L, 3L));
    if (f.degree == 0) f.degree = 1;  // the values differ, so the count grows with n
    f.b = (v[0] - v[1]) / (std::pow(n[0], f.degree) - std::pow(n[1], f.degree));
    f.a = v[0] - f.b * std::pow(n[0], f.degree);
  }
  const double predicted = f.at(n[2]);
  f.checkError = std::fabs(v[2]) > 1e-12 ? std::fabs(predicted - v[2]) / std::fabs(v[2]) : std::fabs(predicted);
  return f;
}

/// CGPredict's workload at the requested size from the fits and the traced size's classes.
WorkloadSummary summaryAt(const KernelTrace& traced, const std::map<std::string, CountFit>& fits, double target,
                          const InstrumentedProgram& prog, int kernel, int warpSize, int lineBytes) {
  WorkloadSummary w;
  w.compInsts = std::max(0.0, fits.at("comp").at(target));
  // Per memory operation: its per-thread count at the target (fitted), split by the classes its
  // warp instructions had in the analysed batches, with their L2 misses per warp instruction.
  std::array<double, kNumAccessClasses> insts{}, dram{};
  int elemBytes = 4;
  double sharedAccesses = 0;
  for (size_t i = 0; i < prog.memOps.size(); ++i) {
    if (prog.memOps[i].kernel != kernel) continue;
    const MemOpStats& s = traced.ops[i];
    auto it = fits.find("op" + std::to_string(i));
    if (it == fits.end()) continue;
    const OpSpace space = prog.memOps[i].space;
    if (space != OpSpace::Global) {
      const double count = std::max(0.0, it->second.at(target));
      if (space == OpSpace::GlobalToShared) {
        w.smemLoadInsts += count;
        w.synchInsts = std::max(w.synchInsts, count);  // one barrier after each tile load
      } else if (space == OpSpace::Shared) {
        w.smemConflictWeighted += count * (s.sharedInsts > 0 ? s.conflictSum / s.sharedInsts : 1);
        sharedAccesses += count;
      }
      continue;
    }
    const double n = s.warpInsts[0] + s.warpInsts[1] + s.warpInsts[2];
    if (n <= 0) continue;
    elemBytes = prog.memOps[i].bytes;
    const double count = std::max(0.0, it->second.at(target));
    for (size_t c = 0; c < insts.size(); ++c) {
      const double share = s.warpInsts[c] / n;
      insts[c] += count * share;
      dram[c] += count * share * s.misses / n;
    }
  }
  for (int c = 0; c < kNumAccessClasses; ++c) {
    MemoryClassStats& s = w.memory[static_cast<size_t>(c)];
    s.insts = insts[static_cast<size_t>(c)];
    // Paper mode (Table 3): 32 / 2 / 1 transactions per warp instruction for 32 4-byte lanes
    // over 64-B lines; the coalesced count follows the warp's bytes over the line.
    PaperTransactions table;
    table.uncoalesced = warpSize;
    table.coalesced = std::max(1, warpSize * elemBytes / lineBytes);
    s.transactionsPerInst = paperTransactions(static_cast<AccessClass>(c), table);
    s.dramTransactionsPerInst = s.insts > 0 ? dram[static_cast<size_t>(c)] / s.insts : 0;
  }
  // Shared accesses and barriers are instructions too (Eq. 12 counts them in no_total_insts).
  w.compInsts += sharedAccesses + w.synchInsts;
  w.loadBytesPerWarp = static_cast<double>(warpSize * elemBytes);
  double byClassTotal = 0;
  for (int c = 0; c < kNumInstrClasses; ++c) {
    const std::string key = "class" + std::to_string(c);
    w.compByClass[static_cast<size_t>(c)] = fits.count(key) ? std::max(0.0, fits.at(key).at(target)) : 0;
    byClassTotal += w.compByClass[static_cast<size_t>(c)];
  }
  // Keep the split consistent with the fitted total.
  if (byClassTotal > 0) {
    for (double& v : w.compByClass) v *= w.compInsts / byClassTotal;
  }
  w.compByClass[static_cast<size_t>(InstrClass::Ldst)] += 0;
  w.flopsPerThread = std::max(0.0, fits.at("flops").at(target));
  return w;
}

namespace {

/// The memory operations of kernel `kernelId` that lowerToIr() turns into IR blocks, in
/// memOps order: those with a positive per-thread count at the target, with that count.
std::vector<std::pair<size_t, double>> loweredMemOps(const InstrumentedProgram& prog, int kernelId,
                                                     const std::map<std::string, CountFit>& fits, double target) {
  std::vector<std::pair<size_t, double>> out;
  for (size_t i = 0; i < prog.memOps.size(); ++i) {
    if (prog.memOps[i].kernel != kernelId) continue;
    auto fit = fits.find("op" + std::to_string(i));
    const double count = fit == fits.end() ? 0 : std::max(0.0, fit->second.at(target));
    if (count > 0) out.emplace_back(i, count);
  }
  return out;
}

}  // namespace

/// KernelIR: one block per memory operation (executions = its per-thread count at the target;
/// lane addresses of its first execution by the sample warp) and one per computation class.
KernelIR lowerToIr(const std::string& name, int kernelId, const KernelTrace& traced, const InstrumentedProgram& prog,
                   const WorkloadSummary& w, const std::map<std::string, CountFit>& fits, double target,
                   const std::string& path) {
  KernelIR ir;
  ir.name = name;
  for (const auto& [i, count] : loweredMemOps(prog, kernelId, fits, target)) {
    const StaticMemOp& op = prog.memOps[i];
    const MemOpStats& s = traced.ops[i];
    const bool shared = op.space == OpSpace::Shared || op.space == OpSpace::SharedFill;
    Instruction in;
    in.opcode = std::string(op.isStore ? "st." : "ld.") + (shared ? "shared" : "global");
    in.cls = InstrClass::Ldst;
    in.sourceFile = path;
    in.sourceLine = op.line;
    MemoryAccess m;
    m.space = shared ? MemorySpace::Shared : MemorySpace::Global;
    m.isStore = op.isStore;
    m.widthBytes = op.bytes;
    if (!shared && op.space == OpSpace::Global) {
      const int major = static_cast<int>(std::max_element(s.warpInsts.begin(), s.warpInsts.end()) - s.warpInsts.begin());
      m.pattern = static_cast<AccessClass>(major);
    }
    for (const auto& [sop, lanes] : traced.sampleWarp) {
      if (sop == static_cast<int>(i)) {
        m.laneAddresses = lanes;
        break;
      }
    }
    in.memory = m;
    BasicBlock bb;
    const std::string arr = op.array >= 0 ? prog.arrays[static_cast<size_t>(op.array)].name : "mem";
    bb.label = fmt::format("{}_{}_line{}", op.isStore ? "store" : "load", arr, op.line);
    bb.instructions.push_back(in);
    bb.executionsPerWarp = count;
    ir.blocks.push_back(bb);
  }
  if (w.synchInsts > 0) {
    Instruction bar;
    bar.opcode = "bar.sync";
    bar.cls = InstrClass::Control;
    bar.barrier = true;
    BasicBlock bb;
    bb.label = "barrier";
    bb.instructions.push_back(bar);
    bb.executionsPerWarp = w.synchInsts;
    ir.blocks.push_back(bb);
  }
  for (int c = 0; c < kNumInstrClasses; ++c) {
    const double count = w.compByClass[static_cast<size_t>(c)];
    if (count <= 0) continue;
    Instruction in;
    in.opcode = "comp";
    in.cls = static_cast<InstrClass>(c);
    BasicBlock bb;
    bb.label = std::string("comp_") + instrClassName(in.cls);
    bb.instructions.push_back(in);
    bb.executionsPerWarp = count;
    ir.blocks.push_back(bb);
  }
  for (size_t b = 0; b + 1 < ir.blocks.size(); ++b) ir.blocks[b].successors.push_back(static_cast<int>(b + 1));
  return ir;
}

namespace {

/// Addresses of a C loop kernel's global operations at the requested size.
class CloopAddresses final : public AccessAddresses {
 public:
  struct Op {
    bool affine = false;
    long long base = 0;  ///< the array's synthetic base
    double c0 = 0, cx = 0, cy = 0, cj = 0;
    int array = -1;
    bool store = false;
    int bytes = 4;
    double count = 0;  ///< executions per thread
  };
  CloopAddresses(std::vector<Op> ops, const Launch& launch, long long extentX, long long extentY, int warpSize)
      : ops_(std::move(ops)), launch_(launch), extentX_(extentX), extentY_(extentY), warp_(warpSize) {
    // Upper bound of the footprint: per array, the hull of its operations' byte ranges (each an
    // affine image of the box tx < extentX, ty < extentY, j < count); written = its stores' hull.
    std::map<int, std::array<double, 4>> hull;  // array → read lo, hi, written lo, hi
    for (const Op& op : ops_) {
      double lo = op.c0, hi = op.c0;
      const double spans[3] = {op.cx * static_cast<double>(extentX_ - 1), op.cy * static_cast<double>(extentY_ - 1),
                               op.cj * std::max(0.0, std::ceil(op.count) - 1)};
      for (double v : spans) {
        lo += std::min(0.0, v);
        hi += std::max(0.0, v);
      }
      hi += op.bytes;
      auto [it, fresh] = hull.try_emplace(op.array, std::array<double, 4>{lo, hi, 0, 0});
      std::array<double, 4>& h = it->second;
      if (!fresh) {
        h[0] = std::min(h[0], lo);
        h[1] = std::max(h[1], hi);
      }
      if (op.store) {
        h[2] = h[3] > h[2] ? std::min(h[2], lo) : lo;
        h[3] = std::max(h[3], hi);
      }
    }
    Footprint f;
    f.exact = false;
    for (const auto& [array, h] : hull) {
      const double all = std::max(0.0, h[1] - h[0]), written = std::max(0.0, h[3] - h[2]);
      f.writtenBytes += std::min(all, written);
      f.readBytes += std::max(0.0, all - written);
    }
    if (!ops_.empty()) footprint_ = f;
  }

  [[nodiscard]] std::optional<Footprint> footprint() const override { return footprint_; }

  void lanes(int access, long long block, int warp, long long execution, std::vector<long long>& out) const override {
    out.assign(static_cast<size_t>(warp_), -1);
    if (access < 0 || access >= static_cast<int>(ops_.size())) return;
    const Op& op = ops_[static_cast<size_t>(access)];
    const long long bx = std::max<long long>(1, launch_.block.x), by = std::max<long long>(1, launch_.block.y);
    const long long gx = std::max<long long>(1, launch_.grid.x);
    for (int l = 0; l < warp_; ++l) {
      const long long t = static_cast<long long>(warp) * warp_ + l;
      if (t >= bx * by) continue;
      const long long tx = (block % gx) * bx + t % bx;
      const long long ty = (block / gx) * by + t / bx;
      if (tx >= extentX_ || ty >= extentY_) continue;
      const double offset = op.c0 + op.cx * static_cast<double>(tx) + op.cy * static_cast<double>(ty) +
                            op.cj * static_cast<double>(execution);
      out[static_cast<size_t>(l)] = op.base + std::max(0LL, std::llround(offset));
    }
  }

 private:
  std::vector<Op> ops_;
  Launch launch_;
  long long extentX_ = 1, extentY_ = 1;
  int warp_ = 32;
  std::optional<Footprint> footprint_;
};

}  // namespace

std::vector<int> attachAddressStreams(KernelIR& ir, int kernelId, const std::array<const KernelTrace*, 3>& traced,
                          const std::array<double, 3>& n, double target, const InstrumentedProgram& prog,
                          const std::map<std::string, CountFit>& fits, const Launch& launch, double extentX,
                          double extentY, int warpSize) {
  std::vector<CloopAddresses::Op> ops;
  std::vector<int> nonAffine;
  std::vector<std::vector<int>> accessOf(ir.blocks.size());
  size_t block = 0;  // lowerToIr() puts the kernel's memory operations first, in memOps order
  for (const auto& [i, count] : loweredMemOps(prog, kernelId, fits, target)) {
    const StaticMemOp& op = prog.memOps[i];
    const size_t b = block++;
    if (b >= ir.blocks.size() || (op.space != OpSpace::Global && op.space != OpSpace::GlobalToShared)) continue;
    CloopAddresses::Op a;
    a.base = static_cast<long long>(std::max(0, op.array) + 1) << 40;
    a.array = op.array;
    a.store = op.isStore;
    a.bytes = op.bytes;
    a.count = count;
    a.affine = true;
    std::array<double, 3> c0{}, cx{}, cy{}, cj{};
    for (size_t s = 0; s < 3; ++s) {
      const KernelTrace* t = traced[s];
      const bool has = t && i < t->affine.size() && t->affine[i].valid;
      a.affine = a.affine && has && op.array >= 0;
      if (!has) continue;
      c0[s] = t->affine[i].c0;
      cx[s] = t->affine[i].cx;
      cy[s] = t->affine[i].cy;
      cj[s] = t->affine[i].cj;
    }
    if (a.affine) {
      a.c0 = fitCount("c0", n, c0).at(target);
      a.cx = fitCount("cx", n, cx).at(target);
      a.cy = fitCount("cy", n, cy).at(target);
      a.cj = fitCount("cj", n, cj).at(target);
    } else {
      // Unknown addresses (data-dependent or piecewise, e.g. i % 32): like the CUDA frontend's
      // data-dependent accesses, the engine charges them to DRAM with the sample warp's sector
      // count and leaves them out of the footprint (a floor must not guess).
      nonAffine.push_back(op.line);
      MemoryAccess& m = *ir.blocks[b].instructions.front().memory;
      m.dataDependent = true;
      std::vector<long long> sectors;
      touchedSectors(m.laneAddresses, m.widthBytes, 32, sectors);
      m.transactionsPerInst = static_cast<double>(std::max<size_t>(1, sectors.size()));
      continue;
    }
    accessOf[b] = {static_cast<int>(ops.size())};
    ops.push_back(std::move(a));
  }
  const long long ex = std::max<long long>(1, std::llround(extentX));
  const long long ey = std::max<long long>(1, std::llround(extentY));
  auto addresses = std::make_shared<CloopAddresses>(std::move(ops), launch, ex, ey, warpSize);
  const long long warps = (launch.threadsPerBlock() + warpSize - 1) / std::max(1, warpSize);
  ir.streams = std::make_shared<CountedStreamSource>(ir, std::move(accessOf), std::move(addresses), launch.blocks(),
                                                     static_cast<int>(warps));
  return nonAffine;
}

}  // namespace foresight::cloop
