// SPDX-License-Identifier: Apache-2.0
/// \file
/// A line-oriented PTX parser for nvcc's output: directives without ';' (.loc, .file, .target,
/// .maxntid) are handled per line, everything else per ';'-terminated statement.
#include "foresight/frontend/cuda/ptx_parser.h"
#include "foresight/support/strings.h"

#include <algorithm>
#include <climits>
#include <cctype>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

namespace foresight::cuda {

std::uint64_t realBits(double value, int bytes) {
  if (bytes == 4) {
    const float f = static_cast<float>(value);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
  }
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

namespace {

/// Registers one `.reg .b32 r<N>` may declare (ptxas allows far fewer live ones).
constexpr long long kMaxDeclaredRegisters = 1 << 20;
/// A kernel's parameter space (CUDA 12.1+: 32764 bytes).
constexpr long long kMaxParamBytes = 32764;
/// The largest variable a module may declare (1 TiB: larger than any GPU memory).
constexpr long long kMaxVariableBytes = 1LL << 40;

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
  // PTX integers are 64-bit patterns: 0xFFFFFFFFFFFFFFFF is -1 as a signed value.
  const std::optional<unsigned long long> v = toUnsigned(t, 0);
  if (!v) return false;
  out = neg ? static_cast<long long>(0ULL - *v) : static_cast<long long>(*v);
  return true;
}

struct KernelBuilder {
  PtxKernel k;
  /// The first thing in the current statement that cannot be read (empty when none); the
  /// statement loop turns it into an Error at the statement's line.
  std::string error;
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
  /// Unique names of the `.param` slots declared inside nested blocks (a call's arguments and
  /// return value: `{ .param .b32 param0; st.param… call… }`): symbols, not registers.
  std::set<std::string> scopedParams;
  [[nodiscard]] bool isScopedParam(const std::string& name) const { return scopedParams.count(resolve(name)) > 0; }
  /// ".param .align 8 .b8 retval0[16]" inside a nested block: `retval0` → "retval0$N".
  void declareScopedParam(const std::vector<std::string>& words) {
    if (scopes.empty() || words.empty()) return;
    std::string n = words.back();
    n = n.substr(0, n.find('['));
    if (n.empty() || n[0] == '.') return;
    const std::string unique = n + "$" + std::to_string(scopeCount);
    scopes.back()[n] = unique;
    scopedParams.insert(unique);
  }
  int reg(const std::string& name) {
    const std::string n = resolve(name);
    auto [it, inserted] = regIndex.emplace(n, static_cast<int>(k.registers.size()));
    if (inserted) k.registers.push_back(n);
    return it->second;
  }
  /// Records the names of a `.reg` statement (".reg .pred p, q" / ".reg .b32 r<3>" → r0, r1,
  /// r2): made inside a nested block, each gets a unique name; declared `.pred`, its (unique)
  /// name joins the kernel's predicate registers.
  void declare(const std::vector<std::string>& words, bool nested) {
    if (nested && scopes.empty()) nested = false;
    const bool predicate = std::find(words.begin(), words.end(), ".pred") != words.end();
    if (!nested && !predicate) return;  // a kernel-scope register keeps its name
    std::string names;
    for (const std::string& w : words) {
      if (w.empty() || w[0] == '.') continue;
      names += w + " ";
    }
    auto one = [&](const std::string& n) {
      std::string unique = n;
      if (nested) {
        unique = n + "$" + std::to_string(scopeCount);
        scopes.back()[n] = unique;
      }
      if (predicate) k.predicates.insert(unique);
    };
    std::string cur;
    auto add = [&](std::string n) {
      if (n.empty()) return;
      if (const size_t lt = n.find('<'); lt != std::string::npos) {
        const std::optional<long long> parsed = toInteger(n.substr(lt + 1, n.find('>', lt) - lt - 1));
        if (!parsed || *parsed < 0 || *parsed > kMaxDeclaredRegisters) {
          error = "cannot read the register count of '" + n + "' (0 to " + std::to_string(kMaxDeclaredRegisters) + ")";
          return;
        }
        const long long count = *parsed;
        const std::string stem = n.substr(0, lt);
        for (long long i = 0; i < count; ++i) one(stem + std::to_string(i));
        return;
      }
      one(n);
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
    for (const std::string& e : splitTopLevelCommas(t.substr(1, t.size() - 2))) op.elems.push_back(parseOperand(e, kb));
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
    if (kb.isScopedParam(base)) {
      op.name = kb.resolve(base);
    } else if (!base.empty() && (base[0] == '%' || kb.isScoped(base))) {
      op.reg = kb.reg(base);
    } else if (parseInt(base, absolute)) {
      op.imm += absolute;
    } else {
      op.name = base;
    }
    return op;
  }
  if (kb.isScopedParam(t)) {
    op.kind = PtxOperand::Kind::Symbol;
    op.name = kb.resolve(t);
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
    const std::string digits = t.substr(2);
    const size_t width = t[1] == 'f' || t[1] == 'F' ? 8 : 16;
    const std::optional<unsigned long long> bits = digits.size() == width ? toUnsigned(digits, 16) : std::nullopt;
    if (!bits) {
      kb.error = "malformed floating-point immediate '" + t + "' (0f and 8 hexadecimal digits, or 0d and 16)";
      return op;
    }
    op.imm = static_cast<long long>(*bits);
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

/// Writes `value` as `bytes` little-endian bytes at `offset` of `out` (grown as needed).
void putBytes(std::vector<unsigned char>& out, long long offset, int bytes, unsigned long long value) {
  if (out.size() < static_cast<size_t>(offset + bytes)) out.resize(static_cast<size_t>(offset + bytes), 0);
  for (int b = 0; b < bytes; ++b) out[static_cast<size_t>(offset + b)] = static_cast<unsigned char>(value >> (8 * b));
}

/// One initialiser element of a variable of `elemBytes`-byte `kind` ('f' float, else integer)
/// elements, stored at element `index`: an integer, a float (0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX or
/// decimal), or the address of a variable (`generic(sym)`, `sym`, `sym+8`). False when the
/// element is none of these.
bool putElement(PtxVariable& v, long long index, int elemBytes, char kind, std::string e) {
  e = trim(e);
  if (e.empty()) return false;
  const long long offset = index * elemBytes;
  if (e.size() > 2 && e[0] == '0' && (e[1] == 'f' || e[1] == 'F' || e[1] == 'd' || e[1] == 'D') &&
      std::isxdigit(static_cast<unsigned char>(e[2]))) {
    const std::optional<unsigned long long> bits = toUnsigned(e.substr(2), 16);
    if (!bits) return false;
    putBytes(v.init, offset, elemBytes, *bits);
    return true;
  }
  long long n = 0;
  if (parseInt(e, n)) {
    if (kind == 'f') {
      putBytes(v.init, offset, elemBytes, realBits(static_cast<double>(n), elemBytes));
    } else {
      putBytes(v.init, offset, elemBytes, static_cast<unsigned long long>(n));
    }
    return true;
  }
  if (std::isdigit(static_cast<unsigned char>(e[0])) || e[0] == '-' || e[0] == '.') {
    const std::optional<double> real = toReal(e);
    if (!real) return false;
    putBytes(v.init, offset, elemBytes, realBits(*real, elemBytes));
    return true;
  }
  // An address: generic(sym), sym, sym+8.
  if (e.rfind("generic(", 0) == 0 && e.back() == ')') e = trim(e.substr(8, e.size() - 9));
  PtxVariable::SymbolInit si;
  si.offset = offset;
  const size_t plus = e.find('+');
  si.symbol = trim(e.substr(0, plus));
  if (plus != std::string::npos && !parseInt(e.substr(plus + 1), si.addend)) return false;
  if (si.symbol.empty()) return false;
  putBytes(v.init, offset, elemBytes, 0);
  v.symbolInits.push_back(std::move(si));
  return true;
}

/// ".shared .align 4 .b8 name[1024]", ".global .u32 g = 5", ".const .align 4 .b8 c[8] =
/// {0, 0, 128, 63, 0, 0, 0, 64}" (without ';'). False when it declares no variable, or an
/// Error for an initialiser it cannot read.
Expected<bool> parseVariable(const std::string& stmt, PtxVariable& v, const std::string& file, int line) {
  // The initialiser: after the first '=' (outside brackets).
  std::string decl = stmt, init;
  if (const size_t eq = stmt.find('='); eq != std::string::npos) {
    decl = stmt.substr(0, eq);
    init = trim(stmt.substr(eq + 1));
  }
  std::vector<std::string> words = splitWs(decl);
  bool sawSpace = false;
  int elemBytes = 1;
  char kind = 'b';
  long long count = 1;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == ".shared" || w == ".local" || w == ".global" || w == ".const") {
      v.space = w.substr(1);
      sawSpace = true;
    } else if (w == ".extern") {
      v.external = true;
    } else if (w == ".align" && i + 1 < words.size()) {
      const std::optional<long long> align = toInteger(words[++i]);
      if (!align || *align <= 0 || *align > 4096) return makeError("cannot read the alignment '" + words[i] + "'", file, line);
      v.align = static_cast<int>(*align);
    } else if (w.size() > 2 && w[0] == '.' && std::isdigit(static_cast<unsigned char>(w.back())) && w[1] != 'v') {
      const std::optional<PtxType> type = ptxType(w);
      if (!type) return makeError("unknown type '" + w + "'", file, line);
      elemBytes = std::max(1, type->bits / 8);
      kind = type->kind;
    } else if (w[0] != '.') {
      // name, name[16], name[2][8], name[] (size from the initialiser)
      std::string rest;
      for (size_t k = i; k < words.size(); ++k) rest += words[k];
      const size_t br = rest.find('[');
      v.name = rest.substr(0, br);
      for (size_t b = br; b != std::string::npos; b = rest.find('[', b + 1)) {
        const std::string inside = rest.substr(b + 1, rest.find(']', b) - b - 1);
        long long dim = 0;
        if (inside.empty()) {
          count = 0;
        } else if (parseInt(inside, dim)) {
          if (dim < 0 || (dim > 0 && count > kMaxVariableBytes / dim)) {
            return makeError("array '" + v.name + "' is larger than " + std::to_string(kMaxVariableBytes) + " bytes", file, line);
          }
          count *= dim;
        }
      }
      break;
    }
  }
  if (!sawSpace || v.name.empty()) return false;
  if (count > kMaxVariableBytes / elemBytes) {
    return makeError("array '" + v.name + "' is larger than " + std::to_string(kMaxVariableBytes) + " bytes", file, line);
  }
  v.bytes = count * elemBytes;
  if (init.empty()) return true;
  std::string flat;
  for (char c : init) flat += c == '{' || c == '}' ? ' ' : c;
  long long index = 0;
  std::string cur;
  auto flush = [&]() -> bool {
    if (trim(cur).empty()) return true;
    const bool ok = putElement(v, index++, elemBytes, kind, cur);
    cur.clear();
    return ok;
  };
  int parens = 0;
  for (char c : flat) {
    if (c == '(') ++parens;
    if (c == ')') --parens;
    if (c == ',' && parens == 0) {
      if (!flush()) return makeError("cannot read the initialiser of '" + v.name + "'", file, line);
    } else {
      cur += c;
    }
  }
  if (!flush()) return makeError("cannot read the initialiser of '" + v.name + "'", file, line);
  if (v.bytes == 0) v.bytes = static_cast<long long>(v.init.size());
  if (v.bytes > (1LL << 24)) {  // a large array with a short initialiser: its values are not kept
    v.init.clear();
    v.symbolInits.clear();
    return true;
  }
  v.init.resize(static_cast<size_t>(v.bytes), 0);
  return true;
}

/// How deep calls of a function that (directly or not) calls itself are expanded; a call below
/// that stays a call (one instruction, unknown results).
constexpr int kMaxRecursionDepth = 6;
/// Expanded instructions per kernel beyond which further calls stay calls.
constexpr size_t kMaxExpandedInstructions = 200'000;

/// Expands the calls of one kernel in place: each `call` to a `.func` with a body is followed by
/// a copy of that body, its registers, labels and call slots renamed per copy ("%r1$c3"), its
/// parameters and return values renamed to the caller's slots, and its `ret` turned into a
/// branch to the instruction after the copy.
class CallExpander {
 public:
  CallExpander(const PtxModule& m, const PtxKernel& kernel) : module_(m), out_(kernel) {
    out_.instructions.clear();
    out_.labels.clear();
    for (size_t r = 0; r < out_.registers.size(); ++r) regIndex_[out_.registers[r]] = static_cast<int>(r);
    for (const PtxKernel& f : m.functions) functions_[f.name] = &f;
    for (const PtxVariable& v : m.globals) fixedNames_.insert(v.name);
    for (const PtxParam& p : kernel.params) fixedNames_.insert(p.name);
  }

  PtxKernel run(const PtxKernel& kernel) {
    std::vector<std::string> chain;
    emit(kernel, "", {}, chain, nullptr, "", false, "");
    return std::move(out_);
  }

 private:
  [[nodiscard]] std::string where(const PtxInstruction& i) const {
    auto f = module_.files.find(i.sourceFile);
    std::string file = f == module_.files.end() ? "?" : f->second;
    file = file.substr(file.rfind('/') + 1);
    return file + ":" + std::to_string(i.sourceLine);
  }
  void note(std::string text) {
    if (std::find(out_.notes.begin(), out_.notes.end(), text) == out_.notes.end()) out_.notes.push_back(std::move(text));
  }
  int reg(const std::string& name) {
    auto [it, inserted] = regIndex_.emplace(name, static_cast<int>(out_.registers.size()));
    if (inserted) out_.registers.push_back(name);
    return it->second;
  }

  /// Appends one copy of `body`: `suffix` renames its registers, labels and call slots,
  /// `slots` maps its parameter and return names to the caller's slots, `site` is the call
  /// (null for the kernel itself), `ret` the label a `ret` branches to ("" = a real ret).
  void emit(const PtxKernel& body, const std::string& suffix, const std::map<std::string, std::string>& slots,
            std::vector<std::string>& chain, const PtxInstruction* site, const std::string& from, bool library,
            const std::string& ret) {
    std::set<std::string> local(fixedNames_);
    for (const PtxVariable& v : body.variables) {
      local.insert(v.name);
      bool present = false;
      for (const PtxVariable& o : out_.variables) present = present || o.name == v.name;
      if (!present) out_.variables.push_back(v);
    }
    auto rename = [&](const std::string& name) -> std::string {
      if (auto it = slots.find(name); it != slots.end()) return it->second;
      if (name.empty() || local.count(name)) return name;
      return name + suffix;  // a call slot of this body
    };
    for (const std::string& p : body.predicates) out_.predicates.insert(p + suffix);
    std::vector<int> newIndex(body.instructions.size() + 1, 0);
    for (size_t i = 0; i < body.instructions.size(); ++i) {
      newIndex[i] = static_cast<int>(out_.instructions.size());
      PtxInstruction inst = body.instructions[i];
      std::function<void(PtxOperand&)> fix = [&](PtxOperand& op) {
        if (op.reg >= 0) op.reg = reg(body.registers[static_cast<size_t>(op.reg)] + suffix);
        if (op.kind == PtxOperand::Kind::Label) {
          if (inst.base != "call") op.name += suffix;
        } else if (op.kind == PtxOperand::Kind::Symbol || op.kind == PtxOperand::Kind::Address) {
          op.name = rename(op.name);
        }
        for (PtxOperand& e : op.elems) fix(e);
      };
      for (PtxOperand& op : inst.operands) fix(op);
      if (inst.guard >= 0) inst.guard = reg(body.registers[static_cast<size_t>(inst.guard)] + suffix);
      for (std::string& n : inst.callArgs) n = rename(n);
      for (std::string& n : inst.callReturns) n = rename(n);
      if (site) {
        inst.inlinedFrom = from;
        inst.library = library;
        if (library) {
          inst.sourceLine = site->sourceLine;
          inst.sourceFile = site->sourceFile;
        }
      }
      if (inst.base == "ret" && !ret.empty()) {
        // The callee returns: a branch to the instruction after its copy.
        inst.text = "bra.uni " + ret + " (ret)";
        inst.opcode = "bra.uni";
        inst.base = "bra";
        inst.mods = {"uni"};
        PtxOperand target;
        target.kind = PtxOperand::Kind::Label;
        target.name = ret;
        inst.operands = {target};
      }
      if (inst.base != "call" || inst.operands.empty()) {
        out_.instructions.push_back(std::move(inst));
        continue;
      }
      const std::string callee = inst.operands[0].name;
      auto f = functions_.find(callee);
      const long long depth = std::count(chain.begin(), chain.end(), callee);
      if (f == functions_.end()) {
        if (callee == "vprintf") {
          note(where(inst) + ": printf (vprintf) is modelled as one call instruction after its argument stores; "
               "the formatting and the output buffer are not modelled");
        } else {
          note(where(inst) + ": '" + callee + "' has no body in the PTX; the call counts as one instruction and its "
               "results are unknown");
        }
        out_.instructions.push_back(std::move(inst));
        continue;
      }
      if (depth >= kMaxRecursionDepth || out_.instructions.size() > kMaxExpandedInstructions) {
        note(where(inst) + ": the recursion of '" + callee + "' is expanded " + std::to_string(kMaxRecursionDepth) +
             " calls deep; a call below that counts as one instruction and returns an unknown value");
        out_.instructions.push_back(std::move(inst));
        continue;
      }
      const PtxKernel& fn = *f->second;
      bool hasLines = false;
      for (const PtxInstruction& x : fn.instructions) hasLines = hasLines || x.sourceLine > 0;
      const bool calleeLibrary = library || !hasLines;
      const std::string sub = "$c" + std::to_string(++copies_);
      std::map<std::string, std::string> calleeSlots;
      for (size_t k = 0; k < fn.params.size() && k < inst.callArgs.size(); ++k) calleeSlots[fn.params[k].name] = inst.callArgs[k];
      for (size_t k = 0; k < fn.returns.size() && k < inst.callReturns.size(); ++k) calleeSlots[fn.returns[k].name] = inst.callReturns[k];
      inst.callExpanded = true;
      const PtxInstruction call = inst;
      out_.instructions.push_back(std::move(inst));
      if (calleeLibrary && !library) {
        note(where(call) + ": '" + callee + "' (library code without source lines) is expanded in place; its branches "
             "on unknown data take a default: loops leave after one pass, other branches fall through");
      }
      const std::string back = "$Lret" + sub;
      chain.push_back(callee);
      emit(fn, sub, calleeSlots, chain, &call, callee, calleeLibrary, back);
      chain.pop_back();
      out_.labels[back] = static_cast<int>(out_.instructions.size());
    }
    newIndex[body.instructions.size()] = static_cast<int>(out_.instructions.size());
    for (const auto& [label, index] : body.labels) out_.labels[label + suffix] = newIndex[static_cast<size_t>(index)];
  }

  const PtxModule& module_;
  PtxKernel out_;
  std::map<std::string, int> regIndex_;
  std::map<std::string, const PtxKernel*> functions_;
  std::set<std::string> fixedNames_;  ///< module variables and kernel parameters: never renamed
  int copies_ = 0;
};

}  // namespace

Expected<PtxModule> parsePtx(std::string_view text, const std::string& file) {
  PtxModule m;
  std::istringstream in{std::string(text)};
  std::string raw;
  int lineNo = 0;
  int depth = 0;           // brace depth inside a kernel or function body
  bool inHeader = false;   // between ".entry" / ".func" and "{"
  bool bodyIsFunc = false;  // the header or body is a `.func`
  bool inBlockComment = false;
  bool inSection = false;  // skipping a `.section name { ... }`
  int sectionDepth = 0;
  std::string header;
  std::string pending;     // statement text accumulated until ';'
  int operandBraces = 0;   // open '{' of a vector operand inside `pending`
  int initBraces = 0;      // open '{' of a module variable's initialiser
  KernelBuilder kb;
  int curLine = 0, curFile = 0;
  // `.loc` locations (file, line, column) of inlined code -> where that code was inlined.
  using SourceLocation = std::tuple<long long, long long, long long>;
  std::map<SourceLocation, SourceLocation> inlinedAt;

  // ".param .align 8 .b8 name[16], .param .u32 other" → parameters.
  auto parseParams = [&](const std::string& list) -> Expected<std::vector<PtxParam>> {
    std::vector<PtxParam> out;
    for (const std::string& p : splitTopLevelCommas(list)) {
      std::vector<std::string> pw = splitWs(p);
      PtxParam param;
      int elemBytes = 0;
      long long count = 1;
      for (const std::string& w : pw) {
        if (w == ".param" || w == ".ptr" || w == ".global" || startsWith(w, ".align")) continue;
        if (w[0] == '.' && elemBytes == 0 && w.find_first_of("0123456789") != std::string::npos) {
          param.type = w.substr(1);
          const std::optional<PtxType> type = ptxType(w);
          if (!type) return makeError("unknown parameter type '" + w + "'", file, lineNo);
          elemBytes = std::max(1, type->bits / 8);
        } else if (w[0] != '.') {
          const size_t br = w.find('[');
          param.name = w.substr(0, br);
          if (br != std::string::npos && (!parseInt(w.substr(br + 1, w.find(']') - br - 1), count) || count < 0)) {
            return makeError("cannot read the size of parameter '" + w + "'", file, lineNo);
          }
        }
      }
      // CUDA limits a kernel's parameters to 32764 bytes (4 KiB before CUDA 12.1).
      if (count > kMaxParamBytes / std::max(1, elemBytes)) {
        return makeError("parameter '" + param.name + "' is larger than " + std::to_string(kMaxParamBytes) + " bytes", file, lineNo);
      }
      param.bytes = static_cast<int>(elemBytes * count);
      out.push_back(param);
    }
    return out;
  };
  // ".visible .entry name(params)" or ".func (returns) name(params)".
  auto finishHeader = [&]() -> Expected<void> {
    const size_t keyword = bodyIsFunc ? header.find(".func") : header.find(".entry");
    // "{" before the keyword (".vi{ible .entry k(") leaves no keyword in the header.
    if (keyword == std::string::npos) return makeError(std::string("malformed ") + (bodyIsFunc ? ".func" : ".entry") + " header", file, lineNo);
    std::string rest = trim(header.substr(keyword + (bodyIsFunc ? 5 : 6)));
    kb = KernelBuilder{};
    if (!rest.empty() && rest[0] == '(') {
      const size_t close = rest.find(')');
      if (close == std::string::npos) return makeError("malformed .func", file, lineNo);
      Expected<std::vector<PtxParam>> returns = parseParams(rest.substr(1, close - 1));
      if (!returns) return std::move(returns).takeError();
      kb.k.returns = std::move(*returns);
      rest = rest.substr(close + 1);
    }
    const size_t open = rest.find('(');
    std::vector<std::string> words = splitWs(rest.substr(0, open));
    if (words.empty()) return makeError(bodyIsFunc ? "malformed .func" : "malformed .entry", file, lineNo);
    kb.k.name = words.back();
    kb.k.declLine = lineNo;
    if (open != std::string::npos) {
      Expected<std::vector<PtxParam>> params = parseParams(rest.substr(open + 1, rest.find(')', open) - open - 1));
      if (!params) return std::move(params).takeError();
      kb.k.params = std::move(*params);
    }
    return {};
  };

  auto handleStatement = [&](std::string stmt) -> Expected<void> {
    stmt = trim(stmt);
    if (stmt.empty()) return {};
    if (stmt[0] == '.') {
      if (startsWith(stmt, ".reg")) {
        if (depth > 0) kb.declare(splitWs(stmt), depth > 1);
        if (!kb.error.empty()) return makeError(std::exchange(kb.error, {}), file, lineNo);
        return {};
      }
      if (startsWith(stmt, ".param")) {
        if (depth > 1) kb.declareScopedParam(splitWs(stmt));
        return {};
      }
      if (startsWith(stmt, ".pragma")) return {};
      PtxVariable v;
      Expected<bool> isVariable = parseVariable(stmt, v, file, lineNo);
      if (!isVariable) return std::move(isVariable).takeError();
      if (*isVariable) {
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
      if (sp == std::string::npos) return makeError("guard '" + rest + "' without an instruction", file, lineNo);
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
    if (inst.base == "call") {
      // call[.uni] [(ret, …),] target[, (arg, …)][, prototype]: the target as a Label operand,
      // the return and argument slots by name.
      const std::vector<std::string> parts = splitTopLevelCommas(ops);
      bool sawTarget = false;
      for (const std::string& part : parts) {
        if (!part.empty() && part[0] == '(') {
          std::vector<std::string>& names = sawTarget ? inst.callArgs : inst.callReturns;
          for (const std::string& n : splitTopLevelCommas(part.substr(1, part.rfind(')') - 1))) names.push_back(kb.resolve(n));
        } else if (!sawTarget) {
          sawTarget = true;
          PtxOperand target = parseOperand(part, kb);
          if (target.kind == PtxOperand::Kind::Symbol) target.kind = PtxOperand::Kind::Label;
          inst.operands.push_back(std::move(target));
        }
      }
    } else {
      for (const std::string& o : splitTopLevelCommas(ops)) {
        PtxOperand op = parseOperand(o, kb);
        if (op.kind == PtxOperand::Kind::Symbol && inst.base == "bra") op.kind = PtxOperand::Kind::Label;
        inst.operands.push_back(std::move(op));
      }
    }
    if (!kb.error.empty()) return makeError(std::exchange(kb.error, {}), file, lineNo);
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
    if (startsWith(line, ".loc") && line.size() > 4 && std::isspace(static_cast<unsigned char>(line[4]))) {
      // ".loc 2 441 2, function_name $L__info_string0, inlined_at 1 11 3": code inlined from a
      // header is attributed to its outermost call site, as nvdisasm's line table attributes the
      // SASS: the `inlined_at` location is followed through the earlier `.loc`s that say where
      // that location was itself inlined (a header function called by a header function).
      const auto location = [&](const std::string& text) -> std::optional<SourceLocation> {
        std::vector<std::string> w = splitWs(text);
        const std::optional<long long> f = w.size() >= 3 ? toInteger(w[1]) : std::nullopt;
        const std::optional<long long> l = w.size() >= 3 ? toInteger(w[2]) : std::nullopt;
        const std::optional<long long> c = w.size() >= 4 ? toInteger(w[3]) : 0;
        if (!f || !l || *f < 0 || *l < 0 || *f > INT_MAX || *l > INT_MAX) return std::nullopt;
        return SourceLocation{*f, *l, c.value_or(0)};
      };
      const size_t at = line.rfind("inlined_at");
      const std::optional<SourceLocation> own = location(line.substr(0, line.find(',')));
      std::optional<SourceLocation> where = at == std::string::npos ? own : location(".loc " + line.substr(at + 10));
      if (!own || !where) return makeError("malformed .loc directive", file, lineNo);
      if (at != std::string::npos) {
        inlinedAt[*own] = *where;
        for (int depth = 0; depth < 64; ++depth) {
          const auto up = inlinedAt.find(*where);
          if (up == inlinedAt.end() || up->second == *where) break;
          where = up->second;
        }
      }
      curFile = static_cast<int>(std::get<0>(*where));
      curLine = static_cast<int>(std::get<1>(*where));
      continue;
    }
    if (startsWith(line, ".file") && line.size() > 5 && std::isspace(static_cast<unsigned char>(line[5]))) {
      std::vector<std::string> w = splitWs(line);
      const size_t q1 = line.find('"'), q2 = line.rfind('"');
      const std::optional<long long> index = w.size() >= 3 ? toInteger(w[1]) : std::nullopt;
      if (!index || *index < 0 || *index > INT_MAX || q1 == std::string::npos || q2 <= q1) {
        return makeError("malformed .file directive", file, lineNo);
      }
      m.files[static_cast<int>(*index)] = line.substr(q1 + 1, q2 - q1 - 1);
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
    if (depth == 0 && !inHeader && (line.find(".entry") != std::string::npos || line.find(".func") != std::string::npos)) {
      inHeader = true;
      bodyIsFunc = line.find(".entry") == std::string::npos;
      header.clear();
      pending.clear();
    }
    if (inHeader) {
      const size_t brace = line.find('{'), semi = line.find(';');
      if (semi != std::string::npos && (brace == std::string::npos || semi < brace)) {
        inHeader = false;  // a prototype (`.extern .func … vprintf (…);`): no body
        continue;
      }
      header += " " + line.substr(0, brace);
      if (brace == std::string::npos) continue;
      inHeader = false;
      if (Expected<void> h = finishHeader(); !h) return std::move(h).takeError();
      depth = 1;
      curLine = 0;
      curFile = 0;
      inlinedAt.clear();
      line = trim(line.substr(brace + 1));
      if (line.empty()) continue;
    }
    // Labels, braces and statements.
    if (depth > 0 && line.back() == ':' && line.find(' ') == std::string::npos) {
      kb.k.labels[line.substr(0, line.size() - 1)] = static_cast<int>(kb.k.instructions.size());
      continue;
    }
    for (char c : line) {
      if (depth == 0 && (c == '{' || c == '}') && (initBraces > 0 || pending.find('=') != std::string::npos)) {
        // The initialiser of a module variable: `.global .b8 t[4] = {1, 2, 3, 4};`.
        initBraces += c == '{' ? 1 : -1;
        pending += c;
      } else if (c == '{' && depth > 0 && !trim(pending).empty()) {
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
          (bodyIsFunc ? m.functions : m.kernels).push_back(std::move(kb.k));
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
  for (PtxKernel& k : m.kernels) {
    bool calls = false;
    for (const PtxInstruction& i : k.instructions) calls = calls || i.base == "call";
    if (calls) k = CallExpander(m, k).run(k);
  }
  return m;
}

std::optional<PtxType> ptxType(std::string_view name) {
  if (!name.empty() && name[0] == '.') name.remove_prefix(1);
  if (name == "pred") return PtxType{1, 'p'};
  int lanes = 1;
  if (name.size() > 2 && name[name.size() - 2] == 'x') {  // f16x2, bf16x2, e4m3x2, s16x2
    lanes = name.back() - '0';
    if (lanes != 2 && lanes != 4) return std::nullopt;
    name.remove_suffix(2);
  }
  if (name == "e4m3" || name == "e5m2" || name == "e2m3" || name == "e3m2" || name == "e2m1") return PtxType{8 * lanes, 'f'};
  char kind = 0;
  std::string_view digits;
  if (name.substr(0, 2) == "bf") {
    kind = 'f';
    digits = name.substr(2);
  } else if (!name.empty() && (name[0] == 's' || name[0] == 'u' || name[0] == 'b' || name[0] == 'f')) {
    kind = name[0];
    digits = name.substr(1);
  } else {
    return std::nullopt;
  }
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  // Widths PTX has: 8 … 128 bits ("u4294967295" is no type, whatever a mutated file says).
  const std::optional<long long> bits = toInteger(digits);
  if (!bits || (*bits != 8 && *bits != 16 && *bits != 32 && *bits != 64 && *bits != 128)) return std::nullopt;
  return PtxType{static_cast<int>(*bits) * lanes, kind};
}

int ptxAccessBytes(const PtxInstruction& inst) {
  if (inst.isAsyncCopy()) return static_cast<int>(std::clamp<long long>(inst.operands[2].imm, 1, 16));  // cp-size
  int bits = 32, vec = 1;
  for (const std::string& m : inst.mods) {
    if (m == "v2") vec = 2;
    if (m == "v4") vec = 4;
    if (const std::optional<PtxType> t = ptxType(m); t && t->kind != 'p') bits = t->bits;
  }
  return std::max(1, bits / 8) * vec;
}

}  // namespace foresight::cuda
