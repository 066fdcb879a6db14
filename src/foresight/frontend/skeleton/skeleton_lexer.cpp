// SPDX-License-Identifier: Apache-2.0
/// \file
/// The skeleton tokenizer.
#include "foresight/frontend/skeleton/skeleton_lexer.h"

#include <cctype>

#include "foresight/support/strings.h"

namespace foresight::skeleton {

std::string Token::describe() const {
  switch (kind) {
    case TokenKind::Name: return "name '" + text + "'";
    case TokenKind::Integer:
    case TokenKind::Real: return "number " + text;
    case TokenKind::String: return "string \"" + text + "\"";
    case TokenKind::Define: return "'#define'";
    case TokenKind::Punct: return "'" + text + "'";
    case TokenKind::End: return "end of file";
  }
  return text;
}

Expected<std::vector<Token>> tokenizeSkeleton(std::string_view text,
                                              const std::string& sourceName) {
  std::vector<Token> tokens;
  TextCursor at(text);
  auto advance = [&](size_t n) { at.advance(n); };
  while (at.pos < text.size()) {
    const size_t i = at.pos;
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == ';') {
      advance(1);
      continue;
    }
    if (text.substr(i, 2) == "//") {
      at.skipLine();
      continue;
    }
    if (text.substr(i, 2) == "/*") {
      const SourceLoc start{at.line, at.column};
      const size_t close = text.find("*/", i + 2);
      if (close == std::string_view::npos) {
        return makeError("unterminated comment", sourceName, start.line, start.column);
      }
      advance(close + 2 - i);
      continue;
    }
    Token t;
    t.loc = {at.line, at.column};
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      t.kind = TokenKind::Name;
      t.text = std::string(text.substr(i, j - i));
      advance(j - i);
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < text.size() &&
                std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      size_t j = i;
      bool real = false;
      while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) ||
                                 text[j] == '.' || text[j] == 'e' || text[j] == 'E')) {
        if (text[j] == '.' || text[j] == 'e' || text[j] == 'E') real = true;
        ++j;
      }
      t.kind = real ? TokenKind::Real : TokenKind::Integer;
      t.text = std::string(text.substr(i, j - i));
      advance(j - i);
    } else if (c == '"') {
      const size_t close = text.find('"', i + 1);
      if (close == std::string_view::npos ||
          text.substr(i, close - i).find('\n') != std::string_view::npos) {
        return makeError("unterminated string", sourceName, t.loc.line, t.loc.column);
      }
      t.kind = TokenKind::String;
      t.text = std::string(text.substr(i + 1, close - i - 1));
      advance(close + 1 - i);
    } else if (c == '#') {
      if (text.substr(i, 7) != "#define") {
        return makeError("expected '#define' after '#'", sourceName, t.loc.line, t.loc.column);
      }
      t.kind = TokenKind::Define;
      t.text = "#define";
      advance(7);
    } else if (std::string_view("()[]{}<>:,=+-*/").find(c) != std::string_view::npos) {
      t.kind = TokenKind::Punct;
      t.text = std::string(1, c);
      advance(1);
    } else {
      return makeError(std::string("unexpected character '") + c + "'", sourceName, t.loc.line,
                       t.loc.column);
    }
    tokens.push_back(std::move(t));
  }
  Token end;
  end.kind = TokenKind::End;
  end.loc = {at.line, at.column};
  tokens.push_back(end);
  return tokens;
}

}  // namespace foresight::skeleton
