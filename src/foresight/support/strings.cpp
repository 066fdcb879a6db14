// SPDX-License-Identifier: Apache-2.0
/// \file
/// Checked number parsing for the parsers (strings.h).
#include "foresight/support/strings.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace foresight {
namespace {

/// `s` with a C prefix stripped, and the base it selects (base 0 only).
std::string_view withBase(std::string_view s, int& base) {
  if (base != 0) return s;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    return s.substr(2);
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    return s.substr(2);
  }
  if (s.size() > 1 && s[0] == '0') {
    base = 8;
    return s.substr(1);
  }
  base = 10;
  return s;
}

}  // namespace

std::optional<unsigned long long> toUnsigned(std::string_view s, int base) {
  s = withBase(s, base);
  if (s.empty() || base < 2 || base > 36) return std::nullopt;
  unsigned long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<long long> toInteger(std::string_view s, int base) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  const std::optional<unsigned long long> m = toUnsigned(s, base);
  if (!m) return std::nullopt;
  constexpr unsigned long long kMaxPositive = 9223372036854775807ULL;
  if (negative) {
    if (*m > kMaxPositive + 1) return std::nullopt;
    return *m == kMaxPositive + 1 ? static_cast<long long>(-9223372036854775807LL - 1) : -static_cast<long long>(*m);
  }
  if (*m > kMaxPositive) return std::nullopt;
  return static_cast<long long>(*m);
}

std::optional<double> toReal(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::vector<std::string> splitTopLevelCommas(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

}  // namespace foresight
