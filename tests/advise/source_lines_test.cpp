// SPDX-License-Identifier: Apache-2.0
/// \file
/// Source-line attribution on two bottleneck examples whose waits are known by construction
/// (examples/cuda/bottlenecks/): a pointer chase waits on DRAM results at its load line, a
/// 32-way conflicted shared loop on the shared pipe's throughput at its load line. Every issued
/// op is counted once.
#include "foresight/advise/source_lines.h"

#include <gtest/gtest.h>

#include "foresight/frontend/input.h"
#include "test_support.h"

namespace foresight {
namespace {

const std::string kFixtures = std::string(FORESIGHT_SOURCE_DIR) + "/tests/examples/fixtures/bottlenecks/";

struct Costs {
  std::vector<SourceLineCost> lines;
  long long issuedOps = 0;  ///< warp instructions the emulated SM issued, from its streams
};

Costs costsOf(const std::string& sass, const std::string& kernel, Dim3 grid, Dim3 block, const char* arg,
              long long value) {
  const Gpu h100 = testing_support::preset("h100");
  InputOptions io;
  io.gpu = &h100;
  io.kernel = kernel;
  io.launch = Launch{grid, block};
  io.launch->args[arg] = value;
  Expected<LoadedInput> in = loadInput(kFixtures + sass, io);
  EXPECT_TRUE(in.ok()) << in.error().format();
  if (!in) return {};
  Expected<emu::KernelEmulation> e = emu::KernelEmulation::create(in->kernels[0], *io.launch, h100, EmulateOptions{});
  EXPECT_TRUE(e.ok()) << e.error().format();
  if (!e) return {};
  Expected<EmulationTrace> trace = traceEmulation(*e, in->kernels[0].ir, 100);
  EXPECT_TRUE(trace.ok()) << trace.error().format();
  Costs c;
  if (trace) {
    c.lines = trace->lines;
    EXPECT_EQ(trace->timeline.size(), 100u);  // the same run's first 100 issues
  }
  for (const emu::EmuWarp& w : e->fullWave().program.warps) c.issuedOps += static_cast<long long>(w.ops.size());
  return c;
}

/// The line that waited most is `line`, waiting > 95 % for `reason` of `unit`; every issued op is
/// on some line.
void expectTopLine(const Costs& c, int line, const char* reason, const char* unit) {
  ASSERT_FALSE(c.lines.empty());
  const SourceLineCost& top = c.lines.front();
  EXPECT_EQ(top.line, line);
  ASSERT_FALSE(top.waits.empty());
  EXPECT_EQ(top.waits[0].reason, reason);
  EXPECT_EQ(top.waits[0].unit, unit);
  EXPECT_GT(top.waits[0].cycles, 0.95 * top.stallCycles);
  long long issued = 0;
  for (const SourceLineCost& l : c.lines) issued += l.issued;
  EXPECT_EQ(issued, c.issuedOps);
}

TEST(SourceLines, PointerChaseWaitsOnDramResultsAtItsLoad) {
  // dram_latency.cu:33 `p = next[p]`: each load's address is the previous load's result.
  const Costs c = costsOf("dram_latency.sm_90.sass", "dram_latency", {132, 1, 1}, {32, 1, 1}, "iters", 512);
  expectTopLine(c, 33, "operand", "dram");
  // One warp per SM (132 blocks of 32 threads): nothing else to issue, so nothing waits for the
  // scheduler.
  ASSERT_FALSE(c.lines.empty());
  EXPECT_EQ(c.lines.front().notSelectedCycles, 0);
}

TEST(SourceLines, ConflictedSharedLoopWaitsOnTheSharedPipe) {
  // shared_throughput.cu:29: stride-32 shared loads, 32 wavefronts each.
  const Costs c = costsOf("shared_throughput.sm_90.sass", "shared_throughput", {1056, 1, 1}, {256, 1, 1}, "iters", 512);
  expectTopLine(c, 29, "queue", "shared");
}

}  // namespace
}  // namespace foresight
