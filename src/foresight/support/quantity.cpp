// SPDX-License-Identifier: Apache-2.0
/// \file
/// Provenance spellings (quantity.h).
#include "foresight/support/quantity.h"

#include <algorithm>
#include <cctype>

namespace foresight {

namespace {

/// "YYYY-MM-DD" with a month 01-12 and a day that exists in that month.
bool isCalendarDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  const int year = std::stoi(std::string(s.substr(0, 4)));
  const int month = std::stoi(std::string(s.substr(5, 2)));
  const int day = std::stoi(std::string(s.substr(8, 2)));
  if (month < 1 || month > 12 || day < 1) return false;
  static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month == 2 && !leap) return day <= 28;
  return day <= kDays[month - 1];
}

}  // namespace

std::string Provenance::str() const {
  switch (kind) {
    case Kind::Datasheet: return "datasheet";
    case Kind::Paper: return "paper:" + detail;
    case Kind::Measured: return "measured:" + detail;
    case Kind::Published: return "published:" + detail;
    case Kind::Estimate: return detail.empty() ? "estimate" : "estimate:" + detail;
  }
  return "estimate";
}

Expected<Provenance> parseProvenance(std::string_view text) {
  Provenance p;
  const auto colon = text.find(':');
  const std::string_view head = text.substr(0, colon);
  const std::string_view tail = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  if (head == "datasheet" && colon == std::string_view::npos) {
    p.kind = Provenance::Kind::Datasheet;
  } else if (head == "paper" && tail.size() == 3 &&
             std::all_of(tail.begin(), tail.end(), [](char c) { return std::isdigit(c); })) {
    p.kind = Provenance::Kind::Paper;
  } else if (head == "measured" && isCalendarDate(tail)) {
    p.kind = Provenance::Kind::Measured;
  } else if (head == "published" && !tail.empty()) {
    p.kind = Provenance::Kind::Published;
  } else if (head == "estimate") {
    p.kind = Provenance::Kind::Estimate;
  } else {
    return makeError("provenance '" + std::string(text) +
                     "' is not one of 'datasheet', 'paper:<3-digit seed>', 'measured:<YYYY-MM-DD>', "
                     "'published:<source>', 'estimate[:<note>]'");
  }
  p.detail = std::string(tail);
  return p;
}

}  // namespace foresight
