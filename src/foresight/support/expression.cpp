// SPDX-License-Identifier: Apache-2.0
/// \file
/// A recursive-descent evaluator for manifest expressions, with overflow checks.
#include "foresight/support/expression.h"

#include <cctype>
#include <vector>

#include "foresight/support/edit_distance.h"
#include "foresight/support/strings.h"

namespace foresight {

namespace {

class Parser {
 public:
  Parser(std::string_view text, const std::map<std::string, long long>& vars)
      : text_(text), vars_(vars) {}

  Expected<long long> run() {
    long long v = sum();
    skipSpace();
    if (error_.empty() && pos_ != text_.size())
      fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    if (!error_.empty()) return makeError("expression '" + std::string(text_) + "': " + error_);
    return v;
  }

 private:
  void fail(const std::string& message) {
    if (error_.empty()) error_ = message;
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  long long checked(long long a, long long b, char op) {
    long long r = 0;
    bool overflow = false;
    switch (op) {
      case '+': overflow = __builtin_add_overflow(a, b, &r); break;
      case '-': overflow = __builtin_sub_overflow(a, b, &r); break;
      case '*': overflow = __builtin_mul_overflow(a, b, &r); break;
      default: break;
    }
    if (overflow) fail("integer overflow");
    return overflow ? 0 : r;
  }
  long long sum() {
    long long v = product();
    while (error_.empty()) {
      if (accept('+')) {
        v = checked(v, product(), '+');
      } else if (accept('-')) {
        v = checked(v, product(), '-');
      } else {
        break;
      }
    }
    return v;
  }
  long long product() {
    long long v = unary();
    while (error_.empty()) {
      char op = 0;
      if (accept('*'))
        op = '*';
      else if (accept('/'))
        op = '/';
      else if (accept('%'))
        op = '%';
      else
        break;
      const long long rhs = unary();
      if (!error_.empty()) break;
      if (op == '*') {
        v = checked(v, rhs, '*');
      } else if (rhs == 0) {
        fail("division by zero");
      } else {
        v = op == '/' ? v / rhs : v % rhs;
      }
    }
    return v;
  }
  long long unary() {
    if (accept('-')) return checked(0, unary(), '-');
    if (accept('+')) return unary();
    return primary();
  }
  long long primary() {
    skipSpace();
    if (pos_ >= text_.size()) return fail("unexpected end"), 0;
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      const long long v = sum();
      if (!accept(')')) fail("missing ')'");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      long long v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        v = checked(v, 10, '*');
        v = checked(v, text_[pos_++] - '0', '+');
      }
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        ++pos_;
      }
      const std::string name(text_.substr(start, pos_ - start));
      if (name == "cdiv" || name == "min" || name == "max") return call(name);
      const auto it = vars_.find(name);
      if (it == vars_.end()) {
        std::vector<std::string> names;
        for (const auto& [k, v] : vars_) names.push_back(k);
        return fail("unknown name '" + name + "'" + didYouMean(name, names)), 0;
      }
      return it->second;
    }
    return fail("unexpected '" + std::string(1, c) + "'"), 0;
  }
  long long call(const std::string& name) {
    if (!accept('(')) return fail("'" + name + "' needs '('"), 0;
    const long long a = sum();
    if (!accept(',')) return fail("'" + name + "' takes two arguments"), 0;
    const long long b = sum();
    if (!accept(')')) return fail("missing ')'"), 0;
    if (!error_.empty()) return 0;
    if (name == "min") return a < b ? a : b;
    if (name == "max") return a > b ? a : b;
    if (b <= 0) return fail("cdiv needs a positive divisor"), 0;
    return a >= 0 ? checked(a, b - 1, '+') / b : a / b;
  }

  std::string_view text_;
  const std::map<std::string, long long>& vars_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

Expected<long long> evalExpression(std::string_view text,
                                   const std::map<std::string, long long>& vars) {
  return Parser(text, vars).run();
}

std::vector<std::string> splitExpressionList(std::string_view text) {
  std::vector<std::string> out;
  if (trim(text).empty()) return out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      out.push_back(trim(text.substr(start, i - start)));
      start = i + 1;
    } else if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')') {
      --depth;
    }
  }
  return out;
}

}  // namespace foresight
