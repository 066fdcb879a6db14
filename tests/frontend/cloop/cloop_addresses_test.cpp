// SPDX-License-Identifier: Apache-2.0
/// \file
/// C loop addresses for the memory engine: each global operation's traced addresses, as an
/// affine function of the pseudo-thread and of the operation's occurrence, extrapolated from the
/// three traced sizes to the requested one (docs/input-cloop.md, "Addresses"). Skipped when
/// Foresight is built without LLVM.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "foresight/frontend/cloop/cloop_frontend.h"
#include "foresight/gpu/presets.h"
#include "foresight/ir/warp_stream.h"
#include "foresight/memory/hierarchy.h"

namespace foresight::cloop {
namespace {

#define REQUIRE_LLVM() \
  if (!cloopAvailable()) GTEST_SKIP() << "built without LLVM 14"

struct Analysed {
  CloopProgram program;
  Gpu gpu;
};

Analysed analyse(const std::string& name, const std::string& source) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "foresight-cloop-addresses-test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << source;
  Analysed a;
  Expected<Gpu> gpu = loadPreset("h100");
  EXPECT_TRUE(gpu.ok());
  a.gpu = *gpu;
  InputOptions in;
  in.gpu = &a.gpu;
  Expected<CloopProgram> p = analyzeCloop(path, in);  // no advice
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().format());
  if (p.ok()) a.program = std::move(*p);
  return a;
}

/// The first execution of the IR block whose label starts with `prefix` in warp (block, warp).
DynamicInstruction first(const KernelIR& ir, long long block, int warp, const std::string& prefix, int nth = 0) {
  Expected<std::vector<DynamicInstruction>> s = ir.streams->stream(block, warp);
  EXPECT_TRUE(s.ok());
  int seen = 0;
  for (const DynamicInstruction& d : *s) {
    if (ir.blocks[static_cast<size_t>(d.block)].label.rfind(prefix, 0) != 0) continue;
    if (seen++ == nth) return d;
  }
  ADD_FAILURE() << "no execution " << nth << " of " << prefix;
  return {};
}

TEST(CloopAddresses, SaxpyStreamsBothArraysOnce) {
  REQUIRE_LLVM();
  // y[i] = a x[i] + y[i], n = 2^22 (traced at 4096, 2048, 1024): thread i reads x[i] and y[i]
  // and writes y[i]. Footprint 2 × n × 4 B = 32 MiB; no sector is requested twice by loads.
  const Analysed a = analyse("saxpy.c", R"(#ifndef N
#define N 4194304
#endif
#pragma cgpredict trace(N=4096)
float x[N], y[N];
static void saxpy(float s) {
#pragma cgpredict kernel grid(1) block(256)
  for (int i = 0; i < N; i++) y[i] = s * x[i] + y[i];
}
int main(void) {
  for (int i = 0; i < N; i++) { x[i] = i; y[i] = 2 * i; }
  saxpy(2.0f);
  return 0;
}
)");
  ASSERT_EQ(a.program.kernels.size(), 1u);
  const CloopKernel& k = a.program.kernels[0];
  ASSERT_TRUE(k.input.ir.streams);
  EXPECT_EQ(k.launch.grid.x, 16384);  // 2^22 / 256
  // Block 3, warp 1, lane 5 is thread i = 3·256 + 32 + 5 = 805; lane 6 the next float.
  const DynamicInstruction x = first(k.input.ir, 3, 1, "load_x");
  ASSERT_EQ(x.laneAddresses.size(), 32u);
  EXPECT_EQ(x.laneAddresses[6] - x.laneAddresses[5], 4);
  EXPECT_EQ(x.laneAddresses[5] % (1LL << 40), 805 * 4);
  const DynamicInstruction y = first(k.input.ir, 3, 1, "store_y");
  EXPECT_EQ(y.laneAddresses[5] % (1LL << 40), 805 * 4);
  EXPECT_NE(y.laneAddresses[5] >> 40, x.laneAddresses[5] >> 40);  // distinct arrays
  Expected<MemoryTraffic> t = analyzeMemory(k.input.ir, &*k.input.summary, k.launch, a.gpu);
  ASSERT_TRUE(t.ok()) << t.error().format();
  const double n = 4194304;
  EXPECT_NEAR(t->compulsoryBytes(), 2 * n * 4, 0.02 * 2 * n * 4);
  EXPECT_LT(t->l2HitRate(), 0.01);
  EXPECT_LT(t->l1HitRate(), 0.01);
}

TEST(CloopAddresses, GemvRereadsTheVectorFromTheCaches) {
  REQUIRE_LLVM();
  // y[i] = Σ_k A[i][k] x[k], n = 4096 (traced at 256): every thread walks x[0..n) (16 KiB), so
  // after the first warps x is served by the caches; A (64 MiB) is read once. Footprint
  // (n² + n) × 4 B read + n × 4 B written.
  const Analysed a = analyse("gemv.c", R"(#ifndef N
#define N 4096
#endif
#pragma cgpredict trace(N=256)
float A[N][N], x[N], y[N];
static void gemv(void) {
#pragma cgpredict kernel grid(1) block(128)
  for (int i = 0; i < N; i++) {
    float s = 0;
    for (int k = 0; k < N; k++) s += A[i][k] * x[k];
    y[i] = s;
  }
}
int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = i % 3;
    for (int k = 0; k < N; k++) A[i][k] = (i + k) % 5;
  }
  gemv();
  return 0;
}
)");
  ASSERT_EQ(a.program.kernels.size(), 1u);
  const CloopKernel& k = a.program.kernels[0];
  ASSERT_TRUE(k.input.ir.streams);
  // Execution 7 of the A load by thread i = 130 (block 1, warp 0, lane 2): A[130][7], the row
  // stride extrapolated from the traced sizes (4 n B at n = 256, 128, 64) to n = 4096.
  const DynamicInstruction ld = first(k.input.ir, 1, 0, "load_A", 7);
  EXPECT_EQ(ld.laneAddresses[2] % (1LL << 40), (130 * 4096 + 7) * 4);
  Expected<MemoryTraffic> t = analyzeMemory(k.input.ir, &*k.input.summary, k.launch, a.gpu);
  ASSERT_TRUE(t.ok()) << t.error().format();
  const double n = 4096;
  EXPECT_NEAR(t->compulsoryBytes(), (n * n + 2 * n) * 4, 0.03 * n * n * 4);
  const SiteTraffic* xs = nullptr;
  for (const SiteTraffic& s : t->sites) {
    if (k.input.ir.blocks[static_cast<size_t>(s.block)].label.rfind("load_x", 0) == 0) xs = &s;
  }
  ASSERT_NE(xs, nullptr);
  EXPECT_GT((xs->l1Hits + xs->l2Hits) / xs->sectors, 0.9);
}

}  // namespace
}  // namespace foresight::cloop
