// SPDX-License-Identifier: Apache-2.0
/// \file
/// The Toolchain implementations: the fixture fake, the compile cache (a counting fake shows
/// that a second identical request is served from disk), missing-tool messages of the system
/// toolchain, and — where nvcc is installed (CI here) — a real compilation whose resources
/// equal the stored fixture. Tests that need nvcc or nvdisasm say so when they skip.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>

#include "fixture_paths.h"
#include "foresight/frontend/cuda/compile_cache.h"
#include "foresight/frontend/cuda/cubin_reader.h"
#include "foresight/frontend/cuda/system_toolchain.h"

namespace foresight::cuda {
namespace {

namespace fs = std::filesystem;
using testing::fixture;
using testing::slurp;

/// Counts how often each operation reaches the inner toolchain.
class CountingToolchain final : public Toolchain {
 public:
  int compiles = 0;
  int disassembles = 0;
  Expected<std::string> readFile(const std::string& path) override { return slurp(path); }
  Expected<std::string> compileToPtx(const CompileRequest& r) override {
    ++compiles;
    return "ptx of " + r.arch + " " + std::to_string(r.macros.size());
  }
  Expected<std::string> compileToCubin(const CompileRequest&) override {
    ++compiles;
    return std::string("cubin");
  }
  Expected<std::string> assemble(const std::string&, const std::string&, const std::string&) override {
    return makeError("no");
  }
  Expected<std::string> disassemble(const std::string&, const std::string&, const std::string&) override {
    ++disassembles;
    return std::string("sass");
  }
  bool canDisassemble(const std::string&) const override { return true; }
  ToolchainDescription describe() const override { return {"", "", "", "counting"}; }
};

TEST(FixtureToolchain, ServesStoredFiles) {
  auto tc = createFixtureToolchain({testing::fixtureDir(), true});
  CompileRequest r{fixture("vecadd.cu"), "", "sm_80", {}, true};
  Expected<std::string> ptx = tc->compileToPtx(r);
  ASSERT_TRUE(ptx);
  EXPECT_NE(ptx->find(".target sm_80"), std::string::npos);
  EXPECT_TRUE(tc->canDisassemble("sm_90"));
  EXPECT_FALSE(tc->canDisassemble("sm_100"));
  r.macros = {{"TILE", "32"}};
  EXPECT_FALSE(tc->compileToPtx(r));
  r.macros.clear();
  r.arch = "sm_86";
  Expected<std::string> missing = tc->compileToCubin(r);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no fixture"), std::string::npos);
}

TEST(CompileCache, SecondRequestIsServedFromDisk) {
  const fs::path dir = fs::temp_directory_path() / ("foresight_cache_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto inner = std::make_unique<CountingToolchain>();
  CountingToolchain* counting = inner.get();
  auto cached = createCachingToolchain(std::move(inner), {dir.string()});
  CompileRequest r{"k.cu", "__global__ void k() {}", "sm_90", {{"N", "4"}}, true};
  EXPECT_EQ(*cached->compileToPtx(r), "ptx of sm_90 1");
  EXPECT_EQ(*cached->compileToPtx(r), "ptx of sm_90 1");
  EXPECT_EQ(counting->compiles, 1);
  r.macros = {{"N", "8"}};  // a different macro is a different key
  EXPECT_TRUE(cached->compileToPtx(r));
  EXPECT_EQ(counting->compiles, 2);
  r.source += " ";  // so is different source text
  EXPECT_TRUE(cached->compileToPtx(r));
  EXPECT_EQ(counting->compiles, 3);
  r.includeDirs = {"inc"};  // include paths, nvcc flags and included text are keys too
  EXPECT_TRUE(cached->compileToPtx(r));
  r.flags = {"-use_fast_math"};
  EXPECT_TRUE(cached->compileToPtx(r));
  r.includedText = "inc/h.cuh\n#define N 4\n";
  EXPECT_TRUE(cached->compileToPtx(r));
  EXPECT_EQ(counting->compiles, 6);
  EXPECT_TRUE(cached->compileToPtx(r));
  EXPECT_EQ(counting->compiles, 6);
  EXPECT_EQ(*cached->disassemble("bytes", "sm_90", "k"), "sass");
  EXPECT_EQ(*cached->disassemble("bytes", "sm_90", "k"), "sass");
  EXPECT_EQ(counting->disassembles, 1);
  EXPECT_EQ(cached->describe().kind, "cached(counting)");
  fs::remove_all(dir);
  EXPECT_EQ(contentHash("a"), "af63dc4c8601ec8c");  // FNV-1a 64 of "a"
}

TEST(SystemToolchain, MissingToolsAreExplained) {
  auto tc = createSystemToolchain({"/nonexistent-cuda", "/nonexistent-tools", "/nonexistent-bin"});
  EXPECT_TRUE(tc->describe().nvcc.empty());
  EXPECT_FALSE(tc->canDisassemble("sm_90"));
  Expected<std::string> ptx = tc->compileToPtx({"k.cu", "", "sm_90", {}, true});
  ASSERT_FALSE(ptx);
  EXPECT_NE(ptx.error().message.find("nvcc not found"), std::string::npos);
  EXPECT_NE(ptx.error().message.find("CUDA_HOME"), std::string::npos);
  Expected<std::string> sass = tc->disassemble("", "sm_90", "k.cubin");
  ASSERT_FALSE(sass);
  EXPECT_NE(sass.error().message.find("scripts/setup.sh"), std::string::npos);
  EXPECT_NE(sass.error().message.find("nvidia-cuda-toolkit 12.5"), std::string::npos);
}

/// A folder of fake tools: shell scripts standing in for nvcc, ptxas and nvdisasm.
struct FakeTools {
  fs::path dir = fs::temp_directory_path() / ("foresight_fake_tools_" + std::to_string(::getpid()));
  FakeTools() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~FakeTools() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  void add(const std::string& tool, const std::string& body) const {
    const fs::path p = dir / tool;
    std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(p, fs::perms::owner_all);
  }
  [[nodiscard]] std::unique_ptr<Toolchain> toolchain(double timeout) const {
    SystemToolchainOptions o{"/nonexistent-cuda", "/nonexistent-tools", dir.string()};
    o.toolTimeoutSeconds = timeout;
    return createSystemToolchain(o);
  }
};

TEST(SystemToolchain, AHangingToolIsKilledAtTheToolTimeout) {
  // A corrupt cubin can make nvdisasm loop forever: the run ends at --tool-timeout.
  FakeTools tools;
  tools.add("nvdisasm", "sleep 100");
  auto tc = tools.toolchain(1);
  ASSERT_TRUE(tc->canDisassemble("sm_90"));
  const auto start = std::chrono::steady_clock::now();
  Expected<std::string> sass = tc->disassemble("not a cubin", "sm_90", "k.cubin");
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(sass);
  EXPECT_EQ(sass.error().message,
            "nvdisasm did not finish within 1 s (killed); raise the limit with --tool-timeout SECONDS");
  EXPECT_EQ(sass.error().file, "k.cubin");
  EXPECT_LT(took, 3.0);
}

TEST(SystemToolchain, CrashingAndFailingToolsAreExplained) {
  FakeTools tools;
  tools.add("nvdisasm", "kill -SEGV $$");
  tools.add("ptxas", "echo 'ptxas warning : slow' >&2; echo 'ptxas fatal : error: bad input' >&2; exit 1");
  tools.add("nvcc", "exit 2");
  auto tc = tools.toolchain(0);  // the tools' own limits
  Expected<std::string> sass = tc->disassemble("x", "sm_90", "k.cubin");
  ASSERT_FALSE(sass);
  EXPECT_EQ(sass.error().message, "nvdisasm was killed by signal 11 (Segmentation fault)");
  Expected<std::string> cubin = tc->assemble(".version 8.0", "sm_90", "k.ptx");
  ASSERT_FALSE(cubin);
  EXPECT_EQ(cubin.error().message, "ptxas failed: ptxas fatal : error: bad input | ptxas warning : slow");
  Expected<std::string> ptx = tc->compileToPtx({"k.cu", "", "sm_90", {}, true});
  ASSERT_FALSE(ptx);
  EXPECT_EQ(ptx.error().message, "nvcc exited with status 2");
  EXPECT_EQ(ptx.error().file, "k.cu");
}

TEST(SystemToolchain, UnsupportedArchitectures) {
  EXPECT_TRUE(checkSupportedArch("sm_90a"));
  EXPECT_TRUE(checkSupportedArch("sm_120"));  // PTX only
  EXPECT_FALSE(nvdisasmDecodes("sm_120"));
  EXPECT_TRUE(checkSupportedArch("sm_70"));  // Volta, through CUDA 12.5's ptxas
  EXPECT_TRUE(nvdisasmDecodes("sm_70"));
  EXPECT_TRUE(needsLegacyPtxas("sm_72"));
  EXPECT_FALSE(needsLegacyPtxas("sm_75"));
  EXPECT_FALSE(checkSupportedArch("sm_60"));
  EXPECT_FALSE(checkSupportedArch("sm_13"));
}

TEST(SystemToolchain, RetargetsPtxForVolta) {
  // CUDA 13 emits PTX ISA 9.0 for sm_75; CUDA 12.5's ptxas reads up to 8.5. Other lines stay.
  const std::string ptx = "//\n.version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";
  EXPECT_EQ(retargetPtx(ptx, "sm_70"),
            "//\n.version 8.5\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n");
  // An older ISA version is kept.
  EXPECT_EQ(retargetPtx(".version 7.8\n.target sm_75\n", "sm_72"), ".version 7.8\n.target sm_72\n");
}

TEST(SystemToolchain, CompilesForVoltaThroughTheLegacyPtxas) {
  auto tc = createSystemToolchain();
  if (tc->describe().nvcc.empty()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit or set CUDA_HOME)";
  if (!tc->canDisassemble("sm_70")) GTEST_SKIP() << "nvdisasm not found (scripts/setup.sh fetches it into .tools/)";
  const std::string src = fixture("reduce.cu");
  const CompileRequest r{src, slurp(src), "sm_70", {}, true};
  Expected<std::string> ptx = tc->compileToPtx(r);
  ASSERT_TRUE(ptx) << ptx.error().format();
  EXPECT_NE(ptx->find("\n.target sm_70\n"), std::string::npos);
  Expected<std::string> cubin = tc->compileToCubin(r);
  ASSERT_TRUE(cubin) << cubin.error().format();
  Expected<Cubin> c = readCubin(*cubin, src);
  ASSERT_TRUE(c) << c.error().format();
  EXPECT_EQ(c->smVersion, 70);
  // The shared array of reduce.cu: BLOCK = 256 floats.
  EXPECT_EQ(c->kernels.at(0).sharedBytes, 1024);
  Expected<std::string> sass = tc->disassemble(*cubin, "sm_70", src);
  ASSERT_TRUE(sass) << sass.error().format();
  EXPECT_NE(sass->find("EF_CUDA_SM70"), std::string::npos);
  EXPECT_NE(sass->find("BAR.SYNC"), std::string::npos);
  // -maxrregcount, which nvcc would give its own ptxas, reaches the legacy one: 48 accumulators
  // live across an unrolled loop take 56 registers, 32 with the cap (the rest on the stack).
  const fs::path dir = fs::temp_directory_path() / ("foresight_regs_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string heavy = (dir / "regs.cu").string();
  {
    std::ofstream f(heavy);
    f << "__global__ void regs(const float* in, float* out) {\n"
         "  float a[48];\n"
         "#pragma unroll\n"
         "  for (int i = 0; i < 48; ++i) a[i] = in[threadIdx.x + i * 256];\n"
         "#pragma unroll\n"
         "  for (int r = 0; r < 8; ++r) {\n"
         "#pragma unroll\n"
         "    for (int i = 0; i < 48; ++i) a[i] = a[i] * a[(i + 1) % 48] + 1.0f;\n"
         "  }\n"
         "  float s = 0;\n"
         "#pragma unroll\n"
         "  for (int i = 0; i < 48; ++i) s += a[i];\n"
         "  out[threadIdx.x] = s;\n"
         "}\n";
  }
  CompileRequest capped{heavy, slurp(heavy), "sm_70", {}, true};
  Expected<std::string> free = tc->compileToCubin(capped);
  ASSERT_TRUE(free) << free.error().format();
  EXPECT_GT(readCubin(*free, heavy)->kernels.at(0).registers, 32);
  capped.flags = {"-maxrregcount=32"};
  Expected<std::string> limited = tc->compileToCubin(capped);
  ASSERT_TRUE(limited) << limited.error().format();
  EXPECT_EQ(readCubin(*limited, heavy)->kernels.at(0).registers, 32);
  fs::remove_all(dir);
}

TEST(SystemToolchain, SaysWhereTheLegacyPtxasIsMissing) {
  SystemToolchainOptions o;
  o.toolsDir = "/nonexistent-tools";
  auto tc = createSystemToolchain(o);
  Expected<std::string> cubin = tc->assemble(".version 8.5\n.target sm_70\n", "sm_70", "k.ptx");
  ASSERT_FALSE(cubin);
  EXPECT_EQ(cubin.error().message,
            "compiling for sm_70 needs the ptxas of CUDA 12.5 (CUDA 13 dropped Volta), looked in "
            "/nonexistent-tools/cuda-12.5/usr/bin; scripts/setup.sh unpacks it there from Debian's nvidia-cuda-toolkit 12.5");
  EXPECT_EQ(cubin.error().file, "k.ptx");
}

TEST(SystemToolchain, CompilesLikeTheFixtures) {
  auto tc = createSystemToolchain();
  if (tc->describe().nvcc.empty()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit or set CUDA_HOME)";
  const std::string src = fixture("reduce.cu");
  CompileRequest r{src, slurp(src), "sm_80", {}, true};
  Expected<std::string> cubin = tc->compileToCubin(r);
  ASSERT_TRUE(cubin) << cubin.error().format();
  Expected<Cubin> fresh = readCubin(*cubin, src);
  Expected<Cubin> stored = readCubin(slurp(fixture("reduce.sm_80.cubin")), "stored");
  ASSERT_TRUE(fresh && stored);
  EXPECT_EQ(fresh->kernels.at(0).registers, stored->kernels.at(0).registers);
  EXPECT_EQ(fresh->kernels.at(0).sharedBytes, stored->kernels.at(0).sharedBytes);
  // -D reaches nvcc: BLOCK=128 halves the shared array.
  r.macros = {{"BLOCK", "128"}};
  Expected<std::string> small = tc->compileToCubin(r);
  ASSERT_TRUE(small) << small.error().format();
  EXPECT_EQ(readCubin(*small, src)->kernels.at(0).sharedBytes, 512);
  if (!tc->canDisassemble("sm_80")) GTEST_SKIP() << "nvdisasm not found (scripts/setup.sh fetches it into .tools/)";
  Expected<std::string> sass = tc->disassemble(*cubin, "sm_80", src);
  ASSERT_TRUE(sass) << sass.error().format();
  EXPECT_NE(sass->find("BAR.SYNC"), std::string::npos);
}

TEST(SystemToolchain, AnalysesAnExampleEndToEnd) {
  auto tc = createSystemToolchain();
  if (tc->describe().nvcc.empty()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit or set CUDA_HOME)";
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = testing::launch({64, 64, 1}, {16, 16, 1}, {{"n", 1024}});
  o.kernel = "matmul_tiled";
  Expected<CudaProgram> p = loadCuda(std::string(FORESIGHT_SOURCE_DIR) + "/examples/cuda/matmul.cu", o, *tc);
  ASSERT_TRUE(p) << p.error().format();
  // Same as the fixture-based test: 15 + 26 + 64 × 59 + 7 PTX instructions per warp.
  EXPECT_DOUBLE_EQ(p->kernels[0].dynamicInstructionsPerWarp, 3824);
  EXPECT_EQ(p->kernels[0].ir.resources.registers, 32);
  EXPECT_EQ(p->isa, tc->canDisassemble("sm_90") ? "sass (memory from ptx)" : "ptx");
}

TEST(SystemToolchain, IncludePathsAndNvccFlags) {
  auto tc = createSystemToolchain();
  if (tc->describe().nvcc.empty()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit or set CUDA_HOME)";
  // A kernel whose block size comes from a header found only through -I, compiled with and
  // without -maxrregcount; the cache sees an edit of the header.
  const fs::path dir = fs::temp_directory_path() / ("foresight_inc_" + std::to_string(::getpid()));
  fs::create_directories(dir / "include");
  const std::string cu = (dir / "k.cu").string();
  {
    std::ofstream h(dir / "include" / "tile.cuh");
    h << "#define TILE 64\n";
    std::ofstream f(cu);
    f << "#include \"tile.cuh\"\n"
         "__global__ void k(const float* in, float* out) {\n"
         "  __shared__ float s[TILE];\n"
         "  s[threadIdx.x] = in[threadIdx.x];\n"
         "  __syncthreads();\n"
         "  out[threadIdx.x] = s[(threadIdx.x + 1) % TILE];\n"
         "}\n";
  }
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = testing::launch({1, 1, 1}, {64, 1, 1});
  Expected<CudaProgram> without = loadCuda(cu, o, *tc);
  ASSERT_FALSE(without);  // nvcc cannot find tile.cuh
  EXPECT_NE(without.error().message.find("nvcc failed"), std::string::npos);
  o.includeDirs = {(dir / "include").string()};
  const fs::path cacheDir = dir / "cache";
  auto cached = createCachingToolchain(createSystemToolchain(), {cacheDir.string()});
  Expected<CudaProgram> p = loadCuda(cu, o, *cached);
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_EQ(p->kernels.at(0).ir.resources.staticSharedBytes, 256);  // 64 floats
  {
    std::ofstream h(dir / "include" / "tile.cuh");
    h << "#define TILE 128\n";
  }
  Expected<CudaProgram> edited = loadCuda(cu, o, *cached);
  ASSERT_TRUE(edited) << edited.error().format();
  EXPECT_EQ(edited->kernels.at(0).ir.resources.staticSharedBytes, 512);  // recompiled, not stale
  o.nvccFlags = {"-maxrregcount=16"};
  Expected<CudaProgram> capped = loadCuda(cu, o, *cached);
  ASSERT_TRUE(capped) << capped.error().format();
  EXPECT_LE(capped->kernels.at(0).ir.resources.registers, 16);
  fs::remove_all(dir);
}

TEST(SystemToolchain, CompileErrorsComeBeforeWarnings) {
  auto tc = createSystemToolchain();
  if (tc->describe().nvcc.empty()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit or set CUDA_HOME)";
  // Five macro redefinitions (warnings) ahead of the real error: the message must name the error.
  std::string src;
  for (int i = 0; i < 5; ++i) src += "#define W" + std::to_string(i) + " 1\n#define W" + std::to_string(i) + " 2\n";
  src += "__global__ void k(float* x) { x[0] = undefined_name; }\n";
  const fs::path dir = fs::temp_directory_path() / ("foresight_err_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string cu = (dir / "bad.cu").string();
  {
    std::ofstream f(cu);
    f << src;
  }
  Expected<std::string> ptx = tc->compileToPtx({cu, src, "sm_90", {}, true});
  fs::remove_all(dir);
  ASSERT_FALSE(ptx);
  EXPECT_EQ(ptx.error().message.rfind("nvcc failed: ", 0), 0u);
  EXPECT_NE(ptx.error().message.find("identifier \"undefined_name\" is undefined"), std::string::npos) << ptx.error().message;
}

TEST(SystemToolchain, LaunchBoundsAndWarpShufflesEndToEnd) {
  auto tc = createSystemToolchain();
  if (tc->describe().nvcc.empty()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit or set CUDA_HOME)";
  // __launch_bounds__ on its own line between `void` and the name; nvcc -lineinfo wraps the
  // shuffles in `%r|%p` pairs, `.loc … inlined_at` lines and a `.section .debug_str { … }`.
  const fs::path dir = fs::temp_directory_path() / ("foresight_lb_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string cu = (dir / "warp_sum.cu").string();
  {
    std::ofstream f(cu);
    f << "extern \"C\" __global__ void\n"
         "__launch_bounds__(64)\n"
         "warp_sum(const float* __restrict__ in, float* __restrict__ out, int n) {\n"
         "  int i = blockIdx.x * 64 + threadIdx.x;\n"
         "  float v = i < n ? in[i] : 0.0f;\n"
         "  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);\n"
         "  if ((threadIdx.x & 31) == 0) out[i / 32] = v;\n"
         "}\n";
  }
  CudaOptions o;
  o.arch = "sm_90";
  o.launch = testing::launch({2, 1, 1}, {64, 1, 1}, {{"n", 128}});
  Expected<CudaProgram> p = loadCuda(cu, o, *tc);
  fs::remove_all(dir);
  ASSERT_TRUE(p) << p.error().format();
  EXPECT_EQ(p->kernels[0].paramNames, (std::vector<std::string>{"in", "out", "n"}));
  // The unrolled loop: 5 shuffles (offsets 16, 8, 4, 2, 1) per warp, on either stream.
  double shuffles = 0;
  for (const BasicBlock& b : p->kernels[0].ir.blocks) {
    for (const Instruction& i : b.instructions) {
      if (i.opcode.rfind("shfl", 0) == 0 || i.opcode.rfind("SHFL", 0) == 0) shuffles += b.executionsPerWarp;
    }
  }
  EXPECT_DOUBLE_EQ(shuffles, 5);
}

}  // namespace
}  // namespace foresight::cuda
