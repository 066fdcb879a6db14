// SPDX-License-Identifier: Apache-2.0
/// \file
/// The floor invariant (issue 11, item 4): every example (examples/**) and a sample of the
/// validation corpus (validation/** manifests), through every model and variant, predicts no
/// less than any physical floor of its launch, recomputed here from the memory engine's traffic
/// and model/floors.h; and the memory engine's traffic of each launch counts no more L1 and L2
/// hits than sectors requested (expectPossibleHits). Also prints, per model, how many raw
/// predictions were below a floor (informational: predict() raised them).
///
/// Inputs without nvcc: the summary and skeleton examples, the CUDA examples and the bottleneck
/// examples from their stored sm_90 fixtures (tests/frontend/cuda/fixtures,
/// tests/examples/fixtures/bottlenecks), and the bound examples (tests/examples/fixtures/bound).
/// Corpus kernels are compiled by the system toolchain (as validate does; the compile cache
/// makes reruns fast): one variant of every fourth manifest, skipped with a note when nvcc is absent. Four C loop examples (every kernel, on
/// tk1) need the LLVM frontend and are skipped when it is not built.
#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>

#include "foresight/frontend/cloop/cloop_frontend.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/memory/hierarchy.h"
#include "foresight/model/floors.h"
#include "foresight/model/predict.h"
#include "foresight/validation/manifest.h"

namespace foresight {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = FORESIGHT_SOURCE_DIR;

struct Case {
  std::string name;  ///< for messages
  std::string path;
  std::string gpu = "h100";
  InputOptions options;  ///< gpu is set when run
  std::string kernel;
  bool cloop = false;    ///< a C loop nest: every marked kernel with its own launch
};

Launch launch(long long gx, long long gy, long long bx, long long by, std::map<std::string, ArgValue> args) {
  Launch l;
  l.grid = {gx, gy, 1};
  l.block = {bx, by, 1};
  l.args = std::move(args);
  return l;
}

std::vector<Case> exampleCases() {
  std::vector<Case> out;
  // Summary examples name their GPU after the last '-'.
  for (const auto& e : fs::directory_iterator(kRoot + "/examples/summary")) {
    if (e.path().extension() != ".toml") continue;
    Case c{e.path().filename().string(), e.path().string()};
    const std::string stem = e.path().stem().string();
    c.gpu = stem.substr(stem.rfind('-') + 1);
    out.push_back(c);
  }
  // C loop nests (LLVM frontend; skipped without it): a sample of four, every kernel, on tk1.
  for (const char* f : {"atax.c", "gemm.c", "syrk-tiled.c", "fdtd2d.c"}) {
    Case c{f, kRoot + "/examples/cloop/" + f, "tk1"};
    c.cloop = true;
    out.push_back(c);
  }
  for (const auto& e : fs::directory_iterator(kRoot + "/examples/skeleton")) {
    if (e.path().extension() != ".sk") continue;
    out.push_back({e.path().filename().string(), e.path().string()});
  }
  // CUDA examples: the launches of their golden and frontend tests.
  const std::string fx = kRoot + "/tests/frontend/cuda/fixtures/";
  const auto cuda = [&](const char* file, const char* kernel, Launch l, std::vector<SourceHint> trips = {}) {
    Case c{file, fx + file};
    c.kernel = kernel;
    c.options.launch = std::move(l);
    c.options.kernel = kernel;
    c.options.trips = std::move(trips);
    out.push_back(c);
  };
  cuda("vecadd.sm_90.sass", "", launch(4096, 1, 256, 1, {{"n", 1 << 20}}));
  cuda("matmul.sm_90.sass", "matmul_tiled", launch(64, 64, 16, 16, {{"n", 1024}}));
  cuda("reduce.sm_90.sass", "", launch(1024, 1, 256, 1, {{"n", 262144}}));
  cuda("spmv_csr.sm_90.sass", "", launch(256, 1, 128, 1, {{"rows", 32768}}), {{"spmv_csr.cu", 11, 16}});
  cuda("stencil2d.sm_90.sass", "", launch(32, 32, 32, 8, {{"nx", 1024}, {"ny", 256}}));
  cuda("transpose.sm_90.sass", "transpose_naive", launch(32, 32, 32, 8, {{"n", 1024}}));
  cuda("spill.sm_90.sass", "spill", launch(512, 1, 256, 1, {{"n", 131072}}));
  // A template instantiation (examples/cuda/block_sum.cu's kernel, as the templates fixture has it).
  cuda("templates.sm_90.sass", "block_sum<256>", launch(4096, 1, 256, 1, {}));
  // The bound examples (examples/bound/README.md), from their stored sm_90 fixtures.
  const auto bound = [&](const char* file, const char* kernel, Launch l) {
    Case c{file, kRoot + "/tests/examples/fixtures/bound/" + file};
    c.kernel = kernel;
    c.options.launch = std::move(l);
    c.options.kernel = kernel;
    out.push_back(c);
  };
  bound("gemm_naive.sm_90.sass", "gemm_naive", launch(64, 64, 16, 16, {{"n", 1024}}));
  bound("gemm_shared.sm_90.sass", "gemm_shared", launch(64, 64, 16, 16, {{"n", 1024}}));
  bound("gemm_regtile.sm_90.sass", "gemm_regtile", launch(16, 16, 256, 1, {{"n", 2048}}));
  bound("gemm_tensor.sm_90.sass", "gemm_tensor", launch(32, 32, 128, 1, {{"n", 2048}}));
  bound("conv2d.sm_90.sass", "conv2d", launch(128, 256, 32, 8, {{"w", 4096}, {"h", 2048}}));
  // The placement examples (examples/place: their header lines), from their stored sm_90 fixtures.
  const auto place = [&](const char* file, Launch l, std::map<std::string, long long> arrays = {},
                         std::vector<SourceHint> trips = {}, std::vector<SourceHint> branches = {}) {
    Case c{file, kRoot + "/tests/examples/fixtures/place/" + file};
    l.arrayBytes = std::move(arrays);
    c.options.launch = std::move(l);
    c.options.trips = std::move(trips);
    c.options.branches = std::move(branches);
    out.push_back(c);
  };
  place("spmv_scalar.sm_90.sass", launch(128, 1, 128, 1, {{"rows", 16384}}), {{"vec", 65536}}, {{"spmv_scalar.cu", 12, 16}});
  place("spmv_vector.sm_90.sass", launch(512, 1, 128, 1, {{"rows", 2048}}), {{"vec", 8192}, {"rowDelimiters", 8196}},
        {{"spmv_vector.cu", 15, 2}});
  place("particle_filter.sm_90.sass", launch(16, 1, 128, 1, {{"n", 2048}}));
  place("md_neighbor.sm_90.sass", launch(64, 1, 256, 1, {{"n", 16384}, {"maxNeighbors", 32}}), {{"position", 262144}}, {},
        {{"md_neighbor.cu", 17, 0.5}});
  place("transpose.sm_90.sass", launch(64, 64, 16, 16, {{"width", 1024}, {"height", 1024}}));
  place("stencil_coef.sm_90.sass", launch(256, 1, 256, 1, {{"n", 65536}}), {{"coef", 36}});
  place("sixteen_arrays.sm_90.sass", launch(128, 1, 128, 1, {{"numElem", 16384}, {"numNode", 20000}}),
        {{"x", 80000}, {"y", 80000}, {"z", 80000}, {"xd", 80000}, {"yd", 80000}, {"zd", 80000}, {"fx", 80000}, {"fy", 80000}});
  // The bottleneck examples (examples/cuda/bottlenecks/expected.toml).
  const toml::table t = toml::parse_file(kRoot + "/examples/cuda/bottlenecks/expected.toml");
  for (const auto& [key, node] : t) {
    const toml::table& c = *node.as_table();
    const auto dim = [&](const char* k, int i) {
      const toml::array* a = c[k].as_array();
      return a && static_cast<int>(a->size()) > i ? a->get(i)->value<long long>().value_or(1) : 1LL;
    };
    std::map<std::string, ArgValue> args;
    if (const toml::table* a = c["args"].as_table()) {
      for (const auto& [n, v] : *a) args[std::string(n.str())] = v.value<long long>().value_or(0);
    }
    const std::string file = c["file"].value_or(std::string());
    Case k{std::string(key.str()), kRoot + "/tests/examples/fixtures/bottlenecks/" + fs::path(file).stem().string() + ".sm_90.sass"};
    k.kernel = c["kernel"].value_or(std::string());
    k.options.kernel = k.kernel;
    k.options.launch = launch(dim("grid", 0), dim("grid", 1), dim("block", 0), dim("block", 1), args);
    out.push_back(k);
  }
  return out;
}

/// One variant of every fourth manifest of the corpus, each launch of it as a case.
std::vector<Case> corpusCases() {
  std::vector<Case> out;
  Expected<std::vector<Manifest>> corpus = loadCorpus(kRoot + "/validation");
  if (!corpus) {
    ADD_FAILURE() << corpus.error().format();
    return out;
  }
  for (size_t i = 0; i < corpus->size(); i += 4) {
    const Manifest& m = (*corpus)[i];
    if (m.variants.empty()) continue;
    Expected<ResolvedExperiment> r = resolveVariant(m, m.variants.front());
    if (!r) continue;
    for (const ResolvedLaunch& l : r->launches) {
      Case c{r->experiment + "/" + r->variant + ":" + l.kernel, r->source};
      c.kernel = l.kernel;
      c.options.launch = l.launch;
      c.options.kernel = l.kernel;
      for (const auto& [name, value] : r->defines) c.options.macros.emplace_back(name, std::to_string(value));
      for (const ResolvedHint& h : r->trips) c.options.trips.push_back({h.file, h.line, h.value});
      for (const ResolvedHint& h : r->branches) c.options.branches.push_back({h.file, h.line, h.value});
      out.push_back(c);
    }
  }
  return out;
}

std::vector<std::pair<std::string, ModelOptions>> everyModel() {
  std::vector<std::pair<std::string, ModelOptions>> out;
  for (MwpCwpVariant v : {MwpCwpVariant::HongKim, MwpCwpVariant::Grophecy, MwpCwpVariant::CGPredict,
                          MwpCwpVariant::Modern}) {
    ModelOptions o;
    o.model = ModelKind::MwpCwp;
    o.variant = v;
    out.emplace_back(std::string("mwp-cwp/") + mwpCwpVariantName(v), o);
  }
  for (EmulateVariant v : {EmulateVariant::Modern, EmulateVariant::Saake}) {
    ModelOptions o;
    o.model = ModelKind::Emulate;
    o.emulate.variant = v;
    out.emplace_back(std::string("emulate/") + emulateVariantName(v), o);
  }
  return out;
}

struct Tally {
  int predicted = 0, raised = 0, errors = 0;
};

/// No cache serves more sectors than reach it: per access site and for the launch, L1 and L2
/// hits together at most the sectors requested. (The "fits in L2" cap once moved a site's DRAM
/// sectors instead of its L2 misses to L2 hits; with H100's 64-B fetch a lone sector's miss
/// reads two, and hit rates came out above 1.)
void expectPossibleHits(const std::string& where, const MemoryTraffic& t) {
  constexpr double kSlack = 1 + 1e-9;
  for (const SiteTraffic& st : t.sites) {
    const std::string site = where + " site " + std::to_string(st.block) + ":" + std::to_string(st.index);
    EXPECT_GE(st.l1Hits, 0) << site;
    EXPECT_GE(st.l2Hits, 0) << site;
    EXPECT_LE(st.l1Hits + st.l2Hits, st.sectors * kSlack)
        << site << ": " << st.l1Hits << " L1 + " << st.l2Hits << " L2 hits of " << st.sectors << " sectors";
  }
  EXPECT_LE(t.l1HitSectors + t.l2HitSectors, t.loadSectors * kSlack) << where;
}

void checkLaunch(const std::string& caseName, const KernelInput* kernel, const Launch& l, const Gpu& gpu,
                 std::map<std::string, Tally>& tally);

void checkCases(const std::vector<Case>& cases, std::map<std::string, Tally>& tally, int* inputs, int* skipped) {
  std::map<std::string, Gpu> gpus;
  for (const Case& c : cases) {
    if (!gpus.count(c.gpu)) {
      Expected<Gpu> g = loadPreset(c.gpu);
      ASSERT_TRUE(g.ok()) << c.name << ": " << g.error().format();
      gpus.emplace(c.gpu, *g);
    }
    const Gpu& gpu = gpus.at(c.gpu);
    InputOptions io = c.options;
    io.gpu = &gpu;
    // (kernel, launch) pairs of the input.
    std::vector<std::pair<KernelInput, Launch>> kernels;
    if (c.cloop) {
      Expected<cloop::CloopProgram> prog = cloop::analyzeCloop(c.path, io);  // no advice
      if (!prog) {
        ++*skipped;
        std::cout << "[ floors   ] skipped " << c.name << ": " << prog.error().format() << "\n";
        continue;
      }
      for (const cloop::CloopKernel& ck : prog->kernels) kernels.emplace_back(ck.input, ck.launch);
    } else {
      Expected<LoadedInput> in = loadInput(c.path, io);
      if (!in) {
        ++*skipped;
        std::cout << "[ floors   ] skipped " << c.name << ": " << in.error().format() << "\n";
        continue;
      }
      Expected<const KernelInput*> k = selectKernel(*in, c.kernel);
      ASSERT_TRUE(k.ok()) << c.name << ": " << k.error().format();
      kernels.emplace_back(**k, io.launch ? *io.launch : in->launch.value_or(Launch{}));
    }
    for (const auto& [kernel, l] : kernels) checkLaunch(c.name, &kernel, l, gpu, tally);
    *inputs += static_cast<int>(kernels.size());
  }
}

void checkLaunch(const std::string& caseName, const KernelInput* kernel, const Launch& l, const Gpu& gpu,
                 std::map<std::string, Tally>& tally) {
  const std::string where = caseName + ":" + kernel->ir.name;
  Expected<MemoryTraffic> traffic =
      analyzeMemory(kernel->ir, kernel->summary ? &*kernel->summary : nullptr, l, gpu);
  ASSERT_TRUE(traffic.ok()) << where << ": " << traffic.error().format();
  expectPossibleHits(where, *traffic);
  const PhysicalFloors floors = computeFloors(*kernel, l, gpu, *traffic);
  const auto [floorName, floorSeconds] = floors.largest();
  for (const auto& [name, options] : everyModel()) {
    Expected<Prediction> p = predict(*kernel, l, gpu, options);
    Tally& t = tally[name];
    if (!p) {
      ++t.errors;  // e.g. cgpredict on a GPU without its parameters: no prediction, nothing to bound
      continue;
    }
    ++t.predicted;
    if (const NamedValue* raw = p->value("raw_time_us")) {
      ++t.raised;
      std::cout << "[ floors   ] raised: " << where << " " << name << " " << raw->value << " us -> "
                << p->seconds * 1e6 << " us (" << floorName << ")\n";
    }
    EXPECT_GE(p->seconds, floorSeconds * (1 - 1e-9))
        << where << " with " << name << ": " << p->seconds * 1e6 << " us below the " << floorName
        << " floor of " << floorSeconds * 1e6 << " us";
    ASSERT_NE(p->value("floor_issue_us"), nullptr) << where << " with " << name;
  }
}

TEST(FloorInvariant, EveryExampleAndCorpusKernelThroughEveryModel) {
  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, Tally> tally;
  int inputs = 0, skipped = 0;
  checkCases(exampleCases(), tally, &inputs, &skipped);
  const int examples = inputs;
  checkCases(corpusCases(), tally, &inputs, &skipped);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ floors   ] " << examples << " example and " << inputs - examples << " corpus launches ("
            << skipped << " skipped) in " << seconds << " s\n";
  for (const auto& [name, t] : tally) {
    std::cout << "[ floors   ] " << name << ": " << t.predicted << " predicted, " << t.raised
              << " raw predictions below a floor (raised), " << t.errors << " errors\n";
  }
  EXPECT_GE(examples, 20);  // summary, skeleton, CUDA and bottleneck examples all loaded
}

}  // namespace
}  // namespace foresight
