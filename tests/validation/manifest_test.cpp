// SPDX-License-Identifier: Apache-2.0
/// \file
/// Experiment manifests: a full manifest resolves to the expected numbers; every strictness rule
/// fails with file:line; and the shipped corpus (validation/) loads, holds at least 40
/// experiments covering every suite of issue 7, and names kernels its sources define.
#include "foresight/validation/manifest.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "foresight/support/text_file.h"

namespace foresight {
namespace {

const char* kManifest = R"toml([experiment]
name = "mm"
source = "mm.cu"
suite = "matmul"
group = "sgemm"
description = "test"
sequence = ["first", "second"]

[defines]
N = 1000
TILE = 16

[variants.t8]
TILE = 8

[variants.t32]
TILE = 32

[buffers.A]
type = "f32"
count = "N*N"
init = "random"
role = "input"

[buffers.rp]
type = "i32"
count = "N + 1"
init = "csr_rowptr:TILE"
role = "input"

[buffers.k]
type = "f64"
count = "4"
init = "constant:2.5"
role = "output"

[scalars.n]
type = "i32"
value = "N"

[scalars.alpha]
type = "f32"
value = "1.5"

[launch.second]
kernel = "two"
grid = "cdiv(N, TILE), cdiv(N, TILE)"
block = "TILE, TILE"
shared_bytes = "2 * TILE * TILE * 4"
repeat = "3"
carveout = "TILE / 4"
args = ["A", "n", "alpha"]

[launch.first]
kernel = "one"
grid = "cdiv(N, 256)"
block = "256"
args = ["A", "rp", "k"]

[check]
reference = "gemm"
output = "k"
inputs = ["A"]
params = "N, N, N"
tolerance = 1e-5
)toml";

std::string withLine(const std::string& text, const std::string& from, const std::string& to) {
  std::string out = text;
  const size_t at = out.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  out.replace(at, from.size(), to);
  return out;
}

std::string errorOf(const std::string& text) {
  Expected<Manifest> m = loadManifestFromString(text, "dir/m.toml");
  return m.ok() ? std::string("ok") : m.error().format();
}

TEST(Manifest, ParsesAndResolvesEveryVariant) {
  Expected<Manifest> m = loadManifestFromString(kManifest, "dir/m.toml");
  ASSERT_TRUE(m.ok()) << m.error().format();
  EXPECT_EQ(m->name, "mm");
  EXPECT_EQ(m->source, "dir/mm.cu");  // resolved against the manifest's directory
  EXPECT_EQ(m->group, "sgemm");
  ASSERT_EQ(m->variants.size(), 2u);
  ASSERT_EQ(m->launches.size(), 2u);
  EXPECT_EQ(m->launches[0].label, "first");  // sequence order, not table order
  ASSERT_TRUE(m->check.has_value());

  EXPECT_EQ(m->variants[0].name, "t8");  // file order
  Expected<ResolvedExperiment> r = resolveVariant(*m, m->variants[1]);
  ASSERT_TRUE(r.ok()) << r.error().format();
  EXPECT_EQ(r->variant, "t32");
  EXPECT_EQ(r->defines.at("TILE"), 32);
  EXPECT_EQ(r->buffers[0].count, 1000000);
  EXPECT_EQ(r->buffers[2].name, "k");  // buffers in file order: A, rp, k
  EXPECT_EQ(r->buffers[2].initKind, "constant");
  EXPECT_DOUBLE_EQ(r->buffers[2].initValue, 2.5);
  EXPECT_EQ(r->buffers[1].count, 1001);
  EXPECT_EQ(r->buffers[1].initParams, std::vector<long long>{32});
  // 1000000 x 4 B + 4 x 8 B + 1001 x 4 B
  EXPECT_EQ(r->totalBytes(), 4000000 + 32 + 4004);
  const ResolvedLaunch& second = r->launches[1];
  EXPECT_EQ(second.kernel, "two");
  EXPECT_EQ(second.launch.grid, (Dim3{32, 32, 1}));  // cdiv(1000, 32) = 32
  EXPECT_EQ(second.launch.block, (Dim3{32, 32, 1}));
  EXPECT_EQ(second.launch.dynamicSharedBytes, 8192);  // 2 x 32 x 32 x 4
  EXPECT_EQ(second.repeat, 3);
  EXPECT_EQ(second.launch.carveoutPercent, 8);             // TILE / 4 = 32 / 4
  EXPECT_FALSE(r->launches[0].launch.carveoutPercent);      // unset: the driver's choice
  EXPECT_EQ(second.launch.args.at("n"), ArgValue(1000));  // integer scalars reach the Launch
  ASSERT_EQ(second.launch.args.count("alpha"), 1u);       // and real ones, as reals
  EXPECT_TRUE(second.launch.args.at("alpha").isReal);
  EXPECT_EQ(second.launch.macros.at("TILE"), 32);
  // Buffers give their parameter (by position: "@i") its array size: A is the first argument,
  // 1000000 f32 = 4000000 B; in the first launch rp is the second (1001 × 4 B), k the third.
  EXPECT_EQ(second.launch.arrayBytes, (std::map<std::string, long long>{{"@0", 4000000}}));
  EXPECT_EQ(r->launches[0].launch.arrayBytes,
            (std::map<std::string, long long>{{"@0", 4000000}, {"@1", 4004}, {"@2", 32}}));
  EXPECT_EQ(r->launches[0].launch.grid, (Dim3{4, 1, 1}));  // cdiv(1000, 256)
  EXPECT_EQ(r->check->params, (std::vector<long long>{1000, 1000, 1000}));
  EXPECT_DOUBLE_EQ(r->check->tolerance, 1e-5);

  // Without arrayContents no launch carries contents; with it, the integer input rp (second
  // argument of the first launch: "@1") gets csr_rowptr:TILE, element 3 = 3 × 32 = 96; the f32
  // input A and the output k get none.
  EXPECT_TRUE(r->launches[0].launch.arrayData.empty());
  Expected<ResolvedExperiment> withData = resolveVariant(*m, m->variants[1], true);
  ASSERT_TRUE(withData.ok()) << withData.error().format();
  const std::map<std::string, ArrayData>& data = withData->launches[0].launch.arrayData;
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data.at("@1").description(), "i32 csr_rowptr:32");
  EXPECT_EQ(data.at("@1").count(), 1001);
  EXPECT_EQ(data.at("@1").read(3 * 4, 4), 96u);
  EXPECT_TRUE(withData->launches[1].launch.arrayData.empty());

  Expected<ResolvedExperiment> t8 = resolveVariant(*m, m->variants[0]);
  ASSERT_TRUE(t8.ok());
  EXPECT_EQ(t8->launches[1].launch.grid, (Dim3{125, 125, 1}));
}

TEST(Manifest, WithoutVariantsThereIsOneDefault) {
  const std::string text = R"([experiment]
name = "x"
source = "x.cu"
suite = "micro"
description = "d"
[buffers.a]
type = "u32"
count = "8"
init = "zero"
role = "output"
[launch.main]
kernel = "k"
grid = "1"
block = "32"
args = ["a"]
)";
  Expected<Manifest> m = loadManifestFromString(text, "x.toml");
  ASSERT_TRUE(m.ok()) << m.error().format();
  ASSERT_EQ(m->variants.size(), 1u);
  EXPECT_EQ(m->variants[0].name, "default");
  EXPECT_EQ(m->group, "x");
  EXPECT_TRUE(m->rotate);
  EXPECT_FALSE(m->reinit);
  EXPECT_FALSE(m->flush);
  EXPECT_TRUE(m->alternatives);
  // A sweep of different problems says so; the resolved variant carries it.
  std::string sweep = text;
  sweep.replace(sweep.find("description"), 0, "alternatives = \"no\"\n");
  Expected<Manifest> s = loadManifestFromString(sweep, "x.toml");
  ASSERT_TRUE(s.ok()) << s.error().format();
  EXPECT_FALSE(s->alternatives);
  Expected<ResolvedExperiment> r = resolveVariant(*s, s->variants[0]);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->alternatives);
}

TEST(Manifest, UnlaunchableVariantIsRefused) {
  // grid "1, N * 70" with N = 1000 gives 70000 blocks in y, above CUDA's 65535: the runner's
  // cuLaunchKernel would fail with an invalid value. Loading resolves every variant, so the
  // manifest is refused before any plan is written.
  EXPECT_EQ(errorOf(withLine(kManifest, "grid = \"cdiv(N, TILE), cdiv(N, TILE)\"",
                             "grid = \"1, N * 70\"")),
            "dir/m.toml: error: variant 't8', launch 'second': grid 1,70000,1 exceeds CUDA's grid "
            "limits (x up to 2147483647, y and z up to 65535)");
}

TEST(Manifest, StrictErrorsWithLines) {
  EXPECT_EQ(errorOf(withLine(kManifest, "suite = \"matmul\"", "suite = \"matmul\"\nsuit = \"x\"")),
            "dir/m.toml:5:1: error: unknown key 'experiment.suit'; did you mean 'suite'?");
  EXPECT_EQ(errorOf(withLine(kManifest, "init = \"random\"", "init = \"randm\"")),
            "dir/m.toml:22:8: error: unknown init pattern 'randm'; did you mean 'random'?");
  EXPECT_EQ(
      errorOf(withLine(kManifest, "init = \"csr_rowptr:TILE\"", "init = \"csr_rowptr\"")),
      "dir/m.toml:28:8: error: init pattern 'csr_rowptr' takes 1 parameter(s) separated by ':'");
  EXPECT_EQ(errorOf(withLine(kManifest, "args = [\"A\", \"n\", \"alpha\"]",
                             "args = [\"A\", \"nn\", \"alpha\"]")),
            "dir/m.toml:52:8: error: 'launch.second.args' names 'nn', which is not a buffer or "
            "scalar; did you mean 'n'?");
  EXPECT_EQ(errorOf(withLine(kManifest, "[variants.t8]\nTILE = 8", "[variants.t8]\nTILES = 8")),
            "dir/m.toml:14:9: error: variant 't8' overrides 'TILES', which is not in [defines]; "
            "did you mean 'TILE'?");
  EXPECT_EQ(errorOf(withLine(kManifest, "sequence = [\"first\", \"second\"]",
                             "sequence = [\"first\", \"secnd\"]")),
            "dir/m.toml:7:12: error: 'experiment.sequence' names 'secnd', which is not a "
            "[launch.*] table; did you mean 'second'?");
  EXPECT_EQ(
      errorOf(withLine(kManifest, "sequence = [\"first\", \"second\"]", "sequence = [\"first\"]")),
      "dir/m.toml:45:1: error: [launch.second] is not in 'experiment.sequence'");
  EXPECT_EQ(errorOf(withLine(kManifest, "grid = \"cdiv(N, 256)\"", "grid = \"cdiv(N, 256\"")),
            "dir/m.toml: error: variant 't8', launch 'first' grid: expression 'cdiv(N, 256': "
            "missing ')'");
  EXPECT_EQ(errorOf(withLine(kManifest, "carveout = \"TILE / 4\"", "carveout = \"TILE * 4\"")),
            "dir/m.toml: error: variant 't32', launch 'second' carveout: a carveout is a percentage in "
            "0..100, got 128");
  EXPECT_EQ(errorOf(withLine(kManifest, "count = \"N + 1\"", "count = \"N - N\"")),
            "dir/m.toml: error: variant 't8', buffer 'rp': count must be positive");
  EXPECT_EQ(errorOf(withLine(kManifest, "reference = \"gemm\"", "reference = \"gem\"")),
            "dir/m.toml:61:13: error: 'check.reference' is 'gem', expected one of 'gemm', "
            "'transpose', 'copy', "
            "'reduce_sum', 'spmv_csr'; did you mean 'gemm'?");
  EXPECT_EQ(errorOf(withLine(kManifest, "role = \"output\"", "role = \"out\"")),
            "dir/m.toml:35:8: error: 'buffers.k.role' is 'out', expected one of 'input', 'output', "
            "'inout'; did you mean 'inout'?");
}

// The shipped corpus: issue 7 asks for at least 40 experiments over these suites, with variants.
TEST(Corpus, ShippedCorpusLoadsAndIsComplete) {
  namespace fs = std::filesystem;
  const std::string root = std::string(FORESIGHT_SOURCE_DIR) + "/validation";
  Expected<std::vector<Manifest>> corpus = loadCorpus(root);
  ASSERT_TRUE(corpus.ok()) << corpus.error().format();
  EXPECT_GE(corpus->size(), 40u);
  std::set<std::string> suites, names;
  int variants = 0;
  for (const Manifest& m : *corpus) {
    suites.insert(m.suite);
    names.insert(m.name);
    variants += static_cast<int>(m.variants.size());
    ASSERT_TRUE(fs::exists(m.source)) << m.path << ": " << m.source;
    Expected<std::string> text = readTextFile(m.source);
    ASSERT_TRUE(text.ok()) << text.error().format();
    for (const LaunchSpec& l : m.launches) {
      // Kernels are extern "C" so the runner finds them by name in the cubin.
      const std::regex def("extern \"C\" __global__ void(\\s+__launch_bounds__\\([^)]*\\))?\\s+" +
                           l.kernel + "\\(([^)]*)\\)");
      std::smatch match;
      const std::string& source = *text;
      ASSERT_TRUE(std::regex_search(source, match, def))
          << m.path << ": no extern \"C\" kernel " << l.kernel;
      // One argument per parameter, and a scalar is named like its parameter, because the CUDA
      // frontend takes scalar arguments by parameter name (Launch::args).
      std::vector<std::string> params;
      std::stringstream list(match[2].str());
      for (std::string p; std::getline(list, p, ',');) {
        const size_t end = p.find_last_not_of(" \t\n");
        const size_t start = p.find_last_of(" *\t\n", end);
        params.push_back(p.substr(start + 1, end - start));
      }
      ASSERT_EQ(params.size(), l.args.size()) << m.path << ": kernel " << l.kernel;
      for (size_t i = 0; i < params.size(); ++i) {
        const bool scalar = std::any_of(m.scalars.begin(), m.scalars.end(),
                                        [&](const ScalarSpec& sc) { return sc.name == l.args[i]; });
        if (scalar) {
          EXPECT_EQ(l.args[i], params[i])
              << m.path << ": kernel " << l.kernel << " parameter " << i;
        }
      }
    }
  }
  EXPECT_EQ(suites, (std::set<std::string>{"matmul", "micro", "polybench", "reduction", "rodinia",
                                           "spmv", "stencil", "transpose"}));
  for (const char* required : {"gemm",
                               "2mm",
                               "syrk",
                               "atax",
                               "bicg",
                               "mvt",
                               "gesummv",
                               "conv2d",
                               "conv3d",
                               "fdtd2d",
                               "corr",
                               "covar",
                               "hotspot",
                               "pathfinder",
                               "srad",
                               "nw",
                               "bfs",
                               "kmeans",
                               "backprop",
                               "lud",
                               "gaussian",
                               "matmul_naive",
                               "matmul_tiled",
                               "matmul_coarsened",
                               "transpose_naive",
                               "transpose_shared",
                               "reduce_sequential",
                               "spmv_csr_scalar",
                               "spmv_csr_vector",
                               "stencil2d_5pt"}) {
    EXPECT_TRUE(names.count(required)) << required;
  }
  EXPECT_GE(variants, 100);
}

TEST(Corpus, MissingDirectoryIsAnError) {
  EXPECT_FALSE(loadCorpus("/nonexistent/corpus").ok());
  EXPECT_EQ(loadCorpus("/nonexistent/corpus").error().message,
            "corpus directory '/nonexistent/corpus' does not exist");
}

}  // namespace
}  // namespace foresight
