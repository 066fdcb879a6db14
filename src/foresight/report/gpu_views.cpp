// SPDX-License-Identifier: Apache-2.0
/// \file
/// Rendering of GpuListView.
#include "foresight/report/gpu_views.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>

namespace foresight {

namespace {

/// The provenance most of a GPU's headline numbers share, for the summary column.
std::string headlineProvenance(const Gpu& g) {
  return g.mwpCwp.memBandwidth.source.str();
}

std::string l2Text(const Gpu& g) {
  const MemoryLevel* l2 = g.memoryForResource("l2");
  return l2 ? fmt::format("{:.2f}", static_cast<double>(l2->size.value) / (1024.0 * 1024.0)) : "-";
}

}  // namespace

void GpuListView::printText(std::ostream& os) const {
  os << fmt::format("{:<10} {:<12} {:<4} {:>4} {:>11} {:>11} {:>8}  {:<12} {}\n", "name",
                    "architecture", "cc", "SMs", "clock (GHz)", "DRAM (GB/s)", "L2 (MiB)",
                    "DRAM source", "full name");
  for (const Gpu& g : gpus_) {
    os << fmt::format("{:<10} {:<12} {:<4} {:>4} {:>11.3f} {:>11.1f} {:>8}  {:<12} {}\n", g.name,
                      g.architecture, g.computeCapability(), g.smCount.value, g.clockGhz.value,
                      g.mwpCwp.memBandwidth.value, l2Text(g), headlineProvenance(g), g.fullName);
  }
}

nlohmann::json GpuListView::toJson() const {
  nlohmann::json list = nlohmann::json::array();
  for (const Gpu& g : gpus_) {
    const MemoryLevel* l2 = g.memoryForResource("l2");
    list.push_back({{"name", g.name},
                    {"full_name", g.fullName},
                    {"architecture", g.architecture},
                    {"compute_capability", g.computeCapability()},
                    {"sm_count", g.smCount.value},
                    {"clock_ghz", g.clockGhz.value},
                    {"clock_source", g.clockGhz.source.str()},
                    {"dram_bandwidth_gbs", g.mwpCwp.memBandwidth.value},
                    {"dram_bandwidth_source", headlineProvenance(g)},
                    {"l2_bytes", l2 ? nlohmann::json(l2->size.value) : nlohmann::json(nullptr)}});
  }
  return {{"gpus", list}};
}

}  // namespace foresight
