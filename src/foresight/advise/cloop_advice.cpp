// SPDX-License-Identifier: Apache-2.0
/// \file
/// CGPredict §4.4's optimization advice, each predicted by the same model on the same GPU:
/// transposition of a column-walked array, 32x32 shared-memory tiling, padding of conflicted
/// tiles (docs/input-cloop.md, "Advice").
#include "foresight/advise/cloop_advice.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "foresight/gpu/occupancy.h"
#include "foresight/model/predict.h"

namespace foresight::cloop {

namespace {

constexpr size_t kUncoal = static_cast<size_t>(AccessClass::Uncoalesced);
constexpr size_t kConst = static_cast<size_t>(AccessClass::Constant);

std::string pct(double x) { return fmt::format("{:.1f}%", 100 * x); }

}  // namespace

std::vector<Advice> adviseKernel(const AdviceContext& c) {
  std::vector<Advice> out;
  ModelOptions mo;
  mo.variant = MwpCwpVariant::CGPredict;
  Expected<Prediction> before = predict(c.input, c.launch, c.gpu, mo);
  if (!before) return out;
  const double mwp = [&] {
    for (const auto& v : before->values) if (v.name == "MWP") return v.value;
    return 0.0;
  }();
  const double cwp = [&] {
    for (const auto& v : before->values) if (v.name == "CWP") return v.value;
    return 0.0;
  }();
  // Uncoalesced and memory-bound: transpose the arrays that walk a column across the warp.
  std::map<int, double> uncoalByArray;
  for (size_t i = 0; i < c.program.memOps.size(); ++i) {
    const StaticMemOp& op = c.program.memOps[i];
    if (op.kernel != c.kernel || op.array < 0) continue;
    uncoalByArray[op.array] += c.traced.ops[i].warpInsts[static_cast<size_t>(AccessClass::Uncoalesced)];
  }
  for (const auto& [arr, n] : uncoalByArray) {
    const StaticArray& a = c.program.arrays[static_cast<size_t>(arr)];
    if (n <= 0 || a.dims.size() < 2 || c.traced.classInsts[kUncoal] < 0.25 * (c.traced.classInsts[0] + c.traced.classInsts[1] + c.traced.classInsts[2])) continue;
    if (mwp > cwp) continue;  // not memory-bound
    AnalysisOptions o = c.analysis;
    o.checkDependences = false;
    o.transposed = {arr};
    BlockResources br;
    br.threadsPerBlock = static_cast<int>(c.launch.threadsPerBlock());
    Expected<Occupancy> occ = computeOccupancy(c.gpu, br);
    if (!occ) continue;
    o.blocksPerBatch = static_cast<long long>(occ->blocksPerSm) * c.gpu.smCount.value;
    Expected<std::vector<KernelTrace>> t = analyzeTrace(c.program, c.traceFile, o, c.path);
    if (!t) continue;
    KernelTrace& tt = (*t)[static_cast<size_t>(c.kernel)];
    // Same fits; classes and misses of the transposed layout.
    KernelInput changed = c.input;
    changed.summary = summaryAt(tt, c.fits, c.target, c.program, c.kernel, c.analysis.warpSize, c.analysis.l2LineBytes);
    changed.summary->compByClass = c.input.summary->compByClass;
    Expected<Prediction> after = predict(changed, c.launch, c.gpu, mo);
    if (!after || after->seconds >= before->seconds) continue;
    Advice adv;
    adv.kind = "transpose";
    adv.secondsBefore = before->seconds;
    adv.secondsAfter = after->seconds;
    adv.message = fmt::format(
        "'{}' is read down a column across the warp (uncoalesced) and the kernel is memory-bound (MWP {:.2f} <= "
        "CWP {:.2f}): store it transposed (or interchange the loops so threadIdx.x walks its last dimension); "
        "predicted {:.2f} ms -> {:.2f} ms ({:.1f}x)",
        a.name, mwp, cwp, before->seconds * 1e3, after->seconds * 1e3, before->seconds / after->seconds);
    out.push_back(adv);
  }
  // Reusable tiles: a sequential inner loop re-reading arrays that several warps share.
  // The tiled kernel is predicted by the same model: each inner-loop read becomes a shared
  // read (X = 16 for a column walk of a 32-wide tile, else 1), each array adds one
  // global->shared load per 32 iterations and a barrier; 32x32 blocks, one tile per array.
  const double constShare = c.classShare[kConst];
  const WorkloadSummary& base = *c.input.summary;
  if (mwp <= cwp && constShare > 0.2 && base.smemLoadInsts == 0 && c.launch.block.y > 1) {
    WorkloadSummary tiled = base;
    double tiles = 0, readArrays = 0, sumX = 0, readsPerThread = 0;
    bool conflicted = false;
    for (size_t i = 0; i < c.program.memOps.size(); ++i) {
      const StaticMemOp& op = c.program.memOps[i];
      if (op.kernel != c.kernel || op.isStore || op.space != OpSpace::Global) continue;
      auto fit = c.fits.find("op" + std::to_string(i));
      if (fit == c.fits.end()) continue;
      const double perThread = fit->second.at(c.target);
      const MemOpStats& s = c.traced.ops[i];
      const double n = s.warpInsts[0] + s.warpInsts[1] + s.warpInsts[2];
      if (perThread < 32 || n <= 0) continue;  // read once per thread, not in the inner loop
      for (size_t c = 0; c < kNumAccessClasses; ++c) {
        tiled.memory[c].insts = std::max(0.0, tiled.memory[c].insts - perThread * s.warpInsts[c] / n);
      }
      const double x = s.warpInsts[kUncoal] > 0.5 * n ? 16 : 1;
      conflicted |= x > 1;
      tiles = std::max(tiles, perThread / 32);
      readArrays += 1;
      sumX += x;
      readsPerThread += perThread;
      tiled.smemLoadInsts += perThread / 32;
      tiled.smemConflictWeighted += perThread * x;
    }
    tiled.synchInsts = tiles;
    tiled.compInsts += readsPerThread + tiles;
    if (readArrays > 0) {
      KernelInput changed = c.input;
      changed.summary = tiled;
      changed.ir.streams = nullptr;  // the traced addresses belong to the untiled launch
      changed.ir.resources.staticSharedBytes = static_cast<long long>(readArrays) * 32 * 32 * 4;
      Launch launch = c.launch;
      const double ex = static_cast<double>(c.launch.grid.x * c.launch.block.x);
      const double ey = static_cast<double>(c.launch.grid.y * c.launch.block.y);
      launch.block = {32, 32, 1};
      launch.grid = {static_cast<long long>(std::ceil(ex / 32)), static_cast<long long>(std::ceil(ey / 32)), 1};
      ModelOptions tm = mo;
      tm.smemRule = c.smemLiteral ? SmemRule::PaperLiteral : SmemRule::PaperFitted;
      Expected<Prediction> after = predict(changed, launch, c.gpu, tm);
      if (after && after->seconds < before->seconds) {
        Advice adv;
        adv.kind = "shared-memory";
        adv.secondsBefore = before->seconds;
        adv.secondsAfter = after->seconds;
        adv.message = fmt::format(
            "the inner loop re-reads data that neighbouring threads share ({} of the memory instructions are "
            "constant across the warp): tile it 32x32 through shared memory (32x32 blocks, {} tiles of 4 KiB); "
            "predicted {:.2f} ms -> {:.2f} ms ({:.1f}x, {} shared-memory rule)",
            pct(constShare), readArrays, before->seconds * 1e3, after->seconds * 1e3,
            before->seconds / after->seconds, smemRuleName(tm.smemRule));
        out.push_back(adv);
        if (conflicted) {
          // Padding each tile row to 33 words puts a column walk's 32 words in 32 banks.
          WorkloadSummary padded = tiled;
          padded.smemConflictWeighted = readsPerThread;  // X = 1 for every tile read
          changed.summary = padded;
          Expected<Prediction> pad = predict(changed, launch, c.gpu, tm);
          if (pad) {
            Advice p2;
            p2.kind = "padding";
            p2.secondsBefore = after->seconds;
            p2.secondsAfter = pad->seconds;
            p2.message = fmt::format(
                "in that tiling, the tile read down a column is 16-way bank-conflicted (CGPredict's Kepler "
                "rule: 32 lanes in one bank over 16 segments): pad its rows to 33 words; predicted {:.2f} ms -> "
                "{:.2f} ms",
                after->seconds * 1e3, pad->seconds * 1e3);
            out.push_back(p2);
          }
        }
      }
    }
  }
  // Kernels that already use shared memory: bank conflicts measured on the hinted arrays.
  for (size_t i = 0; i < c.program.memOps.size(); ++i) {
    const StaticMemOp& op = c.program.memOps[i];
    const MemOpStats& s = c.traced.ops[i];
    if (op.kernel != c.kernel || op.space != OpSpace::Shared || s.sharedInsts <= 0) continue;
    const double x = s.conflictSum / s.sharedInsts;
    if (x < 2) continue;
    Advice adv;
    adv.kind = "padding";
    adv.message = fmt::format("line {}: the access to shared array '{}' is {:.0f}-way bank-conflicted on average: "
                              "pad its rows by one word",
                              op.line, op.array >= 0 ? c.program.arrays[static_cast<size_t>(op.array)].name : "?", x);
    out.push_back(adv);
  }
  return out;
}

Expected<CloopProgram> analyzeCloopWithAdvice(const std::string& path, InputOptions options,
                                              const CloopOptions& cloopOptions) {
  options.cloopAdvisor = adviseKernel;
  return analyzeCloop(path, options, cloopOptions);
}

Expected<double> predictProgramSeconds(const CloopProgram& program, const Gpu& gpu, const ModelOptions& options) {
  double total = 0;
  for (const CloopKernel& k : program.kernels) {
    Expected<Prediction> p = predict(k.input, k.launch, gpu, options);
    if (!p) return std::move(p).takeError();
    total += p->seconds * k.launches;
  }
  return total;
}

}  // namespace foresight::cloop
