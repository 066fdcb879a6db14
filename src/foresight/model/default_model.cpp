// SPDX-License-Identifier: Apache-2.0
/// \file
/// The default model per input kind. Changing the default is the one-line edit in
/// defaultModel() below (the lead chooses it from the public accuracy set, docs/accuracy.md).
#include "foresight/model/default_model.h"

#include <filesystem>
#include <optional>

namespace foresight {

const char* inputKindName(InputKind k) {
  switch (k) {
    case InputKind::Cuda: return "cuda";
    case InputKind::CLoop: return "cloop";
    case InputKind::Summary: return "summary";
    case InputKind::Skeleton: return "skeleton";
  }
  return "cuda";
}

InputKind inputKindOf(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".c") return InputKind::CLoop;
  if (ext == ".toml") return InputKind::Summary;
  if (ext == ".sk") return InputKind::Skeleton;
  return InputKind::Cuda;
}

namespace {

bool describesL2Bandwidth(const Gpu& gpu) {
  const MemoryLevel* l2 = gpu.memoryForResource("l2");
  return l2 && (l2->bandwidth || l2->readBandwidth || l2->mixedBandwidth);
}

}  // namespace

DefaultModel defaultModel(InputKind kind, const Gpu* gpu) {
  // CUDA: MWP-CWP `modern` (Hong & Kim's structure fed by the memory engine), the most accurate
  // model on the public accuracy set (docs/accuracy.md), where the GPU gives the L2 bandwidth
  // it charges L2 hits to; elsewhere GROPHECY's variant, which sends every access to DRAM (on
  // the K20c, without L2 data, modern takes hits as free: 31 % against 7 %). C loop nests:
  // CGPredict's variant, the model the C frontend reproduces. Summaries and skeletons:
  // GROPHECY's variant, whose frontend reproduces the paper's projections.
  switch (kind) {
    case InputKind::Cuda:
      if (gpu && !describesL2Bandwidth(*gpu)) break;
      return {ModelKind::MwpCwp, MwpCwpVariant::Modern, EmulateVariant::Modern};
    case InputKind::CLoop: return {ModelKind::MwpCwp, MwpCwpVariant::CGPredict, EmulateVariant::Modern};
    case InputKind::Summary:
    case InputKind::Skeleton: break;
  }
  return {ModelKind::MwpCwp, MwpCwpVariant::Grophecy, EmulateVariant::Modern};
}

std::string modelName(const ModelOptions& o) {
  if (o.model == ModelKind::Emulate) return std::string("emulate/") + emulateVariantName(o.emulate.variant);
  return std::string("mwp-cwp/") + mwpCwpVariantName(o.variant);
}

ModelOptions resolveDefaultModel(ModelOptions options, InputKind kind, const Gpu* gpu) {
  if (options.model != ModelKind::Auto) return options;
  const DefaultModel d = defaultModel(kind, gpu);
  options.model = d.model;
  options.variant = d.mwpCwpVariant;
  options.emulate.variant = d.emulateVariant;
  return options;
}

Expected<ModelOptions> resolveModelNames(const ModelNames& o, InputKind kind, const Gpu* gpu) {
  ModelOptions m;
  if (o.model == "auto") {
    m.model = ModelKind::Auto;
  } else if (o.model == "mwp-cwp") {
    m.model = ModelKind::MwpCwp;
  } else if (o.model == "emulate") {
    m.model = ModelKind::Emulate;
  } else {
    return makeError("unknown model '" + o.model + "' (available: auto, mwp-cwp, emulate)");
  }
  m.emulate.roundRobin = o.policy == "rr";
  if (o.l1HitRate >= 0) m.emulate.l1HitRate = o.l1HitRate;
  if (o.l2HitRate >= 0) m.emulate.l2HitRate = o.l2HitRate;
  m.quantizeWaves = o.quantizeWaves;
  if (const std::optional<SmemRule> rule = parseSmemRule(o.smemRule)) m.smemRule = *rule;
  // auto with auto: the default model for this kind of input (model/default_model.h).
  if (m.model == ModelKind::Auto && o.variant == "auto") m = resolveDefaultModel(m, kind, gpu);
  if (m.model == ModelKind::Auto) m.model = ModelKind::MwpCwp;  // an explicit variant picks its family
  if (m.model == ModelKind::Emulate) {
    if (o.variant != "auto") {
      const std::optional<EmulateVariant> ev = parseEmulateVariant(o.variant);
      if (!ev) {
        return makeError("variant '" + o.variant + "' belongs to the mwp-cwp model; the emulate variants are modern and saake");
      }
      m.emulate.variant = *ev;
    }
    return m;
  }
  // The emulate-only options would otherwise be ignored without a word.
  if (o.l1HitRate >= 0 || o.l2HitRate >= 0 || o.policy != "gto") {
    const char* option = o.l1HitRate >= 0 ? "--l1-hit-rate" : o.l2HitRate >= 0 ? "--l2-hit-rate" : "--policy";
    return makeError(std::string(option) + " applies to the emulate model only; add --model emulate");
  }
  if (o.variant != "auto") {
    const std::optional<MwpCwpVariant> variant = parseMwpCwpVariant(o.variant);
    if (!variant) {
      if (parseEmulateVariant(o.variant)) {
        return makeError("variant '" + o.variant + "' belongs to the emulate model; add --model emulate");
      }
      return makeError("unknown variant '" + o.variant + "' (available: auto, hong-kim, grophecy, cgpredict, modern)");
    }
    m.variant = *variant;
  } else if (o.model == "mwp-cwp") {
    m.variant = defaultModel(kind, gpu).mwpCwpVariant;  // --model mwp-cwp alone
  }
  return m;
}

}  // namespace foresight
