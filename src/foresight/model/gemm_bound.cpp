// SPDX-License-Identifier: Apache-2.0
/// \file
/// Lai's SGEMM upper bound (Eqs. 4.1–4.11) and its generalisation: constraint checks per tile,
/// a search over the feasible tiles, the better of two tiles by bound then headroom.
#include "foresight/model/gemm_bound.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "foresight/gpu/occupancy.h"

namespace foresight {

namespace {

constexpr int kLdsWidths[] = {32, 64, 128};

/// The GPU's rates the bound needs, per SM and cycle unless named otherwise.
struct Machine {
  double peakGflops = 0;       ///< SMs × FP32 lanes × 2 flops × clock
  double dramGBs = 0;          ///< DRAM bandwidth, GB/s
  double l2GBs = 0;            ///< L2 bandwidth, GB/s; 0 = the description gives none
  double issue = 0;            ///< warp instructions issued per cycle per SM
  double fp32 = 0;             ///< FP32 warp instructions per cycle per SM
  double ldst = 0;             ///< LD/ST warp instructions per cycle per SM
  double wavefronts = 0;       ///< shared-memory wavefronts (128 B) per cycle per SM; 0 = unknown
  double flopsPerWarpCycle = 0;  ///< GFLOPS of one FP32 warp instruction per cycle on every SM
};

Expected<Machine> machineOf(const Gpu& gpu) {
  Machine m;
  const Pipeline* fp32 = gpu.pipeline(InstrClass::Fp32);
  const Pipeline* ldst = gpu.pipeline(InstrClass::Ldst);
  if (!fp32 || !ldst) return makeError("GPU '" + gpu.name + "' describes no FP32 or LD/ST pipeline");
  const MemoryLevel* dram = gpu.memoryForResource("dram");
  if (!dram || !dram->bandwidth || dram->bandwidth->value <= 0) {
    return makeError("GPU '" + gpu.name + "' gives no DRAM bandwidth ([memory.dram] bandwidth)");
  }
  const double schedulers = gpu.schedulersPerSm.value;
  m.issue = schedulers * gpu.issueWidth.value;
  m.fp32 = schedulers / fp32->gap.value;
  m.ldst = schedulers / ldst->gap.value;
  m.flopsPerWarpCycle = gpu.warpSize.value * 2.0 * gpu.smCount.value * gpu.clockGhz.value;
  m.peakGflops = m.fp32 * m.flopsPerWarpCycle;
  m.dramGBs = dram->bandwidth->value;
  if (const MemoryLevel* l2 = gpu.memoryForResource("l2"); l2 && l2->bandwidth) m.l2GBs = l2->bandwidth->value;
  if (const MemoryLevel* shared = gpu.memoryForResource("shared"); shared && shared->bandwidth) {
    m.wavefronts = shared->bandwidth->value / (gpu.smCount.value * gpu.clockGhz.value) / 128.0;
  }
  return m;
}

/// One evaluated tile: its bound, or why it is infeasible.
struct Evaluation {
  GemmBound bound;
  std::string infeasible;  ///< "" when every constraint holds
};

bool isSquare(int x, int& root) {
  root = static_cast<int>(std::lround(std::sqrt(static_cast<double>(x))));
  return root * root == x;
}

/// Eqs. 4.1–4.11 for one tile (tileM = tileN = B_R, T_B a square).
Evaluation evaluateLai(const Gpu& gpu, const Machine& machine, const GemmTile& t, const GemmBoundOptions& o) {
  Evaluation e;
  GemmBound& b = e.bound;
  b.variant = GemmBoundVariant::Lai;
  b.tile = t;
  const int br = t.tileM;
  int root = 0;
  if (t.tileM != t.tileN) return e.infeasible = "the thesis' tile is square (B_R × B_R); use --variant general", e;
  if (t.stages != 1) return e.infeasible = "the thesis stages A and B once per k-step (stages = 1)", e;
  if (!isSquare(t.threadsPerBlock, root)) {
    return e.infeasible = fmt::format("B_Sh = √(T_B·B_R²) (Eq. 4.7) needs T_B a square; {} is not", t.threadsPerBlock), e;
  }
  const int bsh = br * root;  // (4.7)
  b.blockTileM = b.blockTileN = bsh;
  const long long staged = static_cast<long long>(bsh) * t.depth;
  if (staged % t.threadsPerBlock != 0) {  // (4.4)
    return e.infeasible = fmt::format("(B_Sh·L) mod T_B = ({}·{}) mod {} ≠ 0 (Eq. 4.4)", bsh, t.depth, t.threadsPerBlock), e;
  }
  b.registers.accumulators = br * br;
  b.registers.prefetch = static_cast<int>(2 * staged / t.threadsPerBlock);
  b.registers.fragments = br + 1;
  b.registers.addresses = o.addressRegisters;
  const int rt = b.registers.total();  // (4.5)
  const int rmax = gpu.limits.registersPerThread.value;
  if (rt > rmax) return e.infeasible = fmt::format("R_T = {} registers > R_Max = {} (Eqs. 4.1, 4.5)", rt, rmax), e;
  if (t.threadsPerBlock > gpu.limits.threadsPerBlock.value) {
    return e.infeasible = fmt::format("T_B = {} > {} threads per block", t.threadsPerBlock, gpu.limits.threadsPerBlock.value), e;
  }
  // Blk: as many blocks as (4.2), (4.6) and the SM's thread and block limits allow.
  const long long sharedPerBlock = 2 * staged * 4;
  const long long byRegisters = gpu.limits.registersPerSm.value / (static_cast<long long>(t.threadsPerBlock) * rt);
  const long long byShared = gpu.limits.sharedPerSm.value / sharedPerBlock;
  const long long byThreads = gpu.limits.threadsPerSm.value / t.threadsPerBlock;
  const long long blk = std::min({byRegisters, byShared, byThreads, static_cast<long long>(gpu.limits.blocksPerSm.value)});
  if (byRegisters < 1) {
    return e.infeasible = fmt::format("T_B·R_T = {}·{} > R_SM = {} (Eq. 4.2)", t.threadsPerBlock, rt, gpu.limits.registersPerSm.value), e;
  }
  if (byShared < 1) {
    return e.infeasible = fmt::format("2·B_Sh·L·4 B = {} B > Sh_SM = {} B (Eq. 4.6)", sharedPerBlock, gpu.limits.sharedPerSm.value), e;
  }
  if (blk < 1) return e.infeasible = "no block fits on an SM", e;
  b.blocksPerSm = static_cast<int>(blk);
  b.sharedBytesPerSm = blk * sharedPerBlock;
  const Param<double>* ft = gpu.sgemmMix ? gpu.sgemmMix->forWidth(t.ldsBits) : nullptr;
  if (!ft) {
    return e.infeasible = fmt::format("GPU '{}' has no measured F_T for {}-bit shared loads ([sgemm_mix] lds{})", gpu.name,
                                      t.ldsBits, t.ldsBits),
           e;
  }
  b.ffmaShare = gemmFfmaShare(br, br, t.ldsBits);
  b.mixThroughput = ft->value;
  b.mixSource = ft->source.str();
  b.peakGflops = machine.peakGflops;
  // (4.10); a measured F_T above 1 (loads in spare issue slots) cannot lift FFMA past the peak.
  b.smBoundGflops = std::min(b.peakGflops, b.ffmaShare * b.mixThroughput * b.peakGflops);
  b.memBoundGflops = machine.dramGBs * bsh / 4.0;                   // (4.8)
  b.boundGflops = std::min(b.smBoundGflops, b.memBoundGflops);      // (4.11)
  b.binding = b.smBoundGflops <= b.memBoundGflops ? "instruction mix" : "dram";
  return e;
}

/// The generalised bound for one tile and one thread arrangement (threadsM × threadsN).
Evaluation evaluateGeneral(const Gpu& gpu, const Machine& machine, const GemmTile& t, int threadsM,
                           const GemmBoundOptions& o) {
  Evaluation e;
  GemmBound& b = e.bound;
  b.variant = GemmBoundVariant::General;
  b.tile = t;
  const int vec = t.ldsBits / 32;
  if (t.tileM % vec != 0 || t.tileN % vec != 0) {
    return e.infeasible = fmt::format("{}-bit shared loads need a {}×{} tile whose sides are multiples of {}", t.ldsBits,
                                      t.tileM, t.tileN, vec),
           e;
  }
  if (threadsM < 1 || t.threadsPerBlock % threadsM != 0) return e.infeasible = "threads do not tile the block", e;
  const int threadsN = t.threadsPerBlock / threadsM;
  b.blockTileM = threadsM * t.tileM;
  b.blockTileN = threadsN * t.tileN;
  const long long staged = static_cast<long long>(b.blockTileM + b.blockTileN) * t.depth;
  if (staged % t.threadsPerBlock != 0) {
    return e.infeasible = fmt::format("(BM + BN)·L = {} elements do not split evenly over {} threads", staged, t.threadsPerBlock), e;
  }
  b.registers.accumulators = t.tileM * t.tileN;
  b.registers.prefetch = static_cast<int>(staged / t.threadsPerBlock);
  // The A column (m) and the B elements one shared load brings (ldsBits / 32), per buffer.
  b.registers.fragments = (t.tileM + vec) * o.fragmentBuffers;
  b.registers.addresses = o.addressRegisters;
  const int rt = b.registers.total();
  if (rt > gpu.limits.registersPerThread.value) {
    return e.infeasible = fmt::format("R_T = {} registers > {} per thread", rt, gpu.limits.registersPerThread.value), e;
  }
  const long long sharedPerBlock = static_cast<long long>(t.stages) * staged * 4;
  BlockResources block;
  block.threadsPerBlock = t.threadsPerBlock;
  block.registersPerThread = rt;
  block.sharedPerBlock = sharedPerBlock;
  Expected<Occupancy> occ = computeOccupancy(gpu, block);
  if (!occ) return e.infeasible = occ.error().message, e;
  if (occ->blocksPerSm < 1) return e.infeasible = "no block fits on an SM", e;
  b.blocksPerSm = occ->blocksPerSm;
  b.sharedBytesPerSm = occ->blocksPerSm * sharedPerBlock;
  b.peakGflops = machine.peakGflops;
  b.ffmaShare = gemmFfmaShare(t.tileM, t.tileN, t.ldsBits, o.overheadPerKStep);
  // Per k-step and warp: m·n FFMA, (m + n)·F_I shared loads, the overhead; each pipe's cycles.
  const double ffma = static_cast<double>(t.tileM) * t.tileN;
  const double lds = (t.tileM + t.tileN) * 32.0 / t.ldsBits;
  const double insts = ffma + lds + o.overheadPerKStep;
  if (const Param<double>* ft = gpu.sgemmMix ? gpu.sgemmMix->forWidth(t.ldsBits) : nullptr) {
    b.mixThroughput = ft->value;
    b.mixSource = ft->source.str();
    b.smBoundGflops = std::min(b.peakGflops, b.ffmaShare * b.mixThroughput * b.peakGflops);
    b.binding = "instruction mix";
  } else {
    // Broadcast-friendly warp tiling: an LDS of up to 64 bits is one wavefront, LDS.128 two
    // (half-warp phases); the fewest any layout reaches, as an upper bound must assume.
    const double wavefrontsPerLds = t.ldsBits > 64 ? 2.0 : 1.0;
    const std::pair<double, const char*> cycles[] = {
        {insts / machine.issue, "issue"},
        {ffma / machine.fp32, "fp32"},
        {lds / machine.ldst, "ld/st"},
        {machine.wavefronts > 0 ? lds * wavefrontsPerLds / machine.wavefronts : 0, "shared bandwidth"}};
    const auto* worst = &cycles[0];
    for (const auto& c : cycles) worst = c.first > worst->first ? &c : worst;
    b.smBoundGflops = ffma / worst->first * machine.flopsPerWarpCycle;
    b.mixThroughput = b.smBoundGflops / (b.ffmaShare * b.peakGflops);
    b.mixSource = std::string("rates of the GPU description (") + worst->second + " binds)";
    b.binding = worst->second;
  }
  // Every block reads its A and B panels from outside the SM each k-step: from L2 where the
  // description gives its bandwidth (DRAM then sees only the compulsory traffic, added in
  // gemmBound()), else from DRAM as the thesis assumes (Eq. 4.8 with a rectangular tile).
  b.memLevel = machine.l2GBs > 0 ? "l2" : "dram";
  b.memBoundGflops = (machine.l2GBs > 0 ? machine.l2GBs : machine.dramGBs) * 2.0 * b.blockTileM * b.blockTileN /
                     ((b.blockTileM + b.blockTileN) * 4.0);
  b.boundGflops = std::min(b.smBoundGflops, b.memBoundGflops);
  if (b.memBoundGflops < b.smBoundGflops) b.binding = b.memLevel;
  return e;
}

struct PrecisionInfo {
  GemmPrecision precision;
  const char* name;
  double inputBytes;
  double outputBytes;
};
constexpr PrecisionInfo kPrecisions[] = {
    {GemmPrecision::Fp32, "fp32", 4, 4}, {GemmPrecision::Fp64, "fp64", 8, 8}, {GemmPrecision::Dmma, "dmma", 8, 8},
    {GemmPrecision::Tf32, "tf32", 4, 4}, {GemmPrecision::Fp16, "fp16", 2, 4}, {GemmPrecision::Bf16, "bf16", 2, 4},
    {GemmPrecision::Fp8, "fp8", 1, 4},   {GemmPrecision::Int8, "int8", 1, 4},
};

const PrecisionInfo& infoOf(GemmPrecision p) {
  for (const PrecisionInfo& i : kPrecisions) {
    if (i.precision == p) return i;
  }
  return kPrecisions[0];
}

/// 2·M·N·K / bound: the least time of the options' problem; 0 without a problem size.
double leastSeconds(const GemmBoundOptions& o, double boundGflops) {
  if (o.m <= 0 || o.n <= 0 || o.k <= 0 || boundGflops <= 0) return 0;
  return 2.0 * static_cast<double>(o.m) * static_cast<double>(o.n) * static_cast<double>(o.k) / (boundGflops * 1e9);
}

/// The compulsory DRAM term of the options' problem (2·M·N·K over the bytes every operand read
/// once and C written once need at the DRAM's peak) into `b`, binding where it is below the
/// bound; nothing without a problem size.
void applyCompulsory(const Machine& machine, const GemmBoundOptions& o, GemmBound& b) {
  if (o.m <= 0 || o.n <= 0 || o.k <= 0) return;
  const double m = static_cast<double>(o.m), n = static_cast<double>(o.n), k = static_cast<double>(o.k);
  const PrecisionInfo& info = infoOf(o.precision);
  const double bytes = (m * k + k * n) * info.inputBytes + m * n * info.outputBytes;
  b.compulsoryBoundGflops = 2.0 * m * n * k / bytes * machine.dramGBs;
  if (b.compulsoryBoundGflops < b.boundGflops) {
    b.boundGflops = b.compulsoryBoundGflops;
    b.binding = "compulsory dram";
  }
}

/// A matrix pipe's peak and the compulsory DRAM traffic (precisions other than FP32).
Expected<GemmBound> matrixPipeBound(const Gpu& gpu, const Machine& machine, const GemmBoundOptions& o) {
  GemmBound b;
  b.variant = GemmBoundVariant::General;
  b.precision = o.precision;
  b.tiled = false;
  const double perSmCycle = gpu.smCount.value * gpu.clockGhz.value;  // GFLOPS per flop/cycle/SM
  const double schedulers = gpu.schedulersPerSm.value;
  if (o.precision == GemmPrecision::Fp64 || o.precision == GemmPrecision::Dmma) {
    const Pipeline* fp64 = gpu.pipeline(InstrClass::Fp64);
    if (!fp64 || fp64->gap.value <= 0) return makeError("GPU '" + gpu.name + "' describes no FP64 pipeline");
    const bool dmma = o.precision == GemmPrecision::Dmma;
    if (dmma && gpu.computeCapability() != "8.0" && gpu.computeCapability() != "9.0") {
      return makeError("GPU '" + gpu.name + "' (compute capability " + gpu.computeCapability() +
                       ") has no FP64 tensor cores: DMMA exists on compute capability 8.0 and 9.0; use --precision fp64");
    }
    b.peakGflops = schedulers / fp64->gap.value * gpu.warpSize.value * 2.0 * perSmCycle * (dmma ? kDmmaPerFp64Fma : 1);
    b.binding = dmma ? "fp64 tensor pipe" : "fp64 pipe";
  } else {
    const Pipeline* tensor = gpu.pipeline(InstrClass::Tensor);
    if (!tensor || tensor->gap.value <= 0) {
      return makeError("GPU '" + gpu.name + "' describes no tensor pipeline ([pipelines.tensor]); --precision " +
                       infoOf(o.precision).name + " needs one");
    }
    // Input types by architecture (compute capability): TF32 and BF16 from 8.0, FP8 from 8.9,
    // INT8 from 7.2; FP16 on every tensor core.
    const int cc = gpu.ccMajor * 10 + gpu.ccMinor;
    const int needs = o.precision == GemmPrecision::Tf32 || o.precision == GemmPrecision::Bf16 ? 80
                      : o.precision == GemmPrecision::Fp8                                     ? 89
                      : o.precision == GemmPrecision::Int8                                    ? 72
                                                                                              : 0;
    if (cc < needs) {
      return makeError(fmt::format("GPU '{}' (compute capability {}) has no {} tensor cores (from compute capability {}.{})",
                                   gpu.name, gpu.computeCapability(), infoOf(o.precision).name, needs / 10, needs % 10));
    }
    const double work = tensorInputWork(infoOf(o.precision).name);
    b.peakGflops = schedulers / tensor->gap.value * kTensorGapFmas * 2.0 / work * perSmCycle;
    b.binding = "tensor pipe";
  }
  b.mixThroughput = 1;
  b.ffmaShare = 1;
  b.mixSource = "the pipe's peak (no instruction-mix term)";
  b.smBoundGflops = b.peakGflops;
  b.boundGflops = b.smBoundGflops;
  applyCompulsory(machine, o, b);
  return b;
}

/// True when `a` is the better bound: higher, then more DRAM headroom, more threads per SM,
/// a deeper k-step (fewer barriers).
bool better(const GemmBound& a, const GemmBound& b) {
  const double tol = 1e-9 * std::max(a.boundGflops, b.boundGflops);
  if (std::fabs(a.boundGflops - b.boundGflops) > tol) return a.boundGflops > b.boundGflops;
  if (std::fabs(a.memBoundGflops - b.memBoundGflops) > tol) return a.memBoundGflops > b.memBoundGflops;
  const long long ta = static_cast<long long>(a.blocksPerSm) * a.tile.threadsPerBlock;
  const long long tb = static_cast<long long>(b.blocksPerSm) * b.tile.threadsPerBlock;
  if (ta != tb) return ta > tb;
  return a.tile.depth > b.tile.depth;
}

}  // namespace

const char* gemmBoundVariantName(GemmBoundVariant v) { return v == GemmBoundVariant::Lai ? "lai" : "general"; }

Expected<GemmBoundVariant> parseGemmBoundVariant(const std::string& name) {
  if (name == "lai") return GemmBoundVariant::Lai;
  if (name == "general") return GemmBoundVariant::General;
  return makeError("unknown bound variant '" + name + "' (variants: lai, general)");
}

double gemmFfmaShare(int tileM, int tileN, int ldsBits, double overheadPerKStep) {
  const double ffma = static_cast<double>(tileM) * tileN;
  return ffma / (ffma + (tileM + tileN) * 32.0 / ldsBits + overheadPerKStep);
}

const char* gemmPrecisionName(GemmPrecision p) { return infoOf(p).name; }

Expected<GemmPrecision> parseGemmPrecision(const std::string& name) {
  std::string known;
  for (const PrecisionInfo& i : kPrecisions) {
    if (name == i.name) return i.precision;
    if (!known.empty()) known += ", ";
    known += i.name;
  }
  return makeError("unknown precision '" + name + "' (precisions: " + known + ")");
}

Expected<GemmBound> gemmBound(const Gpu& gpu, const GemmBoundOptions& o) {
  Expected<Machine> machine = machineOf(gpu);
  if (!machine) return std::move(machine).takeError();
  if (o.precision != GemmPrecision::Fp32) {
    if (o.variant == GemmBoundVariant::Lai) {
      return makeError(std::string("the lai variant bounds FP32 SGEMM (the thesis' FFMA + LDS mix); --precision ") +
                       gemmPrecisionName(o.precision) + " needs --variant general");
    }
    if (o.tile) return makeError("a tile is only evaluated for --precision fp32 (the FFMA + shared-load model)");
    Expected<GemmBound> b = matrixPipeBound(gpu, *machine, o);
    if (b) b->seconds = leastSeconds(o, b->boundGflops);
    return b;
  }
  if (o.variant == GemmBoundVariant::Lai && !gpu.sgemmMix) {
    return makeError("GPU '" + gpu.name + "' has no [sgemm_mix] (Lai's measured F_T); use --variant general, " +
                     "or add the FFMA + LDS mix throughputs to its description (docs/gpu-format.md)");
  }
  if (o.addressRegisters < 0 || o.fragmentBuffers < 1 || o.overheadPerKStep < 0) {
    return makeError("address registers and overhead must be >= 0, fragment buffers >= 1");
  }
  std::optional<GemmBound> best;
  int feasible = 0;
  std::string firstReason;
  auto consider = [&](const Evaluation& e) {
    if (!e.infeasible.empty()) {
      if (firstReason.empty()) firstReason = e.infeasible;
      return;
    }
    ++feasible;
    if (!best || better(e.bound, *best)) best = e.bound;
  };
  auto evaluate = [&](const GemmTile& t) {
    if (o.variant == GemmBoundVariant::Lai) {
      consider(evaluateLai(gpu, *machine, t, o));
      return;
    }
    for (int tm = 1; tm <= t.threadsPerBlock; tm *= 2) consider(evaluateGeneral(gpu, *machine, t, tm, o));
  };

  if (o.tile) {
    const GemmTile& t = *o.tile;
    if (t.threadsPerBlock <= 0 || t.tileM <= 0 || t.tileN <= 0 || t.depth <= 0 || t.stages <= 0 ||
        (t.ldsBits != 32 && t.ldsBits != 64 && t.ldsBits != 128)) {
      return makeError("a tile needs positive threads, tile sides, depth and stages, and loads of 32, 64 or 128 bits");
    }
    evaluate(t);
    if (!best) return makeError("tile " + std::to_string(t.tileM) + "x" + std::to_string(t.tileN) + " with " +
                                std::to_string(t.threadsPerBlock) + " threads, L = " + std::to_string(t.depth) +
                                " on GPU '" + gpu.name + "' is infeasible: " + firstReason);
  } else {
    const int maxThreads = gpu.limits.threadsPerBlock.value;
    const int warp = gpu.warpSize.value;
    for (int tb = warp; tb <= maxThreads; tb += warp) {
      int root = 0;
      // Powers of two, as blocks are written; Lai's Eq. 4.7 also needs a square (64, 256, 1024).
      if ((tb & (tb - 1)) != 0 || (o.variant == GemmBoundVariant::Lai && !isSquare(tb, root))) continue;
      for (int ldsBits : kLdsWidths) {
        for (int tm = 1; tm <= 16; ++tm) {
          for (int tn = 1; tn <= 16; ++tn) {
            if (o.variant == GemmBoundVariant::Lai && tn != tm) continue;
            for (int depth = 1; depth <= 64; depth = o.variant == GemmBoundVariant::Lai ? depth + 1 : depth * 2) {
              for (int stages = 1; stages <= (o.variant == GemmBoundVariant::Lai ? 1 : 2); ++stages) {
                evaluate(GemmTile{tb, tm, tn, depth, ldsBits, stages});
              }
            }
          }
        }
      }
    }
    if (!best) return makeError("no SGEMM tile is feasible on GPU '" + gpu.name + "' (e.g. " + firstReason + ")");
  }
  best->feasibleTiles = feasible;
  if (o.variant == GemmBoundVariant::General) applyCompulsory(*machine, o, *best);
  best->seconds = leastSeconds(o, best->boundGflops);
  return *best;
}

}  // namespace foresight
