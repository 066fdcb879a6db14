// SPDX-License-Identifier: Apache-2.0
/// \file
/// The models Foresight has, listed once. A family (MWP-CWP, emulate) is one prediction function;
/// a registered model is a family and a variant, with the paper it implements as published or
/// "ours" for an improvement. predict() dispatches through the families; `--model`/`--variant`
/// are parsed, `validate` scores, `foresight models` lists, and reports name models through the
/// registered ones. A new model is its implementation file, a row here (registry.cpp) and its
/// value in model_options.h's enums (docs/architecture.md, "Where a change goes").
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/ir/kernel_input.h"
#include "foresight/ir/launch.h"
#include "foresight/memory/memory_traffic.h"
#include "foresight/model/model_options.h"
#include "foresight/model/prediction.h"
#include "foresight/support/error.h"

namespace foresight {

/// The memory engine's analysis of the launch being predicted, computed on first use and shared
/// by the model and the physical floors (predict.cpp).
using MemoryAnalysis = std::function<Expected<std::shared_ptr<const MemoryTraffic>>()>;

/// A model family: how it predicts one launch, before predict() raises the result to the floors.
struct ModelFamily {
  ModelKind kind = ModelKind::MwpCwp;
  const char* name = "";  ///< "mwp-cwp", "emulate"
  Expected<Prediction> (*predict)(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                  const ModelOptions& options, const MemoryAnalysis& memory) = nullptr;
  /// A launch known by its workload summary and per-thread resources alone, as searches over
  /// thousands of candidates (a skeleton's layouts) describe them; nullptr when the family needs
  /// the instructions (emulate). No memory analysis, no floors: a ranking, not a report.
  Expected<Prediction> (*predictSummary)(const WorkloadSummary& workload, const ThreadResources& resources,
                                         const Launch& launch, const Gpu& gpu, const ModelOptions& options) = nullptr;
};

/// One model a user selects: `--model FAMILY --variant VARIANT`, reported as FAMILY/VARIANT.
struct RegisteredModel {
  const char* family = "";
  const char* variant = "";
  const char* origin = "";   ///< the published model it implements as published, or "ours"
  const char* summary = "";  ///< what it does, in one line (docs/models.md has the equations)
  ModelOptions options;      ///< `model` and the family's variant set; everything else default

  [[nodiscard]] std::string name() const { return std::string(family) + "/" + variant; }
};

/// Every family.
[[nodiscard]] std::span<const ModelFamily> modelFamilies();
/// Every model, in report order (validate's columns): the MWP-CWP variants, then emulate's.
[[nodiscard]] std::span<const RegisteredModel> registeredModels();

/// predictSummary of the options' family (model not Auto); an Error naming the family when it
/// has none.
[[nodiscard]] Expected<Prediction> predictFromSummary(const WorkloadSummary& workload, const ThreadResources& resources,
                                                      const Launch& launch, const Gpu& gpu, const ModelOptions& options);

/// The family of a kind (not Auto), or nullptr.
[[nodiscard]] const ModelFamily* findModelFamily(ModelKind kind);
/// The family named `name`, or nullptr.
[[nodiscard]] const ModelFamily* findModelFamily(std::string_view name);
/// The model `family`/`variant`, or nullptr.
[[nodiscard]] const RegisteredModel* findModel(std::string_view family, std::string_view variant);
/// The registered model that resolved options select (model not Auto), or nullptr.
[[nodiscard]] const RegisteredModel* registeredModelOf(const ModelOptions& options);
/// The family of the variant `variant` when exactly one family has a variant by that name
/// ("saake" → "emulate"), or nullptr.
[[nodiscard]] const char* familyOfVariant(std::string_view variant);
/// The variants of a family, in registry order ("hong-kim, grophecy, cgpredict, modern").
[[nodiscard]] std::vector<std::string> variantNames(std::string_view family);

}  // namespace foresight
