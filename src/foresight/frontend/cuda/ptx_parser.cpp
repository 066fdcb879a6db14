// SPDX-License-Identifier: Apache-2.0
/// \file
/// A line-oriented PTX parser for nvcc's output: directives without ';' (.loc, .file, .target,
/// .maxntid) are handled per line, everything else per ';'-terminated statement.
#include "foresight/frontend/cuda/ptx_parser.h"
#include "foresight/support/strings.h"

#include <cctype>
#include <cstring>
#include <sstream>

namespace foresight::cuda {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::vector<std::string> splitWs(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(std::move(cur)), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

/// Splits operands on top-level commas (not inside [] or {}).
std::vector<std::string> splitOperands(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
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

bool parseInt(std::string_view s, long long& out) {
  std::string t = trim(s);
  if (t.empty()) return false;
  bool neg = false;
  if (t[0] == '-' || t[0] == '+') {
    neg = t[0] == '-';
    t = t.substr(1);
  }
  if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0]))) return false;
  if (!t.empty() && (t.back() == 'U' || t.back() == 'u')) t.pop_back();
  try {
    size_t used = 0;
    unsigned long long v = std::stoull(t, &used, 0);
    if (used != t.size()) return false;
    out = neg ? -static_cast<long long>(v) : static_cast<long long>(v);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

struct KernelBuilder {
  PtxKernel k;
  std::map<std::string, int> regIndex;
  /// Registers declared inside nested `{ ... }` blocks, innermost last: name as written →
  /// unique name ("p" → "p$2"), so that a scoped `.reg .pred p;` neither aliases a kernel
  /// register of the same name nor a sibling block's.
  std::vector<std::map<std::string, std::string>> scopes;
  int scopeCount = 0;
  /// The name `name` refers to here: its scoped rename, or `name` itself.
  [[nodiscard]] std::string resolve(const std::string& name) const {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
      if (auto f = it->find(name); f != it->end()) return f->second;
    }
    return name;
  }
  [[nodiscard]] bool isScoped(const std::string& name) const { return resolve(name) != name; }
  int reg(const std::string& name) {
    const std::string n = resolve(name);
    auto [it, inserted] = regIndex.emplace(n, static_cast<int>(k.registers.size()));
    if (inserted) k.registers.push_back(n);
    return it->second;
  }
  /// Records the names of a `.reg` statement made inside a nested block
  /// (".reg .pred p, q" / ".reg .b32 r<3>" → r0, r1, r2).
  void declareScoped(const std::vector<std::string>& words) {
    if (scopes.empty()) return;
    std::string names;
    for (const std::string& w : words) {
      if (w.empty() || w[0] == '.') continue;
      names += w + " ";
    }
    std::string cur;
    auto add = [&](std::string n) {
      if (n.empty()) return;
      if (const size_t lt = n.find('<'); lt != std::string::npos) {
        const int count = std::atoi(n.c_str() + lt + 1);
        const std::string stem = n.substr(0, lt);
        for (int i = 0; i < count; ++i) scopes.back()[stem + std::to_string(i)] = stem + std::to_string(i) + "$" + std::to_string(scopeCount);
        return;
      }
      scopes.back()[n] = n + "$" + std::to_string(scopeCount);
    };
    for (char c : names) {
      if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
        add(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    add(cur);
  }
};

bool isSpecial(std::string_view s) {
  static const char* kNames[] = {"%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid",
                                 "%nwarpid", "%smid", "%nsmid", "%clock", "%clock64", "%globaltimer",
                                 "%lanemask", "%dynamic_smem_size", "%total_smem_size", "%envreg"};
  for (const char* n : kNames) {
    if (startsWith(s, n)) return true;
  }
  return false;
}

PtxOperand parseOperand(const std::string& text, KernelBuilder& kb) {
  PtxOperand op;
  std::string t = trim(text);
  if (!t.empty() && t[0] == '!') t = t.substr(1);  // negated predicate source (rare)
  if (t.empty()) return op;
  if (const size_t bar = t.find('|'); bar != std::string::npos && t[0] != '[' && t[0] != '{') {
    // "%r15|%p3": a result and its predicate (shfl.sync, setp with two results) — both written.
    op.kind = PtxOperand::Kind::Vector;
    op.elems.push_back(parseOperand(t.substr(0, bar), kb));
    op.elems.push_back(parseOperand(t.substr(bar + 1), kb));
    return op;
  }
  if (t[0] == '{') {
    op.kind = PtxOperand::Kind::Vector;
    for (const std::string& e : splitOperands(t.substr(1, t.size() - 2))) op.elems.push_back(parseOperand(e, kb));
    return op;
  }
  if (t[0] == '[') {
    op.kind = PtxOperand::Kind::Address;
    std::string inner = trim(t.substr(1, t.size() - 2));
    size_t plus = inner.find_first_of("+-", 1);
    std::string base = trim(inner.substr(0, plus));
    if (plus != std::string::npos) {
      // [%rd1+16], [%rd1+-1024] (nvcc writes a negative offset as "+-"), [%rd1-8].
      std::string offText = trim(inner.substr(plus));
      if (offText.size() > 1 && offText[0] == '+' && (offText[1] == '-' || offText[1] == '+')) offText.erase(0, 1);
      long long off = 0;
      if (parseInt(offText, off)) op.imm = off;
    }
    long long absolute = 0;
    if (!base.empty() && (base[0] == '%' || kb.isScoped(base))) {
      op.reg = kb.reg(base);
    } else if (parseInt(base, absolute)) {
      op.imm += absolute;
    } else {
      op.name = base;
    }
    return op;
  }
  if (t[0] == '%' || kb.isScoped(t)) {
    if (t[0] == '%' && !kb.isScoped(t) && isSpecial(t)) {
      op.kind = PtxOperand::Kind::Special;
      op.name = t;
    } else {
      op.kind = PtxOperand::Kind::Register;
      op.reg = kb.reg(t);
    }
    return op;
  }
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'f' || t[1] == 'F' || t[1] == 'd' || t[1] == 'D')) {
    op.kind = PtxOperand::Kind::Immediate;
    op.isFloat = true;
    op.imm = static_cast<long long>(std::stoull(t.substr(2), nullptr, 16));
    return op;
  }
  long long v = 0;
  if (parseInt(t, v)) {
    op.kind = PtxOperand::Kind::Immediate;
    op.imm = v;
    return op;
  }
  op.kind = PtxOperand::Kind::Symbol;
  op.name = t;
  return op;
}

/// ".shared .align 4 .b8 name[1024]" (without ';').
bool parseVariable(const std::string& stmt, PtxVariable& v) {
  std::vector<std::string> words = splitWs(stmt);
  bool sawSpace = false;
  int elemBytes = 1;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == ".shared" || w == ".local" || w == ".global" || w == ".const") {
      v.space = w.substr(1);
      sawSpace = true;
    } else if (w == ".extern") {
      v.external = true;
    } else if (w == ".align" && i + 1 < words.size()) {
      v.align = std::stoi(words[++i]);
    } else if (w.size() > 2 && w[0] == '.' && std::isdigit(static_cast<unsigned char>(w.back()))) {
      const int bits = std::stoi(w.substr(w.find_first_of("0123456789")));
      elemBytes = std::max(1, bits / 8);
    } else if (w[0] != '.') {
      const size_t br = w.find('[');
      v.name = w.substr(0, br);
      long long count = 1;
      if (br != std::string::npos) {
        const std::string inside = w.substr(br + 1, w.find(']') - br - 1);
        if (inside.empty()) {
          count = 0;
        } else {
          parseInt(inside, count);
        }
      }
      const size_t eq = v.name.find('=');
      if (eq != std::string::npos) v.name = v.name.substr(0, eq);
      v.bytes = count * elemBytes;
      break;
    }
  }
  return sawSpace && !v.name.empty();
}

}  // namespace

Expected<PtxModule> parsePtx(std::string_view text, const std::string& file) {
  PtxModule m;
  std::istringstream in{std::string(text)};
  std::string raw;
  int lineNo = 0;
  int depth = 0;           // brace depth inside a kernel or function body
  bool inHeader = false;   // between ".entry" and "{"
  bool inFunc = false;     // skipping a .func body
  bool inBlockComment = false;
  bool inSection = false;  // skipping a `.section name { ... }`
  int sectionDepth = 0;
  std::string header;
  std::string pending;     // statement text accumulated until ';'
  int operandBraces = 0;   // open '{' of a vector operand inside `pending`
  KernelBuilder kb;
  int curLine = 0, curFile = 0;

  auto finishHeader = [&]() -> Expected<void> {
    const size_t open = header.find('(');
    std::vector<std::string> words = splitWs(header.substr(0, open));
    if (words.empty()) return makeError("malformed .entry", file, lineNo);
    kb = KernelBuilder{};
    kb.k.name = words.back();
    kb.k.declLine = lineNo;
    if (open != std::string::npos) {
      const size_t close = header.find(')', open);
      for (const std::string& p : splitOperands(header.substr(open + 1, close - open - 1))) {
        std::vector<std::string> pw = splitWs(p);
        PtxParam param;
        int elemBytes = 0;
        long long count = 1;
        for (const std::string& w : pw) {
          if (w == ".param" || w == ".ptr" || w == ".global" || startsWith(w, ".align")) continue;
          if (w[0] == '.' && elemBytes == 0 && w.find_first_of("0123456789") != std::string::npos) {
            param.type = w.substr(1);
            elemBytes = std::max(1, std::stoi(w.substr(w.find_first_of("0123456789"))) / 8);
          } else if (w[0] != '.') {
            const size_t br = w.find('[');
            param.name = w.substr(0, br);
            if (br != std::string::npos) parseInt(w.substr(br + 1, w.find(']') - br - 1), count);
          }
        }
        param.bytes = static_cast<int>(elemBytes * count);
        kb.k.params.push_back(param);
      }
    }
    return {};
  };

  auto handleStatement = [&](std::string stmt) -> Expected<void> {
    stmt = trim(stmt);
    if (stmt.empty()) return {};
    if (stmt[0] == '.') {
      if (startsWith(stmt, ".reg")) {
        if (depth > 1) kb.declareScoped(splitWs(stmt));
        return {};
      }
      if (startsWith(stmt, ".pragma") || startsWith(stmt, ".param")) return {};
      PtxVariable v;
      if (parseVariable(stmt, v)) {
        if (depth > 0) {
          kb.k.variables.push_back(v);
        } else {
          m.globals.push_back(v);
        }
      }
      return {};
    }
    if (depth == 0) return {};
    PtxInstruction inst;
    inst.text = stmt;
    inst.ptxLine = lineNo;
    inst.sourceLine = curLine;
    inst.sourceFile = curFile;
    std::string rest = stmt;
    if (rest[0] == '@') {
      size_t sp = rest.find_first_of(" \t");
      std::string g = rest.substr(1, sp - 1);
      if (!g.empty() && g[0] == '!') {
        inst.guardNegated = true;
        g = g.substr(1);
      }
      inst.guard = kb.reg(g);
      rest = trim(rest.substr(sp));
    }
    const size_t sp = rest.find_first_of(" \t");
    inst.opcode = rest.substr(0, sp);
    std::string ops = sp == std::string::npos ? "" : rest.substr(sp);
    std::stringstream parts(inst.opcode);
    std::string part;
    std::getline(parts, inst.base, '.');
    while (std::getline(parts, part, '.')) inst.mods.push_back(part);
    for (const std::string& o : splitOperands(ops)) {
      PtxOperand op = parseOperand(o, kb);
      if (op.kind == PtxOperand::Kind::Symbol && (inst.base == "bra" || inst.base == "call")) {
        op.kind = PtxOperand::Kind::Label;
      }
      inst.operands.push_back(std::move(op));
    }
    kb.k.instructions.push_back(std::move(inst));
    return {};
  };

  while (std::getline(in, raw)) {
    ++lineNo;
    // Strip comments.
    std::string line;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (inBlockComment) {
        if (raw.compare(i, 2, "*/") == 0) {
          inBlockComment = false;
          ++i;
        }
        continue;
      }
      if (raw.compare(i, 2, "//") == 0) break;
      if (raw.compare(i, 2, "/*") == 0) {
        inBlockComment = true;
        ++i;
        continue;
      }
      line += raw[i];
    }
    line = trim(line);
    if (line.empty()) continue;

    if (inSection) {
      // A `.section` (DWARF data that -lineinfo emits for inlined functions): skipped whole.
      for (char c : line) {
        if (c == '{') ++sectionDepth;
        if (c == '}' && --sectionDepth == 0) inSection = false;
      }
      continue;
    }
    if (depth == 0 && !inHeader && startsWith(line, ".section")) {
      inSection = true;
      sectionDepth = 0;
      for (char c : line) {
        if (c == '{') ++sectionDepth;
        if (c == '}' && --sectionDepth == 0) inSection = false;
      }
      continue;
    }
    if (inFunc) {
      for (char c : line) {
        if (c == '{') ++depth;
        if (c == '}' && --depth == 0) inFunc = false;
      }
      continue;
    }
    if (startsWith(line, ".loc") && line.size() > 4 && std::isspace(static_cast<unsigned char>(line[4]))) {
      // ".loc 2 441 2, function_name $L__info_string0, inlined_at 1 11 3": code inlined from a
      // header is attributed to its call site (the last `inlined_at`), not to the header line.
      std::string where = line;
      if (const size_t at = line.rfind("inlined_at"); at != std::string::npos) where = ".loc " + line.substr(at + 10);
      std::vector<std::string> w = splitWs(where);
      if (w.size() >= 3) {
        curFile = std::atoi(w[1].c_str());
        curLine = std::atoi(w[2].c_str());
      }
      continue;
    }
    if (startsWith(line, ".file") && line.size() > 5 && std::isspace(static_cast<unsigned char>(line[5]))) {
      std::vector<std::string> w = splitWs(line);
      const size_t q1 = line.find('"'), q2 = line.rfind('"');
      if (w.size() >= 3 && q1 != std::string::npos && q2 > q1) m.files[std::atoi(w[1].c_str())] = line.substr(q1 + 1, q2 - q1 - 1);
      continue;
    }
    if (startsWith(line, ".target")) {
      std::vector<std::string> w = splitWs(line);
      if (w.size() >= 2) m.target = w[1].substr(0, w[1].find(','));
      continue;
    }
    if (startsWith(line, ".version") || startsWith(line, ".address_size") || startsWith(line, ".maxntid") ||
        startsWith(line, ".reqntid") || startsWith(line, ".minnctapersm") || startsWith(line, ".maxnreg") ||
        startsWith(line, ".maxclusterrank") || startsWith(line, ".reqnctapercluster") || startsWith(line, ".explicitcluster")) {
      continue;
    }
    if (depth == 0 && !inHeader && line.find(".entry") != std::string::npos) {
      inHeader = true;
      header.clear();
    }
    if (depth == 0 && !inHeader && line.find(".func") != std::string::npos) {
      // A device function body (or prototype): skipped; a `call` to it is rejected later.
      if (line.find(';') != std::string::npos && line.find('{') == std::string::npos) continue;
      pending.clear();
      inFunc = line.find('{') != std::string::npos;
      if (inFunc) depth = 1;
      while (!inFunc && std::getline(in, raw)) {
        ++lineNo;
        if (raw.find('{') != std::string::npos) {
          inFunc = true;
          depth = 1;
        } else if (trim(raw).back() == ';') {
          break;
        }
      }
      continue;
    }
    if (inHeader) {
      const size_t brace = line.find('{');
      header += " " + line.substr(0, brace);
      if (brace == std::string::npos) continue;
      inHeader = false;
      if (Expected<void> h = finishHeader(); !h) return std::move(h).takeError();
      depth = 1;
      line = trim(line.substr(brace + 1));
      if (line.empty()) continue;
    }
    // Labels, braces and statements.
    if (depth > 0 && line.back() == ':' && line.find(' ') == std::string::npos) {
      kb.k.labels[line.substr(0, line.size() - 1)] = static_cast<int>(kb.k.instructions.size());
      continue;
    }
    for (char c : line) {
      if (c == '{' && depth > 0 && !trim(pending).empty()) {
        // A vector operand ("st.local.v4.f32 [%rd5], {%f1, %f2, %f3, %f4}"), not a block.
        ++operandBraces;
        pending += c;
      } else if (c == '}' && operandBraces > 0) {
        --operandBraces;
        pending += c;
      } else if (c == '{' ) {
        if (depth == 0) return makeError("unexpected '{'", file, lineNo);
        ++depth;
        kb.scopes.emplace_back();
        ++kb.scopeCount;
      } else if (c == '}') {
        if (depth > 1) kb.scopes.pop_back();
        --depth;
        if (depth == 0) {
          if (!trim(pending).empty()) return makeError("statement without ';' at the end of a kernel", file, lineNo);
          m.kernels.push_back(std::move(kb.k));
          kb = KernelBuilder{};
        }
      } else if (c == ';') {
        if (Expected<void> s = handleStatement(pending); !s) return std::move(s).takeError();
        pending.clear();
      } else {
        pending += c;
      }
    }
    if (!trim(pending).empty() && depth == 0 && pending.find(".entry") == std::string::npos) {
      // module-level statement spanning lines: keep accumulating
    }
    pending += ' ';
  }
  if (depth != 0 || inHeader) return makeError("unterminated kernel body", file, lineNo);
  if (m.kernels.empty()) return makeError("the PTX contains no kernels (.entry)", file, 0);
  return m;
}

}  // namespace foresight::cuda
