// SPDX-License-Identifier: Apache-2.0
/// \file
/// The default model: the one place that says which model and variant `--model auto` means for
/// each kind of input. `predict`, `explain`, `explore` (skeleton layout search) and `validate`
/// all resolve `auto` here, so they cannot disagree (docs/models.md#default-model).
#pragma once

#include <string>

#include "foresight/frontend/input.h"  // InputKind, inputKindOf
#include "foresight/gpu/gpu.h"
#include "foresight/model/model_options.h"
#include "foresight/support/error.h"

namespace foresight {

/// The model (and its variant) `auto` means for inputs of this kind.
struct DefaultModel {
  ModelKind model = ModelKind::MwpCwp;
  MwpCwpVariant mwpCwpVariant = MwpCwpVariant::Grophecy;
  EmulateVariant emulateVariant = EmulateVariant::Modern;
};
/// With a GPU, CUDA's default needs the GPU to describe its L2's bandwidth (`modern` charges
/// L2 hits to it): on a GPU without it (the older presets) the default is GROPHECY's variant.
[[nodiscard]] DefaultModel defaultModel(InputKind kind, const Gpu* gpu = nullptr);

/// "mwp-cwp/grophecy", "emulate/modern": the report name of a resolved model.
[[nodiscard]] std::string modelName(const ModelOptions& options);

/// `options` with ModelKind::Auto replaced by the default for `kind` (model and variant); other
/// options (emulate settings, waves, shared-memory rule) are kept. Unchanged when the model is
/// not Auto.
[[nodiscard]] ModelOptions resolveDefaultModel(ModelOptions options, InputKind kind, const Gpu* gpu = nullptr);

/// A model as named on a command line or by a script (`--model`, `--variant`, the emulate
/// options): the names, before they are checked.
struct ModelNames {
  std::string model = "auto";    ///< auto | mwp-cwp | emulate
  std::string variant = "auto";  ///< auto | hong-kim | grophecy | cgpredict | modern | saake
  std::string policy = "gto";    ///< emulate: gto | rr
  double l1HitRate = -1;         ///< emulate: measured L1 hit rate overriding the prediction; < 0 = predict
  double l2HitRate = -1;
  bool quantizeWaves = false;
  std::string smemRule = "paper_fitted";  ///< cgpredict shared-memory rule
};

/// The ModelOptions the names mean for an input of `kind` (`auto` resolved here, with the GPU
/// when known). An unknown model or variant, a variant of the other model, or an emulate-only
/// option with an MWP-CWP model is an Error that says what to write instead.
[[nodiscard]] Expected<ModelOptions> resolveModelNames(const ModelNames& names, InputKind kind, const Gpu* gpu = nullptr);

}  // namespace foresight
