// SPDX-License-Identifier: Apache-2.0
/// \file
/// Calibration host logic on a synthetic microbenchmark output: parsing, its errors, and the
/// mapping onto GPU fields with measured:<date> provenance (numbers worked by hand).
#include "test_support.h"
#include "foresight/calibrate/calibration.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "foresight/gpu/gpu_loader.h"
#include "foresight/gpu/gpu_writer.h"
#include "foresight/gpu/presets.h"

namespace foresight {
namespace {

std::string fixture() {
  return testing_support::sourceText("tests/validation/fixtures/calibration/synthetic-cc1.0.txt");
}

TEST(Calibration, ParsesTheSyntheticOutput) {
  Expected<CalibrationResults> r = parseCalibrationOutput(fixture(), "synthetic");
  ASSERT_TRUE(r.ok()) << r.error().format();
  EXPECT_EQ(r->deviceName, "Synthetic GPU (CC 1.0)");
  EXPECT_EQ(r->computeCapability, "1.0");
  EXPECT_DOUBLE_EQ(r->values.at("fp32.latency"), 20);
  EXPECT_DOUBLE_EQ(r->values.at("shared.conflict_cycles_per_way"), 2);
  EXPECT_DOUBLE_EQ(r->values.at("extra.sweep_point"), 7);  // kept, mapped onto nothing
}

TEST(Calibration, ParseErrors) {
  auto error = [](const std::string& text) {
    Expected<CalibrationResults> r = parseCalibrationOutput(text, "out");
    return r.ok() ? std::string("ok") : r.error().format();
  };
  EXPECT_EQ(error("device X\ncc 9.0\nsm_count abc\n"),
            "out:3: error: 'sm_count' must be a number, got 'abc'");
  EXPECT_EQ(error("device X\ndevice Y\n"), "out:2: error: 'device' appears twice");
  EXPECT_EQ(error("cc 9.0\n"), "out: error: the output names no 'device'");
  EXPECT_EQ(error("device X\ncc 9.0\nsm_count 132\n"),
            "out: error: the output has no 'clock_mhz' (incomplete run?)");
  EXPECT_EQ(error("device X\ncc 9.0\nsm_count\n"), "out:3: error: 'sm_count' has no value");
}

TEST(Calibration, MapsResultsOntoTheDescription) {
  Expected<CalibrationResults> r = parseCalibrationOutput(fixture(), "synthetic");
  ASSERT_TRUE(r.ok());
  Expected<Gpu> base = loadPreset("fx5600");
  ASSERT_TRUE(base.ok());
  Expected<Gpu> g = applyCalibration(*base, *r, "2026-11-21", "fx5600-measured");
  ASSERT_TRUE(g.ok()) << g.error().format();
  const Provenance measured{Provenance::Kind::Measured, "2026-11-21"};
  EXPECT_EQ(g->name, "fx5600-measured");
  EXPECT_EQ(g->fullName, "Synthetic GPU (CC 1.0)");
  EXPECT_EQ(g->smCount.value, 16);
  EXPECT_EQ(g->smCount.source, measured);
  EXPECT_DOUBLE_EQ(g->clockGhz.value, 1.4);  // 1400 MHz
  EXPECT_EQ(g->clockGhz.unit, "MHz");
  // fx5600 has 1 scheduler: gap = 1 / 0.25 warp instructions per cycle per SM = 4 cycles.
  EXPECT_DOUBLE_EQ(g->pipeline(InstrClass::Fp32)->gap.value, 4);
  EXPECT_DOUBLE_EQ(g->pipeline(InstrClass::Fp32)->latency.value, 20);
  // The GPU had no fp64 pipeline; a measured one is added: gap 1 / 0.03125 = 32.
  ASSERT_NE(g->pipeline(InstrClass::Fp64), nullptr);
  EXPECT_DOUBLE_EQ(g->pipeline(InstrClass::Fp64)->gap.value, 32);
  EXPECT_DOUBLE_EQ(g->pipeline(InstrClass::Sfu)->gap.value, 16);  // 1 / 0.0625
  const MemoryLevel* shared = g->memoryForResource("shared");
  EXPECT_DOUBLE_EQ(shared->latency.value, 36);
  EXPECT_EQ(shared->banks->value, 16);
  // 32 B/cycle/SM x 16 SMs x 1.4 GHz = 716.8 GB/s
  EXPECT_NEAR(shared->bandwidth->value, 716.8, 1e-9);
  EXPECT_EQ(shared->bandwidth->unit, "B/cycle/SM");
  const MemoryLevel* dram = g->memoryForResource("dram");
  EXPECT_DOUBLE_EQ(dram->latency.value, 450);
  EXPECT_DOUBLE_EQ(dram->bandwidth->value, 70);
  EXPECT_DOUBLE_EQ(g->mwpCwp.memLatency.value, 450);
  EXPECT_DOUBLE_EQ(g->mwpCwp.memBandwidth.value, 70);
  EXPECT_DOUBLE_EQ(g->mwpCwp.departureDelayCoal.value, 5);
  EXPECT_DOUBLE_EQ(g->mwpCwp.departureDelayUncoal.value, 40);
  EXPECT_EQ(g->mwpCwp.departureDelayUncoal.source, measured);
  // Unmeasured fields keep the base's provenance.
  EXPECT_EQ(g->mwpCwp.issueCycles.source, base->mwpCwp.issueCycles.source);
  // The written description loads back.
  Expected<Gpu> back = loadGpuFromString(writeGpuToml(*g, "calibrated"), "calibrated.toml");
  ASSERT_TRUE(back.ok()) << back.error().format();
  EXPECT_EQ(back->mwpCwp.departureDelayCoal.source.str(), "measured:2026-11-21");
}

TEST(Calibration, MapsLaiMixThroughputsWhenMeasured) {
  Expected<CalibrationResults> r = parseCalibrationOutput(fixture(), "synthetic");
  ASSERT_TRUE(r.ok());
  Expected<Gpu> base = loadPreset("fx5600");
  ASSERT_TRUE(base.ok());
  // Without the optional keys the description has no [sgemm_mix] (fx5600 has none).
  Expected<Gpu> none = applyCalibration(*base, *r, "2026-11-26", "x");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->sgemmMix);
  CalibrationResults withMix = *r;
  withMix.values["sgemm_mix.lds64"] = 0.93;
  withMix.values["sgemm_mix.lds128"] = 0.81;
  Expected<Gpu> g = applyCalibration(*base, withMix, "2026-11-26", "x");
  ASSERT_TRUE(g.ok()) << g.error().format();
  ASSERT_TRUE(g->sgemmMix);
  EXPECT_FALSE(g->sgemmMix->lds32);
  ASSERT_TRUE(g->sgemmMix->lds64);
  EXPECT_DOUBLE_EQ(g->sgemmMix->lds64->value, 0.93);
  EXPECT_EQ(g->sgemmMix->lds128->source.str(), "measured:2026-11-26");
  // The written description loads back with the section.
  Expected<Gpu> back = loadGpuFromString(writeGpuToml(*g, "calibrated"), "calibrated.toml");
  ASSERT_TRUE(back.ok()) << back.error().format();
  ASSERT_TRUE(back->sgemmMix && back->sgemmMix->lds128);
  EXPECT_DOUBLE_EQ(back->sgemmMix->lds128->value, 0.81);
  withMix.values["sgemm_mix.lds32"] = 0;
  EXPECT_FALSE(applyCalibration(*base, withMix, "2026-11-26", "x").ok());
}

/// The [barrier] fit on the H100's run of 2026-11-26 (raw/2026-11-26-h100-b/calibrate.txt).
/// Lone blocks, cycles per back-to-back barrier by warps W = 1, 2, 4, 8, 16, 32: 14.75, 16.75,
/// 20.75, 28.75, 44.77, 76.79; least squares: arrival (slope) = 2.001379, latency (intercept) =
/// 12.745522. Full SMs (32, 32, 16, 8, 4, 2 blocks): cycles per block barrier 3.1684, 4.4284,
/// 8.6644, 17.6475, 34.05, 70.745; with the slope fixed, block = sum((y - 2.001379 W) / y^2) /
/// sum(1 / y^2) = 0.9220.
TEST(Calibration, FitsTheBarrierUnitFromItsSweeps) {
  Expected<CalibrationResults> h100 = parseCalibrationOutput(
      testing_support::sourceText("validation/measurements/raw/2026-11-26-h100-b/calibrate.txt"), "h100-b");
  ASSERT_TRUE(h100.ok()) << h100.error().format();
  Expected<Gpu> g = applyCalibration(loadPreset("h100").value(), *h100, "2026-11-26", "x");
  ASSERT_TRUE(g.ok()) << g.error().format();
  ASSERT_TRUE(g->barrier);
  EXPECT_NEAR(g->barrier->arrival.value, 2.001379, 1e-5);
  EXPECT_NEAR(g->barrier->latency.value, 12.745522, 1e-5);
  EXPECT_NEAR(g->barrier->block.value, 0.9220, 1e-4);
  EXPECT_EQ(g->barrier->block.source.str(), "measured:2026-11-26");
  // An output without the sweeps keeps the base's unit (fx5600 has none).
  Expected<CalibrationResults> r = parseCalibrationOutput(fixture(), "synthetic");
  ASSERT_TRUE(r.ok());
  Expected<Gpu> none = applyCalibration(loadPreset("fx5600").value(), *r, "2026-11-26", "x");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->barrier);
}

TEST(Calibration, RefusesAMismatchedBase) {
  Expected<CalibrationResults> r = parseCalibrationOutput(fixture(), "synthetic");
  ASSERT_TRUE(r.ok());
  CalibrationResults hopper = *r;
  hopper.computeCapability = "9.0";
  Expected<Gpu> base = loadPreset("fx5600");
  Expected<Gpu> g = applyCalibration(*base, hopper, "2026-11-21", "x");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().message,
            "the measured GPU has compute capability 9.0 but the base description 'fx5600' has "
            "1.0; pass a matching --base");
  EXPECT_EQ(basePresetFor("9.0"), "h100");
  EXPECT_EQ(basePresetFor("8.0"), "a100");
  EXPECT_EQ(basePresetFor("7.5"), "");
}

}  // namespace
}  // namespace foresight
