// SPDX-License-Identifier: Apache-2.0
/// \file
/// TOML → Gpu, section by section, through the strict `TableReader` (support/toml_reader.h),
/// followed by cross-field checks (miss paths name existing levels, bank memories give banks).
#include "foresight/gpu/gpu_loader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "foresight/support/edit_distance.h"
#include "foresight/support/text_file.h"
#include "foresight/support/toml_reader.h"

namespace foresight {

namespace {

/// Converts a bandwidth given per SM per cycle into GB/s for the whole GPU.
void normalizeBandwidth(Param<double>& bw, const Gpu& gpu) {
  if (bw.unit == "B/cycle/SM") bw.value *= gpu.smCount.value * gpu.clockGhz.value;
}

void readLimits(TableReader& r, GpuLimits& l) {
  l.threadsPerSm = r.param<int>("threads_per_sm", Dim::Count);
  l.warpsPerSm = r.param<int>("warps_per_sm", Dim::Count);
  l.blocksPerSm = r.param<int>("blocks_per_sm", Dim::Count);
  l.threadsPerBlock = r.param<int>("threads_per_block", Dim::Count);
  l.registersPerSm = r.param<int>("registers_per_sm", Dim::Count);
  l.registersPerThread = r.param<int>("registers_per_thread", Dim::Count);
  l.registersPerBlock = r.param<int>("registers_per_block", Dim::Count);
  l.registerAllocUnit = r.param<int>("register_alloc_unit", Dim::Count);
  l.registerGranularity = r.choice("register_granularity", {"warp", "block"}) == "block"
                              ? RegisterGranularity::Block
                              : RegisterGranularity::Warp;
  l.warpAllocGranularity = r.param<int>("warp_alloc_granularity", Dim::Count);
  l.registerFilePartitions = r.param<int>("register_file_partitions", Dim::Count);
  l.sharedPerSm = r.param<long long>("shared_per_sm", Dim::Bytes);
  l.sharedPerBlock = r.param<long long>("shared_per_block", Dim::Bytes);
  l.sharedAllocUnit = r.param<long long>("shared_alloc_unit", Dim::Bytes);
  l.sharedReservedPerBlock = r.param<long long>("shared_reserved_per_block", Dim::Bytes);
  l.sharedCarveouts = r.optionalParam<std::vector<long long>>("shared_carveouts", Dim::Bytes);
  r.finish();
  if (r.failed()) return;
  if (l.sharedCarveouts) {
    const std::vector<long long>& c = l.sharedCarveouts->value;
    if (!std::is_sorted(c.begin(), c.end()) || std::adjacent_find(c.begin(), c.end()) != c.end() ||
        c.back() != l.sharedPerSm.value) {
      return r.failAtKey("shared_carveouts", "'limits.shared_carveouts' must ascend and end at shared_per_sm (" +
                                                 std::to_string(l.sharedPerSm.value) + " B)");
    }
  }
  // Values that later divide or bound loops must be positive.
  const std::pair<const char*, long long> positive[] = {
      {"threads_per_sm", l.threadsPerSm.value},     {"warps_per_sm", l.warpsPerSm.value},
      {"blocks_per_sm", l.blocksPerSm.value},       {"threads_per_block", l.threadsPerBlock.value},
      {"registers_per_sm", l.registersPerSm.value}, {"register_alloc_unit", l.registerAllocUnit.value},
      {"warp_alloc_granularity", l.warpAllocGranularity.value},
      {"register_file_partitions", l.registerFilePartitions.value},
      {"shared_alloc_unit", l.sharedAllocUnit.value}};
  for (const auto& [key, value] : positive) {
    if (value <= 0) return r.failHere(std::string("'limits.") + key + "' must be positive");
  }
}

}  // namespace

Expected<Gpu> loadGpuFromString(std::string_view text, const std::string& sourceName) {
  Expected<toml::table> parsed = parseToml(text, sourceName);
  if (!parsed) return std::move(parsed).takeError();
  const toml::table& root = *parsed;

  Error error;
  Gpu gpu;
  gpu.sourceFile = sourceName;
  TableReader top(root, "", sourceName, &error);

  if (const toml::table* t = top.table("gpu")) {
    TableReader r(*t, "gpu", sourceName, &error);
    gpu.name = r.string("name");
    gpu.fullName = r.string("full_name");
    gpu.architecture = r.choice("architecture", {"tesla", "fermi", "kepler", "maxwell", "pascal",
                                                 "volta", "turing", "ampere", "ada", "hopper",
                                                 "blackwell"});
    const std::string cc = r.string("compute_capability");
    r.finish();
    if (!r.failed()) {
      const auto dot = cc.find('.');
      bool ok = dot != std::string::npos && dot > 0 && dot + 1 < cc.size();
      if (ok) {
        try {
          size_t used = 0;
          gpu.ccMajor = std::stoi(cc.substr(0, dot), &used);
          ok = used == dot;
          gpu.ccMinor = std::stoi(cc.substr(dot + 1), &used);
          ok = ok && used == cc.size() - dot - 1;
        } catch (const std::exception&) {
          ok = false;
        }
      }
      if (!ok) r.failHere("'gpu.compute_capability' must look like \"9.0\", got \"" + cc + "\"");
    }
  }

  if (const toml::table* t = top.table("sm")) {
    TableReader r(*t, "sm", sourceName, &error);
    gpu.smCount = r.param<int>("count", Dim::Count);
    gpu.clockGhz = r.param<double>("clock", Dim::Frequency);
    gpu.warpSize = r.param<int>("warp_size", Dim::Count);
    gpu.schedulersPerSm = r.param<int>("schedulers", Dim::Count);
    gpu.issueWidth = r.param<double>("issue_width", Dim::IssueRate);
    gpu.launchOverheadUs = r.optionalParam<double>("launch_overhead", Dim::Duration);
    gpu.blockOverheadCycles = r.optionalParam<double>("block_overhead", Dim::Cycles);
    r.finish();
    if (!r.failed() && (gpu.smCount.value <= 0 || gpu.clockGhz.value <= 0 ||
                        gpu.warpSize.value <= 0 || gpu.schedulersPerSm.value <= 0 ||
                        gpu.issueWidth.value <= 0)) {
      r.failHere("every value in [sm] must be positive");
    }
  }

  if (const toml::table* t = top.table("limits")) {
    TableReader r(*t, "limits", sourceName, &error);
    readLimits(r, gpu.limits);
  }

  if (const toml::table* t = top.table("pipelines")) {
    TableReader r(*t, "pipelines", sourceName, &error);
    static const InstrClass kRequired[] = {InstrClass::Fp32, InstrClass::Int, InstrClass::Sfu,
                                           InstrClass::Ldst, InstrClass::Control};
    for (int i = 0; i < kNumInstrClasses; ++i) {
      const auto cls = static_cast<InstrClass>(i);
      const std::string name = instrClassName(cls);
      const bool required =
          std::find(std::begin(kRequired), std::end(kRequired), cls) != std::end(kRequired);
      const toml::table* pt = required ? r.table(name) : r.optionalTable(name);
      if (!pt) continue;
      TableReader p(*pt, "pipelines." + name, sourceName, &error);
      Pipeline pipe;
      pipe.latency = p.param<double>("latency", Dim::Cycles);
      pipe.gap = p.param<double>("gap", Dim::Cycles);
      p.finish();
      if (!p.failed() && pipe.gap.value <= 0) p.failHere("'pipelines." + name + ".gap' must be positive");
      gpu.pipelines[i] = pipe;
    }
    r.finish();
  }

  if (const toml::table* t = top.table("memory")) {
    TableReader r(*t, "memory", sourceName, &error);
    for (const std::string& name : r.keys()) {
      const toml::table* mt = r.table(name);
      if (!mt) break;
      TableReader m(*mt, "memory." + name, sourceName, &error);
      MemoryLevel level;
      level.name = name;
      level.resource = m.choice("resource", {"shared", "l1", "l2", "dram", "constant", "texture"});
      level.softwareManaged = m.choice("managed", {"software", "hardware"}) == "software";
      level.writable = m.choice("access", {"read", "read-write"}) == "read-write";
      level.scope = m.choice("scope", {"sm", "device"}) == "sm" ? Scope::Sm : Scope::Device;
      const std::string serialization = m.choice(
          "serialization", {"line", "sector", "address", "bank", "segment-cc1.0", "segment-cc1.2"});
      level.serialization = serialization == "line"            ? Serialization::Line
                            : serialization == "address"       ? Serialization::Address
                            : serialization == "bank"          ? Serialization::Bank
                            : serialization == "segment-cc1.0" ? Serialization::SegmentCc10
                            : serialization == "segment-cc1.2" ? Serialization::SegmentCc12
                                                               : Serialization::Sector;
      level.size = m.param<long long>("size", Dim::Bytes);
      level.line = m.optionalParam<long long>("line", Dim::Bytes);
      level.sector = m.optionalParam<long long>("sector", Dim::Bytes);
      level.fetchGranularity = m.optionalParam<long long>("fetch_granularity", Dim::Bytes);
      level.banks = m.optionalParam<int>("banks", Dim::Count);
      level.bankWidth = m.optionalParam<int>("bank_width", Dim::Bytes);
      level.latency = m.param<double>("latency", Dim::Cycles);
      level.bandwidth = m.optionalParam<double>("bandwidth", Dim::Bandwidth);
      level.readBandwidth = m.optionalParam<double>("read_bandwidth", Dim::Bandwidth);
      level.writeBandwidth = m.optionalParam<double>("write_bandwidth", Dim::Bandwidth);
      level.mixedBandwidth = m.optionalParam<double>("mixed_bandwidth", Dim::Bandwidth);
      level.partitions = m.optionalParam<int>("partitions", Dim::Count);
      level.farLatency = m.optionalParam<double>("far_latency", Dim::Cycles);
      level.sameAddressAtomicUs = m.optionalParam<double>("same_address_atomic", Dim::Duration);
      level.sameAddressAtomicIntUs = m.optionalParam<double>("same_address_atomic_int", Dim::Duration);
      level.sectorRmwUs = m.optionalParam<double>("sector_rmw", Dim::Duration);
      level.atomicUnitOpUs = m.optionalParam<double>("atomic_unit_op", Dim::Duration);
      level.atomicInterleave = m.optionalParam<long long>("atomic_interleave", Dim::Bytes);
      level.lower = m.stringArray("lower");
      m.finish();
      if (m.failed()) break;
      const std::pair<const char*, long long> sizes[] = {
          {"size", level.size.value},
          {"line", level.line ? level.line->value : 1},
          {"sector", level.sector ? level.sector->value : 1},
          {"banks", level.banks ? level.banks->value : 1},
          {"bank_width", level.bankWidth ? level.bankWidth->value : 1},
          {"partitions", level.partitions ? level.partitions->value : 1}};
      const char* nonPositive = nullptr;
      for (const auto& [key, value] : sizes) {
        if (value <= 0 && !nonPositive) nonPositive = key;
      }
      if (nonPositive) {
        m.failAtKey(nonPositive, "'memory." + name + "." + nonPositive + "' must be positive");
      } else if (level.serialization == Serialization::Bank && (!level.banks || !level.bankWidth)) {
        m.failHere("'memory." + name + "' has serialization \"bank\" and needs 'banks' and 'bank_width'");
      } else if (level.serialization == Serialization::Line && !level.line) {
        m.failHere("'memory." + name + "' has serialization \"line\" and needs 'line'");
      } else if (level.serialization == Serialization::Sector && !level.sector) {
        m.failHere("'memory." + name + "' has serialization \"sector\" and needs 'sector'");
      } else if (level.fetchGranularity &&
                 (!level.sector || level.fetchGranularity->value <= 0 ||
                  level.fetchGranularity->value % level.sector->value != 0 ||
                  (level.line && level.fetchGranularity->value > level.line->value))) {
        m.failAtKey("fetch_granularity", "'memory." + name +
                                             ".fetch_granularity' must be a positive multiple of 'sector', at most 'line'");
      } else if (level.sameAddressAtomicUs && !(level.sameAddressAtomicUs->value > 0)) {
        m.failAtKey("same_address_atomic", "'memory." + name + ".same_address_atomic' must be positive");
      } else if (level.sameAddressAtomicIntUs && !(level.sameAddressAtomicIntUs->value > 0)) {
        m.failAtKey("same_address_atomic_int", "'memory." + name + ".same_address_atomic_int' must be positive");
      } else if (level.sectorRmwUs && !(level.sectorRmwUs->value > 0)) {
        m.failAtKey("sector_rmw", "'memory." + name + ".sector_rmw' must be positive");
      } else if (level.atomicUnitOpUs && !(level.atomicUnitOpUs->value > 0)) {
        m.failAtKey("atomic_unit_op", "'memory." + name + ".atomic_unit_op' must be positive");
      } else if (level.atomicInterleave && level.atomicInterleave->value <= 0) {
        m.failAtKey("atomic_interleave", "'memory." + name + ".atomic_interleave' must be positive");
      } else if (level.atomicUnitOpUs.has_value() != level.atomicInterleave.has_value()) {
        m.failHere("'memory." + name + "' needs 'atomic_unit_op' and 'atomic_interleave' together");
      }
      gpu.memory.push_back(std::move(level));
    }
    if (!r.failed() && gpu.memory.empty()) r.failHere("[memory] must describe at least one level");
    // Every name on a miss path must be a level of this file.
    std::vector<std::string> names;
    for (const MemoryLevel& level : gpu.memory) names.push_back(level.name);
    for (const MemoryLevel& level : gpu.memory) {
      for (const std::string& lower : level.lower) {
        if (r.failed()) break;
        if (std::find(names.begin(), names.end(), lower) == names.end()) {
          const toml::node* levelNode = t->get(level.name);
          const toml::node* node = levelNode && levelNode->as_table()
                                       ? levelNode->as_table()->get("lower")
                                       : levelNode;
          r.failAt(node ? *node : static_cast<const toml::node&>(*t),
                   "'memory." + level.name + ".lower' names '" + lower +
                       "', which is not a memory level" + didYouMean(lower, names));
        }
      }
    }
    if (!r.failed() && !gpu.memoryForResource("dram")) {
      r.failHere("[memory] needs a level with resource = \"dram\"");
    }
  }

  if (const toml::table* t = top.table("mwp_cwp")) {
    TableReader r(*t, "mwp_cwp", sourceName, &error);
    MwpCwpParams& m = gpu.mwpCwp;
    m.memLatency = r.param<double>("mem_latency", Dim::Cycles);
    m.departureDelayCoal = r.param<double>("departure_delay_coal", Dim::Cycles);
    m.departureDelayUncoal = r.param<double>("departure_delay_uncoal", Dim::Cycles);
    m.issueCycles = r.param<double>("issue_cycles", Dim::Cycles);
    m.memBandwidth = r.param<double>("mem_bandwidth", Dim::Bandwidth);
    m.l2Latency = r.optionalParam<double>("l2_latency", Dim::Cycles);
    m.l2DepartureDelay = r.optionalParam<double>("l2_departure_delay", Dim::Cycles);
    m.dramDepartureDelay = r.optionalParam<double>("dram_departure_delay", Dim::Cycles);
    m.instCycles = r.optionalParam<double>("inst_cycles", Dim::Cycles);
    r.finish();
    if (!r.failed() && (m.departureDelayCoal.value <= 0 || m.departureDelayUncoal.value <= 0 ||
                        m.issueCycles.value <= 0 || m.memBandwidth.value <= 0)) {
      r.failHere("mwp_cwp departure delays, issue_cycles and mem_bandwidth must be positive");
    }
  }
  if (const toml::table* t = top.optionalTable("sgemm_mix")) {
    TableReader r(*t, "sgemm_mix", sourceName, &error);
    SgemmMix mix;
    mix.lds32 = r.optionalParam<double>("lds32", Dim::Count);
    mix.lds64 = r.optionalParam<double>("lds64", Dim::Count);
    mix.lds128 = r.optionalParam<double>("lds128", Dim::Count);
    r.finish();
    for (const auto& [key, p] : {std::pair{"lds32", &mix.lds32}, std::pair{"lds64", &mix.lds64}, std::pair{"lds128", &mix.lds128}}) {
      // Above 1 where the FP32 pipe issues at half the issue rate (A100): the loads fill spare slots.
      if (!r.failed() && *p && !((*p)->value > 0 && (*p)->value <= 2)) {
        r.failAtKey(key, std::string("'sgemm_mix.") + key + "' is the mix's instruction rate over the FP32 peak: above 0, at most 2");
      }
    }
    if (!r.failed() && !mix.lds32 && !mix.lds64 && !mix.lds128) r.failHere("[sgemm_mix] needs lds32, lds64 or lds128");
    gpu.sgemmMix = mix;
  }
  if (const toml::table* t = top.optionalTable("register_banks")) {
    TableReader r(*t, "register_banks", sourceName, &error);
    RegisterBanks banks;
    banks.count = r.param<int>("count", Dim::Count);
    banks.function = r.choice("function", {"modulo", "kepler"}) == "kepler" ? RegisterBankFunction::Kepler
                                                                              : RegisterBankFunction::Modulo;
    r.finish();
    if (!r.failed() && banks.count.value <= 0) r.failAtKey("count", "'register_banks.count' must be positive");
    if (!r.failed() && banks.function == RegisterBankFunction::Kepler && banks.count.value != 4) {
      r.failAtKey("count", "the \"kepler\" bank function has 4 banks");
    }
    gpu.registerBanks = banks;
  }
  if (const toml::table* t = top.optionalTable("barrier")) {
    TableReader r(*t, "barrier", sourceName, &error);
    BarrierUnit b;
    b.arrival = r.param<double>("arrival", Dim::Cycles);
    b.block = r.param<double>("block", Dim::Cycles);
    b.latency = r.param<double>("latency", Dim::Cycles);
    r.finish();
    if (!r.failed() && !(b.arrival.value > 0)) r.failAtKey("arrival", "'barrier.arrival' must be positive");
    if (!r.failed() && !(b.block.value >= 0)) r.failAtKey("block", "'barrier.block' must not be negative");
    if (!r.failed() && !(b.latency.value >= 0)) r.failAtKey("latency", "'barrier.latency' must not be negative");
    gpu.barrier = b;
  }
  top.finish();
  if (!error.message.empty()) return error;

  normalizeBandwidth(gpu.mwpCwp.memBandwidth, gpu);
  for (MemoryLevel& level : gpu.memory) {
    for (auto* bw : {&level.bandwidth, &level.readBandwidth, &level.writeBandwidth, &level.mixedBandwidth}) {
      if (*bw) normalizeBandwidth(**bw, gpu);
    }
  }
  return gpu;
}

Expected<Gpu> loadGpuFile(const std::string& path) {
  Expected<std::string> text = readTextFile(path, "GPU description");
  if (!text) return std::move(text).takeError();
  return loadGpuFromString(*text, path);
}

}  // namespace foresight
