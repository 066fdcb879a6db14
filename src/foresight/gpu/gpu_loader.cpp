// SPDX-License-Identifier: Apache-2.0
/// \file
/// TOML → Gpu, section by section: each section's keys through its table (gpu_fields.h) and the
/// strict `TableReader` (support/toml_reader.h), followed by the checks between keys (miss paths
/// name existing levels, bank memories give banks, carveouts end at shared_per_sm).
#include "foresight/gpu/gpu_loader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "foresight/gpu/gpu_fields.h"
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
  readGpuFields(r, limitFields(), l);
  if (r.failed()) return;
  if (l.sharedCarveouts) {
    const std::vector<long long>& c = l.sharedCarveouts->value;
    if (!std::is_sorted(c.begin(), c.end()) || std::adjacent_find(c.begin(), c.end()) != c.end() ||
        c.back() != l.sharedPerSm.value) {
      return r.failAtKey("shared_carveouts", "'limits.shared_carveouts' must ascend and end at shared_per_sm (" +
                                                 std::to_string(l.sharedPerSm.value) + " B)");
    }
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
    readGpuFields(r, gpuSectionFields(), gpu);
  }

  if (const toml::table* t = top.table("sm")) {
    TableReader r(*t, "sm", sourceName, &error);
    readGpuFields(r, smFields(), gpu);
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
      readGpuFields(p, pipelineFields(), pipe);
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
      readGpuFields(m, memoryLevelFields(), level);
      if (m.failed()) break;
      if (level.serialization == Serialization::Bank && (!level.banks || !level.bankWidth)) {
        m.failHere("'memory." + name + "' has serialization \"bank\" and needs 'banks' and 'bank_width'");
      } else if (level.tagLinesPerWavefront && (!level.banks || !level.bankWidth || !level.line)) {
        m.failAtKey("tag_lines_per_wavefront", "'memory." + name +
                                                   ".tag_lines_per_wavefront' needs 'line', 'banks' and 'bank_width' (the "
                                                   "tag stage counts lines, the data stage bank wavefronts)");
      } else if (level.tagExtraWavefronts && !level.tagLinesPerWavefront) {
        m.failAtKey("tag_extra_wavefronts", "'memory." + name + ".tag_extra_wavefronts' needs 'tag_lines_per_wavefront'");
      } else if (level.serialization == Serialization::Line && !level.line) {
        m.failHere("'memory." + name + "' has serialization \"line\" and needs 'line'");
      } else if (level.serialization == Serialization::Sector && !level.sector) {
        m.failHere("'memory." + name + "' has serialization \"sector\" and needs 'sector'");
      } else if (level.warmFull.has_value() != level.warmNone.has_value() ||
                 (level.warmFull && level.warmFull->value >= level.warmNone->value)) {
        m.failAtKey(level.warmFull ? "warm_full" : "warm_none",
                    "'memory." + name + ".warm_full' and 'warm_none' come together, warm_full below warm_none");
      } else if (level.fetchGranularity &&
                 (!level.sector || level.fetchGranularity->value <= 0 ||
                  level.fetchGranularity->value % level.sector->value != 0 ||
                  (level.line && level.fetchGranularity->value > level.line->value))) {
        m.failAtKey("fetch_granularity", "'memory." + name +
                                             ".fetch_granularity' must be a positive multiple of 'sector', at most 'line'");
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
    readGpuFields(r, mwpCwpFields(), gpu.mwpCwp);
  }
  if (const toml::table* t = top.optionalTable("sgemm_mix")) {
    TableReader r(*t, "sgemm_mix", sourceName, &error);
    SgemmMix mix;
    readGpuFields(r, sgemmMixFields(), mix);
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
    readGpuFields(r, registerBankFields(), banks);
    if (!r.failed() && banks.function == RegisterBankFunction::Kepler && banks.count.value != 4) {
      r.failAtKey("count", "the \"kepler\" bank function has 4 banks");
    }
    gpu.registerBanks = banks;
  }
  if (const toml::table* t = top.optionalTable("barrier")) {
    TableReader r(*t, "barrier", sourceName, &error);
    BarrierUnit b;
    readGpuFields(r, barrierFields(), b);
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
