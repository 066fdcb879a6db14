// SPDX-License-Identifier: Apache-2.0
/// \file
/// `View`: one part of a report, printable as text and as JSON from the same object (after
/// llvm-mca's View). Views live in the library so autotuners reach them without the CLI.
#pragma once

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace foresight {

/// A renderable part of a report.
class View {
 public:
  virtual ~View() = default;
  /// Short identifier ("prediction", "gpus").
  [[nodiscard]] virtual std::string name() const = 0;
  /// Human-readable text, ending with a newline.
  virtual void printText(std::ostream& os) const = 0;
  /// Machine-readable form; the keys are documented in docs/usage.md.
  [[nodiscard]] virtual nlohmann::json toJson() const = 0;
  /// One line per predicted launch for scripts and terminals (`--summary`): what ran where, the
  /// time, the bound (and for explain the top fix), each line ending with a newline; empty when
  /// the report has no such summary.
  [[nodiscard]] virtual std::string summary() const { return ""; }
};

}  // namespace foresight
