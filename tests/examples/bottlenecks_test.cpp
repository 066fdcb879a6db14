// SPDX-License-Identifier: Apache-2.0
/// \file
/// The bottleneck examples (examples/cuda/bottlenecks/): every case of expected.toml names a
/// kernel, a launch, and the (resource, mode) that limits it on an H100. These tests check,
/// without nvcc (the sm_90 PTX, cubin and SASS are stored under fixtures/bottlenecks, written by
/// scripts/update_cuda_fixtures.sh examples/cuda/bottlenecks tests/examples/fixtures/bottlenecks sm_90):
///  - the manifest is well formed and covers the ten (resource, mode) pairs of the issue;
///  - each kernel loads through the CUDA frontend with no hint: the SASS control flow runs,
///    every loop's trip count comes from the launch, no address depends on loaded data, and the
///    per-warp stream stays small enough for the interpreters;
///  - the premises of each hand calculation hold on the IR (the per-resource times of the
///    README, recomputed from the IR's instruction classes, sectors and wavefronts and the
///    H100 preset): a throughput case's resource dominates every other by >= 1.75x, a latency
///    case runs one warp per scheduler and its resource's latency chain is >= 2x its busy time
///    and >= 2x the issue time;
///  - the mwp-cwp model separates the memory-bound cases (dram, l2 throughput) from the
///    compute-bound ones (fp64, sfu, issue throughput).
/// `foresight explain` itself is checked against expected.toml once it exists (emulate model).
#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/frontend/cuda/fixture_toolchain.h"
#include "foresight/gpu/occupancy.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/predict.h"
#include "foresight/model/resource.h"

namespace foresight {
namespace {

namespace fs = std::filesystem;

const std::string kExamples = std::string(FORESIGHT_SOURCE_DIR) + "/examples/cuda/bottlenecks";
const std::string kFixtures = std::string(FORESIGHT_SOURCE_DIR) + "/tests/examples/fixtures/bottlenecks";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// One table of expected.toml.
struct Case {
  std::string name, file, kernel, reason;
  Dim3 grid, block;
  std::map<std::string, ArgValue> args;
  Resource resource = Resource::Issue;
  BoundMode mode = BoundMode::Throughput;
};

Dim3 dims(const toml::array* a) {
  Dim3 d;
  if (a == nullptr || a->empty() || a->size() > 3) return {0, 0, 0};
  long long v[3] = {1, 1, 1};
  for (size_t i = 0; i < a->size(); ++i) v[i] = a->get(i)->value<long long>().value_or(0);
  d.x = v[0];
  d.y = v[1];
  d.z = v[2];
  return d;
}

/// Parses expected.toml; a malformed case fails the calling test.
std::vector<Case> loadCases() {
  std::vector<Case> out;
  toml::table t;
  try {
    t = toml::parse_file(kExamples + "/expected.toml");
  } catch (const toml::parse_error& e) {
    ADD_FAILURE() << "expected.toml: " << e.description();
    return out;
  }
  for (const auto& [key, node] : t) {
    const toml::table* c = node.as_table();
    if (c == nullptr) {
      ADD_FAILURE() << "expected.toml: " << key.str() << " is not a table";
      continue;
    }
    Case k;
    k.name = std::string(key.str());
    k.file = (*c)["file"].value_or(std::string());
    k.kernel = (*c)["kernel"].value_or(std::string());
    k.reason = (*c)["reason"].value_or(std::string());
    k.grid = dims((*c)["grid"].as_array());
    k.block = dims((*c)["block"].as_array());
    if (const toml::table* args = (*c)["args"].as_table()) {
      for (const auto& [an, av] : *args) {
        std::optional<long long> v = av.value<long long>();
        EXPECT_TRUE(v) << k.name << ": argument " << an.str() << " is not an integer";
        k.args[std::string(an.str())] = v.value_or(0);
      }
    }
    const std::string resource = (*c)["resource"].value_or(std::string());
    const std::string mode = (*c)["mode"].value_or(std::string());
    std::optional<Resource> r = parseResource(resource);
    EXPECT_TRUE(r) << k.name << ": unknown resource '" << resource << "'";
    EXPECT_TRUE(mode == "latency" || mode == "throughput") << k.name << ": mode '" << mode << "'";
    k.resource = r.value_or(Resource::Issue);
    k.mode = mode == "latency" ? BoundMode::Latency : BoundMode::Throughput;
    EXPECT_FALSE(k.file.empty() || k.kernel.empty() || k.reason.empty()) << k.name;
    EXPECT_GT(k.grid.count(), 0) << k.name;
    EXPECT_GT(k.block.count(), 0) << k.name;
    out.push_back(std::move(k));
  }
  return out;
}

Expected<cuda::CudaProgram> loadUncached(const Case& c) {
  auto tc = cuda::createFixtureToolchain({kFixtures, true});
  cuda::CudaOptions o;
  o.arch = "sm_90";
  o.launch.grid = c.grid;
  o.launch.block = c.block;
  o.launch.args = c.args;
  o.kernel = c.kernel;
  return cuda::loadCuda(kExamples + "/" + c.file, o, *tc);
}

/// Each case is analysed once per test binary run (the tests below only read the result).
const Expected<cuda::CudaProgram>& load(const Case& c) {
  static std::map<std::string, Expected<cuda::CudaProgram>> cache;
  auto it = cache.find(c.name);
  if (it == cache.end()) it = cache.emplace(c.name, loadUncached(c)).first;
  return it->second;
}

TEST(BottleneckExamples, ManifestCoversTheTenCases) {
  const std::vector<Case> cases = loadCases();
  ASSERT_EQ(cases.size(), 10u);
  std::vector<std::pair<std::string, std::string>> got;
  for (const Case& c : cases) {
    got.emplace_back(resourceName(c.resource), boundModeName(c.mode));
    EXPECT_TRUE(fs::exists(kExamples + "/" + c.file)) << c.file;
  }
  std::sort(got.begin(), got.end());
  const std::vector<std::pair<std::string, std::string>> want = {
      {"dram", "latency"},    {"dram", "throughput"}, {"fp32", "latency"},   {"fp64", "throughput"},
      {"issue", "throughput"}, {"l2", "throughput"},   {"sfu", "latency"},    {"sfu", "throughput"},
      {"shared", "latency"},  {"shared", "throughput"}};
  EXPECT_EQ(got, want);
}

TEST(BottleneckExamples, FixturesMatchTheSources) {
  for (const Case& c : loadCases()) {
    EXPECT_TRUE(slurp(kExamples + "/" + c.file) == slurp(kFixtures + "/" + c.file))
        << c.file << ": the fixtures are stale; run scripts/update_cuda_fixtures.sh examples/cuda/bottlenecks tests/examples/fixtures/bottlenecks sm_90";
  }
}

/// Back-of-envelope busy cycles of one SM for one resource, from the IR (block 0's mean warp)
/// and the preset: what the README's hand numbers compute.
struct HandTimes {
  double warpsPerSm = 0, warpsPerScheduler = 0;
  std::array<double, kNumInstrClasses> perWarp{};  ///< dynamic instructions per warp, by class
  double instsPerWarp = 0, wavefrontsPerWarp = 0, globalBytesPerWarp = 0;
  double globalLoadsPerWarp = 0, sharedLoadsPerWarp = 0;
  std::map<std::string, double> cycles;  ///< busy cycles per SM (pipes: per scheduler)
};

HandTimes handTimes(const KernelIR& ir, const Gpu& gpu, const Case& c, int blocksPerSmLimit) {
  HandTimes h;
  const double warpsPerBlock = std::ceil(static_cast<double>(c.block.count()) / gpu.warpSize.value);
  const double blocksPerSm =
      std::min<double>(blocksPerSmLimit, std::ceil(static_cast<double>(c.grid.count()) / gpu.smCount.value));
  h.warpsPerSm = warpsPerBlock * blocksPerSm;
  h.warpsPerScheduler = std::ceil(h.warpsPerSm / gpu.schedulersPerSm.value);
  for (const BasicBlock& b : ir.blocks) {
    for (const Instruction& i : b.instructions) {
      const double n = b.executionsPerWarp;
      h.perWarp[static_cast<int>(i.cls)] += n;
      h.instsPerWarp += n;
      if (!i.memory) continue;
      if (i.memory->space == MemorySpace::Shared) {
        h.wavefrontsPerWarp += n * i.memory->wavefrontsPerInst;
        if (!i.memory->isStore) h.sharedLoadsPerWarp += n;
      }
      if (i.memory->space == MemorySpace::Global) {
        h.globalBytesPerWarp += n * i.memory->transactionsPerInst.value_or(0) * 32;
        if (!i.memory->isStore) h.globalLoadsPerWarp += n;
      }
    }
  }
  const double clock = gpu.clockGhz.value, sms = gpu.smCount.value;
  auto bytesPerCycle = [&](const std::string& r) {
    const MemoryLevel* m = gpu.memoryForResource(r);
    return m != nullptr && m->bandwidth ? m->bandwidth->value / (clock * sms) : 0.0;
  };
  h.cycles["issue"] = h.instsPerWarp * h.warpsPerScheduler / gpu.issueWidth.value;
  const std::array<std::pair<const char*, InstrClass>, 5> pipes = {{{"fp32", InstrClass::Fp32},
                                                                    {"fp64", InstrClass::Fp64},
                                                                    {"int", InstrClass::Int},
                                                                    {"sfu", InstrClass::Sfu},
                                                                    {"ldst", InstrClass::Ldst}}};
  for (const auto& [name, cls] : pipes) {
    h.cycles[name] = h.perWarp[static_cast<int>(cls)] * gpu.pipeline(cls)->gap.value * h.warpsPerScheduler;
  }
  h.cycles["shared"] = h.wavefrontsPerWarp * 128 * h.warpsPerSm / bytesPerCycle("shared");
  h.cycles["l2"] = h.globalBytesPerWarp * h.warpsPerSm / bytesPerCycle("l2");
  h.cycles["dram"] = h.globalBytesPerWarp * h.warpsPerSm / bytesPerCycle("dram");
  return h;
}

TEST(BottleneckExamples, EveryKernelLoadsWithoutHints) {
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100);
  for (const Case& c : loadCases()) {
    SCOPED_TRACE(c.name);
    const Expected<cuda::CudaProgram>& p = load(c);
    ASSERT_TRUE(p) << p.error().format();
    ASSERT_EQ(p->kernels.size(), 1u);
    const cuda::CudaKernel& k = p->kernels[0];
    EXPECT_EQ(k.name, c.kernel);
    // The IR is the SASS stream: every SASS branch was decided from ids, launch and arguments.
    EXPECT_EQ(p->isa, "sass (memory from ptx)") << p->sassStatus;
    ASSERT_TRUE(k.sass && k.sass->dynamicInstructionsPerWarp) << (k.sass ? k.sass->dynamicStatus : "no sass");
    // Every opcode has a class, except I2FP (sm_90 integer-to-float on the ALU), which the Hopper
    // table lacks; it only converts thread ids before the loops here.
    for (const std::string& op : k.sass->unknownOpcodes) EXPECT_EQ(op, "I2FP");
    EXPECT_TRUE(k.notes.empty()) << k.notes.front();
    // Small enough for the interpreters (and the emulator's replay) to stay fast.
    EXPECT_LE(k.dynamicInstructionsPerWarp, 50000);
    EXPECT_LE(*k.sass->dynamicInstructionsPerWarp, 50000);
    ASSERT_FALSE(k.ir.loops.empty());
    bool someLoopRuns = false;
    for (const Loop& l : k.ir.loops) {
      EXPECT_EQ(l.source, TripCountSource::FromLaunch);
      someLoopRuns = someLoopRuns || l.tripCount >= 16;
    }
    EXPECT_TRUE(someLoopRuns);
    for (const BasicBlock& b : k.ir.blocks) {
      for (const Instruction& i : b.instructions) {
        if (i.memory) {
          EXPECT_FALSE(i.memory->dataDependent) << i.opcode << " at line " << i.sourceLine;
        }
      }
    }
  }
}

TEST(BottleneckExamples, HandNumbersHoldOnTheIr) {
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100);
  for (const Case& c : loadCases()) {
    SCOPED_TRACE(c.name);
    const Expected<cuda::CudaProgram>& p = load(c);
    ASSERT_TRUE(p) << p.error().format();
    const KernelIR& ir = p->kernels[0].ir;
    BlockResources br;
    br.threadsPerBlock = static_cast<int>(c.block.count());
    br.registersPerThread = ir.resources.registers;
    br.sharedPerBlock = ir.resources.staticSharedBytes;
    Expected<Occupancy> occ = computeOccupancy(*h100, br);
    ASSERT_TRUE(occ) << occ.error().format();
    const HandTimes h = handTimes(ir, *h100, c, occ->blocksPerSm);
    const std::string r = resourceName(c.resource);
    if (c.mode == BoundMode::Throughput) {
      // Full occupancy, one wave: the resource's busy time beats every other resource's (by
      // 1.75x at least: FP64 cannot reach 2x over issue, see fp64_throughput.cu).
      EXPECT_EQ(h.warpsPerSm, h100->limits.warpsPerSm.value);
      // The L2 case is bound by L2 because its 16 MB footprint stays in L2 (see the source);
      // the DRAM case's traffic passes through L2 too, at 3x the bandwidth.
      const double mine = h.cycles.at(r);
      for (const auto& [other, cyc] : h.cycles) {
        if (other == r || other == "dram" || other == "l2") continue;
        EXPECT_GE(mine, 1.75 * cyc) << r << " vs " << other;
      }
      if (r == "issue") {
        for (const char* pipe : {"fp32", "fp64", "int"}) EXPECT_GT(h.cycles.at(pipe), 0.4 * mine) << pipe;
        EXPECT_EQ(h.globalBytesPerWarp, 128);  // only the final store
      }
    } else {
      // One warp per scheduler at most, so nothing hides a latency.
      EXPECT_LE(h.warpsPerScheduler, 1);
      double latency = 0, ops = 0;
      if (r == "dram") {
        latency = h100->memoryForResource("dram")->latency.value;
        ops = h.globalLoadsPerWarp;
      } else if (r == "shared") {
        latency = h100->memoryForResource("shared")->latency.value;
        ops = h.sharedLoadsPerWarp;
      } else {
        const InstrClass cls = r == "fp32" ? InstrClass::Fp32 : InstrClass::Sfu;
        latency = h100->pipeline(cls)->latency.value;
        ops = h.perWarp[static_cast<int>(cls)];
      }
      const double chain = latency * ops;
      EXPECT_GE(chain, 2 * h.cycles.at(r)) << "latency chain vs busy time of " << r;
      EXPECT_GE(chain, 2 * h.cycles.at("issue"));
    }
  }
}

TEST(BottleneckExamples, MwpCwpSeparatesMemoryFromCompute) {
  Expected<Gpu> h100 = loadPreset("h100");
  ASSERT_TRUE(h100);
  int checked = 0;
  for (const Case& c : loadCases()) {
    SCOPED_TRACE(c.name);
    // MWP-CWP has neither L1/shared nor pipeline latencies: only the throughput cases of the
    // off-chip side and of the compute side say something about it.
    if (c.mode != BoundMode::Throughput || c.resource == Resource::Shared) continue;
    const Expected<cuda::CudaProgram>& p = load(c);
    ASSERT_TRUE(p) << p.error().format();
    KernelInput input{p->kernels[0].ir, std::nullopt};
    Launch l;
    l.grid = c.grid;
    l.block = c.block;
    l.args = c.args;
    ModelOptions m;
    m.model = ModelKind::MwpCwp;
    Expected<Prediction> pred = predict(input, l, *h100, m);
    ASSERT_TRUE(pred) << pred.error().format();
    const bool memorySide = c.resource == Resource::Dram || c.resource == Resource::L2;
    if (c.name == "dram_throughput") {
      // Little's law with the H100 SXM's measured 834.5-cycle DRAM latency (MT4G,
      // docs/gpu-presets.md): 3350 GB/s needs MWP_peak_BW = 3350 / (132 x 1.98 GHz x 128 B /
      // 834.5) = 83.6 warps per SM in flight, more than the 64 resident ones, so MWP-CWP calls the
      // streaming triad bound by its memory parallelism N, not by DRAM throughput.
      EXPECT_EQ(pred->bound.resource, Resource::Parallelism) << pred->boundExplanation;
      EXPECT_EQ(pred->bound.mode, BoundMode::Latency);
      EXPECT_NE(pred->boundExplanation.find("too few active warps"), std::string::npos)
          << pred->boundExplanation;
      ++checked;
      continue;
    }
    // Compute side: the model says issue; where a pipe's floor raised its time (fp64 and SFU
    // throughput), the floor is the bound, which is then the example's own pipe.
    const bool raised = pred->value("raw_time_us") != nullptr;
    EXPECT_EQ(pred->bound.resource, memorySide ? Resource::Dram : raised ? c.resource : Resource::Issue)
        << pred->boundExplanation;
    EXPECT_EQ(pred->bound.mode, BoundMode::Throughput);
    ++checked;
  }
  EXPECT_EQ(checked, 5);
}

}  // namespace
}  // namespace foresight
