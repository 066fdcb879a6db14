// SPDX-License-Identifier: Apache-2.0
// The memory-hierarchy engine on synthetic kernels whose traffic is known by hand.
#include "foresight/memory/hierarchy.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>

#include "foresight/gpu/presets.h"
#include "foresight/ir/warp_stream.h"

namespace foresight {
namespace {

/// A grid-stride sweep: every thread t of T loads a[e] for e = t, t + T, … < elements, `passes`
/// times over; optionally every thread then stores b[t] (a second array).
class SweepSource : public WarpStreamSource {
 public:
  SweepSource(long long elements, long long threads, int passes, int threadsPerBlock, bool store, bool storeOff = false)
      : elements_(elements), threads_(threads), passes_(passes), tpb_(threadsPerBlock), store_(store), storeOff_(storeOff) {}
  Expected<std::vector<DynamicInstruction>> stream(long long block, int warp) const override {
    std::vector<DynamicInstruction> out;
    const long long first = block * tpb_ + warp * 32LL;
    for (int p = 0; p < passes_; ++p) {
      for (long long e = first; e < elements_; e += threads_) {
        DynamicInstruction d;
        d.block = 0;
        d.index = 0;
        for (int l = 0; l < 32; ++l) d.laneAddresses.push_back(e + l < elements_ ? kA + (e + l) * 4 : -1);
        out.push_back(std::move(d));
      }
    }
    if (store_) {
      DynamicInstruction d;
      d.block = 0;
      d.index = 1;
      if (storeOff_) {
        d.activeMask = 0;  // predicated off in every lane: no addresses recorded
      } else {
        for (int l = 0; l < 32; ++l) d.laneAddresses.push_back(kB + (first + l) * 4);
      }
      out.push_back(std::move(d));
    }
    return out;
  }
  static constexpr long long kA = 1LL << 40, kB = 1LL << 41;

 private:
  long long elements_, threads_;
  int passes_, tpb_;
  bool store_, storeOff_;
};

/// A 4-byte global load with cache operator `op`.
Instruction globalLoad(CacheOp op) {
  Instruction ld{"LDG", InstrClass::Ldst};
  MemoryAccess m;
  m.widthBytes = 4;
  m.cacheOp = op;
  ld.memory = m;
  return ld;
}

KernelIR sweepKernel(long long elements, long long threads, int passes, int tpb, CacheOp op, bool store,
                     bool storeOff = false) {
  KernelIR ir;
  ir.name = "sweep";
  BasicBlock b;
  b.instructions.push_back(globalLoad(op));
  Instruction st{"STG", InstrClass::Ldst};
  MemoryAccess ms;
  ms.isStore = true;
  ms.widthBytes = 4;
  for (int l = 0; l < 32; ++l) ms.laneAddresses.push_back(SweepSource::kB + l * 4);  // static, representative
  st.memory = ms;
  b.instructions.push_back(st);
  ir.blocks.push_back(b);
  ir.resources.registers = 32;
  ir.streams = std::make_shared<SweepSource>(elements, threads, passes, tpb, store, storeOff);
  return ir;
}

/// One full wave of 256-thread blocks on an H100 (132 SMs × 8 blocks).
Launch fullWave() {
  Launch l;
  l.grid.x = 132 * 8;
  l.block.x = 256;
  return l;
}

MemoryTraffic sweep(double mib, int passes, CacheOp op, bool store = false, L2Start start = L2Start::Cold) {
  Expected<Gpu> h100 = loadPreset("h100");
  EXPECT_TRUE(h100.ok());
  Launch l = fullWave();
  l.l2Start = start;
  const long long elements = static_cast<long long>(mib * 1024 * 1024 / 4);
  KernelIR ir = sweepKernel(elements, l.blocks() * 256, passes, 256, op, store);
  Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, *h100);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
  return t.ok() ? *t : MemoryTraffic{};
}

TEST(MemoryHierarchy, SpreadAccessesFollowTheFootprintAgainstTheCaches) {
  // Hand calculation (hierarchy.h, spreadAccesses). 1000 requests of 32 lanes over f = 1000
  // sectors: per request 1000 · (1 − 0.999^32) = 31.509 distinct sectors → 31508.9; the 10000-
  // sector L2 holds it all: DRAM reads only the distinct sectors, 1000 · (1 − e^−31.5) = 1000.
  SpreadTraffic fits = spreadAccesses(1000, 32000, 1000, 1000, 0, 1, 10000, false);
  EXPECT_NEAR(fits.sectors, 31508.92, 0.01);
  EXPECT_NEAR(fits.dramSectors, 1000, 1e-6);
  EXPECT_NEAR(fits.l2Hits, 30508.92, 0.01);
  EXPECT_DOUBLE_EQ(fits.l1Hits, 0);
  // f = 100000 sectors against a 25000-sector L2: hit rate 1/4 in steady state, so misses =
  // max(distinct = 100000 · (1 − e^−3.1995) = 95921.8, 319950.4 · 0.75 = 239962.8).
  SpreadTraffic big = spreadAccesses(10000, 320000, 100000, 100000, 0, 1, 25000, false);
  EXPECT_NEAR(big.sectors, 319950.40, 0.01);
  EXPECT_NEAR(big.distinct, 95921.76, 0.01);
  EXPECT_NEAR(big.dramSectors, 239962.80, 0.01);
  // Sharing the L2 with other gathered arrays (400000 sectors in all): hit rate 1/16.
  EXPECT_NEAR(spreadAccesses(10000, 320000, 100000, 400000, 0, 1, 25000, false).dramSectors, 299953.50, 0.01);
  // Stores: every sector passes the L2; write-backs are the distinct sectors, 1000.
  SpreadTraffic stores = spreadAccesses(1000, 32000, 1000, 1000, 0, 1, 10000, true);
  EXPECT_NEAR(stores.l2Hits, stores.sectors, 1e-9);
  EXPECT_NEAR(stores.dramSectors, 1000, 1e-6);
  // L1, one lane per request, 4 SMs of 2000 sectors each over f = 1000: each SM's 1000 accesses
  // miss on its 1000 · (1 − e^−1) = 632.12 distinct sectors: L1 hits 4000 − 2528.48 = 1471.52.
  // The L2 misses are the distinct sectors of all 4000 touches, 1000 · (1 − e^−4) = 981.68,
  // not those of 2528 independent draws (920.2): each SM's first touch of a sector misses L1.
  SpreadTraffic l1 = spreadAccesses(4000, 4000, 1000, 1000, 2000, 4, 1e9, false);
  EXPECT_NEAR(l1.l1Hits, 1471.52, 0.01);
  EXPECT_NEAR(l1.dramSectors, 981.68, 0.01);
  EXPECT_NEAR(l1.l2Hits, 2528.48 - 981.68, 0.01);
}

/// A gather: every thread t loads idx[t] (array A, known addresses, one pass) and then x[idx[t]]
/// (array B: data-dependent, the frontend only knows it stays in B).
class GatherSource : public WarpStreamSource {
 public:
  GatherSource(long long elements, int threadsPerBlock) : elements_(elements), tpb_(threadsPerBlock) {}
  Expected<std::vector<DynamicInstruction>> stream(long long block, int warp) const override {
    std::vector<DynamicInstruction> out;
    const long long first = block * tpb_ + warp * 32LL;
    DynamicInstruction d;
    d.block = 0;
    d.index = 0;
    for (int l = 0; l < 32; ++l) d.laneAddresses.push_back(first + l < elements_ ? SweepSource::kA + (first + l) * 4 : -1);
    out.push_back(d);
    DynamicInstruction g;
    g.block = 0;
    g.index = 1;  // no addresses: data-dependent
    out.push_back(g);
    return out;
  }

 private:
  long long elements_;
  int tpb_;
};

TEST(MemoryHierarchy, GatherInAKnownArraySpreadsOverItInsteadOfMissingEverywhere) {
  // 1 Mi threads (4096 blocks of 256) gather x[idx[t]] on an H100; x is only ever indexed by
  // data, so it counts as large as the median array indexed directly: idx, 1 Mi elements →
  // 4 MiB = 131072 sectors, well inside the 50 MiB L2. Per request 131072 · (1 − (1 −
  // 1/131072)^32) = 31.996 sectors → 32768 requests · 31.996 = 1048448 sectors; DRAM reads the
  // distinct ones, 131072 · (1 − e^−8) = 131028 (not all 1048448, as when charged to DRAM).
  // The footprint adds those sectors to idx's 4 MiB. `.cg`: no L1.
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100.ok());
  const long long elements = 1LL << 20;
  KernelIR ir;
  ir.name = "gather";
  BasicBlock b;
  b.instructions.push_back(globalLoad(CacheOp::Cg));
  Instruction gather = globalLoad(CacheOp::Cg);
  MemoryAccess& g = *gather.memory;
  g.dataDependent = true;
  g.pattern = AccessClass::Uncoalesced;
  g.transactionsPerInst = 32;
  g.allocation = MemoryAccess::Allocation{SweepSource::kB, 2 * SweepSource::kB, "x", std::nullopt};
  b.instructions.push_back(gather);
  ir.blocks.push_back(b);
  ir.resources.registers = 32;
  ir.streams = std::make_shared<GatherSource>(elements, 256);
  Launch l;
  l.grid.x = elements / 256;
  l.block.x = 256;
  Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, *h100);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const SiteTraffic& x = t->sites[1];
  EXPECT_NEAR(x.sectors, 1048448, 100);
  EXPECT_NEAR(x.dramSectors, 131028, 100);
  EXPECT_NEAR(x.l2Hits, 1048448 - 131028, 200);
  EXPECT_NEAR(t->compulsoryReadBytes, 32 * (131072 + 131028), 32 * 300);
  // The launch gives x's size (Launch::arrayBytes → Allocation::bytes): 64 MiB = 2097152
  // sectors, more than the L2 (50 MiB = 1638400 sectors). Per request 2097152 · (1 − (1 −
  // 1/2097152)^32) = 31.99976 → 1048568 sectors; distinct 2097152 · (1 − e^−0.5) = 825160;
  // steady-state misses 1048568 · (1 − 1638400 / 2097152) = 229374 < distinct: DRAM 825160.
  ir.blocks[0].instructions[1].memory->allocation->bytes = 64LL << 20;
  Expected<MemoryTraffic> sized = analyzeMemory(ir, nullptr, l, *h100);
  ASSERT_TRUE(sized.ok());
  EXPECT_NEAR(sized->sites[1].sectors, 1048568, 100);
  EXPECT_NEAR(sized->sites[1].dramSectors, 825160, 100);
  // Without the array, the same access is charged to DRAM, one sector per lane.
  ir.blocks[0].instructions[1].memory->allocation.reset();
  Expected<MemoryTraffic> dark = analyzeMemory(ir, nullptr, l, *h100);
  ASSERT_TRUE(dark.ok());
  EXPECT_NEAR(dark->sites[1].dramSectors, 32.0 * 32768, 1);
}

/// The sweep of SweepSource with one pass, each of its loads followed by a load of a small table
/// that every lane of every warp reads at one address: table[k % entries] for the warp's k-th
/// load, one table entry per 32-byte sector.
class TableSweepSource : public WarpStreamSource {
 public:
  TableSweepSource(long long elements, long long threads, int threadsPerBlock, int entries)
      : elements_(elements), threads_(threads), tpb_(threadsPerBlock), entries_(entries) {}
  Expected<std::vector<DynamicInstruction>> stream(long long block, int warp) const override {
    std::vector<DynamicInstruction> out;
    const long long first = block * tpb_ + warp * 32LL;
    long long k = 0;
    for (long long e = first; e < elements_; e += threads_, ++k) {
      DynamicInstruction d;
      d.block = 0;
      d.index = 0;
      for (int l = 0; l < 32; ++l) d.laneAddresses.push_back(e + l < elements_ ? SweepSource::kA + (e + l) * 4 : -1);
      out.push_back(std::move(d));
      DynamicInstruction t;
      t.block = 0;
      t.index = 1;
      t.laneAddresses.assign(32, kTable + (k % entries_) * 32);
      out.push_back(std::move(t));
    }
    return out;
  }
  /// 256 B at 2^42 + 96 · 256: one sampling region (256 B), whose hash is 0.999 of the range, so
  /// that no view's sample keeps it at any rate below 0.999.
  static constexpr long long kTable = (1LL << 42) + 96 * 256;

 private:
  long long elements_, threads_;
  int tpb_, entries_;
};

TEST(MemoryHierarchy, ASmallTableTheSampleKeepsNoneOfHitsAfterItsFirstTouches) {
  // One wave of 256-thread blocks on the H100 reads 1 GiB once (268,435,456 floats: 992.97
  // loads per thread) and, after each load, one entry of an 8-sector table (256 B: one sampling
  // region). Each view samples about 2^17 of millions of sector accesses, and the table's
  // region falls outside every sample (its hash; checked: counted as missing everywhere, as
  // before, the table's L1 hit share is 0 and DRAM reads are 1.5 GiB). Every warp re-reads the
  // table between two of its stream loads, so only the first touch of each of its 8 sectors
  // misses: per SM's L1, 8 of the 64 warps × 992.97 table loads (h1 = 1 − 8 / 63,550 =
  // 0.99987), and DRAM reads are the stream's 1 GiB alone (counted as missing, the table would
  // add 8,388,608 loads × 64 B fetched: 512 MiB).
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100.ok());
  const Launch l = fullWave();
  const long long elements = 1024LL * 1024 * 1024 / 4;
  KernelIR ir = sweepKernel(elements, l.blocks() * 256, 1, 256, CacheOp::Default, false);
  ir.blocks[0].instructions[1] = globalLoad(CacheOp::Default);  // the table load (index 1)
  ir.streams = std::make_shared<TableSweepSource>(elements, l.blocks() * 256, 256, 8);
  Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, *h100);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const SiteTraffic* table = nullptr;
  for (const SiteTraffic& st : t->sites) {
    if (st.index == 1) table = &st;
  }
  ASSERT_NE(table, nullptr);
  EXPECT_NEAR(table->sectors, 8388608.0, 0.01 * 8388608.0);  // 8448 warps × 992.97 loads × 1 sector
  EXPECT_NEAR(table->l1Hits / table->sectors, 1 - 8.0 / (64 * 992.97), 0.001);
  EXPECT_NEAR(t->dramReadSectors * 32, 1024.0 * 1024 * 1024, 0.02 * 1024.0 * 1024 * 1024);
}

TEST(MemoryHierarchy, WorkingSetSweepL2HitRateFallsAroundTheL2Size) {
  // `.cg` loads (no L1), 10 passes over the working set. Fits in the 50 MiB L2: the first pass
  // misses, the other nine hit: 0.9. 2.4 times the L2: LRU keeps nothing of a sweep: 0.
  const MemoryTraffic small = sweep(12.5, 10, CacheOp::Cg);
  EXPECT_DOUBLE_EQ(small.l1HitSectors, 0);  // .cg never hits L1
  EXPECT_NEAR(small.l2HitRate(), 0.9, 0.02);
  // Footprint: the working set, 12.5 MiB.
  EXPECT_NEAR(small.compulsoryReadBytes, 12.5 * 1024 * 1024, 0.02 * 12.5 * 1024 * 1024);
  const MemoryTraffic large = sweep(120, 10, CacheOp::Cg);
  EXPECT_LT(large.l2HitRate(), 0.02);
  EXPECT_NEAR(large.dramReadSectors * 32, 10 * 120.0 * 1024 * 1024, 0.03 * 10 * 120.0 * 1024 * 1024);
}

TEST(MemoryHierarchy, SweepThatFitsEachSmsL1HitsInL1OnlyWithDefaultLoads) {
  // 4 MiB over 132 SMs: each SM's threads touch 31 KiB, which L1 (256 KiB less 8 blocks' 1 KiB
  // reservation) keeps: passes 2..4 hit L1 (0.75). The same sweep with .cg: no L1 hit.
  const MemoryTraffic ca = sweep(4, 4, CacheOp::Default);
  EXPECT_NEAR(ca.l1HitRate(), 0.75, 0.02);
  EXPECT_DOUBLE_EQ(sweep(4, 4, CacheOp::Cg).l1HitSectors, 0);
}

TEST(MemoryHierarchy, StreamingStoresReachDramOnce) {
  // One pass over 64 MiB (read once) plus one 4-byte store per thread: 270336 threads × 4 B =
  // 1.03 MiB written, each sector written back once; reads: 64 MiB from DRAM.
  const MemoryTraffic t = sweep(64, 1, CacheOp::Default, true);
  EXPECT_NEAR(t.dramWriteSectors * 32, 270336.0 * 4, 0.01 * 270336.0 * 4);
  EXPECT_NEAR(t.compulsoryWriteBytes, 270336.0 * 4, 0.01 * 270336.0 * 4);
  EXPECT_NEAR(t.dramReadSectors * 32, 64.0 * 1024 * 1024, 0.02 * 64.0 * 1024 * 1024);
  EXPECT_LT(t.l2HitRate(), 0.01);
}

TEST(MemoryHierarchy, WarmStartFindsAFootprintThatFitsInL2Resident) {
  // One pass over 12.5 MiB and a 4-byte store per thread (270336 x 4 B = 1.03 MiB): cold, the
  // reads come from DRAM (12.5 MiB) and the stores are written back once. Warm (the same launch
  // just before), the 13.53 MiB footprint sits in the 50 MiB L2: every load sector hits there,
  // the stores find their sectors resident and dirty, nothing reaches DRAM.
  const double read = 12.5 * 1024 * 1024, written = 270336.0 * 4;
  const MemoryTraffic cold = sweep(12.5, 1, CacheOp::Cg, true);
  EXPECT_NEAR(cold.dramReadSectors * 32, read, 0.02 * read);
  EXPECT_NEAR(cold.dramWriteSectors * 32, written, 0.01 * written);
  EXPECT_DOUBLE_EQ(cold.residentBytes, 0);
  EXPECT_NEAR(cold.coldBytes(), read + written, 0.02 * (read + written));
  const MemoryTraffic warm = sweep(12.5, 1, CacheOp::Cg, true, L2Start::Warm);
  EXPECT_DOUBLE_EQ(warm.dramReadSectors, 0);
  EXPECT_DOUBLE_EQ(warm.dramWriteSectors, 0);
  EXPECT_DOUBLE_EQ(warm.l2HitRate(), 1.0);
  EXPECT_DOUBLE_EQ(warm.l2HitSectors, warm.loadSectors);
  EXPECT_DOUBLE_EQ(warm.loadSectors, cold.loadSectors);  // the same requests, served elsewhere
  EXPECT_DOUBLE_EQ(warm.compulsoryBytes(), cold.compulsoryBytes());
  EXPECT_DOUBLE_EQ(warm.residentBytes, warm.compulsoryBytes());
  EXPECT_DOUBLE_EQ(warm.coldBytes(), 0);
  // The h100 preset keeps all of a footprint up to warm_full = 34.75 MiB and none from
  // warm_none = 57.25 MiB (the H200's gpu-small-kernels edge), of the footprint's upper bound,
  // the hull of the sites' addresses: 46 MiB of reads span 45 grid strides of 270336 floats
  // (the last one partly predicated off), 46.41 MiB, + 1.03 MiB written = 47.44 MiB:
  // (57.25 - 47.44) / (57.25 - 34.75) = 0.436 of the cold DRAM traffic is served by L2 instead,
  // in both directions.
  const MemoryTraffic edge = sweep(46, 1, CacheOp::Cg, true);
  const MemoryTraffic edgeWarm = sweep(46, 1, CacheOp::Cg, true, L2Start::Warm);
  const double share = edgeWarm.residentBytes / edgeWarm.compulsoryBytes();
  EXPECT_NEAR(share, 0.436, 0.001);
  EXPECT_NEAR(edgeWarm.dramReadSectors, (1 - share) * edge.dramReadSectors, 1e-6 * edge.dramReadSectors);
  EXPECT_NEAR(edgeWarm.dramWriteSectors, (1 - share) * edge.dramWriteSectors, 1e-6 * edge.dramWriteSectors);
  EXPECT_NEAR(edgeWarm.l2HitSectors - edge.l2HitSectors, share * (edge.loadSectors - edge.l2HitSectors),
              1e-6 * edge.loadSectors);
  // 64 MiB is beyond warm_none (and under LRU the previous run's last 50 MiB would be evicted by
  // this run's first 14 MiB of reads before it reaches them): the cold traffic.
  const MemoryTraffic big = sweep(64, 1, CacheOp::Cg, true);
  const MemoryTraffic bigWarm = sweep(64, 1, CacheOp::Cg, true, L2Start::Warm);
  EXPECT_DOUBLE_EQ(bigWarm.dramReadSectors, big.dramReadSectors);
  EXPECT_DOUBLE_EQ(bigWarm.dramWriteSectors, big.dramWriteSectors);
  EXPECT_DOUBLE_EQ(bigWarm.residentBytes, 0);
  bool said = false;
  for (const std::string& n : bigWarm.notes) said = said || n.find("too large for the L2 to keep any of it") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(MemoryHierarchy, WarmShareFallsLinearlyBetweenWarmFullAndWarmNone) {
  // Without the keys: LRU at the L2's size (50 MiB on the h100 preset). With them (34.75 and
  // 57.25 MiB): 1 up to 34.75, (57.25 - 46) / 22.5 = 0.5 at 46, 0 from 57.25 on.
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100.ok());
  MemoryLevel l2 = *h100->memoryForResource("l2");
  const double mib = 1 << 20;
  EXPECT_DOUBLE_EQ(warmShare(l2, 34.75 * mib), 1.0);
  EXPECT_DOUBLE_EQ(warmShare(l2, 46 * mib), 0.5);
  EXPECT_DOUBLE_EQ(warmShare(l2, 57.25 * mib), 0.0);
  l2.warmFull.reset();
  l2.warmNone.reset();
  EXPECT_DOUBLE_EQ(warmShare(l2, 50 * mib), 1.0);
  EXPECT_DOUBLE_EQ(warmShare(l2, 50 * mib + 1), 0.0);
}

/// One load per warp whose lanes are `strideBytes` apart: warp w of the launch reads
/// kA + (32 w + lane) x strideBytes.
class StridedSource : public WarpStreamSource {
 public:
  explicit StridedSource(long long strideBytes) : stride_(strideBytes) {}
  Expected<std::vector<DynamicInstruction>> stream(long long block, int warp) const override {
    DynamicInstruction d;
    d.block = 0;
    d.index = 0;
    const long long first = (block * 8 + warp) * 32;
    for (int l = 0; l < 32; ++l) d.laneAddresses.push_back(SweepSource::kA + (first + l) * stride_);
    return std::vector<DynamicInstruction>{d};
  }

 private:
  long long stride_;
};

/// One load (or store) per warp, lanes `strideBytes` apart (StridedSource).
KernelIR stridedKernel(long long strideBytes, bool store = false) {
  KernelIR ir;
  ir.name = "strided";
  BasicBlock b;
  Instruction ld{store ? "STG" : "LDG", InstrClass::Ldst};
  ld.memory = MemoryAccess{};
  ld.memory->isStore = store;
  b.instructions.push_back(ld);
  ir.blocks.push_back(b);
  ir.resources.registers = 32;
  ir.streams = std::make_shared<StridedSource>(strideBytes);
  return ir;
}

TEST(MemoryHierarchy, ARequestTakesOneL1WavefrontPerDistinctLine) {
  // 128-B L1 lines: 32 lanes x 4 B = 1 line; x 8 B = 256 B = 2 lines; 64 B apart: two lanes per
  // line, 16 lines; 128 B or more apart: a line per lane, 32.
  const Gpu gpu = loadPreset("h100").value();
  const struct {
    long long stride;
    double lines;
  } cases[] = {{4, 1}, {8, 2}, {64, 16}, {128, 32}, {4096, 32}};
  for (const auto& c : cases) {
    const KernelIR ir = stridedKernel(c.stride);
    Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, fullWave(), gpu);
    ASSERT_TRUE(t.ok()) << t.error().message;
    ASSERT_GT(t->loadRequests, 0);
    EXPECT_NEAR(t->loadWavefronts / t->loadRequests, c.lines, 1e-9) << "stride " << c.stride;
    EXPECT_NEAR(t->sites[0].wavefronts, t->loadWavefronts, 1e-9);
  }
}

/// One warp chases a ring: at step s lane l loads the line l + s (128 B apart), so each request
/// after the first finds 31 of its 32 lines in L1 and misses the new one; `shift` 0 re-reads
/// the same 32 lines every step.
class RingSource : public WarpStreamSource {
 public:
  RingSource(int steps, int shift) : steps_(steps), shift_(shift) {}
  Expected<std::vector<DynamicInstruction>> stream(long long, int) const override {
    std::vector<DynamicInstruction> out;
    for (int s = 0; s < steps_; ++s) {
      DynamicInstruction d;
      for (int l = 0; l < 32; ++l) d.laneAddresses.push_back((1LL << 40) + (l + static_cast<long long>(s) * shift_) * 128);
      out.push_back(std::move(d));
    }
    return out;
  }

 private:
  int steps_, shift_;
};

TEST(MemoryHierarchy, L1HitsOfARequestThatMissesElsewhereWaitForTheMiss) {
  // 64 steps of 32 sectors: 63 × 31 = 1953 of the 2048 sectors hit in L1, but every request
  // after the first misses its new line, and a warp's load completes with its last sector: all
  // 1953 hits are split hits (SiteTraffic::l1SplitHits). Re-reading the same lines, requests
  // 2 to 64 hit whole: 63 × 32 = 2016 hits, none split.
  const Gpu gpu = loadPreset("h100").value();
  Launch l;
  l.grid.x = 1;
  l.block.x = 32;
  for (const auto& [shift, hits, split] : {std::tuple{1, 1953.0, 1953.0}, std::tuple{0, 2016.0, 0.0}}) {
    KernelIR ir = stridedKernel(4);
    ir.streams = std::make_shared<RingSource>(64, shift);
    Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, gpu);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_NEAR(t->loadSectors, 2048, 1e-6) << shift;
    EXPECT_NEAR(t->l1HitSectors, hits, 1e-6) << shift;
    EXPECT_NEAR(t->l1SplitHitSectors, split, 1e-6) << shift;
    EXPECT_NEAR(t->sites[0].l1SplitHits, split, 1e-6) << shift;
  }
}

TEST(MemoryHierarchy, AnL1WithATagStageServesHitsInTheSlowerOfItsStages) {
  // One warp reads the same request 64 times, lanes 60 B apart (15 words: no two in one bank):
  // 32 sectors in 15 lines. Requests 2-64 hit in L1 (2016 of 2048 sectors: a hit share of
  // 63/64). The H100 preset's L1 has a tag stage (0.45 + lines / 3.55 wavefronts) and 32 banks:
  // a hit takes max(1, 0.45 + 15 / 3.55) = 4.6754 wavefronts, a miss 15 (a pass per line), so
  // the site's wavefronts are 64 x (63/64 x 4.6754 + 1/64 x 15) = 309.547. The V100 preset has
  // no tag stage: 64 x 15 = 960.
  Launch l;
  l.grid.x = 1;
  l.block.x = 32;
  KernelIR ir = stridedKernel(4);
  ir.streams = std::make_shared<RingSource>(64, 0);
  class Reread : public WarpStreamSource {
   public:
    Expected<std::vector<DynamicInstruction>> stream(long long, int) const override {
      std::vector<DynamicInstruction> out(64);
      for (DynamicInstruction& d : out) {
        for (int l = 0; l < 32; ++l) d.laneAddresses.push_back((1LL << 40) + l * 60LL);
      }
      return out;
    }
  };
  ir.streams = std::make_shared<Reread>();
  for (const auto& [preset, wavefronts] : {std::pair{"h100", 63 * (0.45 + 15 / 3.55) + 15}, std::pair{"v100", 960.0}}) {
    Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, loadPreset(preset).value());
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_NEAR(t->loadSectors, 2048, 1e-6) << preset;
    EXPECT_NEAR(t->l1HitSectors, 2016, 1e-6) << preset;
    EXPECT_NEAR(t->loadWavefronts, wavefronts, 1e-6) << preset;
    EXPECT_NEAR(t->sites[0].wavefronts, wavefronts, 1e-6) << preset;
  }
}

/// One block of 32 warps; warp w re-reads, `steps` times, the 128 B at kRows + (w mod 8) x 64 KiB:
/// eight rows of a tile far apart, 4 sectors each, 32 distinct sectors in all.
class TileRowsSource : public WarpStreamSource {
 public:
  static constexpr long long kRows = 1LL << 40;
  explicit TileRowsSource(int steps) : steps_(steps) {}
  Expected<std::vector<DynamicInstruction>> stream(long long, int warp) const override {
    DynamicInstruction d;
    for (int l = 0; l < 32; ++l) d.laneAddresses.push_back(kRows + (warp % 8) * 65536LL + 4 * l);
    return std::vector<DynamicInstruction>(static_cast<size_t>(steps_), d);
  }

 private:
  int steps_;
};

TEST(MemoryHierarchy, ATileOfFarApartRowsThatTheSampleMissesStillHitsInL1) {
  // 32 warps x 8192 requests x 4 sectors: the L1 view keeps one region (256 B) in 16 by their
  // hash, and none of this tile's eight. Counted, the tile's 32 distinct sectors miss once each
  // and the other 1,048,544 sector reads hit. From the extent (14,340 sectors from the first row
  // to the last, more than the L1's 8192) nothing would be estimated and every read would miss.
  Launch l;
  l.grid.x = 1;
  l.block.x = 1024;
  KernelIR ir = stridedKernel(4);
  ir.streams = std::make_shared<TileRowsSource>(8192);
  Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, loadPreset("h100").value());
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_NEAR(t->loadSectors, 32.0 * 8192 * 4, 1e-6);
  EXPECT_NEAR(t->l1HitSectors, 32.0 * 8192 * 4 - 32, 1e-6);
}

TEST(MemoryHierarchy, StoresCountTheSectorsTheyWriteOnlyPartly) {
  // 32 lanes x 4 B stores: unit stride fills 4 sectors (none partial); 8 B apart, 8 sectors of
  // 16 B each; 32 B or more apart, a sector per lane holding 4 of its 32 B: 32 partial.
  const Gpu gpu = loadPreset("h100").value();
  const struct {
    long long stride;
    double partial;
  } cases[] = {{4, 0}, {8, 8}, {32, 32}, {4096, 32}};
  for (const auto& c : cases) {
    Expected<MemoryTraffic> t = analyzeMemory(stridedKernel(c.stride, true), nullptr, fullWave(), gpu);
    ASSERT_TRUE(t.ok()) << t.error().message;
    ASSERT_GT(t->storeRequests, 0);
    EXPECT_NEAR(t->partialStoreSectors / t->storeRequests, c.partial, 1e-9) << "stride " << c.stride;
    EXPECT_NEAR(t->sites[0].partialSectors, t->partialStoreSectors, 1e-9);
  }
  // Loads are never partial writes.
  Expected<MemoryTraffic> loads = analyzeMemory(stridedKernel(4096), nullptr, fullWave(), gpu);
  ASSERT_TRUE(loads.ok());
  EXPECT_EQ(loads->partialStoreSectors, 0);
}

TEST(MemoryHierarchy, AMissReadsTheL2FetchGranularityFromDram) {
  // The H100 preset's L2 fetches 64-B sector pairs. Lanes 32 B apart touch both halves of each
  // pair in one request: a sector read per sector. 64 or 128 B apart, each lane's sector is
  // alone in its pair: two sectors read per sector requested. Without the key: one each. L2 hits
  // (and so latencies) stay per sector: none here.
  const Gpu h100 = loadPreset("h100").value();
  ASSERT_TRUE(h100.memoryForResource("l2")->fetchGranularity);
  Gpu bySector = h100;
  for (MemoryLevel& m : bySector.memory) m.fetchGranularity.reset();
  const struct {
    long long stride;
    double fetched;
  } cases[] = {{32, 1}, {64, 2}, {128, 2}};
  for (const auto& c : cases) {
    const KernelIR ir = stridedKernel(c.stride);
    Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, fullWave(), h100);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_NEAR(t->dramReadSectors / t->loadSectors, c.fetched, 0.02) << "stride " << c.stride;
    EXPECT_NEAR(t->sites[0].dramFetchPerMiss, c.fetched, 0.02) << "stride " << c.stride;
    EXPECT_LT(t->l2HitRate(), 0.01) << "stride " << c.stride;
    Expected<MemoryTraffic> u = analyzeMemory(ir, nullptr, fullWave(), bySector);
    ASSERT_TRUE(u.ok()) << u.error().message;
    EXPECT_NEAR(u->dramReadSectors / u->loadSectors, 1, 0.02) << "stride " << c.stride;
    EXPECT_DOUBLE_EQ(u->sites[0].dramFetchPerMiss, 1);
  }
}

/// One global atomic per warp, in lane 0 (reduce_shuffle's `atomicAdd(result, acc)`): to one
/// result for the whole grid, or to one counter per block.
class AtomicSource : public WarpStreamSource {
 public:
  explicit AtomicSource(bool perBlock) : perBlock_(perBlock) {}
  Expected<std::vector<DynamicInstruction>> stream(long long block, int) const override {
    DynamicInstruction d;
    d.block = 0;
    d.index = 0;
    d.laneAddresses.assign(32, -1);
    d.laneAddresses[0] = SweepSource::kA + (perBlock_ ? block * 4 : 0);
    d.activeMask = 1;
    return std::vector<DynamicInstruction>{d};
  }

 private:
  bool perBlock_;
};

KernelIR atomicKernel(const std::string& opcode, bool perBlock) {
  KernelIR ir;
  ir.name = "atomic";
  BasicBlock b;
  Instruction red{opcode, InstrClass::Ldst};
  red.memory = MemoryAccess{};
  red.memory->isStore = opcode.rfind("LDG", 0) != 0;
  b.instructions.push_back(red);
  ir.blocks.push_back(b);
  ir.resources.registers = 32;
  ir.streams = std::make_shared<AtomicSource>(perBlock);
  return ir;
}

TEST(MemoryHierarchy, CountsTheAtomicsOfTheMostUpdatedAddress) {
  const Gpu h100 = loadPreset("h100").value();
  // One result for the grid: every warp's atomic, 1056 blocks x 8 warps = 8448.
  Expected<MemoryTraffic> one = analyzeMemory(atomicKernel("RED.E.ADD.F32.FTZ.RN.STRONG.GPU", false), nullptr, fullWave(), h100);
  ASSERT_TRUE(one.ok()) << one.error().message;
  EXPECT_DOUBLE_EQ(one->hotAtomicOps, 8448);
  EXPECT_DOUBLE_EQ(one->hotAtomicFloatOps, 8448);  // f32 adds: the floor's float time
  // PTX spells it atom/red too.
  EXPECT_DOUBLE_EQ(analyzeMemory(atomicKernel("red.global.add.f32", false), nullptr, fullWave(), h100)->hotAtomicOps, 8448);
  // An integer add counts as well, but not as an f32 add.
  Expected<MemoryTraffic> integer = analyzeMemory(atomicKernel("RED.E.ADD.STRONG.GPU", false), nullptr, fullWave(), h100);
  ASSERT_TRUE(integer.ok());
  EXPECT_DOUBLE_EQ(integer->hotAtomicOps, 8448);
  EXPECT_DOUBLE_EQ(integer->hotAtomicFloatOps, 0);
  // A grid beyond the L2 window (2^25 lanes / (8 accesses x 32 lanes) = 131072 blocks): every
  // window block updates the result, so the count scales to the grid: 2^20 x 8.
  Launch big = fullWave();
  big.grid.x = 1 << 20;
  Expected<MemoryTraffic> scaled = analyzeMemory(atomicKernel("RED.E.ADD.F32.FTZ.RN.STRONG.GPU", false), nullptr, big, h100);
  ASSERT_TRUE(scaled.ok()) << scaled.error().message;
  EXPECT_DOUBLE_EQ(scaled->hotAtomicOps, 8.0 * (1 << 20));
  // One counter per block: its 8 warps, however large the grid.
  EXPECT_DOUBLE_EQ(analyzeMemory(atomicKernel("ATOMG.E.ADD.STRONG.GPU", true), nullptr, big, h100)->hotAtomicOps, 8);
  // Loads of one address are no atomics.
  EXPECT_DOUBLE_EQ(analyzeMemory(atomicKernel("LDG.E", false), nullptr, fullWave(), h100)->hotAtomicOps, 0);
}

/// Every warp's atomic: lane l onto word (l / group) of an 8-word sector, the same sector for
/// every warp (the calibrate sweep's atomic.red_u32_g<group>_a32_s1 within one sector).
class GroupedAtomicSource : public WarpStreamSource {
 public:
  explicit GroupedAtomicSource(int group) : group_(group) {}
  Expected<std::vector<DynamicInstruction>> stream(long long, int) const override {
    DynamicInstruction d;
    d.block = 0;
    d.index = 0;
    for (int lane = 0; lane < 32; ++lane) d.laneAddresses.push_back(SweepSource::kA + 4 * ((lane / group_) % 8));
    d.activeMask = ~0u;
    return std::vector<DynamicInstruction>{d};
  }

 private:
  int group_;
};

TEST(MemoryHierarchy, AtomicSectorRequestsCountTheirMostUpdatedWord) {
  const Gpu h100 = loadPreset("h100").value();
  // One lane per warp onto one result: one sector request of 1 lane per warp, 8448 in all,
  // every one in the same 512-B chunk (the busiest unit's).
  Expected<MemoryTraffic> one = analyzeMemory(atomicKernel("RED.E.ADD.STRONG.GPU", false), nullptr, fullWave(), h100);
  ASSERT_TRUE(one.ok()) << one.error().message;
  EXPECT_DOUBLE_EQ(one->atomicSectorLanes, 8448);
  EXPECT_DOUBLE_EQ(one->atomicHotUnitLanes, 8448);
  // One counter per block (4 B apart): 8 requests per block; 128 counters per 512-B chunk, so
  // the busiest chunk has 128 blocks' 8: 1024. Not every window block updates it: no scaling.
  Expected<MemoryTraffic> perBlock = analyzeMemory(atomicKernel("RED.E.ADD.STRONG.GPU", true), nullptr, fullWave(), h100);
  ASSERT_TRUE(perBlock.ok());
  EXPECT_DOUBLE_EQ(perBlock->atomicSectorLanes, 8448);
  EXPECT_DOUBLE_EQ(perBlock->atomicHotUnitLanes, 1024);
  // 32 lanes in groups of 4 on the 8 words of one sector: a request keeps its unit for 4 lane
  // operations (the most on one word), not 32: 8448 x 4 = 33792. Groups of 32 on one word: 32.
  for (const auto& [group, lanes] : {std::pair{4, 4.0}, std::pair{32, 32.0}, std::pair{1, 4.0}}) {
    KernelIR ir = atomicKernel("RED.E.ADD.STRONG.GPU", false);
    ir.streams = std::make_shared<GroupedAtomicSource>(group);
    Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, fullWave(), h100);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_DOUBLE_EQ(t->atomicSectorLanes, 8448 * lanes) << "group " << group;
    EXPECT_DOUBLE_EQ(t->atomicHotUnitLanes, 8448 * lanes) << "group " << group;
    EXPECT_DOUBLE_EQ(t->hotAtomicOps, 8448.0 * 32 / std::min(8, 32 / group)) << "group " << group;
  }
}

/// One atomic per warp whose addresses the stream does not know (data-dependent).
class UnknownSource : public WarpStreamSource {
 public:
  Expected<std::vector<DynamicInstruction>> stream(long long, int) const override {
    DynamicInstruction d;
    d.block = 0;
    d.index = 0;  // no addresses: data-dependent
    d.activeMask = ~0u;
    return std::vector<DynamicInstruction>{d};
  }
};

TEST(MemoryHierarchy, AtomicsWithDataDependentAddressesSpreadOverTheirArray) {
  // A histogram: every lane of 8448 warps adds to bins[key], keys unknown. Unsized bins: no
  // count. Two bins (8 B, one sector, one chunk): per request E[max(X, 32 − X)], X ~ Bin(32,
  // 1/2) = 16 + 16 C(32,16) / 2^32 = 18.2392 sector lanes, and each bin gets half the lanes:
  // 8448 x 16 = 135168 operations. 4096 bins (16 KiB, 32 chunks of 512 B): a request touches
  // about 31 sectors, the busiest unit one chunk's 1/32.
  const Gpu h100 = loadPreset("h100").value();
  KernelIR ir = atomicKernel("RED.E.ADD.STRONG.GPU", false);
  MemoryAccess& m = *ir.blocks[0].instructions[0].memory;
  m.dataDependent = true;
  m.pattern = AccessClass::Uncoalesced;
  m.transactionsPerInst = 32;
  m.allocation = MemoryAccess::Allocation{SweepSource::kB, 2 * SweepSource::kB, "bins", std::nullopt};
  ir.streams = std::make_shared<UnknownSource>();
  Expected<MemoryTraffic> unsized = analyzeMemory(ir, nullptr, fullWave(), h100);
  ASSERT_TRUE(unsized.ok()) << unsized.error().message;
  EXPECT_DOUBLE_EQ(unsized->atomicSectorLanes, 0);
  EXPECT_DOUBLE_EQ(unsized->hotAtomicOps, 0);
  m.allocation->bytes = 8;
  Expected<MemoryTraffic> two = analyzeMemory(ir, nullptr, fullWave(), h100);
  ASSERT_TRUE(two.ok());
  EXPECT_NEAR(two->atomicSectorLanes, 8448 * 18.2392, 1);
  EXPECT_NEAR(two->atomicHotUnitLanes, 8448 * 18.2392, 1);
  EXPECT_DOUBLE_EQ(two->hotAtomicOps, 8448 * 16);
  // A grid beyond the L2 window (2^25 lanes / (8 accesses x 32 lanes) = 131072 blocks): the
  // counts are the launch's, 2^20 blocks x 8 warps, once (the window's requests are scaled to
  // the launch before the atomics read them; scaling them again counted 8x too many).
  Launch big = fullWave();
  big.grid.x = 1 << 20;
  Expected<MemoryTraffic> bigTwo = analyzeMemory(ir, nullptr, big, h100);
  ASSERT_TRUE(bigTwo.ok()) << bigTwo.error().message;
  EXPECT_NEAR(bigTwo->atomicSectorLanes, 8.0 * (1 << 20) * 18.2392, 200);
  EXPECT_NEAR(bigTwo->atomicHotUnitLanes, 8.0 * (1 << 20) * 18.2392, 200);
  EXPECT_DOUBLE_EQ(bigTwo->hotAtomicOps, 8.0 * (1 << 20) * 16);
  m.allocation->bytes = 16384;
  Expected<MemoryTraffic> many = analyzeMemory(ir, nullptr, fullWave(), h100);
  ASSERT_TRUE(many.ok());
  const double perRequest = expectedSectorMaxLanes(32, 4096, 8);
  EXPECT_GT(perRequest, 31);
  EXPECT_LT(perRequest, 32);
  EXPECT_NEAR(many->atomicSectorLanes, 8448 * perRequest, 1e-6);
  EXPECT_NEAR(many->atomicHotUnitLanes, 8448 * perRequest / 32, 1e-6);
  EXPECT_DOUBLE_EQ(many->hotAtomicOps, 8448.0 * 32 / 4096);
}

TEST(MemoryHierarchy, ExpectedSectorMaxLanesByHand) {
  // One lane: one sector request of one lane, however the addresses lie.
  EXPECT_DOUBLE_EQ(expectedSectorMaxLanes(1, 1000, 8), 1);
  // Two lanes on two words of one sector: the same word half the time (2), else 1 each: 1.5.
  EXPECT_DOUBLE_EQ(expectedSectorMaxLanes(2, 2, 8), 1.5);
  // Two words in two sectors: two requests of 1, or one of 2: always 2.
  EXPECT_DOUBLE_EQ(expectedSectorMaxLanes(2, 2, 1), 2);
  // 32 lanes on 2 words: 16 + 16 C(32,16) / 2^32 = 16 + 16 x 601080390 / 4294967296 = 18.2391989.
  EXPECT_NEAR(expectedSectorMaxLanes(32, 2, 8), 18.2391989, 1e-6);
  // One word: every lane on it.
  EXPECT_DOUBLE_EQ(expectedSectorMaxLanes(32, 1, 8), 32);
  // An average of 1.5 lanes: halfway between 1 and 2 lanes (1 and 1.5 on one sector of 2 words).
  EXPECT_DOUBLE_EQ(expectedSectorMaxLanes(1.5, 2, 8), 1.25);
  EXPECT_DOUBLE_EQ(expectedSectorMaxLanes(0, 2, 8), 0);
}

TEST(MemoryHierarchy, PredicatedOffAccessesRequestNothing) {
  // The sweep of StreamingStoresReachDramOnce with its store predicated off in every lane (the
  // stream says activeMask 0, as for gpu-benches' `if (v == 123.33) A[t] = v`): the store issues
  // but moves no byte, although the IR has static representative addresses for it. Reads as
  // before: 64 MiB from DRAM.
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100.ok());
  const Launch l = fullWave();
  KernelIR ir = sweepKernel(64LL * 1024 * 1024 / 4, l.blocks() * 256, 1, 256, CacheOp::Default, true, true);
  Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, *h100);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_DOUBLE_EQ(t->storeRequests, 0);
  EXPECT_DOUBLE_EQ(t->dramWriteSectors, 0);
  EXPECT_DOUBLE_EQ(t->compulsoryWriteBytes, 0);
  EXPECT_NEAR(t->dramReadSectors * 32, 64.0 * 1024 * 1024, 0.02 * 64.0 * 1024 * 1024);
}

TEST(MemoryHierarchy, MeasuredRatesOverrideThePrediction) {
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100.ok());
  const Launch l = fullWave();
  KernelIR ir = sweepKernel(1 << 20, l.blocks() * 256, 2, 256, CacheOp::Default, false);
  MemoryAnalysisOptions o;
  o.l1HitRate = 0.25;
  o.l2HitRate = 0.5;
  Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, *h100, o);
  ASSERT_TRUE(t.ok());
  EXPECT_NEAR(t->l1HitRate(), 0.25, 1e-9);
  EXPECT_NEAR(t->l2HitRate(), 0.5, 1e-9);
}

/// One warp whose stream is `n` loads of 32 consecutive floats (128 B, 4 sectors): access i reads
/// line i (fresh data) or line i mod `lines` (a small array re-read).
class LongWarpSource : public WarpStreamSource {
 public:
  LongWarpSource(long long n, long long lines) : n_(n), lines_(lines) {}
  Expected<std::vector<DynamicInstruction>> stream(long long, int) const override {
    std::vector<DynamicInstruction> out(static_cast<size_t>(n_));
    for (long long i = 0; i < n_; ++i) {
      const long long line = lines_ > 0 ? i % lines_ : i;
      for (int l = 0; l < 32; ++l) out[static_cast<size_t>(i)].laneAddresses.push_back((1LL << 40) + line * 128 + l * 4);
    }
    return out;
  }

 private:
  long long n_, lines_;
};

MemoryTraffic longWarp(long long n, long long lines) {
  Expected<Gpu> h100 = loadPreset("h100");
  EXPECT_TRUE(h100.ok());
  KernelIR ir = sweepKernel(1, 32, 1, 32, CacheOp::Default, false);
  ir.streams = std::make_shared<LongWarpSource>(n, lines);
  Launch l;
  l.block.x = 32;
  Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, *h100);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
  return t.ok() ? *t : MemoryTraffic{};
}

TEST(MemoryHierarchy, LongWarpFromWindowsStandsForTheWholeStream) {
  // 100,000 loads (> 32K instructions): 4 windows of 8192, one per stratum of 25,000. Each kept
  // access stands for 25000 / 8192 of the full stream: 4 × 8192 × 4 sectors × 25000 / 8192 =
  // 400,000 sectors, as the whole stream. Fresh data: no hit. Footprint: per window, 4096
  // accesses × 4 sectors first touched in the first half count once, the 16,384 of the second
  // half stand for 2 · 25000 / 8192 − 1 each: 16384 · 2 · 25000 / 8192 = 100,000 sectors per
  // window, 400,000 × 32 B = 12.8 MB, the bytes the stream reads.
  const MemoryTraffic t = longWarp(100000, 0);
  EXPECT_NEAR(t.loadSectors, 400000, 1e-6 * 400000);
  EXPECT_NEAR(t.loadRequests, 100000, 1e-6 * 100000);
  EXPECT_DOUBLE_EQ(t.l1HitSectors, 0);
  EXPECT_NEAR(t.l2HitSectors, 0, 1e-9);
  EXPECT_NEAR(t.compulsoryReadBytes, 12.8e6, 1e-6 * 12.8e6);
  bool noted = false;
  for (const std::string& n : t.notes) noted = noted || n.find("from 4 windows of 8192") != std::string::npos;
  EXPECT_TRUE(noted);
  // 16 lines (64 sectors) re-read 100,000 times: every counted access (second halves of the
  // windows, after 4096 warm-up accesses) hits L1 — the whole stream would give 1 − 64 / 400000
  // — and the footprint is the 64 sectors, 2048 B, touched in window 0 only.
  const MemoryTraffic r = longWarp(100000, 16);
  EXPECT_DOUBLE_EQ(r.l1HitSectors, r.loadSectors);
  EXPECT_NEAR(r.compulsoryReadBytes, 2048, 1e-9);
}

/// One warp per block, one load: lane l of block b reads the float at kA + b·step + 4·l.
class ShiftSource : public WarpStreamSource {
 public:
  explicit ShiftSource(long long step) : step_(step) {}
  Expected<std::vector<DynamicInstruction>> stream(long long block, int) const override {
    DynamicInstruction d;
    for (int l = 0; l < 32; ++l) d.laneAddresses.push_back(SweepSource::kA + block * step_ + 4LL * l);
    return std::vector<DynamicInstruction>{d};
  }

 private:
  long long step_;
};

double shiftedFootprint(long long step) {
  Expected<Gpu> h100 = loadPreset("h100");
  EXPECT_TRUE(h100.ok());
  KernelIR ir = sweepKernel(1, 32, 1, 32, CacheOp::Default, false);
  ir.streams = std::make_shared<ShiftSource>(step);
  Launch l;
  l.grid.x = 4096;
  l.block.x = 32;
  Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, *h100);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
  return t.ok() ? t->compulsoryBytes() : 0;
}

TEST(MemoryHierarchy, AffineBlocksShiftedBySectorsOrByLanesGiveTheHandFootprint) {
  // 4096 blocks, affine in the block index, all in the L2 window (4 sectors each: no sampling).
  // 128 B per block (a whole number of sectors: the base block's sectors shifted): 4096 × 128 B.
  EXPECT_DOUBLE_EQ(shiftedFootprint(128), 4096.0 * 128);
  // 4 B per block (the lanes extrapolated one access at a time): bytes kA … kA + 4095·4 + 31·4 + 3,
  // 16508 B from a sector boundary: 516 sectors of 32 B.
  EXPECT_DOUBLE_EQ(shiftedFootprint(4), 516.0 * 32);
}

TEST(MemoryHierarchy, ShiftedBlocksTakeTheirLinesFromWhereTheirSectorsStart) {
  // 65,536 one-warp blocks, block b reading the 128 B at kA + 96·b: every block is the base
  // block moved by 3 sectors per step, so where its 4 sectors start within a 128-B line cycles
  // with b mod 4 — one L1 wavefront when 3b ≡ 0 (mod 4), two otherwise: 16,384 · 1 + 49,152 · 2
  // = 114,688. The L2 window holds all 262,144 sector accesses, twice the spatial sample: the
  // totals are exact whatever is sampled; the footprint, kA … kA + 65,535 · 96 + 127, is
  // 196,609 sectors, estimated from the kept half of the regions (within 3 %).
  const Gpu gpu = loadPreset("h100").value();
  KernelIR ir = sweepKernel(1, 32, 1, 32, CacheOp::Default, false);
  ir.streams = std::make_shared<ShiftSource>(96);
  Launch l;
  l.grid.x = 65536;
  l.block.x = 32;
  Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, gpu);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_DOUBLE_EQ(t->loadRequests, 65536);
  EXPECT_DOUBLE_EQ(t->loadSectors, 65536.0 * 4);
  EXPECT_DOUBLE_EQ(t->loadWavefronts, 114688);
  EXPECT_NEAR(t->compulsoryReadBytes / 32, 196609, 0.03 * 196609);
}

/// A column strip of a matrix re-read by every block row (the B operand of a naive SGEMM): block
/// (bx, by) has 8 warps; warp w loads, for k = 0 … rows − 1, the 32 floats
/// kA + (k · 32·gx + 32·bx + l) · 4 (128 B, 4 sectors), whatever w and by.
class StripSource : public WarpStreamSource {
 public:
  StripSource(long long gx, long long rows) : gx_(gx), rows_(rows) {}
  Expected<std::vector<DynamicInstruction>> stream(long long block, int) const override {
    std::vector<DynamicInstruction> out(static_cast<size_t>(rows_));
    const long long bx = block % gx_;
    for (long long k = 0; k < rows_; ++k) {
      for (int l = 0; l < 32; ++l) {
        out[static_cast<size_t>(k)].laneAddresses.push_back(SweepSource::kA + (k * 32 * gx_ + 32 * bx + l) * 4);
      }
    }
    return out;
  }

 private:
  long long gx_, rows_;
};

MemoryTraffic strips(long long rows) {
  Expected<Gpu> h100 = loadPreset("h100");
  EXPECT_TRUE(h100.ok());
  KernelIR ir = sweepKernel(1, 32, 1, 256, CacheOp::Default, false);
  ir.streams = std::make_shared<StripSource>(1024, rows);
  Launch l;
  l.grid.x = 1024;
  l.grid.y = 64;
  l.block.x = 32;
  l.block.y = 8;
  Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, *h100);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
  return t.ok() ? *t : MemoryTraffic{};
}

TEST(MemoryHierarchy, StripReReadByEveryBlockRowIsReadFromDramOnceWhenItFitsInL2) {
  // 1024 × 64 blocks of 8 warps, 256 rows: B is 256 rows × 1024 strips × 128 B = 32 MiB,
  // 1,048,576 sectors; the hull of the addresses over the grid is kA … kA + 256·32768·4 − 1,
  // exactly B. The grid loads 65536 blocks × 8 warps × 256 × 4 sectors = 536,870,912 sectors,
  // each strip by the 64 block rows, which lie 1024 blocks apart in launch order: the L2 window
  // (2^25 lanes / (8 · 256 accesses · 32 lanes) = 512 blocks, all of row 0) and the 2 × 2
  // spread clusters saw no sharing beyond a block's 8 warps and charged DRAM 1/8 of the
  // sectors (67,108,864: 2 GiB, 64 × B). B fits in the H100's 50 MiB L2, so under LRU every re-touch
  // hits (fewer than the 1,048,576 sectors of the footprint come in between): DRAM reads are
  // the footprint, 32 MiB, and the L2 hit rate of the L1 misses is 1 − 1,048,576 / 67,108,864
  // (L1 misses: 1/8 of the loads, the first of a block's 8 warps) = 0.984375.
  const MemoryTraffic t = strips(256);
  EXPECT_DOUBLE_EQ(t.loadSectors, 536870912.0);
  EXPECT_DOUBLE_EQ(t.compulsoryReadBytes, 32.0 * 1024 * 1024);
  EXPECT_NEAR(t.dramReadSectors * 32, 32.0 * 1024 * 1024, 1e-6 * 32.0 * 1024 * 1024);
  EXPECT_NEAR(t.l2HitRate(), 0.984375, 0.002);
  // 512 rows: B is 64 MiB, more than L2: no cap, and LRU cannot read less than the footprint.
  const MemoryTraffic big = strips(512);
  EXPECT_DOUBLE_EQ(big.compulsoryReadBytes, 64.0 * 1024 * 1024);
  EXPECT_GT(big.dramReadSectors * 32, 64.0 * 1024 * 1024);
}

/// Every block (one warp) reads the same `lines` lines of 128 B, one per access, in order.
class SameSweepSource : public WarpStreamSource {
 public:
  explicit SameSweepSource(long long lines) : lines_(lines) {}
  Expected<std::vector<DynamicInstruction>> stream(long long, int) const override {
    std::vector<DynamicInstruction> out(static_cast<size_t>(lines_));
    for (long long k = 0; k < lines_; ++k) {
      for (int l = 0; l < 32; ++l) out[static_cast<size_t>(k)].laneAddresses.push_back(SweepSource::kA + k * 128 + l * 4);
    }
    return out;
  }

 private:
  long long lines_;
};

TEST(MemoryHierarchy, CoResidentBlocksShareInStepOnlyInTheirFirstWave) {
  // 32-thread blocks, 32 per H100 SM, each reading the same 1 MiB (8192 lines, 32,768 sectors)
  // in order: more than the L1 (256 KiB). One wave (132 × 32 blocks): an SM's 32 blocks start
  // together and read line k in step, the first to reach it misses and the other 31 hit:
  // 31/32 = 0.969 of the load sectors. Four waves: past the first, slot i runs i/32 of a run
  // (256 lines) ahead of slot i − 1, so between two slots' touches of a line the 32 slots read
  // 32 × 256 distinct lines (the whole array, 4× the L1): nothing hits.
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100.ok());
  auto l1Rate = [&](long long blocks) {
    KernelIR ir;
    ir.name = "same_sweep";
    BasicBlock b;
    b.instructions.push_back(globalLoad(CacheOp::Default));
    ir.blocks.push_back(b);
    ir.resources.registers = 32;
    ir.streams = std::make_shared<SameSweepSource>(8192);
    Launch l;
    l.grid.x = blocks;
    l.block.x = 32;
    Expected<MemoryTraffic> t = analyzeMemory(ir, nullptr, l, *h100);
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    return t.ok() ? t->l1HitRate() : -1.0;
  };
  EXPECT_NEAR(l1Rate(132 * 32), 31.0 / 32, 0.01);
  EXPECT_LT(l1Rate(4 * 132 * 32), 0.01);
}

TEST(MemoryHierarchy, ASharedWavefrontIsTheBanksRowAtTheSmsSharedBandwidth) {
  // H100: 32 banks x 4 B = 128 B per wavefront, at 128 B/cycle/SM: 1 cycle. K20c: the same row
  // at 256 B/cycle/SM: 0.5 cycles. Both 1 conflict-free wavefront for 4-B words, 4 for 16-B.
  for (const auto& [preset, cycles] : {std::pair{"h100", 1.0}, std::pair{"k20c", 0.5}}) {
    const Gpu gpu = loadPreset(preset).value();
    const SharedWavefront w = sharedWavefront(gpu);
    EXPECT_DOUBLE_EQ(w.bytes, 128) << preset;
    EXPECT_TRUE(w.banksKnown) << preset;
    EXPECT_NEAR(w.cycles, cycles, 1e-12) << preset;
    EXPECT_EQ(conflictFreeSharedWavefronts(gpu, 4), 1) << preset;
    EXPECT_EQ(conflictFreeSharedWavefronts(gpu, 16), 4) << preset;
  }
  // Without banks the row is taken as 128 B (banksKnown false); without a bandwidth, no cycles;
  // without a shared level, neither.
  Gpu gpu = loadPreset("h100").value();
  for (MemoryLevel& m : gpu.memory) {
    if (m.resource == "shared") m.banks.reset();
  }
  EXPECT_DOUBLE_EQ(sharedWavefront(gpu).bytes, 128);
  EXPECT_FALSE(sharedWavefront(gpu).banksKnown);
  EXPECT_NEAR(sharedWavefront(gpu).cycles, 1.0, 1e-12);
  for (MemoryLevel& m : gpu.memory) {
    if (m.resource == "shared") m.bandwidth.reset();
  }
  EXPECT_EQ(sharedWavefront(gpu).cycles, 0);
  std::erase_if(gpu.memory, [](const MemoryLevel& m) { return m.resource == "shared"; });
  EXPECT_EQ(sharedWavefront(gpu).cycles, 0);
  EXPECT_FALSE(sharedWavefront(gpu).banksKnown);
}

}  // namespace
}  // namespace foresight
