// SPDX-License-Identifier: Apache-2.0
/// \file
/// The text and JSON printers of a Report's parts.
#include "foresight/report/report.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <sstream>
#include <stdexcept>

namespace foresight {

namespace {

class FunctionPart : public ReportPart {
 public:
  FunctionPart(std::string name, std::function<void(std::ostream&)> text,
               std::function<nlohmann::json()> json)
      : name_(std::move(name)), text_(std::move(text)), json_(std::move(json)) {}
  [[nodiscard]] std::string name() const override { return name_; }
  void printText(std::ostream& os) const override {
    if (text_) text_(os);
  }
  [[nodiscard]] nlohmann::json toJson() const override {
    return json_ ? json_() : nlohmann::json::object();
  }

 private:
  std::string name_;
  std::function<void(std::ostream&)> text_;
  std::function<nlohmann::json()> json_;
};

}  // namespace

std::shared_ptr<const ReportPart> makeReportPart(std::string name,
                                                 std::function<void(std::ostream&)> text,
                                                 std::function<nlohmann::json()> json) {
  return std::make_shared<FunctionPart>(std::move(name), std::move(text), std::move(json));
}

void printReportText(const ReportParts& parts, std::ostream& os) {
  bool first = true;
  for (const auto& part : parts) {
    std::ostringstream text;
    part->printText(text);
    if (text.tellp() == 0) continue;
    if (!first) os << "\n";
    os << text.str();
    first = false;
  }
}

nlohmann::json reportJson(const ReportParts& parts) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& part : parts) {
    const nlohmann::json keys = part->toJson();
    if (keys.is_null()) continue;
    if (!keys.is_object())
      throw std::logic_error("report part '" + part->name() + "' gives JSON that is not an object");
    for (const auto& [key, value] : keys.items()) {
      if (out.contains(key)) {
        throw std::logic_error("report part '" + part->name() + "' gives the key '" + key +
                               "' a part before it gave");
      }
      out[key] = value;
    }
  }
  return out;
}

void Report::printText(std::ostream& os) const {
  printReportText(parts_, os);
}

nlohmann::json Report::toJson() const {
  return reportJson(parts_);
}

}  // namespace foresight
