// SPDX-License-Identifier: Apache-2.0
/// \file
/// Lowering a kernel launch to one SM's emulation: machine units from the GPU description,
/// warp streams, regions, and the memory costs (sectors, hit levels, wavefronts) of every op.
#include "foresight/model/emulate/emulate_lowering.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "foresight/ir/warp_stream.h"
#include "foresight/memory/bank_conflicts.h"
#include "foresight/memory/coalescing.h"
#include "foresight/memory/hierarchy.h"

namespace foresight {

const char* emulateVariantName(EmulateVariant v) { return v == EmulateVariant::Saake ? "saake" : "modern"; }

std::optional<EmulateVariant> parseEmulateVariant(const std::string& name) {
  if (name == "modern") return EmulateVariant::Modern;
  if (name == "saake") return EmulateVariant::Saake;
  return std::nullopt;
}

}  // namespace foresight

namespace foresight::emu {

namespace {

/// Unit indices of a machine (-1 = absent).
struct UnitMap {
  int pipe[kNumInstrClasses] = {-1, -1, -1, -1, -1, -1, -1};
  int shared = -1, l1 = -1, l2 = -1, dram = -1, barrier = -1;
};

/// Bytes per cycle one SM gets from a level shared by `sharers` SMs.
double bytesPerCycle(const MemoryLevel& m, const Gpu& gpu, int sharers) {
  if (!m.bandwidth || m.bandwidth->value <= 0) return 0;
  const double perSm = m.bandwidth->value / (gpu.smCount.value * gpu.clockGhz.value);
  return m.scope == Scope::Sm ? perSm : perSm * gpu.smCount.value / std::max(1, sharers);
}

double gapFor(const MemoryLevel* m, const Gpu& gpu, int sharers, double bytes) {
  if (!m) return 0;
  const double bpc = bytesPerCycle(*m, gpu, sharers);
  return bpc > 0 ? bytes / bpc : 0;
}

/// Cycles between two sectors of one SM's share of a device-wide level at its achievable
/// bandwidth for the launch's read/write mix.
double achievableGap(const MemoryLevel* m, const Gpu& gpu, int sharers, double bytes, double readShare) {
  if (!m) return 0;
  const double bw = achievableBandwidth(*m, readShare);
  if (bw <= 0) return 0;
  const double perSm = bw / (gpu.smCount.value * gpu.clockGhz.value);
  const double bpc = m->scope == Scope::Sm ? perSm : perSm * gpu.smCount.value / std::max(1, sharers);
  return bytes / bpc;
}

std::pair<EmuMachine, UnitMap> buildMachine(const Gpu& gpu, const EmulateOptions& o, int activeSms,
                                            double dramReadShare = 1.0) {
  EmuMachine m;
  UnitMap map;
  m.schedulers = std::max(1, gpu.schedulersPerSm.value);
  m.issueGap = gpu.issueWidth.value > 0 ? 1.0 / gpu.issueWidth.value : 1.0;
  m.policy = o.roundRobin ? EmuMachine::Policy::RoundRobin : EmuMachine::Policy::Gto;
  const bool modern = o.variant == EmulateVariant::Modern;
  // Not in SAAKE: a retired block's slot refills after the GPU's block overhead (retirement and
  // dispatch), as the timing model's block floor charges it (mwp_cwp.cpp).
  if (modern && gpu.blockOverheadCycles) m.blockOverhead = gpu.blockOverheadCycles->value;
  for (int c = 0; c < kNumInstrClasses; ++c) {
    const Pipeline* p = gpu.pipeline(static_cast<InstrClass>(c));
    if (!p) continue;
    UnitSpec u;
    u.name = instrClassName(static_cast<InstrClass>(c));
    u.resource = resourceOfPipe(static_cast<InstrClass>(c));
    u.latency = p->latency.value;
    u.gap = p->gap.value;
    u.scope = UnitScope::Scheduler;
    // A pipe's dispatch queue (math-pipe throttle); Algorithm 1's queues are unbounded.
    u.maxQueued = modern ? 2 : kUnbounded;
    map.pipe[c] = static_cast<int>(m.units.size());
    m.units.push_back(u);
  }
  // Not in SAAKE: the SM's barrier unit (GPU `[barrier]`) takes each arriving warp for `arrival`
  // cycles, and its block is released `latency` cycles after the last arrival was taken; the
  // engine releases a block when its warps' barrier ops are done (a lone block's back-to-back
  // barriers: latency + arrival x warps each, as measured). The per-block cost is left out.
  if (modern && gpu.barrier) {
    map.barrier = static_cast<int>(m.units.size());
    m.units.push_back({"barrier", Resource::Barrier, gpu.barrier->latency.value + gpu.barrier->arrival.value,
                       gpu.barrier->arrival.value, UnitScope::Sm, kUnbounded, 0});
  }
  const double memQueue = modern && o.memoryQueue > 0 ? o.memoryQueue : kUnbounded;
  const bool infinite = o.whatIf.infiniteBandwidth;
  if (const MemoryLevel* sh = gpu.memoryForResource("shared")) {
    UnitSpec u{"shared", Resource::Shared, sh->latency.value, 0, UnitScope::Sm, memQueue, 0};
    u.gap = infinite ? 0 : sharedWavefront(gpu).cycles;
    if (u.gap == 0 && !infinite) u.gap = 1;
    map.shared = static_cast<int>(m.units.size());
    m.units.push_back(u);
  }
  const MemoryLevel* l1 = gpu.memoryForResource("l1");
  const MemoryLevel* l2 = gpu.memoryForResource("l2");
  const MemoryLevel* dram = gpu.memoryForResource("dram");
  if (modern) {
    if (l1) {
      const double sector = l1->sector ? l1->sector->value : 32;
      map.l1 = static_cast<int>(m.units.size());
      m.units.push_back({"l1", Resource::L1, l1->latency.value, infinite ? 0 : gapFor(l1, gpu, activeSms, sector), UnitScope::Sm, memQueue, 0});
    }
    if (l2) {
      const double sector = l2->sector ? l2->sector->value : 32;
      map.l2 = static_cast<int>(m.units.size());
      m.units.push_back({"l2", Resource::L2, averageHitLatency(*l2), infinite ? 0 : achievableGap(l2, gpu, activeSms, sector, 1.0), UnitScope::Sm, memQueue, 0});
    }
    if (dram) {
      const double sector = dram->sector ? dram->sector->value : 32;
      map.dram = static_cast<int>(m.units.size());
      m.units.push_back({"dram", Resource::Dram, dram->latency.value, infinite ? 0 : achievableGap(dram, gpu, activeSms, sector, dramReadShare), UnitScope::Sm, memQueue, 0});
    }
  } else {
    // SAAKE: one global-memory resource "gm" per SM (128-B transactions), L2 only with a rate.
    if (dram) {
      map.dram = static_cast<int>(m.units.size());
      m.units.push_back({"gm", Resource::Dram, dram->latency.value, infinite ? 0 : gapFor(dram, gpu, activeSms, 128), UnitScope::Sm, kUnbounded, 0});
    }
    if (l2 && o.l2HitRate) {
      map.l2 = static_cast<int>(m.units.size());
      m.units.push_back({"l2", Resource::L2, l2->latency.value, infinite ? 0 : gapFor(l2, gpu, activeSms, 128), UnitScope::Sm, kUnbounded, 0});
    }
  }
  return {m, map};
}

bool isGlobalLike(MemorySpace s) {
  return s == MemorySpace::Global || s == MemorySpace::Local || s == MemorySpace::Texture;
}

int activeLanes(const std::vector<long long>& lanes) {
  int n = 0;
  for (long long a : lanes) n += a >= 0 ? 1 : 0;
  return n;
}

/// Integer instructions whose results feed only integer or memory instructions (addresses).
std::vector<std::vector<bool>> addressArithmetic(const KernelIR& ir) {
  std::unordered_map<int, bool> readByOther;  // register → read by a non-int, non-memory instr
  for (const BasicBlock& b : ir.blocks) {
    for (const Instruction& in : b.instructions) {
      if (in.cls == InstrClass::Int || in.memory) continue;
      for (int r : in.src) readByOther[r] = true;
    }
  }
  std::vector<std::vector<bool>> out(ir.blocks.size());
  for (size_t b = 0; b < ir.blocks.size(); ++b) {
    for (const Instruction& in : ir.blocks[b].instructions) {
      bool address = in.cls == InstrClass::Int && !in.memory && !in.barrier && !in.dst.empty();
      for (int r : in.dst) address = address && !readByOther.count(r);
      out[b].push_back(address);
    }
  }
  return out;
}

/// Marks the instructions WhatIf::removed lists (those out of range are ignored).
void removeListed(const std::vector<std::pair<int, int>>& listed, std::vector<std::vector<bool>>& removed) {
  for (const auto& [block, index] : listed) {
    if (block < 0 || static_cast<size_t>(block) >= removed.size()) continue;
    std::vector<bool>& row = removed[static_cast<size_t>(block)];
    if (index >= 0 && static_cast<size_t>(index) < row.size()) row[static_cast<size_t>(index)] = true;
  }
}

}  // namespace

KernelIR kernelFromSummary(const WorkloadSummary& s, const std::string& name) {
  KernelIR ir;
  ir.name = name;
  const int widthBytes = std::max(1, static_cast<int>(std::lround(s.loadBytesPerWarp / 32)));
  // Phases: one per barrier (a tiled loop), else one. Each phase issues its loads back to back
  // (k per class), then computation that reads them (Hong & Kim's memory then computation
  // periods); a class with n loads per thread runs k = max(1, round(n / phases)) instructions
  // n / k times.
  const double phases = std::max(1.0, std::round(s.synchInsts));
  BasicBlock loads;
  loads.label = "loads";
  std::vector<int> loaded;
  double loadExecutions = 0;
  int nextReg = 0;
  for (int c = 0; c < kNumAccessClasses; ++c) {
    const MemoryClassStats& m = s.memory[c];
    if (m.insts <= 0) continue;
    const int k = std::max(1, static_cast<int>(std::lround(m.insts / phases)));
    for (int i = 0; i < k; ++i) {
      Instruction in;
      in.opcode = std::string("ld.global.") + accessClassName(static_cast<AccessClass>(c));
      in.cls = InstrClass::Ldst;
      in.dst = {nextReg};
      loaded.push_back(nextReg++);
      MemoryAccess acc;
      acc.widthBytes = std::clamp(widthBytes, 1, 16);
      acc.pattern = static_cast<AccessClass>(c);
      acc.transactionsPerInst = m.transactionsPerInst;
      in.memory = acc;
      loads.instructions.push_back(in);
    }
    loadExecutions = std::max(loadExecutions, m.insts / k);
  }
  if (!loads.instructions.empty()) {
    loads.executionsPerWarp = loadExecutions;
    ir.blocks.push_back(loads);
  }
  bool any = false;
  for (double v : s.compByClass) any = any || v > 0;
  const double nonBarrier = std::max(0.0, s.compInsts - s.synchInsts);
  for (int c = 0; c < kNumInstrClasses; ++c) {
    const double count = any ? s.compByClass[c] : (c == 0 ? nonBarrier : 0);
    if (count <= 0 || static_cast<InstrClass>(c) == InstrClass::Control) continue;
    BasicBlock b;
    b.label = std::string("comp-") + instrClassName(static_cast<InstrClass>(c));
    Instruction in;
    in.opcode = "comp";
    in.cls = static_cast<InstrClass>(c);
    in.src = loaded;  // computation depends on the phase's loads
    in.dst = {nextReg++};
    b.instructions.push_back(in);
    b.executionsPerWarp = count;
    ir.blocks.push_back(b);
  }
  if (s.synchInsts > 0) {
    BasicBlock b;
    b.label = "barrier";
    Instruction in;
    in.opcode = "bar.sync";
    in.cls = InstrClass::Control;
    in.barrier = true;
    b.instructions.push_back(in);
    b.executionsPerWarp = s.synchInsts;
    ir.blocks.push_back(b);
  }
  return ir;
}

Expected<EmulationBuilder> EmulationBuilder::create(const KernelInput& kernel, const Launch& launch,
                                                    const Gpu& gpu, const EmulateOptions& options) {
  EmulationBuilder b;
  b.cache_ = std::make_shared<StreamCache>();
  b.launch_ = launch;
  b.gpu_ = &gpu;
  b.options_ = options;
  b.ir_ = kernel.ir;
  if (b.ir_.blocks.empty() && !b.ir_.streams) {
    if (!kernel.summary) return makeError("kernel '" + kernel.ir.name + "' has neither instructions nor a workload summary");
    b.ir_ = kernelFromSummary(*kernel.summary, kernel.ir.name);
    b.ir_.resources = kernel.ir.resources;
    b.notes_.push_back("emulate: stream synthesized from the workload summary (no instruction order or addresses)");
  }
  Expected<Occupancy> occ = computeOccupancy(gpu, blockResources(b.ir_.resources, launch));
  if (!occ) return std::move(occ).takeError();
  b.occupancy_ = *occ;
  b.blocksPerSm_ = occ->blocksPerSm;
  if (options.whatIf.fullOccupancy) {
    b.blocksPerSm_ = std::min({occ->limitByWarps, occ->limitByThreads, occ->limitByBlocks});
  }
  // Regions: contiguous source-line ranges (≤ 4, balanced by dynamic instructions), else blocks.
  std::map<std::pair<std::string, int>, double> lineWeight;
  for (const BasicBlock& bb : b.ir_.blocks) {
    for (const Instruction& in : bb.instructions) {
      if (in.sourceLine > 0) lineWeight[{in.sourceFile, in.sourceLine}] += bb.executionsPerWarp;
    }
  }
  b.region_.resize(b.ir_.blocks.size());
  if (lineWeight.size() >= 2) {
    double total = 0;
    for (const auto& [k, w] : lineWeight) total += w;
    std::map<std::pair<std::string, int>, int> lineRegion;
    int region = 0;
    double acc = 0;
    std::pair<std::string, int> first = lineWeight.begin()->first;
    std::pair<std::string, int> last = first;
    for (const auto& [k, w] : lineWeight) {
      if (region < 3 && acc >= total * (region + 1) / 4.0 && k.second != last.second) {
        b.regionNames_.push_back(first.first + ":" + std::to_string(first.second) + "-" + std::to_string(last.second));
        ++region;
        first = k;
      }
      lineRegion[k] = region;
      acc += w;
      last = k;
    }
    b.regionNames_.push_back(first.first + ":" + std::to_string(first.second) + "-" + std::to_string(last.second));
    for (size_t i = 0; i < b.ir_.blocks.size(); ++i) {
      int prev = 0;
      for (const Instruction& in : b.ir_.blocks[i].instructions) {
        auto it = lineRegion.find({in.sourceFile, in.sourceLine});
        prev = it == lineRegion.end() ? prev : it->second;
        b.region_[i].push_back(prev);
      }
    }
  } else {
    const int n = static_cast<int>(b.ir_.blocks.size());
    const int groups = std::min(4, std::max(1, n));
    for (int g = 0; g < groups; ++g) {
      const int lo = g * n / groups, hi = (g + 1) * n / groups - 1;
      const std::string a = n > 0 ? b.ir_.blocks[lo].label : "all";
      const std::string z = n > 0 ? b.ir_.blocks[std::max(lo, hi)].label : "all";
      b.regionNames_.push_back(lo >= hi ? a : a + ".." + z);
    }
    for (int i = 0; i < n; ++i) {
      b.region_[i].assign(b.ir_.blocks[i].instructions.size(), std::min(groups - 1, i * groups / std::max(1, n)));
    }
  }
  if (b.regionNames_.empty()) b.regionNames_.push_back("all");
  if (options.variant == EmulateVariant::Modern) {
    MemoryAnalysisOptions mo;
    mo.l1HitRate = options.l1HitRate;
    mo.l2HitRate = options.l2HitRate;
    if (options.memory && !options.l1HitRate && !options.l2HitRate) {
      b.memory_ = options.memory;
    } else {
      Expected<MemoryTraffic> traffic = analyzeMemory(b.ir_, kernel.summary ? &*kernel.summary : nullptr, launch, gpu, mo);
      if (!traffic) return std::move(traffic).takeError();
      b.memory_ = std::make_shared<const MemoryTraffic>(std::move(*traffic));
    }
    for (size_t s = 0; s < b.memory_->sites.size(); ++s) {
      b.siteIndex_[{b.memory_->sites[s].block, b.memory_->sites[s].index}] = static_cast<int>(s);
    }
  }
  if (options.whatIf.noAddressArithmetic) {
    b.removed_ = addressArithmetic(b.ir_);
  } else {
    b.removed_.resize(b.ir_.blocks.size());
    for (size_t i = 0; i < b.ir_.blocks.size(); ++i) b.removed_[i].assign(b.ir_.blocks[i].instructions.size(), false);
  }
  removeListed(options.whatIf.removed, b.removed_);
  return b;
}

Expected<const CachedStream*> EmulationBuilder::cachedStream(long long block, int warp) const {
  {
    std::lock_guard<std::mutex> lock(cache_->mutex);
    auto it = cache_->streams.find({block, warp});
    if (it != cache_->streams.end()) return &it->second;
  }
  // Generated outside the lock, so that warps are run side by side (a stream is a function of
  // (block, warp): a warp generated twice at once keeps the first copy, which is the same).
  Expected<SampledStream> s = ir_.streams->sampled(block, warp, {kCachedBudget, kSampleWindow});
  if (!s) return std::move(s).takeError();
  std::lock_guard<std::mutex> lock(cache_->mutex);
  return &cache_->streams.emplace(std::make_pair(block, warp), std::move(*s)).first->second;
}

EmulationBuilder EmulationBuilder::withOptions(const EmulateOptions& options) const {
  EmulationBuilder b = *this;
  b.options_ = options;
  b.blocksPerSm_ = occupancy_.blocksPerSm;
  if (options.whatIf.fullOccupancy) {
    b.blocksPerSm_ = std::min({occupancy_.limitByWarps, occupancy_.limitByThreads, occupancy_.limitByBlocks});
  }
  if (options.whatIf.noAddressArithmetic) {
    b.removed_ = addressArithmetic(b.ir_);
  } else {
    for (size_t i = 0; i < b.removed_.size(); ++i) b.removed_[i].assign(b.removed_[i].size(), false);
  }
  removeListed(options.whatIf.removed, b.removed_);
  return b;
}

Expected<LoweredSm> EmulationBuilder::build(int slots, int activeSms, int emulatedBlocks) const {
  const int blocksPerSm = std::max(slots, emulatedBlocks);
  const Gpu& gpu = *gpu_;
  LoweredSm out;
  double dramReadShare = 1.0;
  if (memory_ && memory_->dramReadSectors + memory_->dramWriteSectors > 0) {
    dramReadShare = memory_->dramReadSectors / (memory_->dramReadSectors + memory_->dramWriteSectors);
  }
  auto [machine, map] = buildMachine(gpu, options_, activeSms, dramReadShare);
  out.machine = std::move(machine);
  out.blocks = slots;
  out.activeSms = activeSms;
  const bool modern = options_.variant == EmulateVariant::Modern;
  const int warpSize = std::max(1, gpu.warpSize.value);
  const long long threads = launch_.threadsPerBlock();
  const int warpsPerBlock = static_cast<int>((threads + warpSize - 1) / warpSize);
  const long long totalBlocks = launch_.blocks();
  const int totalWarps = blocksPerSm * warpsPerBlock;
  const long long cap = std::max<long long>(128, options_.maxOpsPerRun / std::max(1, totalWarps));

  // Streams of every emulated warp (stream_sampling.h): resident blocks of SM 0 are blocks 0,
  // S, 2S, ... (the block scheduler deals blocks round robin over the S active SMs).
  StreamSelection selection{blocksPerSm, activeSms, warpsPerBlock, totalBlocks, cap};
  Expected<EmulatedStreams> selected = selectEmulatedStreams(
      ir_, selection, [this](long long block, int warp) { return cachedStream(block, warp); });
  if (!selected) return std::move(selected).takeError();
  std::vector<std::vector<DynamicInstruction>> streams = std::move(selected->streams);
  const std::vector<int> warpBlock = std::move(selected->warpBlock);
  out.scale = selected->scale;
  out.gridWeight = selected->gridWeight;
  out.sampledWindows = selected->windows;

  // Static instructions and dense registers.
  std::map<std::pair<int, int>, int> instrIndex;
  std::unordered_map<int, int> regIndex;
  auto reg = [&](int r) {
    auto [it, inserted] = regIndex.emplace(r, static_cast<int>(regIndex.size()));
    return it->second;
  };
  out.program.regions = regionNames_;
  auto instrOf = [&](int b, int i) {
    auto it = instrIndex.find({b, i});
    if (it != instrIndex.end()) return it->second;
    const Instruction& in = ir_.blocks[b].instructions[i];
    EmuInstr e;
    for (int r : in.src) e.src.push_back(reg(r));
    for (int r : in.dst) e.dst.push_back(reg(r));
    e.barrier = in.barrier;
    e.region = region_[b][i];
    if (options_.variant == EmulateVariant::Modern) {
      e.issueStall = in.stallCycles;
      // Not in SAAKE: a global store is posted (the L2 takes it; no warp or block slot waits).
      e.posted = in.memory && in.memory->isStore && isGlobalLike(in.memory->space);
    }
    e.label = in.opcode;
    e.irBlock = b;
    e.irIndex = i;
    const int idx = static_cast<int>(out.program.instrs.size());
    out.program.instrs.push_back(std::move(e));
    instrIndex[{b, i}] = idx;
    return idx;
  };

  // Where each global site's sectors are served: the memory-hierarchy engine (one analysis per
  // kernel, shared by the what-if builders).
  const MemoryLevel* shLevel = gpu.memoryForResource("shared");
  const long long sectorBytes = static_cast<long long>(memory_ ? memory_->sectorBytes : 32);
  const double sectorsPerLine = sectorsPerL1Line(gpu, static_cast<double>(sectorBytes));
  const bool l1Tags = l1TagStage(gpu).has_value();
  auto siteRates = [&](int b, int i) -> const SiteTraffic* {
    if (!memory_) return nullptr;
    auto it = siteIndex_.find({b, i});
    return it == siteIndex_.end() ? nullptr : &memory_->sites[static_cast<size_t>(it->second)];
  };

  // Ops, visited round robin over warps so the caches see an interleaved access order.
  out.program.warps.resize(streams.size());
  for (size_t w = 0; w < streams.size(); ++w) {
    out.program.warps[w].block = warpBlock[w];
    out.program.warps[w].after = warpBlock[w] >= slots ? warpBlock[w] - slots : -1;
    out.program.warps[w].ops.reserve(streams[w].size());
  }
  size_t longest = 0;
  for (const auto& s : streams) longest = std::max(longest, s.size());
  for (size_t j = 0; j < longest; ++j) {
    for (size_t w = 0; w < streams.size(); ++w) {
      if (j >= streams[w].size()) continue;
      const DynamicInstruction& d = streams[w][j];
      if (removed_[d.block][d.index]) continue;
      const Instruction& in = ir_.blocks[d.block].instructions[d.index];
      EmuOp op;
      op.instr = instrOf(d.block, d.index);
      auto addUse = [&](int unit, double count) {
        if (unit < 0 || count <= 0 || op.numUses >= static_cast<int>(op.uses.size())) return;
        op.uses[op.numUses++] = {unit, count};
      };
      const InstrClass cls = in.memory ? InstrClass::Ldst : (in.barrier ? InstrClass::Control : in.cls);
      int pipe = map.pipe[static_cast<int>(cls)];
      if (pipe < 0) pipe = map.pipe[static_cast<int>(InstrClass::Fp32)];
      // A register-bank conflict reads the operands over `degree` cycles (Instruction::bankConflictDegree).
      // A matrix instruction holds its pipe for its work (Instruction::pipeWork).
      const int degree = options_.whatIf.conflictFreeRegisters ? 1 : std::max(1, in.bankConflictDegree);
      addUse(pipe, in.memory ? 1 : degree * in.pipeWork);
      if (in.barrier) addUse(map.barrier, 1);
      // An execution whose lanes are all predicated off (`@P1 LDG` with P1 false everywhere)
      // issues and moves no data, as the memory engine counts it.
      if (in.memory && d.activeMask != 0) {
        const MemoryAccess& m = *in.memory;
        const std::vector<long long>& lanes = d.laneAddresses.empty() ? m.laneAddresses : d.laneAddresses;
        if (m.space == MemorySpace::Shared) {
          double wavefronts = m.wavefrontsPerInst > 0 ? m.wavefrontsPerInst : 1;
          if (!lanes.empty()) {
            BankOptions bo;
            if (shLevel && shLevel->banks) bo.numBanks = shLevel->banks->value;
            if (shLevel && shLevel->bankWidth) bo.bankWidthBytes = shLevel->bankWidth->value;
            Expected<BankConflicts> bc = countBankConflicts(lanes, m.widthBytes, bo);
            if (bc) wavefronts = options_.whatIf.conflictFreeShared ? bc->conflictFree : bc->wavefronts;
          } else if (options_.whatIf.conflictFreeShared) {
            wavefronts = std::max(1.0, m.widthBytes / 4.0);  // 32 lanes x width / 128 B
          }
          wavefronts = std::max(wavefronts, 0.0);
          out.sharedRequests += 1;
          out.wavefronts += wavefronts;
          addUse(map.shared, wavefronts);
        } else if (m.space == MemorySpace::Constant) {
          // Constant cache: served near the SM, like an L1 hit of one sector per distinct address.
          addUse(map.l1, 1);
        } else if (isGlobalLike(m.space)) {
          out.globalRequests += 1;
          std::vector<long long> sectors;
          double count = 0, minimum = 0;
          if (!lanes.empty()) {
            touchedSectors(lanes, m.widthBytes, sectorBytes, sectors);
            count = static_cast<double>(sectors.size());
            minimum = std::ceil(static_cast<double>(activeLanes(lanes)) * m.widthBytes / static_cast<double>(sectorBytes));
          } else {
            const AccessClass pc = m.pattern.value_or(AccessClass::Coalesced);
            minimum = pc == AccessClass::Constant ? 1 : std::ceil(static_cast<double>(warpSize) * m.widthBytes / static_cast<double>(sectorBytes));
            count = pc == AccessClass::Uncoalesced ? warpSize : minimum;
          }
          if (m.transactionsPerInst) count = *m.transactionsPerInst;
          const bool uncoalesced = count > minimum + 1e-9;
          if (!modern) {
            // SAAKE: one transaction if coalesced, one per lane otherwise (saake.md §5.5; the
            // sector count decides which when addresses are known).
            const bool uncoal = lanes.empty() ? m.pattern == AccessClass::Uncoalesced : uncoalesced;
            const double tx = uncoal && !options_.whatIf.perfectCoalescing ? warpSize : 1;
            const double h = options_.whatIf.allL2Hits ? 1.0 : options_.l2HitRate.value_or(0);
            out.sectors += tx;
            out.l2Hits += tx * h;
            out.dramSectors += tx * (1 - h);
            if (map.l2 >= 0) addUse(map.l2, tx * h);
            addUse(map.dram, tx * (1 - h));
          } else {
            const double coalesce = options_.whatIf.perfectCoalescing && count > 0 ? std::min(1.0, std::max(minimum, 1.0) / count) : 1.0;
            double inL1 = 0, inL2 = 0, inDram = 0;
            const SiteTraffic* site = siteRates(d.block, d.index);
            if (m.isStore) {
              // Write-through L1 (no allocate), write-back L2: the engine says which stores add
              // a DRAM write-back; the what-if keeps everything in L2.
              inL2 = count;
              const double wb = site && site->sectors > 0 ? site->dramSectors / site->sectors : 1.0;
              inDram = options_.whatIf.allL2Hits ? 0 : count * wb;
            } else if (options_.whatIf.allL1Hits) {
              inL1 = count;
            } else {
              double h1 = m.pattern == AccessClass::Constant && lanes.empty() ? 1.0 : 0.0;
              double h2 = 0;
              if (site) {
                h1 = site->l1HitRate();
                h2 = site->l2HitRate();
              }
              if (options_.l1HitRate) h1 = *options_.l1HitRate;
              if (options_.l2HitRate) h2 = *options_.l2HitRate;
              if (options_.whatIf.allL2Hits) h2 = 1.0;
              inL1 = count * h1;
              inL2 = count * (1 - h1) * h2;
              inDram = count * (1 - h1) * (1 - h2);
            }
            if (coalesce < 1.0) {
              // Fewer sectors requested, the same data: what DRAM serves (each distinct sector
              // once, however many requests touched it) stays, up to the sectors left; the hits
              // shrink to the rest, in their proportion.
              const double kept = count * coalesce;
              const double dram = std::min(inDram, kept);
              const double hits = inL1 + (m.isStore ? 0 : inL2);
              const double scale = hits > 0 ? (kept - dram) / hits : 0;
              inL1 *= scale;
              inL2 = m.isStore ? kept : inL2 * scale;
              inDram = dram;
            }
            out.sectors += count * coalesce;
            out.l1Hits += inL1;
            out.l2Hits += m.isStore ? 0 : inL2;
            out.dramSectors += inDram;
            // Every sector passes L1's data path, a request at least a line per distinct line
            // it touches (the engine's wavefronts); misses and stores occupy L2; DRAM its own.
            // With a tag stage the sectors that hit are read in the requests' bank wavefronts
            // (l1LoadWavefronts()): only the filled ones count as sectors beside them.
            double l1Sectors = count * coalesce;
            if (site && site->requests > 0 && site->wavefronts > 0 && !options_.whatIf.perfectCoalescing) {
              const double filled = l1Tags ? l1Sectors - inL1 : l1Sectors;
              l1Sectors = std::max(filled, site->wavefronts / site->requests * sectorsPerLine);
            }
            addUse(map.l1, l1Sectors);
            addUse(map.l2, m.isStore ? inL2 : inL2 + inDram);
            // A load miss reads the L2's fetch granularity from DRAM: the engine's DRAM read
            // sectors per L2 miss of the site (SiteTraffic::dramFetchPerMiss).
            const bool fetches = site && !m.isStore && !options_.l2HitRate && !options_.whatIf.allL2Hits;
            addUse(map.dram, inDram * (fetches ? site->dramFetchPerMiss : 1.0));
            if (map.l1 < 0 && map.l2 < 0 && map.dram < 0) addUse(map.pipe[static_cast<int>(InstrClass::Ldst)], 0);
          }
        }
      }
      out.program.warps[w].ops.push_back(op);
    }
  }
  out.program.numRegisters = static_cast<int>(regIndex.size());
  return out;
}

}  // namespace foresight::emu
