// SPDX-License-Identifier: Apache-2.0
/// \file
/// TOML writer for Gpu. Each number is written in the unit the Param remembers; where converting
/// back from the canonical unit is inexact, the neighbouring doubles are searched for the one the
/// loader maps back to the same canonical value, so the round trip is exact.
#include "foresight/gpu/gpu_writer.h"

#include <fmt/format.h>
#include <cmath>
#include <sstream>

namespace foresight {

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<int>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

/// The canonical value per unit of the file (the loader multiplies by this).
double unitScale(const std::string& unit, const Gpu& gpu) {
  if (unit == "MHz") return 1e-3;
  if (unit == "KiB") return 1024.0;
  if (unit == "MiB") return 1024.0 * 1024.0;
  if (unit == "GiB") return 1024.0 * 1024.0 * 1024.0;
  if (unit == "TB/s") return 1000.0;
  if (unit == "ns") return 1e-3;
  if (unit == "ms") return 1e3;
  if (unit == "B/cycle/SM") return gpu.smCount.value * gpu.clockGhz.value;
  return 1.0;
}

/// The file value that the loader turns back into `canonical` exactly, when one is near.
double fileValue(double canonical, double scale) {
  if (scale == 1.0) return canonical;
  double raw = canonical / scale;
  if (raw * scale == canonical) return raw;
  double lo = raw, hi = raw;
  for (int i = 0; i < 16; ++i) {
    lo = std::nextafter(lo, -INFINITY);
    hi = std::nextafter(hi, INFINITY);
    if (lo * scale == canonical) return lo;
    if (hi * scale == canonical) return hi;
  }
  return raw;
}

std::string number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{}", v);
}

template <class T>
std::string param(const Param<T>& p, const Gpu& gpu) {
  const double value = fileValue(static_cast<double>(p.value), unitScale(p.unit, gpu));
  if (p.unit.empty())
    return fmt::format("{{ value = {}, source = {} }}", number(value), quoted(p.source.str()));
  return fmt::format("{{ value = {}, unit = {}, source = {} }}", number(value), quoted(p.unit),
                     quoted(p.source.str()));
}

std::string paramList(const Param<std::vector<long long>>& p, const Gpu& gpu) {
  std::string values;
  for (long long v : p.value) {
    values += (values.empty() ? "" : ", ") + number(fileValue(static_cast<double>(v), unitScale(p.unit, gpu)));
  }
  return fmt::format("{{ value = [{}], unit = {}, source = {} }}", values, quoted(p.unit), quoted(p.source.str()));
}

const char* serializationName(Serialization s) {
  switch (s) {
    case Serialization::Line: return "line";
    case Serialization::Sector: return "sector";
    case Serialization::Address: return "address";
    case Serialization::Bank: return "bank";
    case Serialization::SegmentCc10: return "segment-cc1.0";
    case Serialization::SegmentCc12: return "segment-cc1.2";
  }
  return "sector";
}

}  // namespace

std::string writeGpuToml(const Gpu& gpu, const std::string& headerComment) {
  std::ostringstream os;
  if (!headerComment.empty()) {
    std::istringstream lines(headerComment);
    std::string line;
    while (std::getline(lines, line)) os << "# " << line << "\n";
    os << "\n";
  }
  auto kv = [&os](const char* key, const std::string& value) {
    os << key << " = " << value << "\n";
  };
  os << "[gpu]\n";
  kv("name", quoted(gpu.name));
  kv("full_name", quoted(gpu.fullName));
  kv("architecture", quoted(gpu.architecture));
  kv("compute_capability", quoted(gpu.computeCapability()));

  os << "\n[sm]\n";
  kv("count", param(gpu.smCount, gpu));
  kv("clock", param(gpu.clockGhz, gpu));
  kv("warp_size", param(gpu.warpSize, gpu));
  kv("schedulers", param(gpu.schedulersPerSm, gpu));
  kv("issue_width", param(gpu.issueWidth, gpu));
  if (gpu.launchOverheadUs) kv("launch_overhead", param(*gpu.launchOverheadUs, gpu));
  if (gpu.blockOverheadCycles) kv("block_overhead", param(*gpu.blockOverheadCycles, gpu));

  const GpuLimits& l = gpu.limits;
  os << "\n[limits]\n";
  kv("threads_per_sm", param(l.threadsPerSm, gpu));
  kv("warps_per_sm", param(l.warpsPerSm, gpu));
  kv("blocks_per_sm", param(l.blocksPerSm, gpu));
  kv("threads_per_block", param(l.threadsPerBlock, gpu));
  kv("registers_per_sm", param(l.registersPerSm, gpu));
  kv("registers_per_thread", param(l.registersPerThread, gpu));
  kv("registers_per_block", param(l.registersPerBlock, gpu));
  kv("register_alloc_unit", param(l.registerAllocUnit, gpu));
  kv("register_granularity",
     quoted(l.registerGranularity == RegisterGranularity::Block ? "block" : "warp"));
  kv("warp_alloc_granularity", param(l.warpAllocGranularity, gpu));
  kv("register_file_partitions", param(l.registerFilePartitions, gpu));
  kv("shared_per_sm", param(l.sharedPerSm, gpu));
  kv("shared_per_block", param(l.sharedPerBlock, gpu));
  kv("shared_alloc_unit", param(l.sharedAllocUnit, gpu));
  kv("shared_reserved_per_block", param(l.sharedReservedPerBlock, gpu));
  if (l.sharedCarveouts) kv("shared_carveouts", paramList(*l.sharedCarveouts, gpu));

  for (int i = 0; i < kNumInstrClasses; ++i) {
    const auto& p = gpu.pipelines[i];
    if (!p) continue;
    os << "\n[pipelines." << instrClassName(static_cast<InstrClass>(i)) << "]\n";
    kv("latency", param(p->latency, gpu));
    kv("gap", param(p->gap, gpu));
  }

  for (const MemoryLevel& m : gpu.memory) {
    os << "\n[memory." << m.name << "]\n";
    kv("resource", quoted(m.resource));
    kv("managed", quoted(m.softwareManaged ? "software" : "hardware"));
    kv("access", quoted(m.writable ? "read-write" : "read"));
    kv("scope", quoted(m.scope == Scope::Sm ? "sm" : "device"));
    kv("serialization", quoted(serializationName(m.serialization)));
    kv("size", param(m.size, gpu));
    if (m.line) kv("line", param(*m.line, gpu));
    if (m.sector) kv("sector", param(*m.sector, gpu));
    if (m.fetchGranularity) kv("fetch_granularity", param(*m.fetchGranularity, gpu));
    if (m.banks) kv("banks", param(*m.banks, gpu));
    if (m.bankWidth) kv("bank_width", param(*m.bankWidth, gpu));
    kv("latency", param(m.latency, gpu));
    if (m.bandwidth) kv("bandwidth", param(*m.bandwidth, gpu));
    if (m.readBandwidth) kv("read_bandwidth", param(*m.readBandwidth, gpu));
    if (m.writeBandwidth) kv("write_bandwidth", param(*m.writeBandwidth, gpu));
    if (m.mixedBandwidth) kv("mixed_bandwidth", param(*m.mixedBandwidth, gpu));
    if (m.partitions) kv("partitions", param(*m.partitions, gpu));
    if (m.farLatency) kv("far_latency", param(*m.farLatency, gpu));
    if (m.sameAddressAtomicUs) kv("same_address_atomic", param(*m.sameAddressAtomicUs, gpu));
    if (m.sameAddressAtomicIntUs) kv("same_address_atomic_int", param(*m.sameAddressAtomicIntUs, gpu));
    if (m.sectorRmwUs) kv("sector_rmw", param(*m.sectorRmwUs, gpu));
    if (m.atomicUnitOpUs) kv("atomic_unit_op", param(*m.atomicUnitOpUs, gpu));
    if (m.atomicInterleave) kv("atomic_interleave", param(*m.atomicInterleave, gpu));
    if (!m.lower.empty()) {
      std::string list;
      for (const std::string& s : m.lower) list += (list.empty() ? "" : ", ") + quoted(s);
      kv("lower", "[" + list + "]");
    }
  }

  const MwpCwpParams& w = gpu.mwpCwp;
  os << "\n[mwp_cwp]\n";
  kv("mem_latency", param(w.memLatency, gpu));
  kv("departure_delay_coal", param(w.departureDelayCoal, gpu));
  kv("departure_delay_uncoal", param(w.departureDelayUncoal, gpu));
  kv("issue_cycles", param(w.issueCycles, gpu));
  kv("mem_bandwidth", param(w.memBandwidth, gpu));
  if (w.l2Latency) kv("l2_latency", param(*w.l2Latency, gpu));
  if (w.l2DepartureDelay) kv("l2_departure_delay", param(*w.l2DepartureDelay, gpu));
  if (w.dramDepartureDelay) kv("dram_departure_delay", param(*w.dramDepartureDelay, gpu));
  if (w.instCycles) kv("inst_cycles", param(*w.instCycles, gpu));
  if (gpu.sgemmMix) {
    os << "\n[sgemm_mix]\n";
    if (gpu.sgemmMix->lds32) kv("lds32", param(*gpu.sgemmMix->lds32, gpu));
    if (gpu.sgemmMix->lds64) kv("lds64", param(*gpu.sgemmMix->lds64, gpu));
    if (gpu.sgemmMix->lds128) kv("lds128", param(*gpu.sgemmMix->lds128, gpu));
  }
  if (gpu.barrier) {
    os << "\n[barrier]\n";
    kv("arrival", param(gpu.barrier->arrival, gpu));
    kv("block", param(gpu.barrier->block, gpu));
    kv("latency", param(gpu.barrier->latency, gpu));
  }
  if (gpu.registerBanks) {
    os << "\n[register_banks]\n";
    kv("count", param(gpu.registerBanks->count, gpu));
    kv("function", quoted(gpu.registerBanks->function == RegisterBankFunction::Kepler ? "kepler" : "modulo"));
  }
  return os.str();
}

}  // namespace foresight
