// SPDX-License-Identifier: Apache-2.0
/// \file
/// The key tables of the GPU description and their readers and writers (gpu_fields.h). Numeric
/// keys are generated from the member they fill (`paramKey<&S::member, Dim>`); strings and
/// choices are written out.
#include "foresight/gpu/gpu_fields.h"

#include <array>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "foresight/support/strings.h"
#include "foresight/support/toml_reader.h"

namespace foresight {

std::string tomlQuoted(const std::string& s) {
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

namespace {

// ---- Writing numbers back in the unit the file used --------------------------------------------

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
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{}", v);
}

template <class T>
std::string paramText(const Param<T>& p, const Gpu& gpu) {
  std::string value;
  if constexpr (IsList<T>::value) {
    for (auto v : p.value) {
      value += (value.empty() ? "" : ", ") + number(fileValue(static_cast<double>(v), unitScale(p.unit, gpu)));
    }
    value = "[" + value + "]";
  } else {
    value = number(fileValue(static_cast<double>(p.value), unitScale(p.unit, gpu)));
  }
  if (p.unit.empty()) return fmt::format("{{ value = {}, source = {} }}", value, tomlQuoted(p.source.str()));
  return fmt::format("{{ value = {}, unit = {}, source = {} }}", value, tomlQuoted(p.unit),
                     tomlQuoted(p.source.str()));
}

// ---- Field makers -------------------------------------------------------------------------------

template <class>
struct MemberOf;
template <class S, class P>
struct MemberOf<P S::*> {
  using Struct = S;
  using Type = P;
};

template <class P>
struct ParamOf;
template <class T>
struct ParamOf<Param<T>> {
  using Value = T;
  static constexpr bool kOptional = false;
};
template <class T>
struct ParamOf<std::optional<Param<T>>> {
  using Value = T;
  static constexpr bool kOptional = true;
};

enum class Sign { NonNegative, Positive };

/// A `{ value, unit, source }` key filling the member M (a Param or an optional Param) in
/// dimension D.
template <auto M, Dim D, Sign C = Sign::NonNegative>
GpuField<typename MemberOf<decltype(M)>::Struct> paramKey(const char* key) {
  using S = typename MemberOf<decltype(M)>::Struct;
  using P = ParamOf<typename MemberOf<decltype(M)>::Type>;
  using T = typename P::Value;
  GpuField<S> f;
  f.key = key;
  f.read = [](TableReader& r, const char* k, S& s) {
    if constexpr (P::kOptional) {
      s.*M = r.optionalParam<T>(k, D);
    } else {
      s.*M = r.param<T>(k, D);
    }
  };
  if constexpr (!IsList<T>::value) {
    f.number = [](const S& s) -> double {
      if constexpr (P::kOptional) {
        return s.*M ? static_cast<double>((s.*M)->value) : NAN;
      } else {
        return static_cast<double>((s.*M).value);
      }
    };
  }
  f.mustBePositive = C == Sign::Positive;
  f.write = [](const S& s, const Gpu& gpu) -> std::optional<std::string> {
    if constexpr (P::kOptional) {
      if (!(s.*M)) return std::nullopt;
      return paramText(*(s.*M), gpu);
    } else {
      return paramText(s.*M, gpu);
    }
  };
  return f;
}

/// One spelling of a choice and the value it stands for.
template <class E>
struct Spelling {
  const char* name;
  E value;
};

/// A string key that must be one of `Names` (a static array of Spelling), filling member M.
template <auto M, const auto& Names>
GpuField<typename MemberOf<decltype(M)>::Struct> choiceKey(const char* key) {
  using S = typename MemberOf<decltype(M)>::Struct;
  GpuField<S> f;
  f.key = key;
  f.read = [](TableReader& r, const char* k, S& s) {
    std::vector<std::string> names;
    for (const auto& n : Names) names.push_back(n.name);
    const std::string chosen = r.choice(k, names);
    for (const auto& n : Names) {
      if (chosen == n.name) s.*M = n.value;
    }
  };
  f.write = [](const S& s, const Gpu&) -> std::optional<std::string> {
    for (const auto& n : Names) {
      if (s.*M == n.value) return tomlQuoted(n.name);
    }
    return tomlQuoted(Names[0].name);
  };
  return f;
}

/// A plain string key filling member M.
template <auto M>
GpuField<typename MemberOf<decltype(M)>::Struct> stringKey(const char* key) {
  using S = typename MemberOf<decltype(M)>::Struct;
  GpuField<S> f;
  f.key = key;
  f.read = [](TableReader& r, const char* k, S& s) { s.*M = r.string(k); };
  f.write = [](const S& s, const Gpu&) -> std::optional<std::string> { return tomlQuoted(s.*M); };
  return f;
}

constexpr std::array<Spelling<RegisterGranularity>, 2> kGranularities{
    {{"warp", RegisterGranularity::Warp}, {"block", RegisterGranularity::Block}}};
constexpr std::array<Spelling<bool>, 2> kManaged{{{"software", true}, {"hardware", false}}};
constexpr std::array<Spelling<bool>, 2> kAccess{{{"read", false}, {"read-write", true}}};
constexpr std::array<Spelling<Scope>, 2> kScopes{{{"sm", Scope::Sm}, {"device", Scope::Device}}};
constexpr std::array<Spelling<Serialization>, 6> kSerializations{{{"line", Serialization::Line},
                                                                   {"sector", Serialization::Sector},
                                                                   {"address", Serialization::Address},
                                                                   {"bank", Serialization::Bank},
                                                                   {"segment-cc1.0", Serialization::SegmentCc10},
                                                                   {"segment-cc1.2", Serialization::SegmentCc12}}};
constexpr std::array<Spelling<RegisterBankFunction>, 2> kBankFunctions{
    {{"modulo", RegisterBankFunction::Modulo}, {"kepler", RegisterBankFunction::Kepler}}};
constexpr std::array<const char*, 11> kArchitectures{"tesla", "fermi",  "kepler", "maxwell", "pascal",   "volta",
                                                     "turing", "ampere", "ada",   "hopper",  "blackwell"};
constexpr std::array<const char*, 6> kResources{"shared", "l1", "l2", "dram", "constant", "texture"};

constexpr Sign kPositive = Sign::Positive;

}  // namespace

const std::vector<GpuField<Gpu>>& gpuSectionFields() {
  static const std::vector<GpuField<Gpu>> fields = [] {
    std::vector<GpuField<Gpu>> f{stringKey<&Gpu::name>("name"), stringKey<&Gpu::fullName>("full_name")};
    GpuField<Gpu> arch;
    arch.key = "architecture";
    arch.read = [](TableReader& r, const char* k, Gpu& g) {
      g.architecture = r.choice(k, std::vector<std::string>(kArchitectures.begin(), kArchitectures.end()));
    };
    arch.write = [](const Gpu& g, const Gpu&) -> std::optional<std::string> { return tomlQuoted(g.architecture); };
    f.push_back(arch);
    GpuField<Gpu> cc;
    cc.key = "compute_capability";
    cc.read = [](TableReader& r, const char* k, Gpu& g) {
      // "M.m": digits, one dot.
      const std::string text = r.string(k);
      if (r.failed()) return;
      const size_t dot = text.find('.');
      std::optional<long long> major, minor;
      if (dot != std::string::npos) {
        major = toInteger(std::string_view(text).substr(0, dot));
        minor = toInteger(std::string_view(text).substr(dot + 1));
      }
      const auto digits = [](std::string_view s) {
        return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
      };
      if (dot == std::string::npos || !digits(std::string_view(text).substr(0, dot)) ||
          !digits(std::string_view(text).substr(dot + 1)) || !major || !minor || *major > 99 || *minor > 99) {
        r.failAtKey(k, "'gpu.compute_capability' must look like \"9.0\", got \"" + text + "\"");
        return;
      }
      g.ccMajor = static_cast<int>(*major);
      g.ccMinor = static_cast<int>(*minor);
    };
    cc.write = [](const Gpu& g, const Gpu&) -> std::optional<std::string> { return tomlQuoted(g.computeCapability()); };
    f.push_back(cc);
    return f;
  }();
  return fields;
}

const std::vector<GpuField<Gpu>>& smFields() {
  static const std::vector<GpuField<Gpu>> fields{
      paramKey<&Gpu::smCount, Dim::Count, kPositive>("count"),
      paramKey<&Gpu::clockGhz, Dim::Frequency, kPositive>("clock"),
      paramKey<&Gpu::warpSize, Dim::Count, kPositive>("warp_size"),
      paramKey<&Gpu::schedulersPerSm, Dim::Count, kPositive>("schedulers"),
      paramKey<&Gpu::issueWidth, Dim::IssueRate, kPositive>("issue_width"),
      paramKey<&Gpu::launchOverheadUs, Dim::Duration>("launch_overhead"),
      paramKey<&Gpu::launchLatencyUs, Dim::Duration>("launch_latency"),
      paramKey<&Gpu::blockOverheadCycles, Dim::Cycles>("block_overhead"),
      paramKey<&Gpu::blockDispatchCycles, Dim::Cycles, kPositive>("block_dispatch"),
  };
  return fields;
}

const std::vector<GpuField<GpuLimits>>& limitFields() {
  using L = GpuLimits;
  static const std::vector<GpuField<L>> fields{
      paramKey<&L::threadsPerSm, Dim::Count, kPositive>("threads_per_sm"),
      paramKey<&L::warpsPerSm, Dim::Count, kPositive>("warps_per_sm"),
      paramKey<&L::blocksPerSm, Dim::Count, kPositive>("blocks_per_sm"),
      paramKey<&L::threadsPerBlock, Dim::Count, kPositive>("threads_per_block"),
      paramKey<&L::registersPerSm, Dim::Count, kPositive>("registers_per_sm"),
      paramKey<&L::registersPerThread, Dim::Count>("registers_per_thread"),
      paramKey<&L::registersPerBlock, Dim::Count>("registers_per_block"),
      paramKey<&L::registerAllocUnit, Dim::Count, kPositive>("register_alloc_unit"),
      choiceKey<&L::registerGranularity, kGranularities>("register_granularity"),
      paramKey<&L::warpAllocGranularity, Dim::Count, kPositive>("warp_alloc_granularity"),
      paramKey<&L::registerFilePartitions, Dim::Count, kPositive>("register_file_partitions"),
      paramKey<&L::sharedPerSm, Dim::Bytes>("shared_per_sm"),
      paramKey<&L::sharedPerBlock, Dim::Bytes>("shared_per_block"),
      paramKey<&L::sharedAllocUnit, Dim::Bytes, kPositive>("shared_alloc_unit"),
      paramKey<&L::sharedReservedPerBlock, Dim::Bytes>("shared_reserved_per_block"),
      paramKey<&L::sharedCarveouts, Dim::Bytes>("shared_carveouts"),
  };
  return fields;
}

const std::vector<GpuField<Pipeline>>& pipelineFields() {
  static const std::vector<GpuField<Pipeline>> fields{
      paramKey<&Pipeline::latency, Dim::Cycles>("latency"),
      paramKey<&Pipeline::gap, Dim::Cycles, kPositive>("gap"),
  };
  return fields;
}

const std::vector<GpuField<MemoryLevel>>& memoryLevelFields() {
  using M = MemoryLevel;
  static const std::vector<GpuField<M>> fields = [] {
    GpuField<M> resource;
    resource.key = "resource";
    resource.read = [](TableReader& r, const char* k, M& m) {
      m.resource = r.choice(k, std::vector<std::string>(kResources.begin(), kResources.end()));
    };
    resource.write = [](const M& m, const Gpu&) -> std::optional<std::string> { return tomlQuoted(m.resource); };
    GpuField<M> lower;
    lower.key = "lower";
    lower.read = [](TableReader& r, const char* k, M& m) { m.lower = r.stringArray(k); };
    lower.write = [](const M& m, const Gpu&) -> std::optional<std::string> {
      if (m.lower.empty()) return std::nullopt;
      std::string list;
      for (const std::string& s : m.lower) list += (list.empty() ? "" : ", ") + tomlQuoted(s);
      return "[" + list + "]";
    };
    return std::vector<GpuField<M>>{
        resource,
        choiceKey<&M::softwareManaged, kManaged>("managed"),
        choiceKey<&M::writable, kAccess>("access"),
        choiceKey<&M::scope, kScopes>("scope"),
        choiceKey<&M::serialization, kSerializations>("serialization"),
        paramKey<&M::size, Dim::Bytes, kPositive>("size"),
        paramKey<&M::line, Dim::Bytes, kPositive>("line"),
        paramKey<&M::sector, Dim::Bytes, kPositive>("sector"),
        paramKey<&M::fetchGranularity, Dim::Bytes>("fetch_granularity"),
        paramKey<&M::warmFull, Dim::Bytes, kPositive>("warm_full"),
        paramKey<&M::warmNone, Dim::Bytes, kPositive>("warm_none"),
        paramKey<&M::banks, Dim::Count, kPositive>("banks"),
        paramKey<&M::bankWidth, Dim::Bytes, kPositive>("bank_width"),
        paramKey<&M::tagLinesPerWavefront, Dim::Count, kPositive>("tag_lines_per_wavefront"),
        paramKey<&M::tagExtraWavefronts, Dim::Count>("tag_extra_wavefronts"),
        paramKey<&M::latency, Dim::Cycles>("latency"),
        paramKey<&M::bandwidth, Dim::Bandwidth>("bandwidth"),
        paramKey<&M::readBandwidth, Dim::Bandwidth>("read_bandwidth"),
        paramKey<&M::writeBandwidth, Dim::Bandwidth>("write_bandwidth"),
        paramKey<&M::mixedBandwidth, Dim::Bandwidth>("mixed_bandwidth"),
        paramKey<&M::partitions, Dim::Count, kPositive>("partitions"),
        paramKey<&M::farLatency, Dim::Cycles>("far_latency"),
        paramKey<&M::sameAddressAtomicUs, Dim::Duration, kPositive>("same_address_atomic"),
        paramKey<&M::sameAddressAtomicIntUs, Dim::Duration, kPositive>("same_address_atomic_int"),
        paramKey<&M::sectorRmwUs, Dim::Duration, kPositive>("sector_rmw"),
        paramKey<&M::atomicUnitOpUs, Dim::Duration, kPositive>("atomic_unit_op"),
        paramKey<&M::atomicInterleave, Dim::Bytes, kPositive>("atomic_interleave"),
        lower,
    };
  }();
  return fields;
}

const std::vector<GpuField<MwpCwpParams>>& mwpCwpFields() {
  using W = MwpCwpParams;
  static const std::vector<GpuField<W>> fields{
      paramKey<&W::memLatency, Dim::Cycles>("mem_latency"),
      paramKey<&W::departureDelayCoal, Dim::Cycles, kPositive>("departure_delay_coal"),
      paramKey<&W::departureDelayUncoal, Dim::Cycles, kPositive>("departure_delay_uncoal"),
      paramKey<&W::issueCycles, Dim::Cycles, kPositive>("issue_cycles"),
      paramKey<&W::memBandwidth, Dim::Bandwidth, kPositive>("mem_bandwidth"),
      paramKey<&W::l2Latency, Dim::Cycles>("l2_latency"),
      paramKey<&W::l2DepartureDelay, Dim::Cycles>("l2_departure_delay"),
      paramKey<&W::dramDepartureDelay, Dim::Cycles>("dram_departure_delay"),
      paramKey<&W::instCycles, Dim::Cycles>("inst_cycles"),
  };
  return fields;
}

const std::vector<GpuField<SgemmMix>>& sgemmMixFields() {
  static const std::vector<GpuField<SgemmMix>> fields{
      paramKey<&SgemmMix::lds32, Dim::Count>("lds32"),
      paramKey<&SgemmMix::lds64, Dim::Count>("lds64"),
      paramKey<&SgemmMix::lds128, Dim::Count>("lds128"),
  };
  return fields;
}

const std::vector<GpuField<RegisterBanks>>& registerBankFields() {
  static const std::vector<GpuField<RegisterBanks>> fields{
      paramKey<&RegisterBanks::count, Dim::Count, kPositive>("count"),
      choiceKey<&RegisterBanks::function, kBankFunctions>("function"),
  };
  return fields;
}

const std::vector<GpuField<BarrierUnit>>& barrierFields() {
  static const std::vector<GpuField<BarrierUnit>> fields{
      paramKey<&BarrierUnit::arrival, Dim::Cycles, kPositive>("arrival"),
      paramKey<&BarrierUnit::block, Dim::Cycles>("block"),
      paramKey<&BarrierUnit::latency, Dim::Cycles>("latency"),
  };
  return fields;
}

namespace {
template <class S>
void addKeys(std::vector<std::string>& out, const std::string& section, const std::vector<GpuField<S>>& fields) {
  for (const GpuField<S>& f : fields) out.push_back(section + "." + f.key);
}
}  // namespace

std::vector<std::string> gpuDescriptionKeys() {
  std::vector<std::string> out;
  addKeys(out, "gpu", gpuSectionFields());
  addKeys(out, "sm", smFields());
  addKeys(out, "limits", limitFields());
  addKeys(out, "pipelines.<class>", pipelineFields());
  addKeys(out, "memory.<name>", memoryLevelFields());
  addKeys(out, "mwp_cwp", mwpCwpFields());
  addKeys(out, "sgemm_mix", sgemmMixFields());
  addKeys(out, "register_banks", registerBankFields());
  addKeys(out, "barrier", barrierFields());
  return out;
}

template <class S>
void readGpuFields(TableReader& reader, const std::vector<GpuField<S>>& fields, S& section) {
  for (const GpuField<S>& f : fields) f.read(reader, f.key, section);
  reader.finish();
  for (const GpuField<S>& f : fields) {
    if (reader.failed()) return;
    if (!f.mustBePositive || !f.number) continue;
    const double v = f.number(section);
    if (!std::isnan(v) && !(v > 0)) reader.failAtKey(f.key, "'" + reader.path() + "." + f.key + "' must be positive");
  }
}

template <class S>
void writeGpuFields(std::string& out, const std::vector<GpuField<S>>& fields, const S& section, const Gpu& gpu) {
  for (const GpuField<S>& f : fields) {
    if (std::optional<std::string> value = f.write(section, gpu)) out += std::string(f.key) + " = " + *value + "\n";
  }
}

#define FORESIGHT_GPU_SECTION(S)                                                                    \
  template void readGpuFields<S>(TableReader&, const std::vector<GpuField<S>>&, S&);                \
  template void writeGpuFields<S>(std::string&, const std::vector<GpuField<S>>&, const S&, const Gpu&);
FORESIGHT_GPU_SECTION(Gpu)
FORESIGHT_GPU_SECTION(GpuLimits)
FORESIGHT_GPU_SECTION(Pipeline)
FORESIGHT_GPU_SECTION(MemoryLevel)
FORESIGHT_GPU_SECTION(MwpCwpParams)
FORESIGHT_GPU_SECTION(SgemmMix)
FORESIGHT_GPU_SECTION(RegisterBanks)
FORESIGHT_GPU_SECTION(BarrierUnit)
#undef FORESIGHT_GPU_SECTION

}  // namespace foresight
