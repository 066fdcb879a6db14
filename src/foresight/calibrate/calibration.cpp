// SPDX-License-Identifier: Apache-2.0
/// \file
/// Microbenchmark output → GPU description fields.
#include "foresight/calibrate/calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <sstream>

#include "foresight/support/edit_distance.h"

namespace foresight {

const std::vector<std::string>& requiredCalibrationKeys() {
  static const std::vector<std::string> keys = {"sm_count",
                                                "clock_mhz",
                                                "warp_size",
                                                "fp32.latency",
                                                "fp32.warp_insts_per_cycle_sm",
                                                "fp64.latency",
                                                "fp64.warp_insts_per_cycle_sm",
                                                "int.latency",
                                                "int.warp_insts_per_cycle_sm",
                                                "sfu.latency",
                                                "sfu.warp_insts_per_cycle_sm",
                                                "shared.latency",
                                                "shared.banks",
                                                "shared.bytes_per_cycle_sm",
                                                "shared.conflict_cycles_per_way",
                                                "l1.latency",
                                                "l2.latency",
                                                "l2.bandwidth_gbs",
                                                "l2.coalesced_request_cycles",
                                                "dram.latency",
                                                "dram.bandwidth_gbs",
                                                "dram.sector_bytes",
                                                "dram.coalesced_request_cycles",
                                                "dram.uncoalesced_request_cycles"};
  return keys;
}

Expected<CalibrationResults> parseCalibrationOutput(const std::string& text,
                                                    const std::string& source) {
  CalibrationResults r;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  std::set<std::string> seen;
  const std::vector<std::string>& required = requiredCalibrationKeys();
  while (std::getline(in, line)) {
    ++n;
    const size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    const size_t space = line.find(' ', start);
    const std::string key =
        line.substr(start, space == std::string::npos ? std::string::npos : space - start);
    std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    while (!value.empty() && (value.back() == '\r' || value.back() == ' ')) value.pop_back();
    if (value.empty()) return makeError("'" + key + "' has no value", source, n);
    if (!seen.insert(key).second) return makeError("'" + key + "' appears twice", source, n);
    if (key == "device") {
      r.deviceName = value;
      continue;
    }
    if (key == "cc") {
      r.computeCapability = value;
      continue;
    }
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || *end != '\0' || !std::isfinite(v)) {
      return makeError("'" + key + "' must be a number, got '" + value + "'", source, n);
    }
    if (std::find(required.begin(), required.end(), key) == required.end()) {
      // Extra results (sweeps, raw cycles) are kept for the report but map onto nothing.
      r.values[key] = v;
      continue;
    }
    r.values[key] = v;
  }
  if (r.deviceName.empty()) return makeError("the output names no 'device'", source, 0);
  if (r.computeCapability.empty()) return makeError("the output gives no 'cc'", source, 0);
  for (const std::string& key : required) {
    if (!r.values.count(key))
      return makeError("the output has no '" + key + "' (incomplete run?)", source, 0);
  }
  return r;
}

namespace {

/// The `[barrier]` unit from the microbenchmarks' barrier.bare_* sweeps; nullopt when the output
/// has none (runs before 2026-11-26).
std::optional<BarrierUnit> fitBarrier(const CalibrationResults& r, const Provenance& provenance) {
  // Lone blocks of W warps: cycles per back-to-back barrier = latency + arrival x W (least
  // squares). Full SMs (the most blocks per SM measured for each W): cycles per block barrier =
  // block + arrival x W, with the lone blocks' slope; block by least squares of the relative error.
  std::vector<std::pair<double, double>> alone, full;
  for (int w = 1; w <= 32; w *= 2) {
    const std::string prefix = "barrier.bare_w" + std::to_string(w) + "_";
    if (const auto it = r.values.find(prefix + "alone_cycles"); it != r.values.end()) alone.emplace_back(w, it->second);
    int mostBlocks = 0;
    double cycles = 0;
    for (auto it = r.values.lower_bound(prefix + "b"); it != r.values.end() && it->first.rfind(prefix + "b", 0) == 0; ++it) {
      const int blocks = std::atoi(it->first.c_str() + prefix.size() + 1);
      if (blocks > mostBlocks && it->first == prefix + "b" + std::to_string(blocks) + "_cycles") {
        mostBlocks = blocks;
        cycles = it->second;
      }
    }
    if (mostBlocks > 1) full.emplace_back(w, cycles / mostBlocks);
  }
  if (alone.size() < 2 || full.empty()) return std::nullopt;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [x, y] : alone) {
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double n = static_cast<double>(alone.size());
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const double intercept = (sy - slope * sx) / n;
  if (!(slope > 0)) return std::nullopt;
  double num = 0, den = 0;
  for (const auto& [x, y] : full) {
    num += (y - slope * x) / (y * y);
    den += 1 / (y * y);
  }
  BarrierUnit b;
  b.arrival = Param<double>{slope, provenance, "cycles"};
  b.block = Param<double>{std::max(0.0, num / den), provenance, "cycles"};
  b.latency = Param<double>{std::max(0.0, intercept), provenance, "cycles"};
  return b;
}

}  // namespace

std::string basePresetFor(const std::string& cc) {
  if (cc == "9.0") return "h100";
  if (cc == "8.0") return "a100";
  if (cc == "7.0") return "v100";
  return "";
}

Expected<Gpu> applyCalibration(const Gpu& base, const CalibrationResults& r,
                               const std::string& date, const std::string& name) {
  if (r.computeCapability != base.computeCapability()) {
    return makeError("the measured GPU has compute capability " + r.computeCapability +
                     " but the base description '" + base.name + "' has " +
                     base.computeCapability() + "; pass a matching --base");
  }
  for (const std::string& key : requiredCalibrationKeys()) {
    const auto it = r.values.find(key);
    if (it == r.values.end()) return makeError("calibration result '" + key + "' is missing");
    if (!(it->second > 0) && key != "shared.conflict_cycles_per_way") {
      return makeError("calibration result '" + key + "' must be positive");
    }
  }
  if (static_cast<int>(r.values.at("warp_size")) != base.warpSize.value) {
    return makeError("the measured warp size differs from the base description's");
  }
  const Provenance measured{Provenance::Kind::Measured, date};
  auto v = [&](const std::string& key) { return r.values.at(key); };
  auto dbl = [&](double value, const char* unit) { return Param<double>{value, measured, unit}; };

  Gpu g = base;
  g.name = name;
  g.fullName = r.deviceName;
  g.sourceFile = "";
  g.smCount = Param<int>{static_cast<int>(std::lround(v("sm_count"))), measured, ""};
  // The clock is written in MHz, as measured; the loader keeps GHz.
  g.clockGhz = Param<double>{v("clock_mhz") * 1e-3, measured, "MHz"};
  const double schedulers = g.schedulersPerSm.value;
  const std::pair<InstrClass, const char*> classes[] = {{InstrClass::Fp32, "fp32"},
                                                        {InstrClass::Fp64, "fp64"},
                                                        {InstrClass::Int, "int"},
                                                        {InstrClass::Sfu, "sfu"}};
  for (const auto& [cls, key] : classes) {
    Pipeline p;
    p.latency = dbl(v(std::string(key) + ".latency"), "cycles");
    // Warp instructions per cycle per SM at full occupancy → cycles between two issues on one
    // scheduler.
    p.gap = dbl(schedulers / v(std::string(key) + ".warp_insts_per_cycle_sm"), "cycles");
    g.pipelines[static_cast<int>(cls)] = p;
  }
  for (MemoryLevel& m : g.memory) {
    if (m.resource == "shared") {
      m.latency = dbl(v("shared.latency"), "cycles");
      if (m.banks)
        m.banks = Param<int>{static_cast<int>(std::lround(v("shared.banks"))), measured, ""};
      m.bandwidth =
          dbl(v("shared.bytes_per_cycle_sm") * g.smCount.value * g.clockGhz.value, "B/cycle/SM");
    } else if (m.resource == "l1") {
      m.latency = dbl(v("l1.latency"), "cycles");
    } else if (m.resource == "l2") {
      m.latency = dbl(v("l2.latency"), "cycles");
      m.bandwidth = dbl(v("l2.bandwidth_gbs"), "GB/s");
    } else if (m.resource == "dram") {
      m.latency = dbl(v("dram.latency"), "cycles");
      m.bandwidth = dbl(v("dram.bandwidth_gbs"), "GB/s");
      if (m.sector)
        m.sector = Param<long long>{std::llround(v("dram.sector_bytes")), measured, "B"};
    }
  }
  // Lai's F_T per shared-load width (optional keys: outputs of the suite before the mix
  // benchmark have none, and the base's values, if any, are kept).
  const std::pair<const char*, std::optional<Param<double>> SgemmMix::*> mixes[] = {
      {"sgemm_mix.lds32", &SgemmMix::lds32}, {"sgemm_mix.lds64", &SgemmMix::lds64}, {"sgemm_mix.lds128", &SgemmMix::lds128}};
  for (const auto& [key, member] : mixes) {
    const auto it = r.values.find(key);
    if (it == r.values.end()) continue;
    if (!(it->second > 0)) return makeError(std::string("calibration result '") + key + "' must be positive");
    if (!g.sgemmMix) g.sgemmMix = SgemmMix{};
    (*g.sgemmMix).*member = dbl(it->second, "");
  }
  if (std::optional<BarrierUnit> barrier = fitBarrier(r, measured)) g.barrier = *barrier;
  MwpCwpParams& w = g.mwpCwp;
  w.memLatency = dbl(v("dram.latency"), "cycles");
  w.memBandwidth = dbl(v("dram.bandwidth_gbs"), "GB/s");
  w.departureDelayCoal = dbl(v("dram.coalesced_request_cycles"), "cycles");
  w.departureDelayUncoal = dbl(v("dram.uncoalesced_request_cycles"), "cycles");
  if (w.l2Latency) w.l2Latency = dbl(v("l2.latency"), "cycles");
  if (w.l2DepartureDelay) w.l2DepartureDelay = dbl(v("l2.coalesced_request_cycles"), "cycles");
  if (w.dramDepartureDelay)
    w.dramDepartureDelay = dbl(v("dram.coalesced_request_cycles"), "cycles");
  return g;
}

}  // namespace foresight
