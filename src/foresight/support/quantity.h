// SPDX-License-Identifier: Apache-2.0
/// \file
/// `Param<T>`: a number together with where it came from. Every number of a GPU description
/// (`Gpu`) is a Param, so reports can say which values are datasheet facts and which are guesses.
#pragma once

#include <string>
#include <string_view>

#include "foresight/support/error.h"

namespace foresight {

/// Where a GPU parameter comes from. Written in TOML as "datasheet", "paper:<seed>",
/// "measured:<YYYY-MM-DD>", "published:<source and file>" (a public measurement: a paper's table,
/// an artifact repository's result file) or "estimate" (optionally "estimate:<note>").
struct Provenance {
  enum class Kind { Datasheet, Paper, Measured, Published, Estimate };
  Kind kind = Kind::Estimate;
  std::string detail;  ///< seed id for Paper, date for Measured, source for Published, note for Estimate.

  /// The TOML spelling, e.g. "paper:000".
  [[nodiscard]] std::string str() const;
  bool operator==(const Provenance&) const = default;
};

/// A value with its provenance. Values are stored in the canonical unit of their key
/// (documented in docs/gpu-format.md); `unit` keeps the unit the file used, for printing back.
template <class T>
struct Param {
  T value{};
  Provenance source;
  std::string unit;  ///< Unit as written in the file ("" for dimensionless counts).
};

/// Parses "datasheet", "paper:<seed>", "measured:<YYYY-MM-DD>", "published:<source>",
/// "estimate[:<note>]".
[[nodiscard]] Expected<Provenance> parseProvenance(std::string_view text);

}  // namespace foresight
