// SPDX-License-Identifier: Apache-2.0
/// \file
/// Line-based nvdisasm parser: section headers start functions, `/*OFFS*/ … ;` lines are
/// instructions (with `/* 0x… */` encodings, the high word on the next line), `.L_x_N:` are
/// labels and `//## File "…", line N` comments carry line info.
#include "foresight/frontend/cuda/sass_parser.h"
#include "foresight/support/strings.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cctype>
#include <cstdio>
#include <sstream>

namespace foresight::cuda {

namespace {

/// How deep the calls of a recursive subroutine are expanded, and the instructions beyond
/// which no call is expanded.
constexpr long long kMaxSassRecursion = 6;
constexpr size_t kMaxSassExpanded = 200'000;

bool parseNumber(const std::string& s, long long& v) {
  if (s.empty()) return false;
  const bool neg = s[0] == '-';
  const std::string body = neg ? s.substr(1) : s;
  if (body.empty() || !std::isdigit(static_cast<unsigned char>(body[0]))) return false;
  // 64-bit patterns: 0xffffffffffffffff is -1.
  const std::optional<unsigned long long> u = toUnsigned(body, 0);
  if (!u) return false;
  v = neg ? static_cast<long long>(0ULL - *u) : static_cast<long long>(*u);
  return true;
}

/// The 64-bit word written as "0x" and up to 16 hexadecimal digits at the start of `s`.
std::optional<unsigned long long> hexWord(std::string_view s) {
  if (s.size() < 3 || s[0] != '0' || s[1] != 'x') return std::nullopt;
  size_t n = 2;
  while (n < s.size() && n < 18 && std::isxdigit(static_cast<unsigned char>(s[n]))) ++n;
  return toUnsigned(s.substr(2, n - 2), 16);
}

/// Marks a register operand whose index is beyond the architecture's register file.
constexpr int kBadRegister = -2;

/// Register-like token: R12, RZ, UR4, URZ, P0, PT, UP1, UPT, SR_TID.X; with .64/.128 and
/// .reuse / .H0 suffixes.
std::optional<SassOperand> parseRegister(std::string t) {
  SassOperand op;
  op.text = t;
  while (!t.empty() && (t[0] == '-' || t[0] == '!' || t[0] == '~' || t[0] == '|')) {
    op.negated = true;
    t = t.substr(1);
  }
  if (!t.empty() && t.back() == '|') t.pop_back();
  if (t.rfind("SR_", 0) == 0) {
    op.kind = SassOperand::Kind::Special;
    return op;
  }
  std::string base = t.substr(0, t.find('.'));
  std::string suffix = t.find('.') == std::string::npos ? "" : t.substr(t.find('.'));
  if (suffix.find(".64") != std::string::npos) op.width = 2;
  if (suffix.find(".128") != std::string::npos) op.width = 4;
  if (suffix.find(".U32") != std::string::npos) op.u32 = true;
  if (const size_t x = suffix.find(".X"); x != std::string::npos) {
    op.scale = static_cast<int>(std::max(1L, std::strtol(suffix.c_str() + x + 2, nullptr, 10)));
  }
  struct Prefix {
    const char* p;
    SassOperand::Kind k;
    int zero;
  };
  static const Prefix kPrefixes[] = {{"UR", SassOperand::Kind::Uniform, 255}, {"UP", SassOperand::Kind::UniformPredicate, 7},
                                     {"R", SassOperand::Kind::Register, 255}, {"P", SassOperand::Kind::Predicate, 7}};
  // The highest index of each file: R0–R254 (RZ is 255), UR0–UR62, P0–P6 and UP0–UP6 (PT, UPT).
  for (const Prefix& pr : kPrefixes) {
    const std::string p = pr.p;
    if (base.rfind(p, 0) != 0) continue;
    const std::string rest = base.substr(p.size());
    if (rest == "Z" || rest == "T") {
      op.kind = pr.k;
      op.reg = pr.zero;
      return op;
    }
    if (!rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      op.kind = pr.k;
      const int highest = pr.k == SassOperand::Kind::Register ? 254 : pr.k == SassOperand::Kind::Uniform ? 62 : 6;
      const std::optional<long long> index = toInteger(rest);
      op.reg = index && *index <= highest ? static_cast<int>(*index) : kBadRegister;
      return op;
    }
  }
  return std::nullopt;
}

SassOperand parseOperand(const std::string& text) {
  SassOperand op;
  op.text = text;
  std::string t = trim(text);
  if (t.empty()) return op;
  // Branch target: `(.L_x_0)
  if (t[0] == '`') {
    op.kind = SassOperand::Kind::Label;
    const size_t a = t.find('('), b = t.find(')');
    op.text = a != std::string::npos && b != std::string::npos ? t.substr(a + 1, b - a - 1) : t.substr(1);
    return op;
  }
  // Constant bank: c[0x0][0x210] or cx[UR4][...]
  if ((t.rfind("c[", 0) == 0 || t.rfind("cx[", 0) == 0 || t.rfind("-c[", 0) == 0 || t.rfind("|c[", 0) == 0)) {
    op.kind = SassOperand::Kind::Constant;
    const size_t a = t.find('['), b = t.find(']');
    long long bank = -1;
    if (parseNumber(t.substr(a + 1, b - a - 1), bank)) op.bank = static_cast<int>(bank);
    const size_t c = t.find('[', b), d = t.find(']', c);
    if (c != std::string::npos) {
      for (const std::string& part : splitTopLevelCommas(t.substr(c + 1, d - c - 1))) {
        std::string inner = part;
        size_t plus = inner.find('+');
        while (true) {
          std::string piece = trim(inner.substr(0, plus));
          long long v = 0;
          if (parseNumber(piece, v)) op.offset += v;
          else if (auto r = parseRegister(piece)) op.parts.push_back(*r);
          if (plus == std::string::npos) break;
          inner = inner.substr(plus + 1);
          plus = inner.find('+');
        }
      }
    }
    return op;
  }
  // Memory: [R2.64+0x10], desc[UR4][R2.64], [UR4+0x80]
  if (t.find('[') != std::string::npos) {
    op.kind = SassOperand::Kind::Memory;
    op.descriptor = t.find("desc[") != std::string::npos;
    size_t pos = 0;
    while ((pos = t.find('[', pos)) != std::string::npos) {
      const size_t end = t.find(']', pos);
      std::string inner = t.substr(pos + 1, end - pos - 1);
      std::string cur;
      auto flush = [&]() {
        std::string piece = trim(cur);
        cur.clear();
        if (piece.empty()) return;
        long long v = 0;
        if (parseNumber(piece, v)) op.offset += v;
        else if (auto r = parseRegister(piece)) op.parts.push_back(*r);
      };
      for (size_t i = 0; i < inner.size(); ++i) {
        if (inner[i] == '+') {
          flush();
        } else if (inner[i] == '-' && i > 0) {
          flush();
          cur.assign(1, '-');  // (not `= "-"`: GCC 12 reports a false -Wrestrict there)
        } else {
          cur += inner[i];
        }
      }
      flush();
      pos = end;
    }
    return op;
  }
  if (auto r = parseRegister(t)) return *r;
  long long v = 0;
  std::string num = t;
  if (!num.empty() && (num[0] == '-' || num[0] == '|')) num = num.substr(num[0] == '|' ? 1 : 0);
  if (parseNumber(num, v)) {
    op.kind = SassOperand::Kind::Immediate;
    op.offset = v;
    op.integer = true;
    return op;
  }
  op.kind = SassOperand::Kind::Immediate;  // float immediates (1.5, +INF, QNAN) and keywords
  return op;
}

int memoryWidth(const std::vector<std::string>& mods) {
  int w = 4;
  for (const std::string& m : mods) {
    if (m == "U8" || m == "S8") w = 1;
    if (m == "U16" || m == "S16") w = 2;
    if (m == "64") w = 8;
    if (m == "128") w = 16;
  }
  return w;
}

bool isMemoryMnemonic(const std::string& m) {
  static const char* kMem[] = {"LDG", "STG", "LD", "ST", "LDS", "STS", "LDL", "STL", "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "LDSM", "STSM", "LDGSTS"};
  for (const char* k : kMem) {
    if (m == k) return true;
  }
  return false;
}

/// Expands the subroutine calls of `fn` (see SassFunction).
void expandSubroutines(SassFunction& fn) {
  std::vector<SassInstruction>& code = fn.instructions;
  const size_t original = code.size();
  // Subroutines: [start, next subroutine or the end).
  std::map<std::string, std::pair<size_t, size_t>> subs;
  std::vector<std::pair<long long, std::string>> starts;
  for (const auto& [label, offset] : fn.labels) {
    // A subroutine label past the listed code (a cut listing) starts nothing.
    if (label.rfind("$", 0) == 0 && offset >= 0 && offset / 16 < static_cast<long long>(original)) starts.emplace_back(offset, label);
  }
  std::sort(starts.begin(), starts.end());
  for (size_t k = 0; k < starts.size(); ++k) {
    const size_t end = k + 1 < starts.size() ? static_cast<size_t>(starts[k + 1].first / 16) : original;
    subs[starts[k].second] = {static_cast<size_t>(starts[k].first / 16), end};
  }
  // The `.L` labels inside each subroutine, as listed: every copy gets them with its suffix
  // (copies land after the original code, so no copied label falls inside a subroutine).
  std::map<std::string, std::vector<std::pair<std::string, long long>>> subLabels;
  for (const auto& [label, range] : subs) {
    for (const auto& [name, offset] : fn.labels) {
      if (name.rfind(".L", 0) == 0 && offset >= static_cast<long long>(range.first) * 16 &&
          offset < static_cast<long long>(range.second) * 16) {
        subLabels[label].emplace_back(name, offset);
      }
    }
  }
  std::map<std::string, bool> withLines;  // subroutines with line info of their own
  for (const auto& [label, range] : subs) {
    bool any = false;
    for (size_t i = range.first; i < range.second; ++i) any = any || code[i].sourceLine > 0;
    withLines[label] = any;
  }
  auto shortName = [](const std::string& label) { return label.substr(label.rfind('$') + 1); };
  auto where = [](const SassInstruction& i) {
    const std::string f = i.sourceFile.substr(i.sourceFile.rfind('/') + 1);
    return (f.empty() ? "?" : f) + ":" + std::to_string(i.sourceLine);
  };
  auto note = [&](std::string text) {
    if (std::find(fn.notes.begin(), fn.notes.end(), text) == fn.notes.end()) fn.notes.push_back(std::move(text));
  };
  const size_t kernelEnd = starts.empty() ? original : static_cast<size_t>(starts.front().first / 16);
  // ptxas guards a library slow path with a branch around its call (`@!P0 BRA` over `MOV`s and
  // the `CALL`): the branch is marked, and on data the run does not track it skips the call, as
  // normal data does (the slow path serves zero, subnormal, infinite and NaN operands and results
  // at the ends of the float range).
  {
    constexpr size_t kGuardReach = 8;  // instructions a guard may jump over
    for (size_t i = 0; i < kernelEnd; ++i) {
      SassInstruction& b = code[i];
      if (b.mnemonic != "BRA" || b.guard < 0 || b.target.empty()) continue;
      const auto label = fn.labels.find(b.target);
      if (label == fn.labels.end() || label->second <= b.offset) continue;
      for (size_t j = i + 1; j < kernelEnd && j <= i + kGuardReach && code[j].offset < label->second; ++j) {
        const auto sub = withLines.find(code[j].target);
        if (code[j].mnemonic != "CALL" || sub == withLines.end() || sub->second) continue;
        b.skipsSlowPath = true;
        note(where(b) + ": the branch around '" + shortName(code[j].target) + "' (library slow path) skips it when it "
             "depends on data the run does not track, as normal data does (the slow path serves zero, subnormal, "
             "infinite or NaN operands and results at the ends of the float range)");
        break;
      }
    }
  }
  // Pending calls: (instruction index, the subroutines on the call chain above it).
  std::vector<std::pair<size_t, std::vector<std::string>>> work;
  for (size_t i = 0; i < kernelEnd; ++i) work.push_back({i, {}});
  int copies = 0;
  for (size_t w = 0; w < work.size(); ++w) {
    const size_t at = work[w].first;
    if (code[at].mnemonic != "CALL" || code[at].target.empty()) continue;
    const std::string callee = code[at].target;
    auto sub = subs.find(callee);
    const std::vector<std::string>& chain = work[w].second;
    if (sub == subs.end()) {
      code[at].target.clear();
      continue;
    }
    if (std::count(chain.begin(), chain.end(), callee) >= kMaxSassRecursion || code.size() > kMaxSassExpanded) {
      note(where(code[at]) + ": the recursion of '" + shortName(callee) + "' is expanded " + std::to_string(kMaxSassRecursion) +
           " calls deep in the SASS; a call below that counts as one instruction and leaves R0 and R2-R15 unknown");
      code[at].target.clear();
      continue;
    }
    const auto [first, end] = sub->second;
    const bool hasLines = withLines.at(callee);
    const SassInstruction site = code[at];
    const bool library = site.library || !hasLines;
    if (!hasLines && code[first].sourceLine == 0) {
      // The subroutine as listed (no longer reached): placed at its first call site.
      for (size_t i = first; i < end; ++i) {
        code[i].sourceFile = site.sourceFile;
        code[i].sourceLine = site.sourceLine;
      }
    }
    const std::string suffix = "$c" + std::to_string(++copies);
    const std::string entry = callee + suffix, back = "$ret" + suffix;
    const long long base = static_cast<long long>(code.size()) * 16;
    fn.labels[entry] = base;
    fn.labels[back] = site.offset + 16;
    for (const auto& [label, offset] : subLabels[callee]) fn.labels[label + suffix] = base + offset - static_cast<long long>(first) * 16;
    std::vector<std::string> inner = chain;
    inner.push_back(callee);
    for (size_t i = first; i < end; ++i) {
      SassInstruction c = code[i];
      c.offset = static_cast<long long>(code.size()) * 16;
      c.inlinedFrom = shortName(callee);
      c.library = library;
      if (library) {
        c.sourceFile = site.sourceFile;
        c.sourceLine = site.sourceLine;
      }
      if (c.mnemonic == "RET") {
        c.mnemonic = "BRA";
        c.opcode = "BRA";
        c.mods.clear();
        c.operands.clear();
        c.target = back;
      } else if (c.target.rfind(".L", 0) == 0) {
        c.target += suffix;
      }
      if (c.mnemonic == "CALL") work.push_back({code.size(), inner});
      code.push_back(std::move(c));
    }
    SassInstruction& call = code[at];
    call.mnemonic = "BRA";
    call.mods.clear();
    call.target = entry;
    if (library && !site.library) {
      note(where(site) + ": '" + shortName(callee) + "' (library code without line info) is expanded in place in the SASS; "
           "its branches on unknown data take a default: loops leave after one pass, other branches fall through");
    }
  }
  for (size_t i = 0; i < code.size(); ++i) {
    if (code[i].mnemonic == "CALL" && code[i].target.empty() && i < kernelEnd) {
      note(where(code[i]) + ": '" + code[i].opcode + "' (an indirect call, printf's vprintf) counts as one instruction "
           "and leaves R0 and R2-R15 unknown");
    }
  }
}

}  // namespace

const SassFunction* SassListing::find(const std::string& mangled) const {
  for (const SassFunction& f : functions) {
    if (f.name == mangled) return &f;
  }
  return nullptr;
}

SassControl decodeControl(std::uint64_t hi) {
  const std::uint64_t c = hi >> 41;
  SassControl out;
  out.stall = static_cast<int>(c & 0xf);
  out.yield = ((c >> 4) & 1) != 0;
  out.writeBarrier = static_cast<int>((c >> 5) & 7);
  out.readBarrier = static_cast<int>((c >> 8) & 7);
  out.waitMask = static_cast<int>((c >> 11) & 0x3f);
  out.reuse = static_cast<int>((c >> 17) & 0xf);
  return out;
}

/// An Error when `op` (or a part of its address) names a register beyond its file, or a register
/// group (R254.64) that runs past it.
Expected<void> checkRegisters(const SassOperand& op) {
  const bool group = op.kind == SassOperand::Kind::Register || op.kind == SassOperand::Kind::Uniform;
  if (op.reg == kBadRegister || (group && op.reg != 255 && op.reg + op.width > (op.kind == SassOperand::Kind::Register ? 255 : 63))) {
    return makeError("register '" + trim(op.text) + "' is out of range (R0–R254, UR0–UR62, P0–P6, UP0–UP6)");
  }
  for (const SassOperand& part : op.parts) {
    if (Expected<void> ok = checkRegisters(part); !ok) return ok;
  }
  return {};
}

Expected<SassListing> parseSass(std::string_view text, const std::string& file) {
  SassListing listing;
  std::istringstream in{std::string(text)};
  std::string line;
  int lineNo = 0;
  SassFunction* fn = nullptr;
  std::string curFile;
  int curLine = 0;
  // fn's last instruction awaits its high encoding word (a flag, not a pointer into the
  // growing instruction vector).
  bool last = false;
  std::vector<int> sectionLines;     // line of each function's .section
  while (std::getline(in, line)) {
    ++lineNo;
    const std::string t = trim(line);
    if (t.empty()) continue;
    if (t.rfind(".section", 0) == 0 && t.find(".text.") != std::string::npos) {
      const size_t a = t.find(".text.") + 6;
      const size_t b = t.find_first_of(",\" \t", a);
      listing.functions.push_back(SassFunction{t.substr(a, b - a), {}, {}, {}});
      sectionLines.push_back(lineNo);
      fn = &listing.functions.back();
      last = false;
      continue;
    }
    if (t.rfind("//##", 0) == 0) {
      // `//## File "hdr", line 112 inlined at "k.cu", line 10` (nvdisasm -gi): code inlined
      // from a header belongs to its outermost call site, as in the PTX (the last file and line).
      const size_t q2 = t.rfind('"'), q1 = q2 == std::string::npos || q2 == 0 ? std::string::npos : t.rfind('"', q2 - 1);
      const size_t ln = t.rfind("line ");
      if (q1 != std::string::npos && q2 != std::string::npos && q1 < q2) curFile = t.substr(q1 + 1, q2 - q1 - 1);
      if (ln != std::string::npos) {
        const std::string digits = t.substr(ln + 5, t.find_first_not_of("0123456789", ln + 5) - ln - 5);
        const std::optional<long long> l = toInteger(digits);
        if (!l || *l > INT_MAX) return makeError("malformed line information '" + t + "'", file, lineNo);
        curLine = static_cast<int>(*l);
      }
      continue;
    }
    if (t.rfind("/* 0x", 0) == 0 && last) {
      SassInstruction& prev = fn->instructions.back();
      prev.encodingHi = hexWord(std::string_view(t).substr(3));
      if (!prev.encodingHi) return makeError("malformed instruction encoding '" + t + "'", file, lineNo);
      prev.control = decodeControl(*prev.encodingHi);
      last = false;
      continue;
    }
    if (!fn) continue;
    if (t.back() == ':' && (t.rfind(".L", 0) == 0 || t.rfind("$", 0) == 0)) {
      const long long next = fn->instructions.empty() ? 0 : fn->instructions.back().offset + 16;
      fn->labels[t.substr(0, t.size() - 1)] = next;
      if (t[0] == '$') {  // a subroutine: its own line info, if any
        curFile.clear();
        curLine = 0;
      }
      continue;
    }
    if (t.rfind("/*", 0) != 0) continue;
    const size_t close = t.find("*/");
    if (close == std::string::npos) continue;
    SassInstruction inst;
    const std::string offsetText = t.substr(2, close - 2);
    const std::optional<long long> offset = toInteger(offsetText, 16);
    if (!offset || *offset < 0) continue;  // a comment, not an instruction
    inst.offset = *offset;
    // nvdisasm lists a function's instructions 16 bytes apart from 0; branch targets and
    // subroutines are found by offset / 16.
    if (inst.offset != static_cast<long long>(fn->instructions.size()) * 16) {
      char expected[32];
      std::snprintf(expected, sizeof expected, "%04llx", static_cast<unsigned long long>(fn->instructions.size() * 16));
      return makeError("instruction /*" + offsetText + "*/ is out of sequence (expected /*" + expected + "*/ in '" + fn->name + "')",
                       file, lineNo);
    }
    std::string body = t.substr(close + 2);
    const size_t semi = body.find(';');
    if (semi == std::string::npos) return makeError("instruction without ';'", file, lineNo);
    const std::string after = body.substr(semi + 1);
    body = trim(body.substr(0, semi));
    if (const size_t enc = after.find("/* 0x"); enc != std::string::npos) {
      inst.encodingLo = hexWord(std::string_view(after).substr(enc + 3));
      if (!inst.encodingLo) return makeError("malformed instruction encoding '" + trim(after) + "'", file, lineNo);
    }
    if (!body.empty() && body[0] == '@') {
      size_t sp = body.find_first_of(" \t");
      if (sp == std::string::npos) return makeError("guard '" + body + "' without an instruction", file, lineNo);
      std::string g = body.substr(1, sp - 1);
      if (!g.empty() && g[0] == '!') {
        inst.guardNegated = true;
        g = g.substr(1);
      }
      if (auto r = parseRegister(g)) {
        if (r->reg == kBadRegister) return makeError("predicate '" + g + "' is out of range (P0–P6, UP0–UP6)", file, lineNo);
        inst.guard = r->reg;
        inst.guardUniform = r->kind == SassOperand::Kind::UniformPredicate;
      }
      body = trim(body.substr(sp));
    }
    const size_t sp = body.find_first_of(" \t");
    inst.opcode = body.substr(0, sp);
    std::stringstream parts(inst.opcode);
    std::string part;
    std::getline(parts, inst.mnemonic, '.');
    while (std::getline(parts, part, '.')) inst.mods.push_back(part);
    if (sp != std::string::npos) {
      for (const std::string& o : splitTopLevelCommas(body.substr(sp))) {
        SassOperand op = parseOperand(o);
        if (op.kind == SassOperand::Kind::Label) inst.target = op.text;
        inst.operands.push_back(std::move(op));
      }
    }
    // `CALL.REL.NOINC .L_x` pushes no return address: a jump (ptxas leaves a long unrolled
    // loop with `@P0 CALL.REL.NOINC exit; BRA top`). Read it as the branch it is. A call of a
    // subroutine (`$kernel$callee`) is expanded below; any other call stays a CALL.
    if (inst.mnemonic == "CALL" && inst.target.rfind(".L", 0) == 0 &&
        std::find(inst.mods.begin(), inst.mods.end(), "NOINC") != inst.mods.end()) {
      inst.mnemonic = "BRA";
      inst.mods.clear();
    }
    if (inst.mnemonic == "CALL" && inst.target.rfind("$", 0) != 0) inst.target.clear();
    if (isMemoryMnemonic(inst.mnemonic)) inst.memoryWidthBytes = memoryWidth(inst.mods);
    // A 64/128-bit data register group follows the access width.
    if (inst.memoryWidthBytes >= 8) {
      for (SassOperand& op : inst.operands) {
        if (op.kind == SassOperand::Kind::Register && op.reg != 255) op.width = inst.memoryWidthBytes / 4;
      }
    }
    // ldmatrix/stmatrix: each addressing lane names a 16-byte row; one data register per matrix.
    if (const int rowLanes = inst.matrixRowLanes(); rowLanes > 0) {
      inst.memoryWidthBytes = 16;
      for (SassOperand& op : inst.operands) {
        if (op.kind == SassOperand::Kind::Register && op.reg != 255) op.width = rowLanes / 8;
      }
    }
    for (const SassOperand& op : inst.operands) {
      if (Expected<void> ok = checkRegisters(op); !ok) return makeError(ok.error().message, file, lineNo);
    }
    inst.sourceFile = curFile;
    inst.sourceLine = curLine;
    fn->instructions.push_back(std::move(inst));
    last = fn->instructions.back().encodingLo.has_value();
  }
  if (listing.functions.empty()) return makeError("no functions in the SASS listing", file, 0);
  for (size_t f = 0; f < listing.functions.size(); ++f) {
    if (listing.functions[f].instructions.empty()) {
      return makeError("function '" + listing.functions[f].name + "' has no instructions (is the listing cut short?)", file,
                       sectionLines[f]);
    }
  }
  for (SassFunction& f : listing.functions) expandSubroutines(f);
  return listing;
}

}  // namespace foresight::cuda
