// SPDX-License-Identifier: Apache-2.0
/// \file
/// gpu_writer: every embedded preset written as TOML loads back to an equal Gpu (every Param's
/// canonical value, unit and provenance), and exotic units round-trip exactly.
#include "foresight/gpu/gpu_writer.h"

#include <gtest/gtest.h>

#include "foresight/gpu/gpu_loader.h"
#include "foresight/gpu/presets.h"

namespace foresight {
namespace {

template <class T>
void expectParam(const Param<T>& a, const Param<T>& b, const std::string& what) {
  EXPECT_EQ(a.value, b.value) << what;
  EXPECT_EQ(a.unit, b.unit) << what;
  EXPECT_EQ(a.source, b.source) << what;
}

template <class T>
void expectParam(const std::optional<Param<T>>& a, const std::optional<Param<T>>& b,
                 const std::string& what) {
  ASSERT_EQ(a.has_value(), b.has_value()) << what;
  if (a) expectParam(*a, *b, what);
}

/// Field-by-field equality of two GPU descriptions (Gpu has no operator==).
void expectEqualGpu(const Gpu& a, const Gpu& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.fullName, b.fullName);
  EXPECT_EQ(a.architecture, b.architecture);
  EXPECT_EQ(a.ccMajor, b.ccMajor);
  EXPECT_EQ(a.ccMinor, b.ccMinor);
  expectParam(a.smCount, b.smCount, "sm.count");
  expectParam(a.clockGhz, b.clockGhz, "sm.clock");
  expectParam(a.warpSize, b.warpSize, "sm.warp_size");
  expectParam(a.schedulersPerSm, b.schedulersPerSm, "sm.schedulers");
  expectParam(a.issueWidth, b.issueWidth, "sm.issue_width");
  const GpuLimits &x = a.limits, &y = b.limits;
  expectParam(x.threadsPerSm, y.threadsPerSm, "threads_per_sm");
  expectParam(x.warpsPerSm, y.warpsPerSm, "warps_per_sm");
  expectParam(x.blocksPerSm, y.blocksPerSm, "blocks_per_sm");
  expectParam(x.threadsPerBlock, y.threadsPerBlock, "threads_per_block");
  expectParam(x.registersPerSm, y.registersPerSm, "registers_per_sm");
  expectParam(x.registersPerThread, y.registersPerThread, "registers_per_thread");
  expectParam(x.registersPerBlock, y.registersPerBlock, "registers_per_block");
  expectParam(x.registerAllocUnit, y.registerAllocUnit, "register_alloc_unit");
  EXPECT_EQ(x.registerGranularity, y.registerGranularity);
  expectParam(x.warpAllocGranularity, y.warpAllocGranularity, "warp_alloc_granularity");
  expectParam(x.registerFilePartitions, y.registerFilePartitions, "register_file_partitions");
  expectParam(x.sharedPerSm, y.sharedPerSm, "shared_per_sm");
  expectParam(x.sharedPerBlock, y.sharedPerBlock, "shared_per_block");
  expectParam(x.sharedAllocUnit, y.sharedAllocUnit, "shared_alloc_unit");
  expectParam(x.sharedReservedPerBlock, y.sharedReservedPerBlock, "shared_reserved_per_block");
  for (int i = 0; i < kNumInstrClasses; ++i) {
    const std::string what = std::string("pipelines.") + instrClassName(static_cast<InstrClass>(i));
    ASSERT_EQ(a.pipelines[i].has_value(), b.pipelines[i].has_value()) << what;
    if (!a.pipelines[i]) continue;
    expectParam(a.pipelines[i]->latency, b.pipelines[i]->latency, what + ".latency");
    expectParam(a.pipelines[i]->gap, b.pipelines[i]->gap, what + ".gap");
  }
  ASSERT_EQ(a.memory.size(), b.memory.size());
  for (size_t i = 0; i < a.memory.size(); ++i) {
    const MemoryLevel &m = a.memory[i], &n = b.memory[i];
    const std::string what = "memory." + m.name;
    EXPECT_EQ(m.name, n.name);
    EXPECT_EQ(m.resource, n.resource) << what;
    EXPECT_EQ(m.softwareManaged, n.softwareManaged) << what;
    EXPECT_EQ(m.writable, n.writable) << what;
    EXPECT_EQ(m.scope, n.scope) << what;
    EXPECT_EQ(m.serialization, n.serialization) << what;
    expectParam(m.size, n.size, what + ".size");
    expectParam(m.line, n.line, what + ".line");
    expectParam(m.sector, n.sector, what + ".sector");
    expectParam(m.banks, n.banks, what + ".banks");
    expectParam(m.bankWidth, n.bankWidth, what + ".bank_width");
    expectParam(m.latency, n.latency, what + ".latency");
    expectParam(m.bandwidth, n.bandwidth, what + ".bandwidth");
    EXPECT_EQ(m.lower, n.lower) << what;
  }
  const MwpCwpParams &p = a.mwpCwp, &q = b.mwpCwp;
  expectParam(p.memLatency, q.memLatency, "mem_latency");
  expectParam(p.departureDelayCoal, q.departureDelayCoal, "departure_delay_coal");
  expectParam(p.departureDelayUncoal, q.departureDelayUncoal, "departure_delay_uncoal");
  expectParam(p.issueCycles, q.issueCycles, "issue_cycles");
  expectParam(p.memBandwidth, q.memBandwidth, "mem_bandwidth");
  expectParam(p.l2Latency, q.l2Latency, "l2_latency");
  expectParam(p.l2DepartureDelay, q.l2DepartureDelay, "l2_departure_delay");
  expectParam(p.dramDepartureDelay, q.dramDepartureDelay, "dram_departure_delay");
  expectParam(p.instCycles, q.instCycles, "inst_cycles");
}

TEST(GpuWriter, EveryPresetRoundTrips) {
  ASSERT_FALSE(presetNames().empty());
  for (const std::string& name : presetNames()) {
    SCOPED_TRACE(name);
    Expected<Gpu> original = loadPreset(name);
    ASSERT_TRUE(original.ok()) << original.error().format();
    const std::string text = writeGpuToml(*original, "round trip of " + name);
    Expected<Gpu> back = loadGpuFromString(text, "written.toml");
    ASSERT_TRUE(back.ok()) << back.error().format() << "\n" << text;
    expectEqualGpu(*original, *back);
    // Writing is a fixed point: the reloaded description writes the same text.
    EXPECT_EQ(writeGpuToml(*back, "round trip of " + name), text);
  }
}

TEST(GpuWriter, UnitsThatScaleRoundTripExactly) {
  Expected<Gpu> base = loadPreset(presetNames().front());
  ASSERT_TRUE(base.ok());
  Gpu g = *base;
  // 1755 MHz is 1.755 GHz in memory; 1.755 / 1e-3 is not exactly 1755 in binary.
  g.clockGhz = {1755 * 1e-3, {Provenance::Kind::Measured, "2026-11-21"}, "MHz"};
  // A bandwidth given per SM per cycle: canonical GB/s = 32 x SMs x clock.
  g.memory.back().bandwidth =
      Param<double>{32.0 * g.smCount.value * g.clockGhz.value, {}, "B/cycle/SM"};
  g.memory.back().size = {3 * 1024LL * 1024 * 1024, {}, "GiB"};
  g.mwpCwp.memBandwidth = {3350, {Provenance::Kind::Estimate, "note with \"quotes\""}, "TB/s"};
  Expected<Gpu> back = loadGpuFromString(writeGpuToml(g), "x.toml");
  ASSERT_TRUE(back.ok()) << back.error().format() << "\n" << writeGpuToml(g);
  expectEqualGpu(g, *back);
}

}  // namespace
}  // namespace foresight
