// SPDX-License-Identifier: Apache-2.0
/// \file
/// Layout → KernelIR + Launch.
#include "foresight/frontend/skeleton/lowering.h"

#include <cmath>
#include <memory>

namespace foresight::skeleton {

namespace {

/// A block of one instruction executed `count` times per warp (= per thread).
void addBlock(KernelIR& ir, const std::string& label, double count, InstrClass cls,
              std::optional<MemoryAccess> memory = std::nullopt, bool barrier = false) {
  if (count <= 0) return;
  BasicBlock b;
  b.label = label;
  Instruction inst;
  inst.opcode = label;
  inst.cls = cls;
  inst.memory = std::move(memory);
  inst.barrier = barrier;
  b.instructions.push_back(std::move(inst));
  b.executionsPerWarp = count;
  ir.blocks.push_back(std::move(b));
}

}  // namespace

Expected<LoweredLayout> lowerLayout(const Characterizer& ch, const Layout& layout,
                                    bool withSummary) {
  const Skeleton& sk = ch.skeleton();
  if (static_cast<int>(layout.block.size()) != sk.parallelDims ||
      static_cast<int>(layout.fold.size()) != sk.parallelDims) {
    return makeError("the layout's block and fold need one entry per parallel dimension");
  }
  auto shape = ch.prepare(layout.block, layout.fold);
  std::vector<GlobalAccess> globals;
  LoweredLayout out;
  out.stats = ch.characterize(*shape, layout, &globals);
  out.launch = launchOf(layout, sk);
  KernelIR& ir = out.kernel.ir;
  ir.name = sk.name;
  ir.resources.staticSharedBytes = out.stats.sharedBytesPerBlock;
  const LayoutStats& s = out.stats;
  addBlock(ir, "functional", s.funcInsts, InstrClass::Fp32);
  MemoryAccess shared;
  shared.space = MemorySpace::Shared;
  shared.pattern = AccessClass::Coalesced;
  addBlock(ir, "shared and register accesses", s.sharedAccessInsts, InstrClass::Ldst, shared);
  addBlock(ir, "loop management", s.loopInsts, InstrClass::Control);
  addBlock(ir, "branches", s.branchInsts, InstrClass::Control);
  addBlock(ir, "data preparation", s.dataPrepInsts, InstrClass::Int);
  addBlock(ir, "index calculation", s.indexInsts, InstrClass::Int);
  addBlock(ir, "per-thread overhead", s.overheadInsts, InstrClass::Int);
  addBlock(ir, "barrier", s.synchInsts, InstrClass::Control, std::nullopt, true);
  std::vector<std::vector<int>> accessOf(ir.blocks.size());
  for (size_t gi = 0; gi < globals.size(); ++gi) {
    const GlobalAccess& g = globals[gi];
    MemoryAccess m;
    m.space = MemorySpace::Global;
    m.isStore = g.store;
    m.widthBytes = g.widthBytes;
    m.laneAddresses = g.lanes;
    if (g.sampled) {  // averaged over sample warps: one warp's lanes would not say it
      m.pattern = g.coalesced ? AccessClass::Coalesced : AccessClass::Uncoalesced;
      m.transactionsPerInst = g.transactions;
    }
    const size_t before = ir.blocks.size();
    addBlock(ir, g.label, g.insts, InstrClass::Ldst, m);
    if (ir.blocks.size() == before) continue;
    if (g.unknownAddresses) {
      // No index data: like the CUDA frontend's data-dependent accesses, the engine charges
      // them to DRAM and leaves them out of the footprint (a floor must not guess).
      MemoryAccess& placed = *ir.blocks.back().instructions.front().memory;
      placed.dataDependent = true;
      if (withSummary) placed.transactionsPerInst = g.transactions;  // the target GPU's count
      accessOf.push_back({});
    } else {
      accessOf.push_back({static_cast<int>(gi)});
    }
  }
  // Every execution of a global statement gets its own addresses (the statement's bounded
  // regular section walked under the layout's thread mapping), so the memory engine sees the
  // skeleton's real reuse and footprint.
  if (std::shared_ptr<const AccessAddresses> addresses = ch.addresses(*shape, layout, globals)) {
    const long long warps = (out.launch.threadsPerBlock() + ch.gpu().warpSize.value - 1) / std::max(1, ch.gpu().warpSize.value);
    ir.streams = std::make_shared<CountedStreamSource>(ir, std::move(accessOf), std::move(addresses),
                                                       out.launch.blocks(), static_cast<int>(warps));
  }
  if (withSummary) out.kernel.summary = s.toWorkload();
  return out;
}

Layout defaultLayout(const Skeleton& sk, const Characterizer& ch) {
  Layout l;
  l.block.assign(sk.parallelDims, 1);
  l.fold.assign(sk.parallelDims, 1);
  l.stage.assign(ch.streams().size(), 0);
  long long budget = 256;
  for (int d = sk.parallelDims - 1; d >= 0 && budget > 1; --d) {
    long long b = 1;
    while (b * 2 <= budget && b * 2 <= sk.extent(d)) b *= 2;
    l.block[d] = static_cast<int>(b);
    budget /= b;
  }
  for (size_t s = 0; s < l.stage.size(); ++s) l.order.push_back(static_cast<int>(s));
  return l;
}

}  // namespace foresight::skeleton
