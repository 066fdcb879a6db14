// SPDX-License-Identifier: Apache-2.0
/// \file
/// PORPLE's MSL (msl.h): lexer and parser of MSL text, resolution of level references (ids, `om`)
/// and of the inferred placement and path attributes, the serialCondition compiler, evaluator and
/// form recogniser, the hierarchy walk, the MSL equivalent of a Gpu, and the canonical writer.
#include "foresight/gpu/msl.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "foresight/support/edit_distance.h"
#include "foresight/support/strings.h"
#include "foresight/support/text_file.h"

namespace foresight {

// ---------------------------------------------------------------------------------------------
// Compiled serialConditions.

/// A serialCondition as a tree of integer operations, stored flat (children before parents).
struct MslPredicate {
  enum class Op { Const, Var, Neg, Not, Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or };
  enum class Var { Address1, Address2, Index1, Index2, Word1, Word2, BlockSize, Banks };
  struct Node {
    Op op = Op::Const;
    long long value = 0;  ///< Const
    Var var = Var::Address1;
    int lhs = -1;  ///< operand of a unary node, left operand of a binary one
    int rhs = -1;
    int height = 1;  ///< longest path to a leaf (bounds the evaluator's recursion)
  };
  std::vector<Node> nodes;
  int root = -1;
};

namespace {

using Op = MslPredicate::Op;
using Var = MslPredicate::Var;

/// Deepest expression tree (and parenthesis nesting) a serialCondition may have.
constexpr int kMaxConditionDepth = 200;

/// Variable names of serialConditions, in MslPredicate::Var order.
const std::vector<std::string> kVariableNames = {"address1", "address2", "index1",    "index2",
                                                 "word1",    "word2",    "blockSize", "banks"};

// Wrapping two's-complement arithmetic: a hostile condition must not reach signed overflow.
long long wrapAdd(long long a, long long b) {
  return static_cast<long long>(static_cast<unsigned long long>(a) + static_cast<unsigned long long>(b));
}
long long wrapSub(long long a, long long b) {
  return static_cast<long long>(static_cast<unsigned long long>(a) - static_cast<unsigned long long>(b));
}
long long wrapMul(long long a, long long b) {
  return static_cast<long long>(static_cast<unsigned long long>(a) * static_cast<unsigned long long>(b));
}
/// Floor division (⌊a/b⌋, PORPLE's floor brackets); x / 0 is 0.
long long floorDiv(long long a, long long b) {
  if (b == 0) return 0;
  if (b == -1) return wrapSub(0, a);
  long long q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}
/// The remainder matching floorDiv (the sign of b); x % 0 is 0.
long long floorMod(long long a, long long b) {
  if (b == 0 || b == -1) return 0;
  long long r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

long long evaluate(const MslPredicate& p, int i, const long long* vars) {
  const MslPredicate::Node& n = p.nodes[static_cast<size_t>(i)];
  auto l = [&] { return evaluate(p, n.lhs, vars); };
  auto r = [&] { return evaluate(p, n.rhs, vars); };
  switch (n.op) {
    case Op::Const: return n.value;
    case Op::Var: return vars[static_cast<int>(n.var)];
    case Op::Neg: return wrapSub(0, l());
    case Op::Not: return l() == 0 ? 1 : 0;
    case Op::Add: return wrapAdd(l(), r());
    case Op::Sub: return wrapSub(l(), r());
    case Op::Mul: return wrapMul(l(), r());
    case Op::Div: return floorDiv(l(), r());
    case Op::Mod: return floorMod(l(), r());
    case Op::Eq: return l() == r() ? 1 : 0;
    case Op::Ne: return l() != r() ? 1 : 0;
    case Op::Lt: return l() < r() ? 1 : 0;
    case Op::Le: return l() <= r() ? 1 : 0;
    case Op::Gt: return l() > r() ? 1 : 0;
    case Op::Ge: return l() >= r() ? 1 : 0;
    case Op::And: return (l() != 0 && r() != 0) ? 1 : 0;
    case Op::Or: return (l() != 0 || r() != 0) ? 1 : 0;
  }
  return 0;
}

/// Recursive-descent compiler of one serialCondition (C precedence: || && ==/!= relational
/// additive multiplicative unary), with `floor(x)` and ⌊x⌋ compiled to x.
class ConditionCompiler {
 public:
  ConditionCompiler(std::string_view text, const std::string& file, int line, int column)
      : text_(text), file_(file), line_(line), column_(column) {}

  Expected<std::shared_ptr<MslPredicate>> compile() {
    if (!tokenize()) return *error_;
    if (tokens_.size() == 1) return errorAt(0, "empty serialCondition");
    const int root = parseOr();
    if (error_) return *error_;
    if (peek().kind != Tok::End) return errorAt(peek().offset, "unexpected '" + peek().text + "' in serialCondition");
    predicate_->root = root;
    return std::shared_ptr<MslPredicate>(std::move(predicate_));
  }

 private:
  struct Tok {
    enum Kind { Int, Ident, Punct, End } kind = End;
    std::string text;
    size_t offset = 0;
    long long value = 0;
  };

  /// The error at a byte offset of the condition text (lines and columns of the whole file).
  Error errorAt(size_t offset, std::string message) const {
    int line = line_, column = column_;
    for (size_t i = 0; i < offset && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return makeError(std::move(message), file_, line, column);
  }
  bool fail(size_t offset, std::string message) {
    if (!error_) error_ = errorAt(offset, std::move(message));
    return false;
  }

  bool tokenize() {
    static const char* const kPuncts[] = {
        "||", "&&", "==", "!=", "<=", ">=",           "<",           ">", "+", "-", "*",
        "/",  "%",  "!",  "(",  ")",  "\xE2\x8C\x8A", "\xE2\x8C\x8B"};
    size_t i = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (text_.compare(i, 2, "//") == 0) {
        while (i < text_.size() && text_[i] != '\n') ++i;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        const size_t b = i;
        while (i < text_.size() && std::isalnum(static_cast<unsigned char>(text_[i]))) ++i;
        const std::optional<long long> v = toInteger(text_.substr(b, i - b));
        if (!v) return fail(b, "bad integer '" + std::string(text_.substr(b, i - b)) + "' in serialCondition");
        tokens_.push_back({Tok::Int, std::string(text_.substr(b, i - b)), b, *v});
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        const size_t b = i;
        while (i < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[i])) || text_[i] == '_')) ++i;
        tokens_.push_back({Tok::Ident, std::string(text_.substr(b, i - b)), b, 0});
      } else {
        bool matched = false;
        for (const char* p : kPuncts) {
          const std::string_view punct(p);
          if (text_.compare(i, punct.size(), punct) == 0) {
            tokens_.push_back({Tok::Punct, std::string(punct), i, 0});
            i += punct.size();
            matched = true;
            break;
          }
        }
        if (!matched) {
          const auto byte = static_cast<unsigned char>(c);
          return fail(i, std::isprint(byte) ? fmt::format("unexpected character '{}' in serialCondition", c)
                                            : fmt::format("unexpected byte 0x{:02X} in serialCondition", byte));
        }
      }
    }
    tokens_.push_back({Tok::End, "end of condition", text_.size(), 0});
    return true;
  }

  const Tok& peek() const { return tokens_[pos_]; }
  bool accept(std::string_view punct) {
    if (peek().kind == Tok::Punct && peek().text == punct) {
      ++pos_;
      return true;
    }
    return false;
  }

  int node(Op op, int lhs = -1, int rhs = -1, long long value = 0, Var var = Var::Address1) {
    if (error_) return -1;
    MslPredicate::Node n;
    n.op = op;
    n.lhs = lhs;
    n.rhs = rhs;
    n.value = value;
    n.var = var;
    for (int child : {lhs, rhs}) {
      if (child >= 0) n.height = std::max(n.height, predicate_->nodes[static_cast<size_t>(child)].height + 1);
    }
    if (n.height > kMaxConditionDepth) {
      fail(peek().offset, fmt::format("serialCondition is nested deeper than {} levels", kMaxConditionDepth));
      return -1;
    }
    predicate_->nodes.push_back(n);
    return static_cast<int>(predicate_->nodes.size()) - 1;
  }

  /// One left-associative precedence level: operand (op operand)*.
  template <class Next>
  int binaryLevel(Next next, std::initializer_list<std::pair<const char*, Op>> ops) {
    int lhs = next();
    while (!error_) {
      bool matched = false;
      for (const auto& [text, op] : ops) {
        if (accept(text)) {
          const int rhs = next();
          lhs = node(op, lhs, rhs);
          matched = true;
          break;
        }
      }
      if (!matched) break;
    }
    return error_ ? -1 : lhs;
  }

  int parseOr() {
    return binaryLevel([this] { return parseAnd(); }, {{"||", Op::Or}});
  }
  int parseAnd() {
    return binaryLevel([this] { return parseEquality(); }, {{"&&", Op::And}});
  }
  int parseEquality() {
    return binaryLevel([this] { return parseRelational(); }, {{"==", Op::Eq}, {"!=", Op::Ne}});
  }
  int parseRelational() {
    return binaryLevel([this] { return parseAdditive(); },
                       {{"<=", Op::Le}, {">=", Op::Ge}, {"<", Op::Lt}, {">", Op::Gt}});
  }
  int parseAdditive() {
    return binaryLevel([this] { return parseMultiplicative(); }, {{"+", Op::Add}, {"-", Op::Sub}});
  }
  int parseMultiplicative() {
    return binaryLevel([this] { return parseUnary(); }, {{"*", Op::Mul}, {"/", Op::Div}, {"%", Op::Mod}});
  }

  int parseUnary() {
    if (error_) return -1;
    if (++depth_ > kMaxConditionDepth) {
      fail(peek().offset, fmt::format("serialCondition is nested deeper than {} levels", kMaxConditionDepth));
      return -1;
    }
    int result;
    if (accept("!")) {
      result = node(Op::Not, parseUnary());
    } else if (accept("-")) {
      result = node(Op::Neg, parseUnary());
    } else if (accept("+")) {
      result = parseUnary();
    } else {
      result = parsePrimary();
    }
    --depth_;
    return error_ ? -1 : result;
  }

  /// The closing token of a bracketed sub-expression.
  int closed(int inner, std::string_view close, std::string_view open) {
    if (error_) return -1;
    if (!accept(close)) {
      fail(peek().offset,
           fmt::format("expected '{}' to close '{}' in serialCondition, found '{}'", close, open, peek().text));
      return -1;
    }
    return inner;
  }

  int parsePrimary() {
    const Tok& t = peek();
    if (t.kind == Tok::Int) {
      ++pos_;
      return node(Op::Const, -1, -1, t.value);
    }
    if (t.kind == Tok::Ident) {
      ++pos_;
      if (t.text == "floor") {
        if (!accept("(")) {
          fail(peek().offset, "expected '(' after 'floor' in serialCondition");
          return -1;
        }
        return closed(parseOr(), ")", "floor(");
      }
      for (size_t v = 0; v < kVariableNames.size(); ++v) {
        if (t.text == kVariableNames[v]) return node(Op::Var, -1, -1, 0, static_cast<Var>(v));
      }
      fail(t.offset, "unknown variable '" + t.text + "' in serialCondition (expected address1, address2, index1, " +
                         "index2, word1, word2, blockSize, banks or floor(...))" + didYouMean(t.text, kVariableNames));
      return -1;
    }
    if (accept("(")) return closed(parseOr(), ")", "(");
    if (accept("\xE2\x8C\x8A")) return closed(parseOr(), "\xE2\x8C\x8B", "\xE2\x8C\x8A");
    fail(t.offset, t.kind == Tok::End ? std::string("serialCondition ends where an operand is expected")
                                      : "unexpected '" + t.text + "' in serialCondition");
    return -1;
  }

  std::string_view text_;
  const std::string& file_;
  int line_, column_;
  std::vector<Tok> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::optional<Error> error_;
  std::unique_ptr<MslPredicate> predicate_ = std::make_unique<MslPredicate>();
};

// Form recognition on the compiled tree (floor and parentheses leave no node).

bool isVar(const MslPredicate& p, int i, Var v) {
  const MslPredicate::Node& n = p.nodes[static_cast<size_t>(i)];
  return n.op == Op::Var && n.var == v;
}
/// True when node i is `op` with operands satisfying (first, second) in either order.
template <class F, class G>
bool isSymmetric(const MslPredicate& p, int i, Op op, F first, G second) {
  const MslPredicate::Node& n = p.nodes[static_cast<size_t>(i)];
  if (n.op != op) return false;
  return (first(n.lhs) && second(n.rhs)) || (first(n.rhs) && second(n.lhs));
}
/// True when node i is `lhs op rhs` in this order.
template <class F, class G>
bool isOrdered(const MslPredicate& p, int i, Op op, F lhs, G rhs) {
  const MslPredicate::Node& n = p.nodes[static_cast<size_t>(i)];
  return n.op == op && lhs(n.lhs) && rhs(n.rhs);
}

std::optional<Serialization> recogniseForm(const MslPredicate& p) {
  auto var = [&p](Var v) { return [&p, v](int i) { return isVar(p, i, v); }; };
  auto quotient = [&](Var v, Var by) {
    return [&, v, by](int i) { return isOrdered(p, i, Op::Div, var(v), var(by)); };
  };
  auto remainder = [&](Var v, Var by) {
    return [&, v, by](int i) { return isOrdered(p, i, Op::Mod, var(v), var(by)); };
  };
  if (isSymmetric(p, p.root, Op::Ne, quotient(Var::Address1, Var::BlockSize), quotient(Var::Address2, Var::BlockSize)))
    return Serialization::Line;
  if (isSymmetric(p, p.root, Op::Ne, var(Var::Address1), var(Var::Address2))) return Serialization::Address;
  auto distinctWords = [&](int i) { return isSymmetric(p, i, Op::Ne, var(Var::Word1), var(Var::Word2)); };
  auto sameBank = [&](int i) {
    return isSymmetric(p, i, Op::Eq, remainder(Var::Word1, Var::Banks), remainder(Var::Word2, Var::Banks));
  };
  if (isSymmetric(p, p.root, Op::And, distinctWords, sameBank)) return Serialization::Bank;
  return std::nullopt;
}

/// The condition text as stored: comments removed, white space runs collapsed to one space.
std::string normalizeCondition(std::string_view raw) {
  std::string out;
  bool space = false;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw.compare(i, 2, "//") == 0) {
      while (i < raw.size() && raw[i] != '\n') ++i;
      space = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(raw[i]))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += raw[i];
  }
  return out;
}

/// Compiles `scope{text}` (text = the raw inside of the braces, which start at line:column + 1).
Expected<MslCondition> compileCondition(const std::string& scope, std::string_view raw, const std::string& file,
                                        int line, int column) {
  Expected<std::shared_ptr<MslPredicate>> predicate = ConditionCompiler(raw, file, line, column).compile();
  if (!predicate) return std::move(predicate).takeError();
  MslCondition c;
  c.scope = scope;
  c.text = normalizeCondition(raw);
  c.form = recogniseForm(**predicate);
  c.predicate = std::move(*predicate);
  return c;
}

}  // namespace

bool MslCondition::serialized(long long address1, long long address2, long long index1, long long index2,
                              long long blockSize, long long banks) const {
  // word1/word2: the 4-byte words holding the accesses, as word indices (docs/place.md#msl).
  const long long word1 = floorDiv(address1, 4), word2 = floorDiv(address2, 4);
  if (predicate && predicate->root >= 0) {
    const long long vars[] = {address1, address2, index1, index2, word1, word2, blockSize, banks};
    return evaluate(*predicate, predicate->root, vars) != 0;
  }
  // A hand-built condition with only a form: the form's closed rule.
  if (!form) return false;
  switch (*form) {
    case Serialization::Address: return address1 != address2;
    case Serialization::Bank: return word1 != word2 && floorMod(word1, banks) == floorMod(word2, banks);
    default: return floorDiv(address1, blockSize) != floorDiv(address2, blockSize);
  }
}

// ---------------------------------------------------------------------------------------------
// Small value types.

const char* placementName(Placement p) {
  switch (p) {
    case Placement::Global: return "global";
    case Placement::ReadOnly: return "readonly";
    case Placement::Texture: return "texture";
    case Placement::Shared: return "shared";
    case Placement::Constant: return "constant";
    case Placement::PersistingL2: return "l2persist";
  }
  return "global";
}

char placementLetter(Placement p) {
  switch (p) {
    case Placement::Global: return 'G';
    case Placement::ReadOnly: return 'R';
    case Placement::Texture: return 'T';
    case Placement::Shared: return 'S';
    case Placement::Constant: return 'C';
    case Placement::PersistingL2: return 'P';
  }
  return 'G';
}

std::optional<Placement> parsePlacement(std::string_view name) {
  for (int i = 0; i < kNumPlacements; ++i) {
    const auto p = static_cast<Placement>(i);
    if (name == placementName(p)) return p;
  }
  return std::nullopt;
}

long long MslSize::total() const {
  long long product = 1;
  for (long long e : extents) {
    if (__builtin_mul_overflow(product, e, &product)) return LLONG_MAX;
  }
  return product;
}

// ---------------------------------------------------------------------------------------------
// Lexer and parser.

namespace {

struct MslToken {
  enum class Kind { Word, Symbol, Braced, End };
  Kind kind = Kind::End;
  std::string text;  ///< Braced: the raw text inside the braces
  int line = 1;
  int column = 1;
};

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

/// Splits MSL text into words (names, numbers with units, `?`), the symbols < > ; = and braced
/// serialConditions; `//` comments are dropped.
Expected<std::vector<MslToken>> lexMsl(std::string_view text, const std::string& file) {
  std::vector<MslToken> tokens;
  TextCursor at(text);
  auto advance = [&](size_t n) { at.advance(n); };
  while (at.pos < text.size()) {
    const size_t i = at.pos;
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      advance(1);
    } else if (text.compare(i, 2, "//") == 0) {
      at.skipLine();
    } else if (isWordChar(c)) {
      MslToken t{MslToken::Kind::Word, "", at.line, at.column};
      const bool number = std::isdigit(static_cast<unsigned char>(c)) != 0;
      size_t e = i;
      while (e < text.size()) {
        if (isWordChar(text[e])) {
          ++e;
        } else if (number && (text[e] == '+' || text[e] == '-') && (text[e - 1] == 'e' || text[e - 1] == 'E') &&
                   e + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[e + 1]))) {
          ++e;  // the exponent sign of a number such as 1e-05 (how writeMsl prints tiny values)
        } else {
          break;
        }
      }
      t.text = std::string(text.substr(i, e - i));
      advance(e - i);
      tokens.push_back(std::move(t));
    } else if (c == '?' || c == '<' || c == '>' || c == ';' || c == '=') {
      tokens.push_back({c == '?' ? MslToken::Kind::Word : MslToken::Kind::Symbol, std::string(1, c), at.line, at.column});
      advance(1);
    } else if (c == '{') {
      MslToken t{MslToken::Kind::Braced, "", at.line, at.column};
      size_t e = i + 1;
      while (e < text.size() && text[e] != '}') {
        if (text[e] == '{') {
          advance(e - i);
          return makeError("'{' inside a serialCondition", file, at.line, at.column);
        }
        if (text.compare(e, 2, "//") == 0) {
          while (e < text.size() && text[e] != '\n') ++e;
        } else {
          ++e;
        }
      }
      if (e >= text.size()) return makeError("unterminated serialCondition: '{' without '}'", file, t.line, t.column);
      t.text = std::string(text.substr(i + 1, e - i - 1));
      advance(e + 1 - i);
      tokens.push_back(std::move(t));
    } else {
      const auto byte = static_cast<unsigned char>(c);
      return makeError(std::isprint(byte) ? fmt::format("unexpected character '{}'", c)
                                          : fmt::format("unexpected byte 0x{:02X}", byte),
                       file, at.line, at.column);
    }
  }
  tokens.push_back({MslToken::Kind::End, "end of file", at.line, at.column});
  return tokens;
}

bool isIdentifier(std::string_view s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool isDigits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// `ptr` is the first entry in `names` (resolved with `spec`) such that no other listed entry is
/// above it: the listed level nearest to the cores.
const MslMemory* nearestListed(const MslSpec& spec, const std::vector<std::string>& names) {
  const MslMemory* first = nullptr;
  for (const std::string& name : names) {
    const MslMemory* m = spec.find(name);
    if (!m) continue;
    if (!first) first = m;
    const bool below = std::any_of(m->upper.begin(), m->upper.end(), [&](const std::string& u) {
      return u != name && std::find(names.begin(), names.end(), u) != names.end();
    });
    if (!below) return m;
  }
  return first;
}

/// True when `target` is `from` or lies below it through `lower` links.
bool reaches(const MslSpec& spec, const MslMemory* from, const MslMemory* target) {
  std::set<const MslMemory*> seen;
  std::vector<const MslMemory*> todo{from};
  while (!todo.empty()) {
    const MslMemory* m = todo.back();
    todo.pop_back();
    if (m == target) return true;
    if (!seen.insert(m).second) continue;
    for (const std::string& name : m->lower) {
      if (const MslMemory* l = spec.find(name)) todo.push_back(l);
    }
  }
  return false;
}

/// A serialCondition as a closed form, for inference (nullopt when absent or generic).
std::optional<Serialization> formOf(const MslMemory& m) {
  return m.serial ? m.serial->form : std::nullopt;
}

/// The placement of an entry without a `placement=` attribute (docs/place.md#msl).
std::optional<Placement> inferPlacement(const MslMemory& m) {
  if (!m.softwareManaged) return std::nullopt;
  const std::optional<Serialization> form = formOf(m);
  if (form == Serialization::Address) return Placement::Constant;
  if (form == Serialization::Bank) return Placement::Shared;
  if (!m.writable) return Placement::Texture;
  if ((form == Serialization::Line || form == Serialization::Sector) && m.scope == MslScope::Die)
    return Placement::Global;
  return std::nullopt;
}

/// The path of an entry without a `path=` attribute (after all placements are known).
std::string inferPath(const MslSpec& spec, const MslMemory& m) {
  if (m.placement) {
    switch (*m.placement) {
      case Placement::Constant: return "constant";
      case Placement::Texture:
      case Placement::ReadOnly: return "texture";
      default: return "global";
    }
  }
  bool texture = false, global = false;
  for (const MslMemory& other : spec.memories) {
    if (&other == &m || !other.placement || !reaches(spec, &m, &other)) continue;
    if (*other.placement == Placement::Constant) return "constant";
    if (*other.placement == Placement::Texture || *other.placement == Placement::ReadOnly) {
      texture = true;
    } else {
      global = true;
    }
  }
  return texture && !global ? "texture" : "global";
}

/// The parser of one MSL text: processor line, entries, then resolution. The first error wins.
class MslParser {
 public:
  MslParser(std::vector<MslToken> tokens, const std::string& file) : tokens_(std::move(tokens)), file_(file) {}

  Expected<MslSpec> parse() {
    spec_.file = file_;
    if (parseProcessor()) {
      while (peek().kind != MslToken::Kind::End && parseEntry()) {
      }
    }
    if (!error_) resolve();
    if (error_) return *error_;
    return std::move(spec_);
  }

 private:
  /// An entry's level references before resolution.
  struct Levels {
    std::vector<MslToken> refs;
    bool inferred = false;  ///< `om` or `?`
  };

  const MslToken& peek(size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const MslToken& next() {
    const MslToken& t = peek();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool isSymbol(const MslToken& t, char c) const { return t.kind == MslToken::Kind::Symbol && t.text[0] == c; }
  static bool isUnknown(const MslToken& t) {
    return t.kind == MslToken::Kind::Word && (t.text == "?" || t.text == "om" || t.text == "na");
  }
  static std::string describe(const MslToken& t) {
    return t.kind == MslToken::Kind::End      ? "the end of the file"
           : t.kind == MslToken::Kind::Braced ? "'{" + t.text.substr(0, 20) + "}'"
                                              : "'" + t.text + "'";
  }
  bool fail(const MslToken& t, std::string message) {
    if (!error_) error_ = makeError(std::move(message), file_, t.line, t.column);
    return false;
  }

  // --- processor line ----------------------------------------------------------------------

  bool parseProcessor() {
    static const std::map<std::string, std::string> kUnits = {
        {"die", "tpc"}, {"tpc", "sm"}, {"sm", "core"}, {"clk", "MHz"}};
    std::set<std::string> seen;
    const MslToken& first = peek();
    while (peek().kind == MslToken::Kind::Word && isSymbol(peek(1), '=')) {
      const MslToken& key = next();
      next();  // '='
      const auto unit = kUnits.find(key.text);
      if (unit == kUnits.end()) {
        std::vector<std::string> keys;
        for (const auto& [k, u] : kUnits) keys.push_back(k);
        return fail(key, "unknown processor item '" + key.text + "' (expected die, tpc, sm or clk)" +
                             didYouMean(key.text, keys));
      }
      if (!seen.insert(key.text).second) return fail(key, "processor item '" + key.text + "' given twice");
      const MslToken& value = next();
      const MslToken& unitToken = next();
      if (unitToken.kind != MslToken::Kind::Word || unitToken.text != unit->second)
        return fail(unitToken, fmt::format("expected '{}' after '{} = {}', found {}", unit->second, key.text,
                                           value.text, describe(unitToken)));
      if (key.text == "clk") {
        const std::optional<double> mhz = toReal(value.text);
        if (!mhz || *mhz <= 0) return fail(value, "the clock must be a positive number of MHz, not " + describe(value));
        spec_.processor.clockMhz = *mhz;
      } else {
        const std::optional<long long> n = toInteger(value.text);
        if (!n || *n <= 0 || *n > INT_MAX)
          return fail(value, fmt::format("'{}' must be a positive integer, not {}", key.text, describe(value)));
        (key.text == "die"   ? spec_.processor.tpcsPerDie
         : key.text == "tpc" ? spec_.processor.smsPerTpc
                             : spec_.processor.coresPerSm) = static_cast<int>(*n);
      }
      if (!isSymbol(peek(), ';'))
        return fail(unitToken, fmt::format("missing ';' after '{} = {} {}'", key.text, value.text, unitToken.text));
      next();
    }
    for (const char* required : {"die", "tpc", "sm"}) {
      if (!seen.count(required))
        return fail(first, fmt::format("missing processor item '{} = N {}' (the MSL file must start with the processor "
                                       "line 'die = D tpc; tpc = T sm; sm = C core;')",
                                       required, kUnits.at(required)));
    }
    return true;
  }

  // --- one entry ---------------------------------------------------------------------------

  /// The token of field `field` of the entry being parsed, or nullptr (error) when the entry ends.
  const MslToken* field(const char* fieldName) {
    const MslToken& t = peek();
    if (isSymbol(t, ';') || t.kind == MslToken::Kind::End) {
      fail(t, fmt::format("the entry '{}' ends before its {} field", current_->name, fieldName));
      return nullptr;
    }
    return &next();
  }

  bool parseEntry() {
    const MslToken& nameToken = next();
    if (nameToken.kind != MslToken::Kind::Word || !isIdentifier(nameToken.text))
      return fail(nameToken, "expected a memory entry (a name starting with a letter), found " + describe(nameToken));
    if (nameToken.text == "om" || nameToken.text == "na")
      return fail(nameToken, "'" + nameToken.text + "' is a keyword, not a memory name");
    MslMemory m;
    m.name = nameToken.text;
    m.line = nameToken.line;
    current_ = &m;
    if (const auto it = nameLines_.find(m.name); it != nameLines_.end())
      return fail(nameToken, fmt::format("memory '{}' is defined twice (first on line {})", m.name, it->second));
    nameLines_[m.name] = m.line;

    const MslToken* t = field("id");
    if (!t) return false;
    const std::optional<long long> id = isDigits(t->text) ? toInteger(t->text) : std::nullopt;
    if (!id || *id > INT_MAX)
      return fail(*t, "the id of '" + m.name + "' must be a non-negative integer, not " + describe(*t));
    m.id = static_cast<int>(*id);
    if (const auto it = idLines_.find(m.id); it != idLines_.end())
      return fail(*t, fmt::format("id {} of '{}' is already used (on line {})", m.id, m.name, it->second));
    idLines_[m.id] = m.line;

    if (!(t = field("swmng"))) return false;
    const std::string swmng = lowered(t->text);
    if (t->kind != MslToken::Kind::Word || (swmng != "y" && swmng != "n"))
      return fail(*t, "swmng of '" + m.name + "' must be Y or N, not " + describe(*t));
    m.softwareManaged = swmng == "y";

    if (!(t = field("rw"))) return false;
    const std::string rw = lowered(t->text);
    if (t->kind != MslToken::Kind::Word || (rw != "r" && rw != "w" && rw != "rw"))
      return fail(*t, "rw of '" + m.name + "' must be r, w or rw, not " + describe(*t));
    m.readable = rw.find('r') != std::string::npos;
    m.writable = rw.find('w') != std::string::npos;

    if (!(t = field("dim"))) return false;
    if (!isUnknown(*t)) {
      const std::optional<long long> dim = isDigits(t->text) ? toInteger(t->text) : std::nullopt;
      if (!dim || *dim < 1 || *dim > 3)
        return fail(*t, "dim of '" + m.name + "' must be 1, 2, 3, na or ?, not " + describe(*t));
      m.dim = static_cast<int>(*dim);
    }

    if (!parseSize(m.size, "size") || !parseSize(m.blockSize, "blockSize")) return false;

    if (!(t = field("banks"))) return false;
    if (!isUnknown(*t)) {
      const std::optional<long long> banks = isDigits(t->text) ? toInteger(t->text) : std::nullopt;
      if (!banks || *banks < 1 || *banks > INT_MAX)
        return fail(*t, "banks of '" + m.name + "' must be a positive integer or ?, not " + describe(*t));
      m.banks = static_cast<int>(*banks);
    }

    if (!parseLatency(m)) return false;
    Levels upper, lower;
    if (!parseLevels(upper, "upperLevels") || !parseLevels(lower, "lowerLevels")) return false;

    if (!(t = field("shareScope"))) return false;
    static const std::map<std::string, MslScope> kScopes = {
        {"core", MslScope::Core}, {"sm", MslScope::Sm}, {"tpc", MslScope::Tpc}, {"die", MslScope::Die}};
    const auto scope = kScopes.find(t->text);
    if (t->kind != MslToken::Kind::Word || scope == kScopes.end())
      return fail(*t, "shareScope of '" + m.name + "' must be core, sm, tpc or die, not " + describe(*t));
    m.scope = scope->second;

    if (!parseAlpha(m) || !parseSerial(m) || !parseAttributes(m)) return false;
    if (!isSymbol(peek(), ';')) {
      const MslToken& last = tokens_[pos_ - 1];
      return fail(last, fmt::format("missing ';' at the end of the entry '{}' (found {} on line {})", m.name,
                                    describe(peek()), peek().line));
    }
    next();
    spec_.memories.push_back(std::move(m));
    levels_.emplace_back(std::move(upper), std::move(lower));
    current_ = nullptr;
    return true;
  }

  /// One `INT[K|M|G|T][E|B]` item: its value, and whether it counts elements.
  bool parseSizeItem(const MslToken& t, const char* fieldName, long long& value, bool& elements) {
    const std::string& s = t.text;
    size_t digits = 0;
    while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
    size_t at = digits;
    int shift = 0;
    if (at < s.size() && std::string_view("KMGT").find(s[at]) != std::string_view::npos) {
      shift = 10 * (1 + static_cast<int>(std::string_view("KMGT").find(s[at])));
      ++at;
    }
    elements = at < s.size() && s[at] == 'E';
    if (at < s.size() && (s[at] == 'E' || s[at] == 'B')) ++at;
    const std::optional<long long> n = digits > 0 ? toInteger(s.substr(0, digits)) : std::nullopt;
    if (t.kind != MslToken::Kind::Word || digits == 0 || at != s.size() || !n)
      return fail(t, fmt::format("bad {} {} of '{}' (expected an integer with an optional K, M, G or T and an "
                                 "optional E or B, e.g. 16K, 128B, 64KE)",
                                 fieldName, describe(t), current_->name));
    if (*n > (LLONG_MAX >> shift))
      return fail(t, fmt::format("{} {} of '{}' is too large", fieldName, describe(t), current_->name));
    value = *n << shift;
    return true;
  }

  bool parseSize(std::optional<MslSize>& out, const char* fieldName) {
    const MslToken* t = field(fieldName);
    if (!t) return false;
    if (isUnknown(*t)) return true;
    MslSize size;
    std::vector<const MslToken*> items;
    if (isSymbol(*t, '<')) {
      while (peek().kind == MslToken::Kind::Word && items.size() < 4) items.push_back(&next());
      if (!isSymbol(peek(), '>'))
        return fail(peek(), fmt::format("expected '>' to close the {} of '{}', found {}", fieldName, current_->name,
                                        describe(peek())));
      next();
      if (items.size() < 2 || items.size() > 3)
        return fail(
            *t, fmt::format("a {} tuple of '{}' has 2 or 3 items, not {}", fieldName, current_->name, items.size()));
    } else {
      items.push_back(t);
    }
    for (size_t i = 0; i < items.size(); ++i) {
      long long value = 0;
      bool elements = false;
      if (!parseSizeItem(*items[i], fieldName, value, elements)) return false;
      if (i > 0 && elements != size.elements)
        return fail(*items[i],
                    fmt::format("the {} of '{}' mixes elements (E) and bytes (B)", fieldName, current_->name));
      size.elements = elements;
      size.extents.push_back(value);
    }
    if (size.total() == LLONG_MAX)
      return fail(*t, fmt::format("the {} of '{}' is too large", fieldName, current_->name));
    out = std::move(size);
    return true;
  }

  /// One `NUMBER(clk|ns|ms|sec)` item, in cycles.
  bool parseLatencyItem(const MslToken& t, double& cycles) {
    static const std::pair<const char*, double> kUnits[] = {{"clk", 0}, {"ns", 1e-3}, {"ms", 1e3}, {"sec", 1e6}};
    for (const auto& [unit, cyclesPerMhz] : kUnits) {
      const std::string_view u(unit);
      if (t.kind != MslToken::Kind::Word || t.text.size() <= u.size() ||
          t.text.compare(t.text.size() - u.size(), u.size(), u) != 0)
        continue;
      const std::string number = t.text.substr(0, t.text.size() - u.size());
      const std::optional<double> v =
          std::isdigit(static_cast<unsigned char>(number[0])) ? toReal(number) : std::nullopt;
      if (!v) break;
      if (cyclesPerMhz == 0) {
        cycles = *v;
      } else if (!spec_.processor.clockMhz) {
        return fail(t, fmt::format("latency {} of '{}' is a time, which needs the clock: add 'clk = <F> MHz;' to "
                                   "the processor line",
                                   describe(t), current_->name));
      } else {
        cycles = *v * cyclesPerMhz * *spec_.processor.clockMhz;
      }
      return true;
    }
    return fail(t, fmt::format("bad latency {} of '{}' (expected a number with the unit clk, ns, ms or sec, e.g. "
                               "600clk)",
                               describe(t), current_->name));
  }

  bool parseLatency(MslMemory& m) {
    const MslToken* t = field("latency");
    if (!t) return false;
    if (isUnknown(*t)) return fail(*t, "the latency of '" + m.name + "' must be given (e.g. 600clk)");
    if (!isSymbol(*t, '<')) {
      if (!parseLatencyItem(*t, m.readLatency)) return false;
      m.writeLatency = m.readLatency;
      return true;
    }
    for (double* target : {&m.readLatency, &m.writeLatency}) {
      const MslToken& item = next();
      if (isSymbol(item, '>') || isSymbol(item, ';'))
        return fail(item, "a latency tuple of '" + m.name + "' has two items: <read write>");
      if (!parseLatencyItem(item, *target)) return false;
    }
    if (!isSymbol(peek(), '>'))
      return fail(peek(), "expected '>' to close the latency tuple of '" + m.name + "', found " + describe(peek()));
    next();
    return true;
  }

  bool parseLevels(Levels& out, const char* fieldName) {
    const MslToken* t = field(fieldName);
    if (!t) return false;
    if (t->kind == MslToken::Kind::Word && (t->text == "om" || t->text == "?")) {
      out.inferred = true;
      return true;
    }
    if (t->kind == MslToken::Kind::Word && t->text == "na") return true;
    if (!isSymbol(*t, '<'))
      return fail(*t, fmt::format("{} of '{}' must be a list <...>, om, ? or na, not {}", fieldName, current_->name,
                                  describe(*t)));
    while (peek().kind == MslToken::Kind::Word) out.refs.push_back(next());
    if (!isSymbol(peek(), '>'))
      return fail(peek(), fmt::format("expected '>' to close the {} of '{}', found {}", fieldName, current_->name,
                                      describe(peek())));
    next();
    return true;
  }

  bool parseAlpha(MslMemory& m) {
    const MslToken* t = field("concurrencyFactor");
    if (!t) return false;
    if (isUnknown(*t)) return true;
    if (!isSymbol(*t, '<'))
      return fail(*t, "concurrencyFactor of '" + m.name + "' must be <a b> or ?, not " + describe(*t));
    double values[2] = {0, 0};
    for (double& v : values) {
      const MslToken& item = next();
      const std::optional<double> a = item.kind == MslToken::Kind::Word ? toReal(item.text) : std::nullopt;
      if (!a || *a <= 0 || *a > 1)
        return fail(item, "a concurrencyFactor of '" + m.name + "' must be a number in (0, 1], not " + describe(item));
      v = *a;
    }
    if (!isSymbol(peek(), '>'))
      return fail(peek(), "expected '>' to close the concurrencyFactor of '" + m.name + "', found " + describe(peek()));
    next();
    m.alpha = std::make_pair(values[0], values[1]);
    return true;
  }

  bool parseSerial(MslMemory& m) {
    const MslToken* t = field("serialCondition");
    if (!t) return false;
    if (isUnknown(*t)) return true;
    if (t->kind == MslToken::Kind::Braced)
      return fail(*t, "the serialCondition of '" + m.name + "' needs a scope: warp{...}, block{...} or grid{...}");
    if (t->kind != MslToken::Kind::Word || (t->text != "warp" && t->text != "block" && t->text != "grid"))
      return fail(
          *t, "serialCondition of '" + m.name + "' must be warp{...}, block{...}, grid{...} or ?, not " + describe(*t));
    const MslToken& braced = peek();
    if (braced.kind != MslToken::Kind::Braced)
      return fail(braced, "expected '{' after '" + t->text + "' in the serialCondition of '" + m.name + "'");
    next();
    Expected<MslCondition> c = compileCondition(t->text, braced.text, file_, braced.line, braced.column + 1);
    if (!c) {
      if (!error_) error_ = std::move(c).takeError();
      return false;
    }
    m.serial = std::move(*c);
    return true;
  }

  bool parseAttributes(MslMemory& m) {
    static const std::vector<std::string> kKeys = {"placement", "path"};
    std::set<std::string> seen;
    while (peek().kind == MslToken::Kind::Word && isSymbol(peek(1), '=')) {
      const MslToken& key = next();
      next();  // '='
      if (std::find(kKeys.begin(), kKeys.end(), key.text) == kKeys.end())
        return fail(key, "unknown attribute '" + key.text + "' of '" + m.name + "' (expected placement= or path=)" +
                             didYouMean(key.text, kKeys));
      if (!seen.insert(key.text).second)
        return fail(key, "attribute '" + key.text + "' of '" + m.name + "' given twice");
      const MslToken& value = next();
      if (key.text == "placement") {
        const std::optional<Placement> p =
            value.kind == MslToken::Kind::Word ? parsePlacement(value.text) : std::nullopt;
        if (!p)
          return fail(value, "placement of '" + m.name +
                                 "' must be global, readonly, texture, shared, constant or "
                                 "l2persist, not " +
                                 describe(value));
        m.placement = p;
        placementGiven_.insert(m.name);
      } else {
        if (value.kind != MslToken::Kind::Word || !isIdentifier(value.text))
          return fail(value, "path of '" + m.name + "' must be a name, not " + describe(value));
        m.path = value.text;
      }
    }
    return true;
  }

  // --- resolution --------------------------------------------------------------------------

  /// Ids to names, `om` by inversion, then the inferred placements and paths.
  void resolve() {
    std::vector<std::string> names;
    std::map<int, std::string> byId;
    for (const MslMemory& m : spec_.memories) {
      names.push_back(m.name);
      byId[m.id] = m.name;
    }
    for (size_t i = 0; i < spec_.memories.size(); ++i) {
      MslMemory& m = spec_.memories[i];
      current_ = &m;
      const std::pair<Levels*, std::vector<std::string>*> lists[] = {{&levels_[i].first, &m.upper},
                                                                     {&levels_[i].second, &m.lower}};
      for (const auto& [levels, resolved] : lists) {
        const char* fieldName = resolved == &m.upper ? "upperLevels" : "lowerLevels";
        for (const MslToken& ref : levels->refs) {
          std::string name = ref.text;
          if (isDigits(ref.text)) {
            const std::optional<long long> id = toInteger(ref.text);
            const auto it = id && *id <= INT_MAX ? byId.find(static_cast<int>(*id)) : byId.end();
            if (it == byId.end())
              return void(fail(
                  ref, fmt::format("no memory has the id {} named in the {} of '{}'", ref.text, fieldName, m.name)));
            name = it->second;
          } else if (std::find(names.begin(), names.end(), name) == names.end()) {
            return void(fail(ref, fmt::format("unknown memory '{}' in the {} of '{}'{}", name, fieldName, m.name,
                                              didYouMean(name, names))));
          }
          if (name == m.name) return void(fail(ref, fmt::format("'{}' names itself in its {}", m.name, fieldName)));
          if (std::find(resolved->begin(), resolved->end(), name) != resolved->end())
            return void(fail(ref, fmt::format("'{}' is listed twice in the {} of '{}'", name, fieldName, m.name)));
          resolved->push_back(name);
        }
      }
    }
    current_ = nullptr;
    // `om`: X is above Y iff Y lists X among its (given) lowerLevels, and the other way round.
    for (size_t i = 0; i < spec_.memories.size(); ++i) {
      MslMemory& m = spec_.memories[i];
      for (size_t j = 0; j < spec_.memories.size(); ++j) {
        const MslMemory& other = spec_.memories[j];
        auto lists = [&m](const std::vector<std::string>& v) {
          return std::find(v.begin(), v.end(), m.name) != v.end();
        };
        if (levels_[i].first.inferred && !levels_[j].second.inferred && lists(other.lower))
          m.upper.push_back(other.name);
        if (levels_[i].second.inferred && !levels_[j].first.inferred && lists(other.upper))
          m.lower.push_back(other.name);
      }
    }
    for (MslMemory& m : spec_.memories) {
      if (!placementGiven_.count(m.name)) m.placement = inferPlacement(m);
    }
    for (MslMemory& m : spec_.memories) {
      if (m.path.empty()) m.path = inferPath(spec_, m);
    }
  }

  std::vector<MslToken> tokens_;
  size_t pos_ = 0;
  const std::string& file_;
  MslSpec spec_;
  std::optional<Error> error_;
  MslMemory* current_ = nullptr;  ///< the entry being parsed or resolved, for messages
  std::map<std::string, int> nameLines_;
  std::map<int, int> idLines_;
  std::vector<std::pair<Levels, Levels>> levels_;  ///< upper, lower of each entry
  std::set<std::string> placementGiven_;
};

}  // namespace

Expected<MslSpec> parseMsl(std::string_view text, const std::string& file) {
  Expected<std::vector<MslToken>> tokens = lexMsl(text, file);
  if (!tokens) return std::move(tokens).takeError();
  return MslParser(std::move(*tokens), file).parse();
}

Expected<MslSpec> loadMsl(const std::string& path) {
  Expected<std::string> text = readTextFile(path, "MSL file");
  if (!text) return std::move(text).takeError();
  return parseMsl(*text, path);
}

// ---------------------------------------------------------------------------------------------
// Queries.

const MslMemory* MslSpec::find(std::string_view name) const {
  for (const MslMemory& m : memories) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

const MslMemory* MslSpec::placementMemory(Placement p) const {
  for (const MslMemory& m : memories) {
    if (m.placement == p) return &m;
  }
  return nullptr;
}

std::vector<const MslMemory*> MslSpec::hierarchy(Placement p) const {
  const MslMemory* holder = placementMemory(p);
  if (!holder) return {};
  // The walk aims at the memory that holds the data: the placement's own memory, or for a
  // read-only cache the global memory behind it.
  const MslMemory* target = holder->softwareManaged ? holder : placementMemory(Placement::Global);
  const MslMemory* start = nearestListed(*this, holder->upper);
  if (!start) start = holder;
  std::vector<const MslMemory*> out;
  for (const MslMemory* m = start; m;) {
    out.push_back(m);
    std::vector<const MslMemory*> candidates;
    for (const std::string& name : m->lower) {
      const MslMemory* l = find(name);
      if (l && std::find(out.begin(), out.end(), l) == out.end()) candidates.push_back(l);
    }
    if (candidates.empty()) break;
    m = candidates.front();
    if (target && std::find(out.begin(), out.end(), target) == out.end()) {
      for (const MslMemory* c : candidates) {
        if (reaches(*this, c, target)) {
          m = c;
          break;
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The MSL of a GPU description.

namespace {

constexpr const char* kLineCondition = "address1/blockSize != address2/blockSize";
constexpr const char* kAddressCondition = "address1 != address2";
constexpr const char* kBankCondition = "word1 != word2 && word1 % banks == word2 % banks";

MslCondition fixedCondition(const char* scope, const char* text) {
  Expected<MslCondition> c = compileCondition(scope, text, "", 0, 0);
  return c ? *c : MslCondition{};  // the three fixed texts always compile
}

MslSize bytes(long long n) {
  return MslSize{{n}, false};
}

/// An entry with the size, transfer unit, banks, latency, scope and serialCondition of a level.
MslMemory fromLevel(const MemoryLevel& level, std::string name, bool softwareManaged, bool writable, std::string path) {
  MslMemory m;
  m.name = std::move(name);
  m.softwareManaged = softwareManaged;
  m.writable = writable;
  m.size = bytes(level.size.value);
  const std::optional<Param<long long>>& preferred =
      level.serialization == Serialization::Sector ? level.sector : level.line;
  const std::optional<Param<long long>>& other =
      level.serialization == Serialization::Sector ? level.line : level.sector;
  switch (level.serialization) {
    case Serialization::Bank: m.serial = fixedCondition("block", kBankCondition); break;
    case Serialization::Address:
      m.serial = fixedCondition("warp", kAddressCondition);
      if (level.line) m.blockSize = bytes(level.line->value);
      break;
    default:  // line, sector and the CC 1.x segment rules: one transaction per distinct block
      m.serial = fixedCondition("warp", kLineCondition);
      if (preferred || other) m.blockSize = bytes((preferred ? *preferred : *other).value);
  }
  if (level.banks) m.banks = level.banks->value;
  m.readLatency = m.writeLatency = level.latency.value;
  m.scope = level.scope == Scope::Sm ? MslScope::Sm : MslScope::Die;
  m.alpha = std::make_pair(0.2, 0.2);
  m.path = std::move(path);
  return m;
}

void append(std::vector<std::string>& list, bool condition, const char* name) {
  if (condition) list.emplace_back(name);
}

}  // namespace

MslSpec mslFromGpu(const Gpu& gpu) {
  MslSpec spec;
  spec.gpu = gpu.name;
  spec.processor.tpcsPerDie = std::max(1, gpu.smCount.value);
  spec.processor.smsPerTpc = 1;
  spec.processor.coresPerSm = std::max(1, gpu.warpSize.value * gpu.schedulersPerSm.value);
  // Rounded to 1 Hz: 1.755 GHz is 1755 MHz, not 1755.0000000000002.
  if (gpu.clockGhz.value > 0) spec.processor.clockMhz = std::round(gpu.clockGhz.value * 1e9) / 1e6;

  const MemoryLevel* dram = gpu.memoryLevel("dram");
  const MemoryLevel* l1 = gpu.memoryLevel("l1");
  const MemoryLevel* l2 = gpu.memoryLevel("l2");
  const MemoryLevel* shared = gpu.memoryLevel("shared");
  const MemoryLevel* constant = gpu.memoryLevel("constant");
  const MemoryLevel* constantL1 = constant ? gpu.memoryLevel("constant_l1") : nullptr;
  const MemoryLevel* constantL2 = constant ? gpu.memoryLevel("constant_l2") : nullptr;
  const MemoryLevel* texture = gpu.memoryLevel("texture");

  // Texture and read-only paths: a per-SM texture cache up to Kepler, the unified L1 from Maxwell.
  const bool unifiedL1 = gpu.ccMajor >= 5;
  const bool hasTexture = dram && (texture || unifiedL1);
  const MemoryLevel* tL1 = hasTexture ? (texture ? texture : l1) : nullptr;
  const MemoryLevel* tL2 = hasTexture && texture ? gpu.memoryLevel("texture_l2") : nullptr;
  const bool textureViaL2 = hasTexture && !tL2 && l2;
  const MemoryLevel* readOnly = !dram                                             ? nullptr
                                : gpu.ccMajor == 3 && gpu.ccMinor >= 5 && texture ? texture
                                : unifiedL1                                       ? l1
                                                                                  : nullptr;
  const bool persisting = gpu.ccMajor >= 8 && l2 && dram;

  std::vector<MslMemory>& out = spec.memories;
  if (dram) {
    MslMemory m = fromLevel(*dram, "globalMem", true, true, "global");
    m.scope = MslScope::Die;
    m.serial = fixedCondition("warp", kLineCondition);
    m.placement = Placement::Global;
    append(m.upper, l1, "L1");
    append(m.upper, l2, "L2");
    out.push_back(std::move(m));
  }
  if (l1) {
    MslMemory m = fromLevel(*l1, "L1", false, true, "global");
    append(m.lower, l2, "L2");
    append(m.lower, persisting, "l2Persist");
    append(m.lower, !l2 && dram, "globalMem");
    out.push_back(std::move(m));
  }
  if (l2) {
    MslMemory m = fromLevel(*l2, "L2", false, true, "global");
    append(m.lower, dram, "globalMem");
    append(m.lower, textureViaL2, "textureMem");
    out.push_back(std::move(m));
  }
  if (persisting) {
    // cudaLimitPersistingL2CacheSize may set aside at most 3/4 of the L2 (A100, H100).
    MslMemory m = fromLevel(*l2, "l2Persist", true, true, "global");
    m.size = bytes(l2->size.value / 4 * 3);
    m.placement = Placement::PersistingL2;
    append(m.upper, l1, "L1");
    m.lower = {"globalMem"};
    out.push_back(std::move(m));
  }
  if (shared) {
    MslMemory m = fromLevel(*shared, "sharedMem", true, true, "global");
    m.placement = Placement::Shared;
    out.push_back(std::move(m));
  }
  if (constant) {
    MslMemory m = fromLevel(*constant, "constantMem", true, false, "constant");
    m.alpha = std::make_pair(1.0, 1.0);
    m.placement = Placement::Constant;
    append(m.upper, constantL1, "cL1");
    append(m.upper, constantL2, "cL2");
    out.push_back(std::move(m));
    if (constantL1) {
      MslMemory c = fromLevel(*constantL1, "cL1", false, false, "constant");
      c.lower = {constantL2 ? "cL2" : "constantMem"};
      out.push_back(std::move(c));
    }
    if (constantL2) {
      MslMemory c = fromLevel(*constantL2, "cL2", false, false, "constant");
      c.lower = {"constantMem"};
      out.push_back(std::move(c));
    }
  }
  if (hasTexture) {
    MslMemory m = fromLevel(*dram, "textureMem", true, false, "texture");
    m.scope = MslScope::Die;
    m.serial = fixedCondition("warp", kLineCondition);
    m.placement = Placement::Texture;
    append(m.upper, tL1, "tL1");
    append(m.upper, tL2, "tL2");
    append(m.upper, textureViaL2, "L2");
    out.push_back(std::move(m));
    if (tL1) {
      MslMemory c = fromLevel(*tL1, "tL1", false, false, "texture");
      c.softwareManaged = false;
      c.lower = {tL2 ? "tL2" : textureViaL2 ? "L2" : "textureMem"};
      out.push_back(std::move(c));
    }
    if (tL2) {
      MslMemory c = fromLevel(*tL2, "tL2", false, false, "texture");
      c.lower = {"textureMem"};
      out.push_back(std::move(c));
    }
  }
  if (readOnly) {
    MslMemory m = fromLevel(*readOnly, "readOnly", false, false, "texture");
    m.scope = MslScope::Sm;
    m.placement = Placement::ReadOnly;
    m.lower = {l2 ? "L2" : "globalMem"};
    out.push_back(std::move(m));
  }
  // A cache's upper levels are the entries that miss into it; a software-managed memory lists
  // the caches of its own path (set above), as PORPLE's example does.
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].id = static_cast<int>(i) + 1;
    if (out[i].softwareManaged) continue;
    for (const MslMemory& other : out) {
      if (std::find(other.lower.begin(), other.lower.end(), out[i].name) != other.lower.end())
        out[i].upper.push_back(other.name);
    }
  }
  return spec;
}

// ---------------------------------------------------------------------------------------------
// Writer.

namespace {

std::string sizeText(const std::optional<MslSize>& size) {
  if (!size) return "?";
  const char* unit = size->elements ? "E" : "B";
  std::vector<std::string> items;
  for (long long v : size->extents) {
    std::string item = fmt::format("{}{}", v, unit);
    static const std::pair<char, int> kScales[] = {{'T', 40}, {'G', 30}, {'M', 20}, {'K', 10}};
    for (const auto& [suffix, shift] : kScales) {
      if (v > 0 && v % (1LL << shift) == 0) {
        item = fmt::format("{}{}{}", v >> shift, suffix, unit);
        break;
      }
    }
    items.push_back(std::move(item));
  }
  return items.size() == 1 ? items[0] : "<" + fmt::format("{}", fmt::join(items, " ")) + ">";
}

std::string levelsText(const std::vector<std::string>& names) {
  return fmt::format("<{}>", fmt::join(names, " "));
}

}  // namespace

std::string writeMsl(const MslSpec& spec) {
  std::string out = "// PORPLE memory specification (MSL; docs/place.md#msl)";
  if (!spec.gpu.empty()) out += " of the GPU '" + spec.gpu + "'";
  out += "\n";
  const MslProcessor& p = spec.processor;
  out += fmt::format("die = {} tpc; tpc = {} sm; sm = {} core;", p.tpcsPerDie, p.smsPerTpc, p.coresPerSm);
  if (p.clockMhz) out += fmt::format(" clk = {} MHz;", *p.clockMhz);
  out += "\n";
  if (spec.memories.empty()) return out;
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"// name", "id", "swmng", "rw", "dim", "size", "blockSize", "banks", "latency", "upper", "lower",
                  "scope", "alpha", "serialCondition", "attributes"});
  static const char* const kScopes[] = {"core", "sm", "tpc", "die"};
  for (const MslMemory& m : spec.memories) {
    std::string attributes;
    if (m.placement) attributes = fmt::format("placement={} ", placementName(*m.placement));
    attributes += "path=" + (m.path.empty() ? std::string("global") : m.path) + ";";
    rows.push_back({
        m.name,
        std::to_string(m.id),
        m.softwareManaged ? "Y" : "N",
        m.readable && !m.writable   ? "r"
        : !m.readable && m.writable ? "w"
                                    : "rw",
        m.dim ? std::to_string(*m.dim) : "na",
        sizeText(m.size),
        sizeText(m.blockSize),
        m.banks ? std::to_string(*m.banks) : "?",
        m.readLatency == m.writeLatency ? fmt::format("{}clk", m.readLatency)
                                        : fmt::format("<{}clk {}clk>", m.readLatency, m.writeLatency),
        levelsText(m.upper),
        levelsText(m.lower),
        kScopes[static_cast<int>(m.scope)],
        m.alpha ? fmt::format("<{} {}>", m.alpha->first, m.alpha->second) : "?",
        m.serial ? fmt::format("{}{{{}}}", m.serial->scope, m.serial->text) : "?",
        attributes,
    });
  }
  std::vector<size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(widths[c] - row[c].size() + 1, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace foresight
