// SPDX-License-Identifier: Apache-2.0
/// \file
/// Small string helpers shared by the parsers.
#pragma once

#include <cctype>
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

}  // namespace foresight
