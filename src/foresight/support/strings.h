// SPDX-License-Identifier: Apache-2.0
/// \file
/// Small string helpers shared by the parsers.
#pragma once

#include <cctype>
#include <optional>
#include <string>
#include <string_view>

namespace foresight {

/// `s` without leading and trailing white space (spaces, tabs, CR, LF, …).
[[nodiscard]] inline std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

/// The whole of `s` as an integer, or nullopt when `s` is empty, has anything else in it, or does
/// not fit. An optional sign; `base` 2…36, or 0 for C's rules (0x… hexadecimal, 0b… binary,
/// 0… octal, else decimal). Never throws, unlike std::stoll.
[[nodiscard]] std::optional<long long> toInteger(std::string_view s, int base = 10);
/// The same for an unsigned value (no sign; up to 2^64 − 1).
[[nodiscard]] std::optional<unsigned long long> toUnsigned(std::string_view s, int base = 10);
/// The whole of `s` as a finite real ("1.5", "-2e3", "7"), or nullopt (also for inf and nan).
[[nodiscard]] std::optional<double> toReal(std::string_view s);

}  // namespace foresight
