// SPDX-License-Identifier: Apache-2.0
/// \file
/// Small string helpers shared by the parsers.
#pragma once

#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// `s` split at the commas outside (), [] and {}, each part trimmed; a last part that is empty
/// after trimming is dropped ("a, f(b, c), [d, e]" -> "a", "f(b, c)", "[d, e]"). The operand
/// lists of PTX and SASS instructions.
[[nodiscard]] std::vector<std::string> splitTopLevelCommas(std::string_view s);

/// A position in a text that keeps its line and column (1-based, for error messages) as it
/// advances: the lexers' cursor.
struct TextCursor {
  std::string_view text;
  size_t pos = 0;
  int line = 1;
  int column = 1;

  explicit TextCursor(std::string_view t) : text(t) {}
  /// Moves over `n` characters (fewer at the end), counting lines.
  void advance(size_t n = 1) {
    for (size_t k = 0; k < n && pos < text.size(); ++k, ++pos) {
      if (text[pos] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  }
  /// Moves to the end of the line (to its '\n', or to the end of the text).
  void skipLine() {
    while (pos < text.size() && text[pos] != '\n') advance(1);
  }
};

}  // namespace foresight
