// SPDX-License-Identifier: Apache-2.0
/// \file
/// Every shipped preset loads through the strict loader (an unknown or unused key fails here, the
/// check that would have caught GCoM's l2DnSet / L2nSet mismatch), is named after its file, and
/// is consistent in ways every real GPU is. Plus name lookup and `--gpu NAME|FILE` resolution.
#include "test_support.h"
#include "foresight/gpu/presets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <utility>
#include <sstream>
#include <string>
#include <vector>

namespace foresight {
namespace {

/// The presets issue #1 asks for, in the order of FORESIGHT_PRESETS (src/foresight/CMakeLists.txt).
const std::vector<std::string> kExpectedPresets = {
    "fx5600", "c1060", "gtx280", "m2075", "k20c", "tk1", "gtx580",
    "gtx680", "titanx", "v100", "a100", "a100-80", "h100", "h100-pcie", "h200"};

/// The modern presets calibrated from published microbenchmarks (issue 11; docs/gpu-presets.md).
const std::vector<std::string> kModernPresets = {"v100", "a100", "a100-80", "h100", "h100-pcie", "h200"};

/// True when `name` is embedded (a partial build with -DFORESIGHT_PRESETS_ONLY may lack it).
bool embedded(const std::string& name) {
  const std::vector<std::string> names = presetNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}


TEST(Presets, AtLeastFx5600IsEmbedded) {
  const std::vector<std::string> names = presetNames();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), "fx5600");  // first in FORESIGHT_PRESETS, and the only one in a partial build
}

TEST(Presets, ExactSetOfPresetNames) {
  const std::vector<std::string> names = presetNames();
  if (names.size() < kExpectedPresets.size()) GTEST_SKIP() << "partial preset build";
  EXPECT_EQ(names, kExpectedPresets);
}

TEST(Presets, NamesAreUnique) {
  const std::vector<std::string> names = presetNames();
  const std::set<std::string> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), names.size());
}

TEST(Presets, EveryPresetLoadsStrictly) {
  for (const std::string& name : presetNames()) {
    SCOPED_TRACE("preset " + name);
    Expected<Gpu> gpu = loadPreset(name);
    ASSERT_TRUE(gpu.ok()) << gpu.error().format();
    EXPECT_EQ(gpu->name, name);  // [gpu] name equals the file stem
    EXPECT_EQ(gpu->sourceFile, "gpus/" + name + ".toml");
  }
}

TEST(Presets, EmbeddedTextEqualsTheFile) {
  // cmake/EmbedPresets.cmake copies gpus/<name>.toml verbatim into a raw string literal.
  for (const PresetText& p : presetTexts()) {
    SCOPED_TRACE(std::string("preset ") + p.name);
    const std::string onDisk = testing_support::sourceText(std::string("gpus/") + p.name + ".toml");
    ASSERT_FALSE(onDisk.empty());
    EXPECT_EQ(std::string(p.text), onDisk);
  }
}

TEST(Presets, LimitsAreConsistent) {
  for (const std::string& name : presetNames()) {
    SCOPED_TRACE("preset " + name);
    Expected<Gpu> gpu = loadPreset(name);
    ASSERT_TRUE(gpu.ok()) << gpu.error().format();
    const GpuLimits& l = gpu->limits;
    // A full SM of warps is a full SM of threads.
    EXPECT_EQ(l.warpsPerSm.value * gpu->warpSize.value, l.threadsPerSm.value);
    EXPECT_EQ(gpu->warpSize.value, 32);  // every NVIDIA GPU so far
    // One block cannot use more shared memory than its SM has.
    EXPECT_LE(l.sharedPerBlock.value, l.sharedPerSm.value);
    // The ISA encodes at most 255 registers per thread (R0..R254).
    EXPECT_LE(l.registersPerThread.value, 255);
    EXPECT_LE(l.registersPerBlock.value, l.registersPerSm.value);
    EXPECT_LE(l.threadsPerBlock.value, l.threadsPerSm.value);
    EXPECT_GE(l.threadsPerBlock.value, 512);  // 512 on CC 1.x, 1024 since Fermi
  }
}

TEST(Presets, MwpCwpBandwidthMatchesDram) {
  for (const std::string& name : presetNames()) {
    SCOPED_TRACE("preset " + name);
    Expected<Gpu> gpu = loadPreset(name);
    ASSERT_TRUE(gpu.ok()) << gpu.error().format();
    const MemoryLevel* dram = gpu->memoryForResource("dram");
    ASSERT_NE(dram, nullptr);  // the loader requires one
    if (!dram->bandwidth) continue;
    // Both are whole-GPU GB/s after loading; they describe the same DRAM.
    EXPECT_NEAR(gpu->mwpCwp.memBandwidth.value, dram->bandwidth->value, 1e-9 * dram->bandwidth->value);
  }
}

TEST(Presets, MissPathsResolve) {
  for (const std::string& name : presetNames()) {
    SCOPED_TRACE("preset " + name);
    Expected<Gpu> gpu = loadPreset(name);
    ASSERT_TRUE(gpu.ok()) << gpu.error().format();
    for (const MemoryLevel& level : gpu->memory) {
      for (const std::string& lower : level.lower) {
        EXPECT_NE(gpu->memoryLevel(lower), nullptr) << level.name << ".lower names " << lower;
        EXPECT_NE(lower, level.name) << level.name << " misses to itself";
      }
    }
  }
}

TEST(Presets, RequiredPipelinesPresent) {
  for (const std::string& name : presetNames()) {
    SCOPED_TRACE("preset " + name);
    Expected<Gpu> gpu = loadPreset(name);
    ASSERT_TRUE(gpu.ok()) << gpu.error().format();
    for (InstrClass c : {InstrClass::Fp32, InstrClass::Int, InstrClass::Sfu, InstrClass::Ldst,
                         InstrClass::Control}) {
      const Pipeline* p = gpu->pipeline(c);
      ASSERT_NE(p, nullptr) << instrClassName(c);
      EXPECT_GT(p->gap.value, 0) << instrClassName(c);
      EXPECT_GT(p->latency.value, 0) << instrClassName(c);
    }
  }
}

TEST(Presets, ModernPresetsHaveCalibratedMemoryKeys) {
  for (const std::string& name : kModernPresets) {
    if (!embedded(name)) continue;
    SCOPED_TRACE("preset " + name);
    Expected<Gpu> gpu = loadPreset(name);
    ASSERT_TRUE(gpu.ok()) << gpu.error().format();
    for (const char* resource : {"l1", "l2", "dram"}) {
      SCOPED_TRACE(resource);
      const MemoryLevel* level = gpu->memoryForResource(resource);
      ASSERT_NE(level, nullptr);
      ASSERT_TRUE(level->bandwidth.has_value());
      ASSERT_TRUE(level->readBandwidth.has_value());
      // An achievable rate never exceeds the peak (both whole-GPU GB/s after loading).
      EXPECT_GT(level->readBandwidth->value, 0.0);
      EXPECT_LE(level->readBandwidth->value, level->bandwidth->value);
    }
    const MemoryLevel* dram = gpu->memoryForResource("dram");
    ASSERT_TRUE(dram->writeBandwidth.has_value());
    ASSERT_TRUE(dram->mixedBandwidth.has_value());
    EXPECT_GT(dram->writeBandwidth->value, 0.0);
    EXPECT_GT(dram->mixedBandwidth->value, 0.0);
    // Every level's latency grows down the hierarchy: shared/L1 < L2 < DRAM.
    const MemoryLevel* l1 = gpu->memoryForResource("l1");
    const MemoryLevel* l2 = gpu->memoryForResource("l2");
    EXPECT_LT(l1->latency.value, l2->latency.value);
    EXPECT_LT(l2->latency.value, dram->latency.value);
    if (name != "v100") {  // Ampere and Hopper split the L2 in two partitions; Volta does not
      ASSERT_TRUE(l2->partitions.has_value());
      EXPECT_EQ(l2->partitions->value, 2);
      ASSERT_TRUE(l2->farLatency.has_value());
      EXPECT_GE(l2->farLatency->value, l2->latency.value);
    } else {
      EXPECT_FALSE(l2->partitions.has_value());
      EXPECT_FALSE(l2->farLatency.has_value());
    }
    ASSERT_TRUE(gpu->launchOverheadUs.has_value());
    EXPECT_GT(gpu->launchOverheadUs->value, 1.0);   // µs: a launch takes microseconds,
    EXPECT_LT(gpu->launchOverheadUs->value, 10.0);  // not nanoseconds or milliseconds
  }
}

TEST(Presets, A100CalibratedValues) {
  if (!embedded("a100") || !embedded("a100-80")) GTEST_SKIP() << "partial preset build";
  Expected<Gpu> a40 = loadPreset("a100");
  Expected<Gpu> a80 = loadPreset("a100-80");
  ASSERT_TRUE(a40.ok()) << a40.error().format();
  ASSERT_TRUE(a80.ok()) << a80.error().format();
  // te42kyfo/gpu-benches cuda-latency/a100_40.txt: near L2 213.0 cycles (row 5245 kB), far
  // plateau 426.7 (row 35343 kB), DRAM 574.6 (row 1529075 kB).
  const MemoryLevel* l2 = a40->memoryForResource("l2");
  EXPECT_DOUBLE_EQ(l2->latency.value, 213.0);
  EXPECT_DOUBLE_EQ(l2->farLatency->value, 426.7);
  EXPECT_DOUBLE_EQ(a40->memoryForResource("dram")->latency.value, 574.6);
  EXPECT_EQ(l2->farLatency->source.kind, Provenance::Kind::Published);
  // The 80 GB card: 2039 GB/s HBM2e, 80 GiB; gpu-benches cuda-stream/a100_80.txt full-occupancy
  // row: read 1769, init (write) 1880, scale (copy) 1732 GB/s.
  const MemoryLevel* dram80 = a80->memoryForResource("dram");
  EXPECT_DOUBLE_EQ(dram80->bandwidth->value, 2039.0);
  EXPECT_EQ(dram80->size.value, 80LL << 30);
  EXPECT_DOUBLE_EQ(dram80->readBandwidth->value, 1769.0);
  EXPECT_DOUBLE_EQ(dram80->writeBandwidth->value, 1880.0);
  EXPECT_DOUBLE_EQ(dram80->mixedBandwidth->value, 1732.0);
  // Same SMs, clock and L2 as the 40 GB card.
  EXPECT_EQ(a80->smCount.value, a40->smCount.value);
  EXPECT_DOUBLE_EQ(a80->clockGhz.value, a40->clockGhz.value);
  EXPECT_EQ(a80->memoryForResource("l2")->size.value, l2->size.value);
  // MWP-CWP follows the DRAM: 128 B x 108 SMs x 1.41 GHz / 2039 GB/s = 9.56 cycles.
  EXPECT_DOUBLE_EQ(a80->mwpCwp.departureDelayCoal.value, 9.56);
  EXPECT_DOUBLE_EQ(a80->mwpCwp.memLatency.value, 571.8);
  // gpu-small-kernels/a100_80.txt row 4096: 4096 doubles read + written = 65536 B at 25 GB/s
  // = 2.62 µs from one launch to the next.
  EXPECT_DOUBLE_EQ(a80->launchOverheadUs->value, 2.62);
}

TEST(Presets, L1ReadBandwidthInBytesPerCycleConvertsWithTheSmCount) {
  if (!embedded("h100")) GTEST_SKIP() << "partial preset build";
  Expected<Gpu> gpu = loadPreset("h100");
  ASSERT_TRUE(gpu.ok()) << gpu.error().format();
  // 126.2 B/cycle/SM (gpu-benches H100 PCIe: 25251.5 GB/s / (114 x 1.755 GHz)) on 132 SMs at
  // 1.98 GHz = 126.2 x 132 x 1.98 = 32983.6 GB/s.
  EXPECT_NEAR(gpu->memoryForResource("l1")->readBandwidth->value, 126.2 * 132 * 1.98, 1e-6);
}

/// The calibrated keys of a modern preset (issue 11): pipeline latency and gap of the arithmetic
/// classes, latency / far latency / peak and achievable bandwidths of shared, L1, L2 and DRAM,
/// and the launch overhead. Returns {keys present, keys whose provenance is an estimate}.
std::pair<int, int> countCalibratedKeys(const Gpu& gpu) {
  int total = 0;
  int estimates = 0;
  auto count = [&](const auto& param) {
    ++total;
    if (param.source.kind == Provenance::Kind::Estimate) ++estimates;
  };
  auto countOpt = [&](const auto& param) {
    if (param) count(*param);
  };
  for (InstrClass c : {InstrClass::Fp32, InstrClass::Fp64, InstrClass::Int, InstrClass::Sfu,
                       InstrClass::Tensor}) {
    const Pipeline* p = gpu.pipeline(c);
    if (p == nullptr) continue;
    count(p->latency);
    count(p->gap);
  }
  for (const MemoryLevel& level : gpu.memory) {
    if (level.resource != "shared" && level.resource != "l1" && level.resource != "l2" &&
        level.resource != "dram") {
      continue;
    }
    count(level.latency);
    countOpt(level.farLatency);
    countOpt(level.bandwidth);
    countOpt(level.readBandwidth);
    countOpt(level.writeBandwidth);
    countOpt(level.mixedBandwidth);
  }
  countOpt(gpu.launchOverheadUs);
  countOpt(gpu.blockOverheadCycles);
  return {total, estimates};
}

TEST(Presets, EstimatesAreAMinorityOfTheModernCalibratedKeys) {
  for (const std::string& name : kModernPresets) {
    if (!embedded(name)) GTEST_SKIP() << "partial preset build";
  }
  int total = 0;
  int estimates = 0;
  for (const std::string& name : kModernPresets) {
    SCOPED_TRACE("preset " + name);
    Expected<Gpu> gpu = loadPreset(name);
    ASSERT_TRUE(gpu.ok()) << gpu.error().format();
    const auto [t, e] = countCalibratedKeys(*gpu);
    EXPECT_LT(2 * e, t);  // a minority on every preset, not only in the sum
    total += t;
    estimates += e;
  }
  // The count reached by the calibration of issue 11 and the H200/H100 measurements of 2026-11-26
  // (docs/gpu-presets.md, "Calibration"), the block overhead from gpu-benches' gpu-stream and the
  // L2 copy bandwidths from gpu-small-kernels: 34 of 159 keys remain estimates (the rest is
  // datasheet, published or measured). A change here must update the docs table.
  EXPECT_EQ(total, 159);
  EXPECT_EQ(estimates, 34);
  EXPECT_LT(2 * estimates, total);
}

TEST(Presets, Fx5600HasNoFp64AndNoTensor) {
  // G80 (CC 1.0): FP64 arrived with CC 1.3, tensor cores with Volta.
  Expected<Gpu> gpu = loadPreset("fx5600");
  ASSERT_TRUE(gpu.ok()) << gpu.error().format();
  EXPECT_EQ(gpu->pipeline(InstrClass::Fp64), nullptr);
  EXPECT_EQ(gpu->pipeline(InstrClass::Tensor), nullptr);
  EXPECT_EQ(gpu->smCount.value, 16);
}

TEST(Presets, UnknownNameSuggests) {
  Expected<Gpu> gpu = loadPreset("fx560");
  ASSERT_FALSE(gpu.ok());
  EXPECT_NE(gpu.error().message.find("unknown GPU 'fx560'"), std::string::npos) << gpu.error().message;
  EXPECT_NE(gpu.error().message.find("did you mean 'fx5600'"), std::string::npos) << gpu.error().message;
  Expected<std::string_view> text = presetText("fx560");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().message, gpu.error().message);
}

TEST(Presets, UnknownFarNameHasNoSuggestion) {
  Expected<Gpu> gpu = loadPreset("zzzzzzzzzzzz");
  ASSERT_FALSE(gpu.ok());
  EXPECT_EQ(gpu.error().message.find("did you mean"), std::string::npos) << gpu.error().message;
  EXPECT_NE(gpu.error().message.find("foresight gpus"), std::string::npos) << gpu.error().message;
}

TEST(Presets, ResolveGpuByName) {
  Expected<Gpu> gpu = resolveGpu("fx5600");
  ASSERT_TRUE(gpu.ok()) << gpu.error().format();
  EXPECT_EQ(gpu->sourceFile, "gpus/fx5600.toml");  // the embedded preset, not a file
}

TEST(Presets, ResolveGpuWithPathLoadsTheFile) {
  const std::string path = FORESIGHT_SOURCE_DIR "/gpus/fx5600.toml";
  Expected<Gpu> gpu = resolveGpu(path);
  ASSERT_TRUE(gpu.ok()) << gpu.error().format();
  EXPECT_EQ(gpu->sourceFile, path);  // loaded from disk: sourceFile is the path given
  EXPECT_EQ(gpu->name, "fx5600");
}

TEST(Presets, ResolveGpuMissingFileNamesThePath) {
  const std::string path = "/no/such/dir/mygpu.toml";
  Expected<Gpu> gpu = resolveGpu(path);
  ASSERT_FALSE(gpu.ok());
  EXPECT_NE(gpu.error().message.find("'" + path + "'"), std::string::npos) << gpu.error().message;
  // A bare "*.toml" name is a path too, not a preset name.
  Expected<Gpu> bare = resolveGpu("nonexistent-gpu.toml");
  ASSERT_FALSE(bare.ok());
  EXPECT_EQ(bare.error().message, "cannot read GPU description 'nonexistent-gpu.toml'");
}

}  // namespace
}  // namespace foresight
