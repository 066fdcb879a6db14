// SPDX-License-Identifier: Apache-2.0
/// \file
/// Rendering of ModelListView.
#include "foresight/report/model_views.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>

#include "foresight/model/default_model.h"
#include "foresight/model/registry.h"

namespace foresight {

namespace {

/// The input kinds whose `--model auto` is `m` on `gpu`.
std::vector<std::string> defaultFor(const RegisteredModel& m, const Gpu* gpu) {
  std::vector<std::string> out;
  for (InputKind k : {InputKind::Cuda, InputKind::CLoop, InputKind::Summary, InputKind::Skeleton}) {
    const ModelOptions resolved = resolveDefaultModel(ModelOptions{}, k, gpu);
    if (modelName(resolved) == m.name()) out.push_back(inputKindName(k));
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out.empty() ? "-" : out;
}

}  // namespace

void ModelListView::printText(std::ostream& os) const {
  os << fmt::format("{:<18} {:<24} {:<30} {}\n", "model", "default for", "origin", "summary");
  for (const RegisteredModel& m : registeredModels()) {
    os << fmt::format("{:<18} {:<24} {:<30} {}\n", m.name(), joined(defaultFor(m, gpu_)), m.origin, m.summary);
  }
  os << (gpu_ ? fmt::format("\ndefaults on {}; ", gpu_->name) : std::string("\n"))
     << "`--model FAMILY --variant VARIANT` selects one (docs/models.md)\n";
}

nlohmann::json ModelListView::toJson() const {
  nlohmann::json list = nlohmann::json::array();
  for (const RegisteredModel& m : registeredModels()) {
    list.push_back({{"name", m.name()},
                    {"family", m.family},
                    {"variant", m.variant},
                    {"origin", m.origin},
                    {"summary", m.summary},
                    {"default_for", defaultFor(m, gpu_)}});
  }
  nlohmann::json out{{"models", list}};
  if (gpu_) out["gpu"] = gpu_->name;
  return out;
}

}  // namespace foresight
