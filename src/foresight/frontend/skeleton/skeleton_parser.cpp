// SPDX-License-Identifier: Apache-2.0
/// \file
/// Recursive-descent parser of skeletons. Expressions are parsed to a small tree and then
/// converted to `Index` values in the current scope, so the same expression code serves macros,
/// extents, loop bounds and subscripts.
#include "foresight/frontend/skeleton/skeleton_parser.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "foresight/frontend/skeleton/skeleton_lexer.h"
#include "foresight/support/edit_distance.h"
#include "foresight/support/strings.h"

namespace foresight::skeleton {

namespace {

/// Element sizes of the types a skeleton may declare (grophecy.md §2.1; complex numbers are a
/// trailing [2] dimension).
int typeBytes(const std::string& type) {
  if (type == "float" || type == "int" || type == "unsigned") return 4;
  if (type == "double" || type == "long") return 8;
  if (type == "short" || type == "half") return 2;
  if (type == "char") return 1;
  return 0;
}

const std::vector<std::string> kTypes = {"float", "int",   "unsigned", "double",
                                         "long",  "short", "half",     "char"};

/// A parsed expression, before name resolution.
struct Expr {
  enum class Kind { Number, Name, Ref, Binary, Negate } kind = Kind::Number;
  long long number = 0;
  std::string name;
  char op = 0;
  std::vector<Expr> operands;  ///< binary: 2; negate: 1; ref: the subscripts
  SourceLoc loc;
  int height = 1;  ///< of the tree below: bounded (kMaxNesting) so that walking it cannot overflow the stack
};

/// How deep expressions and blocks may nest (parentheses, subscripts, operator chains, loops):
/// far beyond any real skeleton, well within the stack of every recursive walk.
constexpr int kMaxNesting = 200;

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string source, const ParseOptions& options)
      : tokens_(std::move(tokens)), source_(std::move(source)), options_(options) {}

  Expected<Skeleton> run() {
    sk_.path = source_;
    sk_.name = std::filesystem::path(source_).stem().string();
    for (const auto& [name, value] : options_.macros) sk_.macros[name] = value;
    while (!failed_ && peek().kind != TokenKind::End) {
      if (peek().kind == TokenKind::Define) {
        parseDefine();
      } else if (isName("parallel_for")) {
        parseParallelFor();
        if (!failed_ && peek().kind != TokenKind::End) {
          fail(peek(),
               "expected end of file after the parallel_for block, found " + peek().describe());
        }
      } else if (peek().kind == TokenKind::Name && typeBytes(peek().text) > 0) {
        parseArray();
      } else {
        std::string hint;
        if (peek().kind == TokenKind::Name) hint = didYouMean(peek().text, kTypes);
        fail(peek(),
             "expected '#define', an array declaration (float, int, double, ...) or "
             "'parallel_for', found " +
                 peek().describe() + hint);
      }
    }
    if (failed_) return error_;
    if (sk_.parallelDims == 0) {
      return makeError("the skeleton has no parallel_for", source_, peek().loc.line,
                       peek().loc.column);
    }
    if (sk_.vars.size() > 64) return makeError("more than 64 loop variables", source_, 1, 1);
    return std::move(sk_);
  }

 private:
  // ---- tokens ---------------------------------------------------------------------------------
  const Token& peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  Token next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool isName(const char* word, size_t ahead = 0) const {
    return peek(ahead).kind == TokenKind::Name && peek(ahead).text == word;
  }
  bool isPunct(char c) const { return peek().kind == TokenKind::Punct && peek().text[0] == c; }
  void fail(const Token& at, const std::string& message) { fail(at.loc, message); }
  void fail(SourceLoc at, const std::string& message) {
    if (failed_) return;
    failed_ = true;
    error_ = makeError(message, source_, at.line, at.column);
  }
  bool expectPunct(char c, const char* context) {
    if (isPunct(c)) {
      next();
      return true;
    }
    // A missing ')' or ']' belongs where its line ends, as compilers report it, not at the next
    // line's first token.
    if ((c == ')' || c == ']') && pos_ > 0 && peek().loc.line > tokens_[pos_ - 1].loc.line) {
      const Token& last = tokens_[pos_ - 1];
      fail(SourceLoc{last.loc.line, last.loc.column + static_cast<int>(last.text.size())},
           std::string("expected '") + c + "' " + context + " at the end of the line (found " + peek().describe() +
               " on line " + std::to_string(peek().loc.line) + ")");
      return false;
    }
    fail(peek(), std::string("expected '") + c + "' " + context + ", found " + peek().describe());
    return false;
  }
  std::string expectName(const char* what) {
    if (peek().kind != TokenKind::Name) {
      fail(peek(), std::string("expected ") + what + ", found " + peek().describe());
      return {};
    }
    return next().text;
  }
  double expectNumber(const char* what) {
    if (peek().kind != TokenKind::Integer && peek().kind != TokenKind::Real) {
      fail(peek(), std::string("expected ") + what + ", found " + peek().describe());
      return 0;
    }
    const std::optional<double> v = toReal(peek().text);
    if (!v) {
      fail(peek(), std::string("cannot read ") + what + " '" + peek().text + "'");
      return 0;
    }
    next();
    return *v;
  }

  // ---- expressions ----------------------------------------------------------------------------
  /// Sets `e`'s height from its operands; fails when the expression nests too deep.
  void setHeight(Expr& e) {
    for (const Expr& o : e.operands) e.height = std::max(e.height, o.height + 1);
    if (e.height > kMaxNesting && !failed_) {
      fail(e.loc, "expression nests deeper than " + std::to_string(kMaxNesting) + " levels");
    }
  }
  /// Counts one level of parser recursion for the lifetime of the guard.
  struct Nesting {
    Parser& p;
    explicit Nesting(Parser& parser, SourceLoc at) : p(parser) {
      if (++p.nesting_ > kMaxNesting && !p.failed_) {
        p.fail(at, "nested deeper than " + std::to_string(kMaxNesting) + " levels");
      }
    }
    ~Nesting() { --p.nesting_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
  };

  Expr parseExpr() {
    Expr lhs = parseTerm();
    while (!failed_ && (isPunct('+') || isPunct('-'))) {
      Expr e;
      e.kind = Expr::Kind::Binary;
      e.loc = peek().loc;
      e.op = next().text[0];
      e.operands.push_back(std::move(lhs));
      e.operands.push_back(parseTerm());
      setHeight(e);
      lhs = std::move(e);
    }
    return lhs;
  }
  Expr parseTerm() {
    Expr lhs = parseUnary();
    while (!failed_ && (isPunct('*') || isPunct('/'))) {
      Expr e;
      e.kind = Expr::Kind::Binary;
      e.loc = peek().loc;
      e.op = next().text[0];
      e.operands.push_back(std::move(lhs));
      e.operands.push_back(parseUnary());
      setHeight(e);
      lhs = std::move(e);
    }
    return lhs;
  }
  Expr parseUnary() {
    Expr e;
    e.loc = peek().loc;
    const Nesting guard(*this, e.loc);
    if (failed_) return e;
    if (isPunct('-')) {
      next();
      e.kind = Expr::Kind::Negate;
      e.operands.push_back(parseUnary());
      setHeight(e);
      return e;
    }
    if (isPunct('(')) {
      next();
      Expr inner = parseExpr();
      expectPunct(')', "to close the parenthesis");
      return inner;
    }
    if (peek().kind == TokenKind::Integer) {
      e.kind = Expr::Kind::Number;
      const std::optional<long long> v = toInteger(next().text);
      if (!v) fail(e.loc, "integer out of range");
      e.number = v.value_or(0);
      return e;
    }
    if (peek().kind == TokenKind::Name) {
      e.name = next().text;
      if (isPunct('[')) {
        e.kind = Expr::Kind::Ref;
        while (!failed_ && isPunct('[')) {
          next();
          e.operands.push_back(parseExpr());
          expectPunct(']', "to close the subscript");
        }
        setHeight(e);
      } else {
        e.kind = Expr::Kind::Name;
      }
      return e;
    }
    fail(peek(), "expected an expression (number, name or '('), found " + peek().describe());
    return e;
  }

  // ---- name resolution --------------------------------------------------------------------------
  std::vector<std::string> knownNames() const {
    std::vector<std::string> names;
    for (const auto& [n, v] : scopeVars_) names.push_back(n);
    for (const auto& [n, v] : scalars_) names.push_back(n);
    for (const auto& [n, v] : sk_.macros) names.push_back(n);
    for (const Array& a : sk_.arrays) names.push_back(a.name);
    return names;
  }
  VarMask varDeps(int v) const { return (VarMask{1} << v) | sk_.vars[v].boundDeps; }

  /// into += a × scale, failing at `at` when a coefficient leaves 64 bits (N = 7777777777777777777).
  void addAffine(Affine& into, const Affine& a, long long scale, SourceLoc at) {
    auto overflow = [&] { fail(at, "integer overflow: the expression does not fit in 64 bits"); };
    long long term = 0;
    if (__builtin_mul_overflow(a.constant, scale, &term) || __builtin_add_overflow(into.constant, term, &into.constant)) {
      return overflow();
    }
    for (const auto& [v, c] : a.terms) {
      if (__builtin_mul_overflow(c, scale, &term)) return overflow();
      bool merged = false;
      for (auto& [w, d] : into.terms) {
        if (w == v) {
          if (__builtin_add_overflow(d, term, &d)) return overflow();
          merged = true;
        }
      }
      if (!merged) into.terms.push_back({v, term});
    }
    std::erase_if(into.terms, [](const auto& t) { return t.second == 0; });
  }
  /// a × b, failing at `at` on overflow.
  long long product(long long x, long long y, SourceLoc at) {
    long long r = 0;
    if (__builtin_mul_overflow(x, y, &r)) fail(at, "integer overflow: the expression does not fit in 64 bits");
    return r;
  }

  /// Converts an expression to an Index in the current scope.
  Index resolve(const Expr& e) {
    Index out;
    if (failed_) return out;
    switch (e.kind) {
      case Expr::Kind::Number: out.affine.constant = e.number; return out;
      case Expr::Kind::Name: {
        if (auto it = scopeVars_.find(e.name); it != scopeVars_.end()) {
          out.affine.terms.push_back({it->second, 1});
          out.vars = VarMask{1} << it->second;
          out.deps = varDeps(it->second);
          return out;
        }
        if (auto it = scalars_.find(e.name); it != scalars_.end()) return it->second;
        if (auto it = sk_.macros.find(e.name); it != sk_.macros.end()) {
          out.affine.constant = it->second;
          return out;
        }
        if (sk_.findArray(e.name) >= 0) {
          fail(e.loc, "array '" + e.name + "' needs subscripts here");
          return out;
        }
        fail(e.loc, "'" + e.name + "' is not defined (add '#define " + e.name +
                        " <value>' or pass -D " + e.name + "=<value>)" +
                        didYouMean(e.name, knownNames()));
        return out;
      }
      case Expr::Kind::Ref: {
        auto ref = std::make_shared<Ref>(resolveRef(e));
        if (failed_) return out;
        out.indirect = ref;
        for (const Index& d : ref->dims) {
          out.vars |= d.vars;
          out.deps |= d.deps;
        }
        return out;
      }
      case Expr::Kind::Negate: {
        Index a = resolve(e.operands[0]);
        addAffine(out.affine, a.affine, -1, e.loc);
        out.indirect = a.indirect;
        out.indirectCoef = product(a.indirectCoef, -1, e.loc);
        out.vars = a.vars;
        out.deps = a.deps;
        return out;
      }
      case Expr::Kind::Binary: {
        Index a = resolve(e.operands[0]);
        Index b = resolve(e.operands[1]);
        if (failed_) return out;
        const bool aConst = a.affine.isConstant() && !a.indirect;
        const bool bConst = b.affine.isConstant() && !b.indirect;
        if (e.op == '+' || e.op == '-') {
          if (a.indirect && b.indirect) {
            fail(e.loc, "a subscript may contain at most one data-dependent term");
            return out;
          }
          const long long sb = e.op == '+' ? 1 : -1;
          addAffine(out.affine, a.affine, 1, e.loc);
          addAffine(out.affine, b.affine, sb, e.loc);
          out.indirect = a.indirect ? a.indirect : b.indirect;
          out.indirectCoef = a.indirect ? a.indirectCoef : product(sb, b.indirectCoef, e.loc);
          out.vars = a.vars | b.vars;
          out.deps = a.deps | b.deps;
          return out;
        }
        if (e.op == '*') {
          if (!aConst && !bConst) {
            fail(e.loc, "a product of two variables is not affine; one factor must be a constant");
            return out;
          }
          const Index& k = aConst ? a : b;
          const Index& x = aConst ? b : a;
          addAffine(out.affine, x.affine, k.affine.constant, e.loc);
          out.indirect = k.affine.constant == 0 ? nullptr : x.indirect;
          out.indirectCoef = product(x.indirectCoef, k.affine.constant, e.loc);
          out.vars = out.indirect || !out.affine.terms.empty() ? x.vars : 0;
          out.deps = out.vars ? x.deps : 0;
          return out;
        }
        // '/': integer division of constants only (COLS/4).
        if (!aConst || !bConst) {
          fail(
              e.loc,
              "division is allowed between constants only (a divided loop variable is not affine)");
          return out;
        }
        if (b.affine.constant == 0) {
          fail(e.loc, "division by zero");
          return out;
        }
        if (b.affine.constant == -1 && a.affine.constant == std::numeric_limits<long long>::min()) {
          fail(e.loc, "integer overflow: the expression does not fit in 64 bits");
          return out;
        }
        out.affine.constant = a.affine.constant / b.affine.constant;
        return out;
      }
    }
    return out;
  }

  Ref resolveRef(const Expr& e) {
    Ref ref;
    ref.loc = e.loc;
    ref.array = sk_.findArray(e.name);
    if (ref.array < 0) {
      std::vector<std::string> arrays;
      for (const Array& a : sk_.arrays) arrays.push_back(a.name);
      fail(e.loc, "'" + e.name + "' is not a declared array" + didYouMean(e.name, arrays));
      return ref;
    }
    const Array& a = sk_.arrays[ref.array];
    if (e.operands.size() != a.dims.size()) {
      fail(e.loc, "array '" + a.name + "' has " + std::to_string(a.dims.size()) +
                      " dimensions but is subscripted with " + std::to_string(e.operands.size()));
      return ref;
    }
    for (const Expr& s : e.operands) ref.dims.push_back(resolve(s));
    return ref;
  }

  long long constant(const Expr& e, const char* what) {
    Index i = resolve(e);
    if (failed_) return 0;
    if (i.indirect || !i.affine.isConstant()) {
      fail(e.loc, std::string(what) + " must be a constant expression (numbers and macros)");
      return 0;
    }
    return i.affine.constant;
  }

  // ---- declarations ----------------------------------------------------------------------------
  void parseDefine() {
    next();
    const Token nameTok = peek();
    const std::string name = expectName("a macro name after '#define'");
    if (failed_) return;
    const Expr e = parseExpr();
    const long long value = constant(e, "a macro's value");
    if (failed_) return;
    if (options_.macros.count(name)) return;  // -D overrides the file
    sk_.macros[name] = value;
  }

  void parseArray() {
    Array a;
    a.loc = peek().loc;
    a.type = next().text;
    a.elemBytes = typeBytes(a.type);
    a.name = expectName("an array name after the type");
    if (failed_) return;
    if (sk_.findArray(a.name) >= 0) return fail(a.loc, "array '" + a.name + "' is declared twice");
    if (!isPunct('['))
      return fail(peek(), "expected '[' and the dimensions of array '" + a.name + "', found " +
                              peek().describe());
    while (!failed_ && isPunct('[')) {
      next();
      const Expr e = parseExpr();
      const long long extent = constant(e, "an array dimension");
      if (!failed_ && extent <= 0)
        fail(e.loc, "array dimensions must be positive (got " + std::to_string(extent) + ")");
      a.dims.push_back(extent);
      expectPunct(']', "to close the dimension");
    }
    if (!failed_ && isPunct(':')) {
      next();
      if (!isName("hints"))
        return fail(peek(), "expected 'hints<...>' after ':', found " + peek().describe());
      next();
      if (!expectPunct('<', "after 'hints'")) return;
      while (!failed_) {
        const Token key = peek();
        const std::string k = expectName("a hint name (sample, range)");
        if (failed_) return;
        if (!expectPunct('=', "after the hint name")) return;
        if (k == "sample") {
          if (peek().kind != TokenKind::String)
            return fail(peek(), "expected a file name in quotes after 'sample=', found " +
                                    peek().describe());
          a.sampleFile = next().text;
        } else if (k == "range") {
          const long long lo = constant(parseExpr(), "a range bound");
          if (!expectPunct(':', "between the range bounds")) return;
          const long long hi = constant(parseExpr(), "a range bound");
          if (!failed_ && hi <= lo) return fail(key, "hint range must have lo < hi");
          a.indexRange = std::make_pair(lo, hi);
        } else {
          return fail(key, "unknown array hint '" + k + "' (known: sample, range)" +
                               didYouMean(k, std::vector<std::string>{"sample", "range"}));
        }
        if (isPunct(',')) {
          next();
          continue;
        }
        expectPunct('>', "to close the hints");
        break;
      }
    }
    if (!failed_) sk_.arrays.push_back(std::move(a));
  }

  void parseParallelFor() {
    const Token start = next();
    if (sk_.parallelDims > 0) return fail(start, "only one parallel_for is allowed");
    if (!expectPunct('(', "after 'parallel_for'")) return;
    std::vector<long long> extents;
    std::vector<SourceLoc> locs;
    while (!failed_) {
      locs.push_back(peek().loc);
      const Expr e = parseExpr();
      extents.push_back(constant(e, "a parallel extent"));
      if (!failed_ && extents.back() <= 0) return fail(e.loc, "parallel extents must be positive");
      if (isPunct(',')) {
        next();
        continue;
      }
      if (!expectPunct(')', "after the parallel extents")) return;
      break;
    }
    if (!expectPunct(':', "and the index names after the extents")) return;
    std::vector<std::string> names;
    while (!failed_) {
      names.push_back(expectName("an index name"));
      if (isPunct(',')) {
        next();
        continue;
      }
      break;
    }
    if (failed_) return;
    if (names.size() != extents.size()) {
      return fail(start, "parallel_for has " + std::to_string(extents.size()) + " extents but " +
                             std::to_string(names.size()) + " index names");
    }
    for (size_t d = 0; d < names.size(); ++d) {
      Var v;
      v.name = names[d];
      v.kind = VarKind::Parallel;
      v.hi = extents[d];
      v.trip = static_cast<double>(extents[d]);
      scopeVars_[v.name] = static_cast<int>(sk_.vars.size());
      sk_.vars.push_back(v);
    }
    sk_.parallelDims = static_cast<int>(names.size());
    sk_.body = parseBlock(-1);
  }

  // ---- statements ------------------------------------------------------------------------------
  std::vector<Stmt> parseBlock(int loopVar) {
    std::vector<Stmt> body;
    const Nesting guard(*this, peek().loc);
    if (failed_) return body;
    if (!expectPunct('{', "to open a block")) return body;
    const auto savedVars = scopeVars_;
    const auto savedScalars = scalars_;
    while (!failed_ && !isPunct('}')) {
      if (peek().kind == TokenKind::End) {
        fail(peek(), "expected '}' to close the block, found end of file");
        break;
      }
      Stmt s = parseStmt(loopVar);
      if (!failed_) body.push_back(std::move(s));
    }
    if (!failed_) next();
    scopeVars_ = savedVars;
    scalars_ = savedScalars;
    return body;
  }

  Stmt parseStmt(int loopVar) {
    Stmt s;
    s.loc = peek().loc;
    if (peek().kind != TokenKind::Name) {
      fail(peek(),
           "expected a statement (comp, ld, st, for, stream, branch or NAME = ...), found " +
               peek().describe());
      return s;
    }
    const std::string word = peek().text;
    if (word == "comp") {
      next();
      s.kind = StmtKind::Comp;
      s.count = expectNumber("an instruction count after 'comp'");
      if (!failed_ && s.count < 0) fail(s.loc, "'comp' needs a non-negative count");
      return s;
    }
    if (word == "ld" || word == "st") {
      next();
      s.kind = word == "ld" ? StmtKind::Load : StmtKind::Store;
      if (peek().kind != TokenKind::Name || peek(1).kind != TokenKind::Punct ||
          peek(1).text != "[") {
        fail(peek(), "expected an array reference such as A[i][k] after '" + word + "', found " +
                         peek().describe());
        return s;
      }
      s.ref = resolveRef(parseUnary());
      return s;
    }
    if (word == "for" || word == "stream") {
      next();
      return parseLoop(word == "stream", s.loc, loopVar);
    }
    if (word == "branch") {
      next();
      s.kind = StmtKind::Branch;
      s.count = 1;
      if (peek().kind == TokenKind::Integer || peek().kind == TokenKind::Real)
        s.count = expectNumber("a branch count");
      if (isName("prob")) {
        next();
        s.prob = expectNumber("a probability after 'prob'");
        if (!failed_ && (s.prob < 0 || s.prob > 1))
          fail(s.loc, "a branch probability must lie in [0, 1]");
      }
      if (isPunct('{')) s.body = parseBlock(loopVar);
      return s;
    }
    if (peek(1).kind == TokenKind::Punct && peek(1).text == "=") {
      const std::string name = next().text;
      next();
      s.kind = StmtKind::Bind;
      s.scalar = name;
      const Expr e = parseExpr();
      Index value = resolve(e);
      if (failed_) return s;
      if (scopeVars_.count(name)) {
        fail(s.loc, "'" + name + "' is a loop index and cannot be assigned");
        return s;
      }
      if (value.indirect) s.ref = *value.indirect;
      scalars_[name] = std::move(value);
      return s;
    }
    fail(peek(), "expected a statement (comp, ld, st, for, stream, branch or NAME = ...), found " +
                     peek().describe() +
                     didYouMean(word, std::vector<std::string>{"comp", "ld", "st", "for", "stream",
                                                               "branch"}));
    return s;
  }

  Stmt parseLoop(bool streaming, SourceLoc loc, int parentVar) {
    Stmt s;
    s.kind = StmtKind::Loop;
    s.loc = loc;
    Var v;
    v.kind = streaming ? VarKind::Stream : VarKind::For;
    v.parent = parentVar;
    const Token nameTok = peek();
    v.name = expectName("a loop index name");
    if (failed_) return s;
    if (!expectPunct('=', "after the loop index")) return s;
    const Expr loE = parseExpr();
    if (!expectPunct(':', "between the loop bounds (lo:hi, hi exclusive)")) return s;
    const Expr hiE = parseExpr();
    long long step = 1;
    if (isPunct(':')) {
      next();
      const Expr stepE = parseExpr();
      step = constant(stepE, "a loop step");
      if (!failed_ && step <= 0) fail(stepE.loc, "a loop step must be positive");
    }
    std::optional<double> hint;
    if (isPunct('(')) {
      next();
      if (!isName("hint")) {
        fail(peek(), "expected 'hint' in a loop's '(hint: N)', found " + peek().describe());
        return s;
      }
      next();
      if (!expectPunct(':', "after 'hint'")) return s;
      hint = expectNumber("the mean trip count");
      if (!failed_ && *hint < 0) fail(loc, "a trip-count hint must be non-negative");
      expectPunct(')', "to close the hint");
    }
    const Index lo = resolve(loE);
    const Index hi = resolve(hiE);
    if (failed_) return s;
    if (lo.indirect || hi.indirect || !lo.affine.isConstant() || !hi.affine.isConstant()) {
      if (!hint) {
        fail(loc, "the bounds of loop '" + v.name +
                      "' depend on data or on other loop indices; "
                      "give its mean trip count with (hint: N)");
        return s;
      }
      v.dataBounds = true;
      v.trip = *hint;
      v.boundDeps = lo.deps | hi.deps;
    } else {
      v.lo = lo.affine.constant;
      v.hi = hi.affine.constant;
      v.step = step;
      v.trip = v.hi > v.lo ? static_cast<double>((v.hi - v.lo + step - 1) / step) : 0;
    }
    s.var = static_cast<int>(sk_.vars.size());
    sk_.vars.push_back(v);
    scopeVars_[v.name] = s.var;
    scalars_.erase(v.name);
    s.body = parseBlock(s.var);
    return s;
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  std::string source_;
  const ParseOptions& options_;
  Skeleton sk_;
  std::map<std::string, int> scopeVars_;
  std::map<std::string, Index> scalars_;
  bool failed_ = false;
  int nesting_ = 0;  ///< current depth of parseUnary/parseBlock recursion
  Error error_;
};

}  // namespace

Expected<Skeleton> parseSkeleton(std::string_view text, const std::string& sourceName,
                                 const ParseOptions& options) {
  Expected<std::vector<Token>> tokens = tokenizeSkeleton(text, sourceName);
  if (!tokens) return std::move(tokens).takeError();
  Parser parser(std::move(*tokens), sourceName, options);
  return parser.run();
}

}  // namespace foresight::skeleton
