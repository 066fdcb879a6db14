// SPDX-License-Identifier: Apache-2.0
/// \file
/// `Report`: a view assembled from parts. A part is one section of a report (the context
/// header, the summary, the model values, the sensitivity table, the what-if switches, …) built
/// from result types; it prints its own text lines and gives its own JSON keys. The printers
/// assemble the parts: printReportText() separates the parts that show something by a blank
/// line, reportJson() merges the parts' keys into one object. A new printer (HTML, issue 17)
/// walks the same parts by name and data; a new section is a new part, not a new view.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "foresight/report/view.h"

namespace foresight {

/// One section of a report.
class ReportPart {
 public:
  virtual ~ReportPart() = default;
  /// What the section shows ("context", "summary", "sensitivity"): its id for printers.
  [[nodiscard]] virtual std::string name() const = 0;
  /// The section's lines, each ending with a newline; nothing when it has nothing to show.
  virtual void printText(std::ostream& os) const = 0;
  /// The section's keys in the report's JSON object (an object; keys unique across the parts).
  [[nodiscard]] virtual nlohmann::json toJson() const = 0;
};

using ReportParts = std::vector<std::shared_ptr<const ReportPart>>;

/// A part from two functions (they keep the data they show alive by what they capture).
[[nodiscard]] std::shared_ptr<const ReportPart> makeReportPart(
    std::string name, std::function<void(std::ostream&)> text,
    std::function<nlohmann::json()> json);

/// The text printer: each part that prints something, separated from the one before by a blank
/// line.
void printReportText(const ReportParts& parts, std::ostream& os);

/// The JSON printer: one object with every part's keys. A key given by two parts is a defect of
/// the report's assembly (std::logic_error).
[[nodiscard]] nlohmann::json reportJson(const ReportParts& parts);

/// A view that is a list of parts, printed by the printers above.
class Report : public View {
 public:
  Report(std::string name, ReportParts parts) : name_(std::move(name)), parts_(std::move(parts)) {}
  [[nodiscard]] std::string name() const override { return name_; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] nlohmann::json toJson() const override;
  [[nodiscard]] const ReportParts& parts() const { return parts_; }

 protected:
  std::string name_;
  ReportParts parts_;
};

}  // namespace foresight
