// SPDX-License-Identifier: Apache-2.0
/// \file
/// `ModelOptions`: the one options struct of the predict entry point.
#pragma once

#include <optional>
#include <string>

#include "foresight/model/emulate/emulate_options.h"

namespace foresight {

/// Which model predicts.
enum class ModelKind { Auto, MwpCwp, Emulate };

/// Variants of the MWP-CWP model (docs/models.md).
enum class MwpCwpVariant {
  HongKim,    ///< Hong & Kim ISCA'09 equations and bound (MWP vs CWP)
  Grophecy,   ///< Hong & Kim time; GROPHECY's label (min of MWP, CWP-1, N-1); seed 000
  CGPredict,  ///< CGPredict's per-class L2/DRAM latencies and its time equations; seed 001
};

/// "hong-kim", "grophecy", "cgpredict".
[[nodiscard]] const char* mwpCwpVariantName(MwpCwpVariant v);
[[nodiscard]] std::optional<MwpCwpVariant> parseMwpCwpVariant(const std::string& name);

/// Options of predict().
struct ModelOptions {
  ModelKind model = ModelKind::Auto;
  MwpCwpVariant variant = MwpCwpVariant::Grophecy;
  /// Round waves up (ceil(Rep)) instead of Hong & Kim's fractional repetitions.
  bool quantizeWaves = false;
  /// Options of the emulate model (ModelKind::Emulate).
  EmulateOptions emulate;
};

}  // namespace foresight
