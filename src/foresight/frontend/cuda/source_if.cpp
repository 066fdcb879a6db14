// SPDX-License-Identifier: Apache-2.0
/// \file
/// Reads the `if` statement on a source line (source_if.h).
#include "foresight/frontend/cuda/source_if.h"

#include <cctype>
#include <string>

namespace foresight::cuda {

namespace {

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Skips whitespace and comments from `i`; the first other character's index (or size).
size_t skipSpace(std::string_view s, size_t i) {
  while (i < s.size()) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    } else if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else {
      break;
    }
  }
  return i;
}

/// The index after the bracket that closes the one at `open` ('(' or '{'); npos when unclosed.
size_t closing(std::string_view s, size_t open) {
  const char o = s[open], c = o == '(' ? ')' : '}';
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    const size_t j = skipSpace(s, i);
    if (j != i) {
      i = j - 1;
      continue;
    }
    if (s[i] == '"' || s[i] == '\'') {  // a literal: to its closing quote
      const char q = s[i];
      for (++i; i < s.size() && s[i] != q; ++i) {
        if (s[i] == '\\') ++i;
      }
      continue;
    }
    if (s[i] == o) ++depth;
    if (s[i] == c && --depth == 0) return i + 1;
  }
  return std::string_view::npos;
}

/// The jump statement at `i` (`return;`, `break;`, `continue;`, `goto L;`) and the index after
/// its `;`, or kStatement when the statement there is not one.
IfBody jumpAt(std::string_view s, size_t i, size_t& end) {
  size_t j = i;
  while (j < s.size() && identifierChar(s[j])) ++j;
  const std::string_view word = s.substr(i, j - i);
  IfBody kind = IfBody::kStatement;
  if (word == "return") kind = IfBody::kReturn;
  if (word == "break") kind = IfBody::kBreak;
  if (word == "continue") kind = IfBody::kContinue;
  if (word == "goto") kind = IfBody::kContinue;  // a jump elsewhere: the taken side, as continue
  if (kind == IfBody::kStatement) return kind;
  j = skipSpace(s, j);
  if (word == "goto") {
    while (j < s.size() && identifierChar(s[j])) ++j;
    j = skipSpace(s, j);
  }
  if (j >= s.size() || s[j] != ';') return IfBody::kStatement;  // `return x;` is not a kernel's jump
  end = j + 1;
  return kind;
}

}  // namespace

IfBody ifBodyAt(std::string_view source, int line) {
  if (line <= 0) return IfBody::kNone;
  size_t begin = 0;
  for (int l = 1; l < line; ++l) {
    begin = source.find('\n', begin);
    if (begin == std::string_view::npos) return IfBody::kNone;
    ++begin;
  }
  const size_t lineEnd = std::min(source.find('\n', begin), source.size());
  // The first `if (` that starts on the line, outside comments.
  size_t at = std::string_view::npos;
  for (size_t i = begin; i + 1 < lineEnd; ++i) {
    if (source.compare(i, 2, "//") == 0) break;
    if (source.compare(i, 2, "if") != 0 || (i > begin && identifierChar(source[i - 1])) ||
        (i + 2 < source.size() && identifierChar(source[i + 2]))) {
      continue;
    }
    const size_t paren = skipSpace(source, i + 2);
    if (paren < source.size() && source[paren] == '(') {
      at = paren;
      break;
    }
  }
  if (at == std::string_view::npos) return IfBody::kNone;
  const size_t afterCondition = closing(source, at);
  if (afterCondition == std::string_view::npos) return IfBody::kNone;
  size_t body = skipSpace(source, afterCondition);
  if (body >= source.size()) return IfBody::kNone;
  size_t end = 0;
  if (source[body] != '{') return jumpAt(source, body, end);
  const size_t close = closing(source, body);
  const size_t first = skipSpace(source, body + 1);
  const IfBody kind = jumpAt(source, first, end);
  // A jump alone in its braces.
  if (kind != IfBody::kStatement && close != std::string_view::npos && skipSpace(source, end) + 1 == close) return kind;
  return IfBody::kStatement;
}

}  // namespace foresight::cuda
