// SPDX-License-Identifier: Apache-2.0
/// \file
/// The default model per input kind. Changing the default is the one-line edit in
/// defaultModel() below (the lead chooses it from the public accuracy set, docs/accuracy.md).
#include "foresight/model/default_model.h"

#include <optional>
#include <string_view>
#include <vector>

#include "foresight/model/registry.h"

namespace foresight {

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
  ModelOptions named = o;
  if (named.model == ModelKind::Auto) named.model = ModelKind::MwpCwp;  // unresolved: its MWP-CWP variant
  const RegisteredModel* m = registeredModelOf(named);
  return m ? m->name() : "unknown";
}

ModelOptions resolveDefaultModel(ModelOptions options, InputKind kind, const Gpu* gpu) {
  if (options.model != ModelKind::Auto) return options;
  const DefaultModel d = defaultModel(kind, gpu);
  options.model = d.model;
  options.variant = d.mwpCwpVariant;
  options.emulate.variant = d.emulateVariant;
  return options;
}

namespace {

/// "a, b, c" of a list of names.
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

Expected<ModelOptions> resolveModelNames(const ModelNames& o, InputKind kind, const Gpu* gpu) {
  ModelOptions m;
  if (o.model == "auto") {
    m.model = ModelKind::Auto;
  } else if (const ModelFamily* family = findModelFamily(o.model)) {
    m.model = family->kind;
  } else {
    std::vector<std::string> names{"auto"};
    for (const ModelFamily& f : modelFamilies()) names.push_back(f.name);
    return makeError("unknown model '" + o.model + "' (available: " + listed(names) + ")");
  }
  m.emulate.roundRobin = o.policy == "rr";
  if (o.l1HitRate >= 0) m.emulate.l1HitRate = o.l1HitRate;
  if (o.l2HitRate >= 0) m.emulate.l2HitRate = o.l2HitRate;
  m.quantizeWaves = o.quantizeWaves;
  if (const std::optional<SmemRule> rule = parseSmemRule(o.smemRule)) m.smemRule = *rule;
  // auto with auto: the default model for this kind of input (model/default_model.h).
  if (m.model == ModelKind::Auto && o.variant == "auto") m = resolveDefaultModel(m, kind, gpu);
  if (m.model == ModelKind::Auto) m.model = ModelKind::MwpCwp;  // an explicit variant picks its family
  const char* family = findModelFamily(m.model)->name;
  // The registered model the variant names in this family (keeping the other options).
  const auto select = [&](const RegisteredModel& r) {
    if (m.model == ModelKind::Emulate) {
      m.emulate.variant = r.options.emulate.variant;
    } else {
      m.variant = r.options.variant;
    }
  };
  const auto otherFamily = [&]() -> const char* {
    for (const RegisteredModel& r : registeredModels()) {
      if (o.variant == r.variant && std::string_view(family) != r.family) return r.family;
    }
    return nullptr;
  };
  if (m.model == ModelKind::Emulate) {
    if (o.variant != "auto") {
      const RegisteredModel* r = findModel(family, o.variant);
      if (!r) {
        std::vector<std::string> variants = variantNames(family);
        const std::string last = variants.back();
        variants.pop_back();
        return makeError("variant '" + o.variant + "' belongs to the " + (otherFamily() ? otherFamily() : "mwp-cwp") +
                         " model; the " + family + " variants are " + listed(variants) + " and " + last);
      }
      select(*r);
    }
    return m;
  }
  // The emulate-only options would otherwise be ignored without a word.
  if (o.l1HitRate >= 0 || o.l2HitRate >= 0 || o.policy != "gto") {
    const char* option = o.l1HitRate >= 0 ? "--l1-hit-rate" : o.l2HitRate >= 0 ? "--l2-hit-rate" : "--policy";
    return makeError(std::string(option) + " applies to the emulate model only; add --model emulate");
  }
  if (o.variant != "auto") {
    const RegisteredModel* r = findModel(family, o.variant);
    if (!r) {
      if (const char* other = otherFamily()) {
        return makeError("variant '" + o.variant + "' belongs to the " + other + " model; add --model " + other);
      }
      std::vector<std::string> variants{"auto"};
      for (const std::string& v : variantNames(family)) variants.push_back(v);
      return makeError("unknown variant '" + o.variant + "' (available: " + listed(variants) + ")");
    }
    select(*r);
  } else if (o.model == "mwp-cwp") {
    m.variant = defaultModel(kind, gpu).mwpCwpVariant;  // --model mwp-cwp alone
  }
  return m;
}

}  // namespace foresight
