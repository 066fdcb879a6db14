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
  Modern,     ///< Hong & Kim's structure fed by the memory engine: per-level latencies, achievable
              ///< bandwidth per direction, MWP by Little's law (not a paper variant)
};

/// "hong-kim", "grophecy", "cgpredict", "modern".
[[nodiscard]] const char* mwpCwpVariantName(MwpCwpVariant v);
[[nodiscard]] std::optional<MwpCwpVariant> parseMwpCwpVariant(const std::string& name);

/// How CGPredict's variant charges shared memory (cgpredict.md §4.6, §8.4).
enum class SmemRule {
  PaperFitted,   ///< per batch, (mem_cycles + comp_cycles): reproduces the paper's Table 5
  PaperLiteral,  ///< Eqs. 19-22 fed into Eqs. 16-17, plus the Eq. 23 barrier cost
};
/// "paper_fitted", "paper_literal".
[[nodiscard]] const char* smemRuleName(SmemRule r);
[[nodiscard]] std::optional<SmemRule> parseSmemRule(const std::string& name);

/// Options of predict().
struct ModelOptions {
  ModelKind model = ModelKind::Auto;
  MwpCwpVariant variant = MwpCwpVariant::Grophecy;
  /// Round waves up (ceil(Rep)) instead of Hong & Kim's fractional repetitions.
  bool quantizeWaves = false;
  /// Options of the emulate model (ModelKind::Emulate).
  EmulateOptions emulate;
  /// Shared-memory rule of the cgpredict variant (kernels with smem terms only).
  SmemRule smemRule = SmemRule::PaperFitted;
};

}  // namespace foresight
