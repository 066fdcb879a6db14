// SPDX-License-Identifier: Apache-2.0
/// \file
/// `SkeletonLexer`: splits skeleton text into tokens (names, integers, reals, strings,
/// punctuation, `#define`), skipping whitespace, newlines, `;` separators and `//` / `/* */`
/// comments. Every token keeps its line and column for error messages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "foresight/frontend/skeleton/skeleton.h"
#include "foresight/support/error.h"

namespace foresight::skeleton {

/// Token kinds.
enum class TokenKind { Name, Integer, Real, String, Define, Punct, End };

/// One token.
struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;  ///< as written (without quotes for strings)
  SourceLoc loc;
  /// "name 'foo'", "'{'", "end of file": how an error message names the token.
  [[nodiscard]] std::string describe() const;
};

/// Tokenizes a whole skeleton. Errors (an unterminated comment or string, a stray character)
/// carry file:line:column.
[[nodiscard]] Expected<std::vector<Token>> tokenizeSkeleton(std::string_view text,
                                                            const std::string& sourceName);

}  // namespace foresight::skeleton
