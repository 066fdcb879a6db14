// SPDX-License-Identifier: Apache-2.0
/// \file
/// One-warp SASS control-flow execution with per-lane 32-bit known/unknown integer values.
#include "foresight/frontend/cuda/sass_interpreter.h"

#include <algorithm>
#include <array>
#include <map>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <bit>
#include <cmath>
#include <cstdint>

#include "foresight/frontend/cuda/loop_folding.h"
#include "foresight/frontend/cuda/ptx_cfg.h"
#include "foresight/frontend/cuda/sass_ptx_map.h"
#include "foresight/frontend/cuda/warp_interpreter.h"
#include "foresight/support/strings.h"

namespace foresight::cuda {

namespace {

constexpr int kLanes = 32;

std::string fmt_hex(long long v) {
  static const char* kHex = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), kHex[v & 15]);
    v >>= 4;
  } while (v);
  while (s.size() < 4) s.insert(s.begin(), '0');
  return s;
}

struct V {
  std::uint32_t v = 0;
  bool known = false;
};

struct Lanes {
  std::array<std::array<V, 256>, kLanes> r{};
  std::array<std::array<V, 64>, kLanes> ur{};
  std::array<std::array<V, 8>, kLanes> p{};
  std::array<std::array<V, 8>, kLanes> up{};
};

bool hasMod(const SassInstruction& i, const char* m) {
  for (const std::string& x : i.mods) {
    if (x == m) return true;
  }
  return false;
}

/// I2F / I2FP to F32: the 32-bit integer (S32 by default, .U32) as a float, rounded as the
/// modifier says (.RP up, .RM down, .RZ toward zero, nearest by default); nullopt for another
/// source or destination type (64-, 16- or 8-bit integers; F64, F16).
std::optional<std::uint32_t> intToFloatBits(const SassInstruction& in, std::uint32_t bits) {
  for (const char* other : {"F64", "F16", "BF16", "S64", "U64", "S16", "U16", "S8", "U8"}) {
    if (hasMod(in, other)) return std::nullopt;  // only 32-bit integers to F32
  }
  const bool isSigned = !hasMod(in, "U32");
  const double exact = isSigned ? static_cast<double>(static_cast<std::int32_t>(bits)) : static_cast<double>(bits);
  float f = static_cast<float>(exact);  // nearest, ties to even
  if (hasMod(in, "RP") && static_cast<double>(f) < exact) f = std::nextafter(f, INFINITY);
  if (hasMod(in, "RM") && static_cast<double>(f) > exact) f = std::nextafter(f, -INFINITY);
  if (hasMod(in, "RZ") && std::fabs(static_cast<double>(f)) > std::fabs(exact)) f = std::nextafter(f, 0.0f);
  return std::bit_cast<std::uint32_t>(f);
}

/// F2I / F2IP from F32: the float rounded (.TRUNC, .FLOOR, .CEIL; nearest by default) and
/// saturated to the destination (.U32, S32 by default), NaN as 0; nullopt for other types.
std::optional<std::uint32_t> floatToIntBits(const SassInstruction& in, std::uint32_t bits) {
  if (hasMod(in, "F64") || hasMod(in, "S64") || hasMod(in, "U64") || hasMod(in, "F16")) return std::nullopt;
  const double x = static_cast<double>(std::bit_cast<float>(bits));
  if (std::isnan(x)) return 0u;
  const double r = hasMod(in, "TRUNC") ? std::trunc(x) : hasMod(in, "FLOOR") ? std::floor(x)
                   : hasMod(in, "CEIL") ? std::ceil(x) : std::nearbyint(x);
  if (hasMod(in, "U32")) return static_cast<std::uint32_t>(std::clamp(r, 0.0, 4294967295.0));
  return static_cast<std::uint32_t>(static_cast<std::int32_t>(std::clamp(r, -2147483648.0, 2147483647.0)));
}

bool isPred(const SassOperand& o) {
  return o.kind == SassOperand::Kind::Predicate || o.kind == SassOperand::Kind::UniformPredicate;
}
bool isReg(const SassOperand& o) { return o.kind == SassOperand::Kind::Register || o.kind == SassOperand::Kind::Uniform; }

/// LOP3/PLOP3 truth table applied bitwise.
std::uint32_t lut3(std::uint32_t a, std::uint32_t b, std::uint32_t c, unsigned lut) {
  std::uint32_t r = 0;
  for (unsigned i = 0; i < 8; ++i) {
    if (!((lut >> i) & 1)) continue;
    r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  }
  return r;
}

/// Opcode, modifiers and comparison of one instruction, decoded once per run (the interpreter
/// executes each instruction for 32 lanes; string compares there dominated its time).
enum class Op : std::uint8_t {
  kOther,
  kBAR,
  kBPT,
  kBRA,
  kBSSY,
  kBSYNC,
  kCALL,
  kCCTL,
  kCS2R,
  kDEPBAR,
  kERRBAR,
  kEXIT,
  kFSEL,
  kF2I,
  kHFMA2,
  kI2F,
  kIABS,
  kIADD3,
  kIMAD,
  kIMNMX,
  kISETP,
  kJMP,
  kLD,
  kLDC,
  kLDG,
  kLDL,
  kLEA,
  kLOP3,
  kMEMBAR,
  kMOV,
  kMUFU,
  kNOP,
  kPLOP3,
  kR2UR,
  kRED,
  kRET,
  kS2R,
  kS2UR,
  kSEL,
  kSHF,
  kST,
  kSTG,
  kSTL,
  kSTS,
  kUIADD3,
  kUIMAD,
  kUIMNMX,
  kUISETP,
  kULDC,
  kULEA,
  kULOP3,
  kUMOV,
  kUPLOP3,
  kUSEL,
  kUSHF,
  kVIADD,
  kVIADDMNMX,
  kWARPSYNC,
  kYIELD,
};
enum class Cmp : std::uint8_t { kOther, kLt, kLe, kGt, kGe, kEq, kNe };
enum class Bop : std::uint8_t { kNone, kAnd, kOr, kXor };
constexpr unsigned kMod64 = 1u << 0;
constexpr unsigned kModDIV = 1u << 1;
constexpr unsigned kModEX = 1u << 2;
constexpr unsigned kModHI = 1u << 3;
constexpr unsigned kModL = 1u << 4;
constexpr unsigned kModS32 = 1u << 5;
constexpr unsigned kModSX32 = 1u << 6;
constexpr unsigned kModU32 = 1u << 7;
constexpr unsigned kModWIDE = 1u << 8;
constexpr unsigned kModX = 1u << 9;
constexpr unsigned kMod32 = 1u << 10;
constexpr unsigned kModU64 = 1u << 11;
constexpr unsigned kModS64 = 1u << 12;
constexpr unsigned kModW = 1u << 13;
constexpr unsigned kModRCP = 1u << 14;
constexpr unsigned kModE = 1u << 15;  ///< Volta/Turing extended (64-bit) global address
constexpr std::pair<const char*, unsigned> kModNames[] = {
    {"64", kMod64}, {"DIV", kModDIV}, {"EX", kModEX},   {"HI", kModHI},   {"L", kModL},     {"S32", kModS32},
    {"SX32", kModSX32}, {"U32", kModU32}, {"WIDE", kModWIDE}, {"X", kModX}, {"32", kMod32}, {"U64", kModU64},
    {"S64", kModS64}, {"W", kModW}, {"RCP", kModRCP}, {"E", kModE}};
const std::map<std::string, Op>& opTable() {
  static const std::map<std::string, Op> kTable = {
      {"BAR", Op::kBAR},
      {"BPT", Op::kBPT},
      {"BRA", Op::kBRA},
      {"BSSY", Op::kBSSY},
      {"BSYNC", Op::kBSYNC},
      {"CALL", Op::kCALL},
      {"CCTL", Op::kCCTL},
      {"CS2R", Op::kCS2R},
      {"DEPBAR", Op::kDEPBAR},
      {"ERRBAR", Op::kERRBAR},
      {"EXIT", Op::kEXIT},
      {"FSEL", Op::kFSEL},
      {"F2I", Op::kF2I},
      {"F2IP", Op::kF2I},
      {"HFMA2", Op::kHFMA2},
      {"I2F", Op::kI2F},
      {"I2FP", Op::kI2F},
      {"IABS", Op::kIABS},
      {"IADD3", Op::kIADD3},
      {"IMAD", Op::kIMAD},
      {"IMNMX", Op::kIMNMX},
      {"ISETP", Op::kISETP},
      {"JMP", Op::kJMP},
      {"LD", Op::kLD},
      {"LDC", Op::kLDC},
      {"LDG", Op::kLDG},
      {"LDL", Op::kLDL},
      {"LEA", Op::kLEA},
      {"LOP3", Op::kLOP3},
      {"MEMBAR", Op::kMEMBAR},
      {"MOV", Op::kMOV},
      {"MUFU", Op::kMUFU},
      {"NOP", Op::kNOP},
      {"PLOP3", Op::kPLOP3},
      {"R2UR", Op::kR2UR},
      {"RED", Op::kRED},
      {"RET", Op::kRET},
      {"S2R", Op::kS2R},
      {"S2UR", Op::kS2UR},
      {"SEL", Op::kSEL},
      {"SHF", Op::kSHF},
      {"ST", Op::kST},
      {"STG", Op::kSTG},
      {"STL", Op::kSTL},
      {"STS", Op::kSTS},
      {"UIADD3", Op::kUIADD3},
      {"UIMAD", Op::kUIMAD},
      {"UIMNMX", Op::kUIMNMX},
      {"UISETP", Op::kUISETP},
      {"ULDC", Op::kULDC},
      {"ULEA", Op::kULEA},
      {"ULOP3", Op::kULOP3},
      {"UMOV", Op::kUMOV},
      {"UPLOP3", Op::kUPLOP3},
      {"USEL", Op::kUSEL},
      {"USHF", Op::kUSHF},
      {"VIADD", Op::kVIADD},
      {"VIADDMNMX", Op::kVIADDMNMX},
      {"WARPSYNC", Op::kWARPSYNC},
      {"YIELD", Op::kYIELD},
  };
  return kTable;
}

struct Decoded {
  Op op = Op::kOther;
  unsigned mods = 0;
  Cmp cmp = Cmp::kOther;
  Bop bop = Bop::kNone;
  bool noDestination = false;  ///< stores, branches, barriers
};

Decoded decode(const SassInstruction& in) {
  Decoded d;
  if (auto it = opTable().find(in.mnemonic); it != opTable().end()) d.op = it->second;
  for (const std::string& m : in.mods) {
    for (const auto& [name, bit] : kModNames) {
      if (m == name) d.mods |= bit;
    }
    if (m == "AND") d.bop = Bop::kAnd;
    if (m == "OR") d.bop = Bop::kOr;
    if (m == "XOR") d.bop = Bop::kXor;
  }
  if (!in.mods.empty()) {
    static const std::pair<const char*, Cmp> kCmp[] = {{"LT", Cmp::kLt}, {"LE", Cmp::kLe}, {"GT", Cmp::kGt},
                                                        {"GE", Cmp::kGe}, {"EQ", Cmp::kEq}, {"NE", Cmp::kNe}};
    for (const auto& [name, c] : kCmp) {
      if (in.mods[0] == name) d.cmp = c;
    }
  }
  static const Op kNoDst[] = {Op::kSTG, Op::kSTS, Op::kSTL, Op::kST, Op::kRED, Op::kBRA, Op::kEXIT, Op::kBAR, Op::kBSSY,
                              Op::kBSYNC, Op::kNOP, Op::kWARPSYNC, Op::kYIELD, Op::kDEPBAR, Op::kMEMBAR, Op::kRET,
                              Op::kCALL, Op::kBPT, Op::kERRBAR, Op::kCCTL};
  for (Op o : kNoDst) d.noDestination = d.noDestination || d.op == o;
  return d;
}

/// IEEE binary16 bits of a decimal FP16 immediate as nvdisasm prints it ("0", "-2", "0.5",
/// "2.384185791015625e-07"); empty when the text is not a number or not exact in FP16.
std::optional<std::uint16_t> halfBits(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  if (a == 0) return sign;
  int exponent = 0;
  const double mantissa = std::frexp(a, &exponent);  // a = mantissa × 2^exponent, mantissa in [0.5, 1)
  const int e = exponent - 1 + 15;                    // biased FP16 exponent
  if (e >= 31) return std::nullopt;
  if (e <= 0) {  // subnormal: a = m × 2^-24
    const double m = a / std::ldexp(1.0, -24);
    if (m != std::floor(m) || m >= 1024) return std::nullopt;
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(m));
  }
  const double frac = (mantissa * 2 - 1) * 1024;
  if (frac != std::floor(frac)) return std::nullopt;
  return static_cast<std::uint16_t>(sign | e << 10 | static_cast<std::uint16_t>(frac));
}

}  // namespace

bool isSassAtomic(const SassInstruction& i) {
  const std::string& m = i.mnemonic;
  return m == "ATOM" || m == "ATOMG" || m == "ATOMS" || m == "RED" || m == "REDG";
}

Expected<SassWarpCount> runSassWarp(const SassFunction& fn, const SassRunOptions& o, long long blockIndex, int warp) {
  if (!o.layout) return makeError("the SASS count needs the cubin's parameter layout");
  const std::vector<SassInstruction>& code = fn.instructions;
  const int n = static_cast<int>(code.size());
  std::vector<Decoded> decoded(n);
  for (int i = 0; i < n; ++i) decoded[i] = decode(code[i]);
  auto indexOf = [&](const std::string& label) -> int {
    auto it = fn.labels.find(label);
    return it == fn.labels.end() ? -1 : static_cast<int>(it->second / 16);
  };
  // Basic blocks.
  PtxCfg cfg;
  std::vector<char> leader(n + 1, 0);
  leader[0] = 1;
  for (int i = 0; i < n; ++i) {
    if (code[i].offset != static_cast<long long>(i) * 16) return makeError("SASS listing of '" + fn.name + "' is not contiguous");
    const std::string& m = code[i].mnemonic;
    if (m == "BRA" || m == "EXIT" || m == "RET" || m == "JMP") leader[i + 1] = 1;
    if (!code[i].target.empty()) {
      const int t = indexOf(code[i].target);
      if (t < 0 || t > n) return makeError("SASS branch to unknown label '" + code[i].target + "'");
      leader[t] = 1;
    }
  }
  cfg.blockOf.assign(n, -1);
  for (int i = 0; i < n;) {
    PtxBlock b;
    b.first = i;
    do {
      cfg.blockOf[i++] = static_cast<int>(cfg.blocks.size());
    } while (i < n && !leader[i]);
    b.end = i;
    cfg.blocks.push_back(b);
  }
  const int nb = static_cast<int>(cfg.blocks.size());
  std::vector<char> mayExit(nb, 0);
  for (int bi = 0; bi < nb; ++bi) {
    PtxBlock& b = cfg.blocks[bi];
    const SassInstruction& last = code[b.end - 1];
    const bool next = bi + 1 < nb;
    const bool guarded = last.guard >= 0 && last.guard != 7;
    if (last.mnemonic == "BRA" && !hasMod(last, "DIV")) {
      b.taken = cfg.blockOf[indexOf(last.target)];
      if (guarded && next) b.fallthrough = bi + 1;
    } else if (last.mnemonic == "EXIT" || last.mnemonic == "RET") {
      mayExit[bi] = 1;
      if (guarded && next) b.fallthrough = bi + 1;
    } else if (next) {
      b.fallthrough = bi + 1;
    } else {
      mayExit[bi] = 1;
    }
    if (b.taken >= 0) b.successors.push_back(b.taken);
    if (b.fallthrough >= 0 && b.fallthrough != b.taken) b.successors.push_back(b.fallthrough);
  }
  analyseCfg(cfg, mayExit);

  // Loads that produce a hinted loop's bounds (as in WarpInterpreter): global loads on the
  // hinted line outside every loop whose exit test is on that line.
  std::map<int, std::pair<long long, bool>> boundLoads;
  // The source of a register copy (MOV d, s; IMAD.MOV d, RZ, RZ, s), or null.
  const auto copySource = [](const SassInstruction& in) -> const SassOperand* {
    if (in.mnemonic == "MOV" && in.operands.size() == 2) return &in.operands[1];
    const bool imadMov = in.mnemonic == "IMAD" && std::find(in.mods.begin(), in.mods.end(), "MOV") != in.mods.end();
    return imadMov && in.operands.size() == 4 ? &in.operands[3] : nullptr;
  };
  for (const TripHint& h : o.trips) {
    std::vector<int> loads;
    LoopStep step;  // the hinted loop's step (below)
    for (int i = 0; i < n; ++i) {
      const SassInstruction& in = code[i];
      if (in.sourceLine != h.line || (in.mnemonic != "LDG" && in.mnemonic != "LD")) continue;
      if (!endsWithPath(in.sourceFile, h.file)) continue;
      if (!inLoopTestedOnLine(cfg, cfg.blockOf[i], h.line, [&](int k) { return code[k].sourceLine; })) loads.push_back(i);
    }
    // The initial value of a `for` over several lines (as in WarpInterpreter): a load outside
    // the loop into the induction variable (stepped by VIADD r, r, imm or IADD3 r, r, imm, RZ
    // inside it), directly or through MOV / IMAD.MOV.
    {
      const auto lineOf = [&](int k) { return endsWithPath(code[k].sourceFile, h.file) ? code[k].sourceLine : -1; };
      const std::vector<char> inHinted = blocksOfLoopsTestedOnLine(cfg, h.line, lineOf);
      const auto reg = [](const SassOperand& op) {
        return op.kind == SassOperand::Kind::Register && op.width == 1 && op.reg != 255 && !op.negated ? op.reg : -1;
      };
      std::vector<int> induction;
      for (int i = 0; i < n; ++i) {
        const SassInstruction& in = code[i];
        if (!inHinted[cfg.blockOf[i]] || in.operands.size() < 3 || reg(in.operands[0]) < 0 || reg(in.operands[0]) != reg(in.operands[1])) continue;
        const bool viadd = in.mnemonic == "VIADD" && in.operands.size() == 3;
        const bool iadd3 = in.mnemonic == "IADD3" && in.operands.size() == 4 && in.operands[3].reg == 255;
        if ((viadd || iadd3) && in.operands[2].kind == SassOperand::Kind::Immediate) {
          induction.push_back(reg(in.operands[0]));
          if (in.operands[2].integer) step.stepped(reg(in.operands[0]), in.operands[2].offset);
        }
      }
      for (int i = 0; i < n; ++i) {
        if (!inHinted[cfg.blockOf[i]] || code[i].mnemonic != "ISETP") continue;
        for (const SassOperand& op : code[i].operands) step.compared(reg(op));
      }
      const auto has = [](const std::vector<int>& v, int r) { return r >= 0 && std::find(v.begin(), v.end(), r) != v.end(); };
      std::vector<int> seeds = induction;
      for (int i = 0; i < n; ++i) {
        if (inHinted[cfg.blockOf[i]] || code[i].operands.empty() || !has(induction, reg(code[i].operands[0]))) continue;
        if (const SassOperand* from = copySource(code[i])) seeds.push_back(reg(*from));
      }
      for (int i = 0; i < n && !induction.empty(); ++i) {
        const SassInstruction& in = code[i];
        if (inHinted[cfg.blockOf[i]] || in.sourceLine == h.line || (in.mnemonic != "LDG" && in.mnemonic != "LD")) continue;
        if (!in.operands.empty() && has(seeds, reg(in.operands[0]))) loads.push_back(i);
      }
    }
    // A start and a count (boundLoadRoles): two of them added by an IADD3 or IMAD.IADD; the start
    // also indexes or seeds the induction variable (IMAD.WIDE, LEA, SHF, IMAD.MOV, MOV).
    std::map<int, int> loadOf;  // destination R register → load
    for (int i : loads) {
      const SassOperand& d = code[i].operands.front();
      if (d.kind == SassOperand::Kind::Register && d.width == 1 && d.reg != 255) loadOf[d.reg] = i;
    }
    const auto loaded = [&](const SassOperand& op) {
      auto it = op.kind == SassOperand::Kind::Register && !op.negated ? loadOf.find(op.reg) : loadOf.end();
      return it == loadOf.end() ? -1 : it->second;
    };
    // Copies of a loaded value stand for it.
    for (int i = 0; i < n; ++i) {
      const SassOperand* from = copySource(code[i]);
      if (!from) continue;
      const SassOperand& d = code[i].operands[0];
      if (const int l = loaded(*from); l >= 0 && d.kind == SassOperand::Kind::Register && d.width == 1) loadOf.emplace(d.reg, l);
    }
    int summedA = -1, summedB = -1;
    std::map<int, int> indexUses;
    for (int i = 0; i < n; ++i) {
      const SassInstruction& in = code[i];
      if (in.operands.size() < 2) continue;
      // IADD3 d, a, b, c and IMAD.IADD d, a, 0x1, b (a + 1 × b) add two registers.
      const bool imadIadd = in.mnemonic == "IMAD" && std::find(in.mods.begin(), in.mods.end(), "IADD") != in.mods.end();
      if ((in.mnemonic == "IADD3" || imadIadd) && summedA < 0 && in.operands.size() >= 4) {
        const int a = loaded(in.operands[1]), b = loaded(in.operands[imadIadd ? 3 : 2]);
        if (a >= 0 && b >= 0 && a != b) summedA = a, summedB = b;
      }
      if (in.mnemonic == "IMAD" || in.mnemonic == "LEA" || in.mnemonic == "SHF" || in.mnemonic == "MOV") {
        for (size_t k = 1; k < in.operands.size(); ++k) {
          if (const int l = loaded(in.operands[k]); l >= 0) ++indexUses[l];
        }
      }
    }
    for (const auto& [i, asIndex] : boundLoadRoles(loads, summedA, summedB, indexUses)) {
      boundLoads[i] = {h.trips * step.step(), asIndex};
    }
  }

  // Launch values.
  const Launch& L = o.launch;
  const long long ctaid[3] = {blockIndex % L.grid.x, (blockIndex / L.grid.x) % L.grid.y, blockIndex / (L.grid.x * L.grid.y)};
  auto lanes = std::make_unique<Lanes>();
  std::uint32_t valid = 0;
  std::array<std::array<long long, 3>, kLanes> tid{};
  for (int lane = 0; lane < kLanes; ++lane) {
    const long long t = static_cast<long long>(warp) * kLanes + lane;
    if (t < L.block.count()) valid |= 1u << lane;
    tid[lane] = {t % L.block.x, (t / L.block.x) % L.block.y, t / (L.block.x * L.block.y)};
  }
  auto constant = [&](long long off) -> V {
    const long long dims[6] = {L.block.x, L.block.y, L.block.z, L.grid.x, L.grid.y, L.grid.z};
    if (off >= 0 && off < 24 && off % 4 == 0) return {static_cast<std::uint32_t>(dims[off / 4]), true};
    const long long rel = off - o.layout->paramBankOffset;
    for (const CubinParam& p : o.layout->params) {
      if (rel < p.offset || rel >= p.offset + p.size) continue;
      long long value = 0;
      if (std::find(o.pointerParams.begin(), o.pointerParams.end(), p.ordinal) != o.pointerParams.end()) {
        value = WarpInterpreter::pointerBase(p.ordinal);
      } else if (auto it = o.scalarArgs.find(p.ordinal); it != o.scalarArgs.end()) {
        value = it->second;
      } else {
        return {};
      }
      const long long word = (rel - p.offset) / 4;
      return {static_cast<std::uint32_t>(static_cast<unsigned long long>(value) >> (32 * word)), true};
    }
    return {};
  };
  auto special = [&](const std::string& t, int lane) -> V {
    const int d = t.back() == 'X' ? 0 : t.back() == 'Y' ? 1 : 2;
    if (t.rfind("SR_TID.", 0) == 0) return {static_cast<std::uint32_t>(tid[lane][d]), true};
    if (t.rfind("SR_CTAID.", 0) == 0) return {static_cast<std::uint32_t>(ctaid[d]), true};
    if (t == "SR_LANEID") return {static_cast<std::uint32_t>(lane), true};
    if (t == "SR_CgaCtaId") return {0, true};  // a launch without clusters: CTA 0 of its cluster
    return {};
  };
  // Reads `op` for `lane`; `regDelta` and `offsetDelta` address the next register of a pair or
  // the next word of a constant without copying the operand, and the sign prefix (!, -, ~, |)
  // is taken from `op.text[signAt]` (npos: none).
  auto readAt = [&](const SassOperand& op, int lane, int regDelta, long long offsetDelta, size_t signAt) -> V {
    V v;
    const int reg = op.reg + regDelta;
    switch (op.kind) {
      case SassOperand::Kind::Register: v = reg == 255 ? V{0, true} : lanes->r[lane][reg]; break;
      case SassOperand::Kind::Uniform: v = reg == 255 ? V{0, true} : lanes->ur[lane][reg & 63]; break;
      case SassOperand::Kind::Predicate: v = reg == 7 ? V{1, true} : lanes->p[lane][reg]; break;
      case SassOperand::Kind::UniformPredicate: v = reg == 7 ? V{1, true} : lanes->up[lane][reg]; break;
      case SassOperand::Kind::Immediate:
        return {static_cast<std::uint32_t>(op.offset + offsetDelta), op.integer};  // the sign is already in `offset`
      case SassOperand::Kind::Constant: {
        bool direct = op.bank == 0;
        for (const SassOperand& part : op.parts) direct = direct && part.reg == 255;  // c[0x0][RZ]
        v = direct ? constant(op.offset + offsetDelta) : V{};
        break;
      }
      case SassOperand::Kind::Special: v = special(op.text, lane); break;
      default: break;
    }
    if (signAt < op.text.size() && v.known) {
      const char c = op.text[signAt];
      if (isPred(op) && c == '!') v.v = !v.v;
      if (c == '-') v.v = 0u - v.v;
      if (c == '~') v.v = ~v.v;
      if (c == '|') v.v = static_cast<std::uint32_t>(std::abs(static_cast<std::int32_t>(v.v)));
    }
    return v;
  };
  auto read = [&](const SassOperand& op, int lane) -> V { return readAt(op, lane, 0, 0, 0); };
  auto writeAt = [&](const SassOperand& op, int reg, int lane, V v) {
    if (op.kind == SassOperand::Kind::Register && reg != 255) lanes->r[lane][reg] = v;
    if (op.kind == SassOperand::Kind::Uniform && reg != 255) lanes->ur[lane][reg & 63] = v;
    if (op.kind == SassOperand::Kind::Predicate && reg != 7) lanes->p[lane][reg] = {v.v ? 1u : 0u, v.known};
    if (op.kind == SassOperand::Kind::UniformPredicate && reg != 7) lanes->up[lane][reg] = {v.v ? 1u : 0u, v.known};
  };
  auto write = [&](const SassOperand& op, int lane, V v) { writeAt(op, op.reg, lane, v); };
  auto writePair = [&](const SassOperand& op, int lane, V lo, V hi) {
    write(op, lane, lo);
    if (op.reg != 255) writeAt(op, op.reg + 1, lane, hi);
  };

  SassWarpCount out;
  long long executed = 0;       // instructions executed (not folded)
  long long resolvedCount = 0;  // branches and bound loads resolved by hints
  auto note = [&](int index, std::string how) {
    ++resolvedCount;
    if (out.hinted.empty() || out.hinted.back().first != index) out.hinted.emplace_back(index, std::move(how));
  };
  auto execute = [&](int index, int lane) {
    const SassInstruction& in = code[index];
    const Op op = decoded[index].op;
    const unsigned mods = decoded[index].mods;
    const auto& ops = in.operands;
    if (ops.empty()) return;
    auto src = [&](size_t k) { return k < ops.size() ? read(ops[k], lane) : V{0, true}; };
    auto unknownOutputs = [&]() {
      for (const SassOperand& op : ops) {
        if (isReg(op) || isPred(op)) {
          write(op, lane, V{});
          if (in.memoryWidthBytes >= 8 || (mods & kMod64) || (mods & kModWIDE)) writePair(op, lane, V{}, V{});
        }
        break;  // only the first operand is a destination in general
      }
    };
    const bool u32 = (mods & kModU32);
    if (op == Op::kMOV || op == Op::kUMOV || op == Op::kR2UR || op == Op::kS2R || op == Op::kS2UR || op == Op::kCS2R) {
      if (op == Op::kCS2R) {
        // CS2R d, SRZ zeroes a register pair (d and d+1; one register with .32), as ptxas
        // clears two accumulators at once; other sources are clock counters (unknown).
        const bool one = (mods & kMod32);
        const V v = ops.size() > 1 && trim(ops[1].text) == "SRZ" ? V{0, true} : V{};
        if (one) return write(ops[0], lane, v);
        return writePair(ops[0], lane, v, v);
      }
      write(ops[0], lane, src(1));
      return;
    }
    if (op == Op::kHFMA2) {
      // HFMA2(.MMA) d, -RZ, RZ, hi, lo computes -0 × 0 + {hi, lo}: ptxas materializes 32-bit
      // constants this way (0, 0 → 0; 0, 2.384185791015625e-07 → 4, the FP16 bits 0x0004).
      if (ops.size() == 5 && isReg(ops[1]) && ops[1].reg == 255 && isReg(ops[2]) && ops[2].reg == 255) {
        const std::optional<std::uint16_t> hi = halfBits(ops[3].text), lo = halfBits(ops[4].text);
        if (hi && lo) return write(ops[0], lane, V{static_cast<std::uint32_t>(*hi) << 16 | *lo, true});
      }
      return write(ops[0], lane, V{});
    }
    // Integer division by a runtime divisor: ptxas converts it to float (I2F.U32.RP), takes the
    // reciprocal (MUFU.RCP), converts back (F2I.U32.TRUNC) and corrects the quotient with
    // integer steps. The correction is exact for any reciprocal within an ulp, so the correctly
    // rounded 1/x stands in for the hardware's approximation and the quotient comes out exact.
    if (op == Op::kI2F || op == Op::kF2I) {
      const V a = src(1);
      if (!a.known || ops.size() < 2) return unknownOutputs();
      const std::optional<std::uint32_t> r = op == Op::kI2F ? intToFloatBits(in, a.v) : floatToIntBits(in, a.v);
      return r ? write(ops[0], lane, V{*r, true}) : unknownOutputs();
    }
    if (op == Op::kMUFU) {
      const V a = src(1);
      if (!a.known || ops.size() < 2 || !(mods & kModRCP)) return unknownOutputs();
      return write(ops[0], lane, V{std::bit_cast<std::uint32_t>(1.0f / std::bit_cast<float>(a.v)), true});
    }
    if (op == Op::kLDC || op == Op::kULDC) {
      if (ops.size() < 2 || ops[1].kind != SassOperand::Kind::Constant) return unknownOutputs();
      if ((mods & kMod64)) {
        writePair(ops[0], lane, read(ops[1], lane), readAt(ops[1], lane, 0, 4, 0));
      } else {
        write(ops[0], lane, read(ops[1], lane));
      }
      return;
    }
    if (op == Op::kIMAD || op == Op::kUIMAD) {
      const V a = src(1), b = src(2);
      if ((mods & kModHI)) {
        // IMAD.HI d, a, b, c: high word of the 64-bit product plus a 64-bit addend, the register
        // pair {c, c + 1} (ptxas zeroes c and keeps an estimate in c + 1 to add it to the high
        // word: the Newton step of integer division by a runtime divisor); RZ adds 0. Another
        // operand adds its value to the high word (division by constants: RZ or an immediate).
        const V c = src(3);
        V cHi{0, true};
        const bool pair = ops.size() > 3 && isReg(ops[3]) && ops[3].reg != 255;
        if (pair) cHi = readAt(ops[3], lane, 1, 0, 0);
        if ((mods & kModX) || !(a.known && b.known && c.known && cHi.known)) return write(ops[0], lane, V{});
        const auto x = static_cast<unsigned long long>(u32 ? static_cast<long long>(a.v) : static_cast<std::int32_t>(a.v));
        const auto y = static_cast<unsigned long long>(u32 ? static_cast<long long>(b.v) : static_cast<std::int32_t>(b.v));
        if (!pair) return write(ops[0], lane, V{static_cast<std::uint32_t>((x * y) >> 32) + c.v, true});
        const unsigned long long sum = x * y + ((static_cast<unsigned long long>(cHi.v) << 32) | c.v);
        return write(ops[0], lane, V{static_cast<std::uint32_t>(sum >> 32), true});
      }
      if ((mods & kModX) && !(mods & kModWIDE)) {
        // IMAD.X d, a, b, c, P: a × b + c + carry-in (the high word of a 64-bit add).
        const V c = src(3), p = ops.size() > 4 ? src(4) : V{0, true};
        return write(ops[0], lane, a.known && b.known && c.known && p.known ? V{a.v * b.v + c.v + (p.v ? 1u : 0u), true} : V{});
      }
      if ((mods & kModX)) return unknownOutputs();
      if ((mods & kModWIDE)) {
        V clo = src(3), chi{0, true};
        if (ops.size() > 3 && isReg(ops[3]) && ops[3].reg != 255) {
          chi = readAt(ops[3], lane, 1, 0, 0);
        } else if (ops.size() > 3 && ops[3].kind == SassOperand::Kind::Constant) {
          chi = readAt(ops[3], lane, 0, 4, 0);  // a 64-bit addend from the constant bank: c[b][off], c[b][off + 4]
        }
        if (!(a.known && b.known && clo.known && chi.known)) return writePair(ops[0], lane, V{}, V{});
        const long long x = u32 ? static_cast<long long>(a.v) : static_cast<std::int32_t>(a.v);
        const long long y = u32 ? static_cast<long long>(b.v) : static_cast<std::int32_t>(b.v);
        const unsigned long long c = (static_cast<unsigned long long>(chi.v) << 32) | clo.v;
        const unsigned long long r = static_cast<unsigned long long>(x * y) + c;
        return writePair(ops[0], lane, V{static_cast<std::uint32_t>(r), true}, V{static_cast<std::uint32_t>(r >> 32), true});
      }
      const V c = src(3);
      if (!(a.known && b.known && c.known)) return write(ops[0], lane, V{});
      return write(ops[0], lane, V{a.v * b.v + c.v, true});
    }
    // Instructions whose carry outputs follow the destination and whose carry inputs (.X)
    // follow the sources.
    size_t first = 1;
    std::array<size_t, 2> carryOut{};
    size_t carryOuts = 0;
    while (first < ops.size() && isPred(ops[first]) && (op == Op::kIADD3 || op == Op::kUIADD3 || op == Op::kLEA || op == Op::kULEA)) {
      if (carryOuts < carryOut.size()) carryOut[carryOuts++] = first;
      write(ops[first], lane, V{});
      ++first;
    }
    // Carry-in predicates: the trailing predicate operands of an .X form.
    auto carryIn = [&](size_t from) -> V {
      V sum{0, true};
      for (size_t k = from; k < ops.size(); ++k) {
        if (!isPred(ops[k])) continue;
        const V p = read(ops[k], lane);
        sum = {sum.v + (p.v ? 1u : 0u), sum.known && p.known};
      }
      return sum;
    };
    if (op == Op::kIADD3 || op == Op::kUIADD3) {
      // A negated source is added as ~x + 1, so that the carries are those of a subtraction.
      unsigned long long total = 0;
      bool known = true;
      std::uint32_t carries[2] = {0, 0};
      for (size_t k = first; k < first + 3 && k < ops.size(); ++k) {
        V raw = src(k);
        if (isReg(ops[k]) && !ops[k].text.empty() && ops[k].text[0] == '-') {
          const V x = readAt(ops[k], lane, 0, 0, 1);  // the register without its minus sign
          raw = V{~x.v, x.known};
          total += 1;
        }
        known = known && raw.known;
        total += raw.v;
        if (k == first + 1) carries[0] = static_cast<std::uint32_t>(total >> 32);  // carry of a + b
      }
      if ((mods & kModX)) {
        const V cin = carryIn(first + 3);
        known = known && cin.known;
        total += cin.v;
      }
      carries[1] = static_cast<std::uint32_t>(total >> 32) - carries[0];
      if (known) {
        for (size_t c = 0; c < carryOuts; ++c) write(ops[carryOut[c]], lane, V{carries[c] ? 1u : 0u, true});
      }
      return write(ops[0], lane, known ? V{static_cast<std::uint32_t>(total), true} : V{});
    }
    if (op == Op::kVIADDMNMX) {
      // VIADDMNMX d, a, b, c, p: min (p) or max (!p) of a + b and c.
      const V a = src(1), b = src(2), c = src(3), p = src(4);
      if (!(a.known && b.known && c.known && p.known)) return write(ops[0], lane, V{});
      const std::uint32_t s = a.v + b.v;
      const long long x = u32 ? static_cast<long long>(s) : static_cast<std::int32_t>(s);
      const long long y = u32 ? static_cast<long long>(c.v) : static_cast<std::int32_t>(c.v);
      return write(ops[0], lane, V{static_cast<std::uint32_t>(p.v ? std::min(x, y) : std::max(x, y)), true});
    }
    if (op == Op::kVIADD) {
      const V a = src(1), b = src(2);
      return write(ops[0], lane, a.known && b.known ? V{a.v + b.v, true} : V{});
    }
    if (op == Op::kLEA || op == Op::kULEA) {
      if ((mods & kModHI)) {
        // LEA.HI d, a, b, c, s [, carry]: b + high word of ({c, a} << s) (+ carry for .X, the
        // high word of a 64-bit address); .SX32 takes c as the sign of a and has no c operand.
        const bool sx = (mods & kModSX32);
        const V a = src(first), b = src(first + 1);
        const V c = sx ? V{a.known && (a.v >> 31) ? ~0u : 0u, a.known} : src(first + 2);
        const V s = src(first + (sx ? 2 : 3));
        const V cin = (mods & kModX) ? carryIn(first + (sx ? 3 : 4)) : V{0, true};
        if (!(a.known && b.known && c.known && s.known && cin.known)) return write(ops[0], lane, V{});
        const unsigned long long wide = (static_cast<unsigned long long>(c.v) << 32) | a.v;
        return write(ops[0], lane, V{b.v + static_cast<std::uint32_t>((wide << (s.v & 31)) >> 32) + cin.v, true});
      }
      if ((mods & kModX)) return unknownOutputs();
      const V a = src(first), b = src(first + 1), s = src(first + 2);
      if (!(a.known && b.known && s.known)) return write(ops[0], lane, V{});
      const unsigned long long sum = static_cast<unsigned long long>(a.v << (s.v & 31)) + b.v;
      if (carryOuts > 0) write(ops[carryOut[0]], lane, V{static_cast<std::uint32_t>(sum >> 32), true});
      return write(ops[0], lane, V{static_cast<std::uint32_t>(sum), true});
    }
    if (op == Op::kLOP3 || op == Op::kULOP3 || op == Op::kPLOP3 || op == Op::kUPLOP3) {
      const bool predDst = isPred(ops[0]);
      const size_t s0 = predDst ? 2 : 1;
      const V a = src(s0), b = src(s0 + 1), c = src(s0 + 2), lut = src(s0 + 3);
      const bool known = a.known && b.known && c.known && lut.known;
      const std::uint32_t mask = (op == Op::kPLOP3 || op == Op::kUPLOP3) ? 1u : ~0u;
      const std::uint32_t r = known ? lut3(a.v & mask, b.v & mask, c.v & mask, lut.v & 0xff) & mask : 0;
      if (predDst) {
        write(ops[0], lane, V{r != 0 ? 1u : 0u, known});
        if (op == Op::kLOP3 || op == Op::kULOP3) write(ops[1], lane, V{r, known});
      } else {
        write(ops[0], lane, V{r, known});
      }
      return;
    }
    if (op == Op::kSHF || op == Op::kUSHF) {
      // SHF.{L,R}.{U32,S32,U64,S64}[.HI][.W] d, a, s, b: funnel shift of the 64-bit pair {b, a}
      // (b the high word); d is the low word, or the high word with .HI. nvcc builds 64-bit
      // address shifts from a pair (SHF.L.U32 for the low word, SHF.L.U64.HI for the high one).
      // The shift count is clamped (to 32 for 32-bit types, 64 for 64-bit ones) unless .W wraps.
      const V a = src(1), s = src(2), b = src(3);
      const bool left = (mods & kModL), hi = (mods & kModHI);
      const bool wide64 = (mods & (kModU64 | kModS64)), signedShift = (mods & (kModS32 | kModS64));
      const bool wrap = (mods & kModW);
      // The word that does not reach the result may be unknown (SHF.R.U32.HI d, RZ, s, b).
      const bool needA = !(hi && !left), needB = !(left && !hi);
      if (!s.known || (needA && !a.known) || (needB && !b.known)) return write(ops[0], lane, V{});
      const unsigned limit = wide64 ? 64 : 32;
      const unsigned sh = wrap ? (s.v & (limit - 1)) : std::min<unsigned>(s.v, limit);
      const std::uint64_t pair = (static_cast<std::uint64_t>(needB ? b.v : 0) << 32) | (needA ? a.v : 0);
      std::uint64_t r = 0;
      if (left) {
        r = sh >= 64 ? 0 : pair << sh;
      } else if (signedShift) {
        const std::int64_t x = static_cast<std::int64_t>(pair);
        r = static_cast<std::uint64_t>(sh >= 64 ? (x < 0 ? -1 : 0) : (x >> sh));
      } else {
        r = sh >= 64 ? 0 : pair >> sh;
      }
      return write(ops[0], lane, V{static_cast<std::uint32_t>(hi ? r >> 32 : r), true});
    }
    if (op == Op::kSEL || op == Op::kUSEL || op == Op::kFSEL) {
      const V a = src(1), b = src(2), p = src(3);
      if (!p.known) return write(ops[0], lane, V{});
      return write(ops[0], lane, p.v ? a : b);
    }
    if (op == Op::kISETP || op == Op::kUISETP) {
      if (in.mods.size() < 2) return write(ops[0], lane, V{});
      const bool ex = (mods & kModEX);
      const V a = src(2), b = src(3), c = src(4);
      const Cmp cmp = decoded[index].cmp;
      const Bop bop = decoded[index].bop;
      bool r = false;
      // .EX compares the high words of a 64-bit pair; the last operand holds the same
      // comparison of the low words (unsigned), which decides when the high words are equal.
      const V low = ex ? src(5) : V{0, true};
      const bool known = a.known && b.known && (!ex || low.known);
      if (known) {
        const long long x = u32 ? static_cast<long long>(a.v) : static_cast<std::int32_t>(a.v);
        const long long y = u32 ? static_cast<long long>(b.v) : static_cast<std::int32_t>(b.v);
        if (ex && x == y) r = low.v != 0;
        else r = cmp == Cmp::kLt ? x < y : cmp == Cmp::kLe ? x <= y : cmp == Cmp::kGt ? x > y : cmp == Cmp::kGe ? x >= y : cmp == Cmp::kEq ? x == y : x != y;
      }
      V out{r ? 1u : 0u, known};
      if (bop == Bop::kAnd) {
        if ((c.known && !c.v) || (known && !r)) out = {0, true};
        else out = {1, known && c.known};
      } else if (bop == Bop::kOr) {
        if ((c.known && c.v) || (known && r)) out = {1, true};
        else out = {0, known && c.known};
      } else if (bop == Bop::kXor) {
        out = {(r ? 1u : 0u) ^ c.v, known && c.known};
      }
      return write(ops[0], lane, out);
    }
    if (op == Op::kIABS) {
      const V a = src(1);
      return write(ops[0], lane, a.known ? V{static_cast<std::uint32_t>(std::abs(static_cast<std::int32_t>(a.v))), true} : V{});
    }
    if (op == Op::kIMNMX || op == Op::kUIMNMX) {
      const V a = src(1), b = src(2), p = src(3);
      if (!(a.known && b.known && p.known)) return write(ops[0], lane, V{});
      const long long x = u32 ? static_cast<long long>(a.v) : static_cast<std::int32_t>(a.v);
      const long long y = u32 ? static_cast<long long>(b.v) : static_cast<std::int32_t>(b.v);
      return write(ops[0], lane, V{static_cast<std::uint32_t>(p.v ? std::min(x, y) : std::max(x, y)), true});
    }
    if (auto bl = boundLoads.find(index); bl != boundLoads.end() && ops.size() > 1 && ops[1].kind == SassOperand::Kind::Memory) {
      // A load feeding a hinted loop bound: N, or N × the element index of the address (its
      // low word is the offset in the allocation: pointer parameters are based at multiples of
      // 2^32).
      const auto [trips, asIndex] = bl->second;
      note(index, "trip hint " + std::to_string(trips) + " (loop bound " + (asIndex ? "pointers" : "value") + ")");
      std::uint32_t low = static_cast<std::uint32_t>(ops[1].offset);
      bool known = true;
      const bool desc = ops[1].text.find("desc[") != std::string::npos;
      for (size_t k = desc ? 1 : 0; k < ops[1].parts.size(); ++k) {
        const V v = read(ops[1].parts[k], lane);
        known = known && v.known;
        low += v.v;
      }
      if (!asIndex) return write(ops[0], lane, V{static_cast<std::uint32_t>(trips), true});
      const int width = std::max(1, in.memoryWidthBytes);
      return write(ops[0], lane, known ? V{static_cast<std::uint32_t>(trips * (low / width)), true} : V{});
    }
    // Stores, branches and barriers have no register destination.
    if (decoded[index].noDestination) return;
    unknownOutputs();
  };

  // A branch whose predicate is unknown for `unknownLanes`: a trip hint on its line keeps a
  // loop-exit branch in the loop N times; a branch probability sends that fraction of the
  // lanes to the target (the first ones), as WarpInterpreter does.
  std::map<int, long long> stayCounts;
  auto resolveUnknown = [&](int blockIndex, int index, std::uint32_t unknownLanes, std::uint32_t& taken) -> Expected<void> {
    const SassInstruction& in = code[index];
    for (const TripHint& h : o.trips) {
      if (h.line != in.sourceLine || !endsWithPath(in.sourceFile, h.file)) continue;
      if (tripHintTakes(cfg, blockIndex, h.trips, stayCounts[index])) taken |= unknownLanes;
      note(index, "trip hint " + std::to_string(h.trips));
      return {};
    }
    if (const BranchHint* h = branchHintAt(o.branches, in.sourceFile, in.sourceLine); h && !exitedLoop(cfg, blockIndex)) {
      taken |= probabilityLanes(unknownLanes, h->takenProbability);
      note(index, "probability " + std::to_string(h->takenProbability));
      return {};
    }
    return makeError("the SASS branch at 0x" + fmt_hex(in.offset) + " (line " + std::to_string(in.sourceLine) +
                     ") depends on values the SASS count does not track");
  };
  // The default for a branch of library code (SassInstruction::library): a loop is left after
  // one pass, any other branch falls through.
  auto libraryDefault = [&](int blockIndex, int index, std::uint32_t unknownLanes, std::uint32_t& taken) {
    if (defaultTaken(cfg, blockIndex)) taken |= unknownLanes;
    note(index, "the default for library code (" + code[index].inlinedFrom + "): " +
                    (exitedLoop(cfg, blockIndex) ? "the loop is left" : "falls through"));
  };

  // Lane addresses of a memory instruction, before it executes (it may overwrite its own
  // address registers). A guard that no hint decided runs the instruction in every undecided
  // lane (as in the PTX run, where such an if-converted body keeps its addresses): their
  // addresses are recorded like any other lane's.
  auto recordAddresses = [&](int index, std::uint32_t mask) {
    const SassInstruction& in = code[index];
    const SassOperand* mem = nullptr;
    for (const SassOperand& op : in.operands) {
      if (op.kind == SassOperand::Kind::Memory) mem = &op;
    }
    if (!mem || mask == 0) return;
    SassAccess access;
    access.position = static_cast<size_t>(executed - 1);
    access.instruction = index;
    const SassSpace space = sassAccessKind(in).space;
    const bool local = space == SassSpace::Local;
    const bool desc = mem->text.find("desc[") != std::string::npos;
    // Volta/Turing write a 64-bit global address with plain registers (`LDG.E.SYS R6, [R2]`,
    // `STG.E.SYS [R6.64+UR4], R3`): the `.E` (extended address) modifier says that each
    // register is the low half of a pair (a `.U32` one excepted).
    const bool extended = space == SassSpace::Global && (decoded[index].mods & kModE) != 0;
    const int width = std::max(1, in.memoryWidthBytes);
    // [R3.X4]: the register is a scaled index.
    std::vector<unsigned long long> scales(mem->parts.size(), 1);
    for (size_t k = 0; k < mem->parts.size(); ++k) {
      unsigned long long scale = 1;
      if (const size_t x = mem->parts[k].text.find(".X"); x != std::string::npos) scale = std::strtoull(mem->parts[k].text.c_str() + x + 2, nullptr, 10);
      scales[k] = std::max(1ULL, scale);
    }
    std::vector<long long> lanesOut(kLanes, -1);
    for (int lane = 0; lane < kLanes; ++lane) {
      if (!(mask >> lane & 1)) continue;
      if (local) {
        // Thread-private stack slots, interleaved per lane as the hardware lays them out.
        lanesOut[lane] = (1LL << 36) + (mem->offset / width) * width * kLanes + lane * width;
        continue;
      }
      unsigned long long a = static_cast<unsigned long long>(mem->offset);
      for (size_t k = desc ? 1 : 0; k < mem->parts.size(); ++k) {
        const SassOperand& part = mem->parts[k];
        const V lo = read(part, lane);
        V hi{0, true};
        const bool pair = part.width >= 2 || (extended && part.text.find(".U32") == std::string::npos);
        if (pair && part.reg != 255) hi = readAt(part, lane, 1, 0, std::string::npos);
        if (!lo.known || !hi.known) {  // data-dependent
          out.accesses.push_back(std::move(access));
          return;
        }
        a += ((static_cast<unsigned long long>(hi.v) << 32) | lo.v) * scales[k];
      }
      lanesOut[lane] = static_cast<long long>(a & ((1ULL << 62) - 1));
    }
    access.lanes = std::move(lanesOut);
    out.accesses.push_back(std::move(access));
  };

  out.perInstruction.assign(n, 0);
  out.cfg = cfg;
  SimtStack simt(cfg, valid);
  int pc = 0;
  std::uint32_t msk = 0;

  // Loop folding (LoopFold in warp_interpreter.h).
  using folding::Comparison;
  using folding::Int128;
  struct Snapshot {
    std::unique_ptr<Lanes> regs;
    std::vector<std::int64_t> simt;
    long long instructions = 0;
    size_t streamSize = 0, accessSize = 0, setpSize = 0;
    std::uint64_t nonAffine = 0;
    size_t resolved = 0;
    std::vector<long long> perInstruction;
  };
  using Track = folding::HeaderTrack<Snapshot>;
  const bool fold = o.foldLoops;
  std::vector<char> isHeader(cfg.blocks.size(), 0);
  for (const PtxLoop& l : cfg.loops) isHeader[l.header] = fold ? 1 : 0;
  // Low registers of the 64-bit address pairs of memory operands ([R2.64]: R2 low, R3 high),
  // per file (R, UR). A fold may carry such a low word past 2^32 into its high word: the pair
  // moves as one 64-bit value. Any other 32-bit register must not wrap within a fold.
  std::array<std::vector<char>, 2> pairLow{std::vector<char>(256, 0), std::vector<char>(64, 0)};
  for (const SassInstruction& in : code) {
    for (const SassOperand& op : in.operands) {
      if (op.kind != SassOperand::Kind::Memory) continue;
      for (const SassOperand& part : op.parts) {
        if (part.width != 2 || part.reg < 0) continue;
        if (part.kind == SassOperand::Kind::Register && part.reg < 254) pairLow[0][static_cast<size_t>(part.reg)] = 1;
        if (part.kind == SassOperand::Kind::Uniform && part.reg < 62) pairLow[1][static_cast<size_t>(part.reg)] = 1;
      }
    }
  }
  std::map<int, Track> tracks;
  int armed = 0;
  bool logging = false;
  std::vector<Comparison> setpLog;
  std::uint64_t nonAffine = 0, pathHash = 0;
  auto isAffine = [&](int index) {
    const Op op = decoded[index].op;
    const unsigned mods = decoded[index].mods;
    switch (op) {
      case Op::kMOV: case Op::kUMOV: case Op::kIADD3: case Op::kUIADD3: case Op::kSEL: case Op::kUSEL: case Op::kFSEL:
      case Op::kISETP: case Op::kUISETP: case Op::kR2UR: case Op::kS2R: case Op::kS2UR: case Op::kLDC: case Op::kULDC:
      case Op::kPLOP3: case Op::kUPLOP3: case Op::kVIADD:
        return true;
      case Op::kIMAD: case Op::kUIMAD: case Op::kLEA: case Op::kULEA:
        return !(mods & kModHI);
      default:
        return false;
    }
  };
  auto noteNonAffine = [&](int index, std::uint32_t mask) {
    const SassInstruction& in = code[index];
    std::uint64_t h = static_cast<std::uint64_t>(index) * 0x9E3779B97F4A7C15ULL;
    for (int lane = 0; lane < kLanes; ++lane) {
      if (!(mask >> lane & 1)) continue;
      for (const SassOperand& op : in.operands) {
        if (op.kind == SassOperand::Kind::Memory) continue;
        const V v = read(op, lane);
        h = (h ^ v.v ^ (v.known ? 0x5555ULL << 40 : 0)) * folding::kHashBase + static_cast<std::uint64_t>(lane);
      }
    }
    nonAffine += h;
  };
  auto snapshot = [&](Snapshot& s) {
    s.regs = std::make_unique<Lanes>(*lanes);
    s.simt = simt.state();
    s.instructions = out.instructions;
    s.streamSize = out.stream.size();
    s.accessSize = out.accesses.size();
    s.setpSize = setpLog.size();
    s.nonAffine = nonAffine;
    s.resolved = out.hinted.size() + static_cast<size_t>(resolvedCount);
    s.perInstruction = out.perInstruction;
  };
  auto tryFold = [&](Track& t, int header) -> bool {
    const Snapshot &s0 = t.snaps[0], &s1 = t.snaps[1], &s2 = t.snaps[2], &s3 = t.snaps[3];
    if (s1.simt != s0.simt || s2.simt != s0.simt || s3.simt != s0.simt || s3.resolved != s0.resolved) return false;
    if (s1.nonAffine - s0.nonAffine != s2.nonAffine - s1.nonAffine || s2.nonAffine - s1.nonAffine != s3.nonAffine - s2.nonAffine) return false;
    Int128 repeats = folding::kNever;
    // Registers: the same known-ness, constant 32-bit steps, no wrap-around.
    struct Move {
      int file, reg, lane;
      std::uint32_t step;
      bool pair = false;  ///< the low word of an address pair: the 64-bit pair moves by step (signed)
    };
    std::vector<Move> moves;
    auto check = [&](int file, int count, auto get) -> bool {
      for (int lane = 0; lane < kLanes; ++lane) {
        for (int r = 0; r < count; ++r) {
          const V a = get(*s0.regs, lane, r), b = get(*s1.regs, lane, r), c = get(*s2.regs, lane, r), e = get(*s3.regs, lane, r);
          if (a.known != b.known || b.known != c.known || c.known != e.known) return false;
          if (!e.known) continue;
          const std::uint32_t d1 = b.v - a.v, d2 = c.v - b.v, d3 = e.v - c.v;
          if (d1 != d2 || d2 != d3) return false;
          if (d3 == 0) continue;
          if (file >= 2) return false;  // predicates do not move
          const Int128 d = static_cast<std::int32_t>(d3);
          if (pairLow[static_cast<size_t>(file)][static_cast<size_t>(r)]) {
            // The high word of the pair held still over the compared iterations (a carry there
            // would have broken the constant steps): the pair moves as one 64-bit value.
            const V hiA = get(*s0.regs, lane, r + 1), hiE = get(*s3.regs, lane, r + 1);
            if (hiA.known && hiE.known && hiA.v == hiE.v) {
              moves.push_back({file, r, lane, d3, true});
              continue;
            }
          }
          repeats = std::min(repeats, d > 0 ? (static_cast<Int128>(0xffffffffu) - e.v) / d : static_cast<Int128>(e.v) / -d);
          moves.push_back({file, r, lane, d3});
        }
      }
      return true;
    };
    if (!check(0, 256, [](const Lanes& l, int lane, int r) { return l.r[lane][r]; })) return false;
    if (!check(1, 64, [](const Lanes& l, int lane, int r) { return l.ur[lane][r]; })) return false;
    if (!check(2, 8, [](const Lanes& l, int lane, int r) { return l.p[lane][r]; })) return false;
    if (!check(3, 8, [](const Lanes& l, int lane, int r) { return l.up[lane][r]; })) return false;
    const size_t n1 = s1.setpSize - s0.setpSize, n2 = s2.setpSize - s1.setpSize, n3 = s3.setpSize - s2.setpSize;
    if (n1 != n2 || n2 != n3) return false;
    for (size_t k = 0; k < n3; ++k) {
      const Comparison &c1 = setpLog[s0.setpSize + k], &c2 = setpLog[s1.setpSize + k], &c3 = setpLog[s2.setpSize + k];
      if (c1.index != c3.index || c2.index != c3.index || c1.lane != c3.lane || c2.lane != c3.lane) return false;
      if (c2.a - c1.a != c3.a - c2.a || c2.b - c1.b != c3.b - c2.b) return false;
      repeats = std::min(repeats, folding::firstChange(c3, c3.a - c2.a, c3.b - c2.b) - 1);
    }
    if (repeats == folding::kNever || repeats < 1) return false;
    // Folds inside the iterations: alike in the three (placed by stream or by address records).
    size_t innerBegin = 0, innerEnd = 0;
    {
      const size_t p[4] = {s0.streamSize, s1.streamSize, s2.streamSize, s3.streamSize};
      const size_t a[4] = {s0.accessSize, s1.accessSize, s2.accessSize, s3.accessSize};
      if (!folding::innerFoldsAlike(out.folds, p, a, innerBegin, innerEnd, !o.recordStream)) return false;
    }
    const size_t a1 = s1.accessSize - s0.accessSize, a2 = s2.accessSize - s1.accessSize, a3 = s3.accessSize - s2.accessSize;
    if (a1 != a2 || a2 != a3) return false;
    std::vector<std::vector<long long>> addressStep;
    for (size_t k = 0; k < a3; ++k) {
      const std::vector<long long>& x = out.accesses[s0.accessSize + k].lanes;
      const std::vector<long long>& y = out.accesses[s1.accessSize + k].lanes;
      const std::vector<long long>& z = out.accesses[s2.accessSize + k].lanes;
      if (x.size() != z.size() || y.size() != z.size()) return false;
      std::vector<long long> step(z.size(), 0);
      for (size_t lane = 0; lane < z.size(); ++lane) {
        if ((x[lane] < 0) != (z[lane] < 0) || (y[lane] < 0) != (z[lane] < 0)) return false;
        if (z[lane] < 0) continue;
        if (y[lane] - x[lane] != z[lane] - y[lane]) return false;
        step[lane] = z[lane] - y[lane];
        if (step[lane] < 0) repeats = std::min<Int128>(repeats, z[lane] / -step[lane]);
      }
      addressStep.push_back(std::move(step));
    }
    if (repeats < 1) return false;
    const long long f = static_cast<long long>(std::min<Int128>(repeats, o.maxInstructions));
    for (const Move& mv : moves) {
      V& v = mv.file == 0 ? lanes->r[mv.lane][mv.reg] : lanes->ur[mv.lane][mv.reg];
      if (mv.pair) {
        V& hi = mv.file == 0 ? lanes->r[mv.lane][mv.reg + 1] : lanes->ur[mv.lane][mv.reg + 1];
        const std::uint64_t wide = (static_cast<std::uint64_t>(hi.v) << 32 | v.v) +
                                   static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(mv.step)) * f);
        v.v = static_cast<std::uint32_t>(wide);
        hi.v = static_cast<std::uint32_t>(wide >> 32);
        continue;
      }
      v.v += mv.step * static_cast<std::uint32_t>(f);
    }
    for (int i = 0; i < n; ++i) out.perInstruction[i] += f * (s3.perInstruction[i] - s2.perInstruction[i]);
    out.instructions += f * (s3.instructions - s2.instructions);
    out.foldedIterations += f;
    out.folds.push_back({header, s2.streamSize, s3.streamSize, s2.accessSize, s3.accessSize, f, std::move(addressStep),
                         innerBegin, innerEnd});
    return true;
  };
  auto visitHeader = [&](int header) {
    Track& t = tracks[header];
    folding::visitHeader(t, executed, pathHash, armed, snapshot, [&] { return tryFold(t, header); });
    logging = armed > 0;
    if (!logging && !setpLog.empty()) setpLog.clear();
  };

  while (simt.next(pc, msk)) {
    const PtxBlock& blk = cfg.blocks[pc];
    if (isHeader[pc]) visitHeader(pc);
    std::uint32_t exitNow = 0, taken = 0;
    bool isBranch = false;
    for (int i = blk.first; i < blk.end; ++i) {
      const SassInstruction& in = code[i];
      const Op op = decoded[i].op;
      const unsigned mods = decoded[i].mods;
      ++out.perInstruction[i];
      ++out.instructions;
      if (executed + 1 > o.maxInstructions) {  // executed, not folded: folds terminate
        return makeError("the SASS of '" + fn.name + "' executes more than " + std::to_string(o.maxInstructions) + " instructions in one warp");
      }
      std::uint32_t g = msk, unknown = 0;
      if (in.guard >= 0 && in.guard != 7) {
        g = 0;
        for (int lane = 0; lane < kLanes; ++lane) {
          if (!(msk >> lane & 1)) continue;
          const V p = in.guardUniform ? lanes->up[lane][in.guard] : lanes->p[lane][in.guard];
          if (!p.known) unknown |= 1u << lane;
          else if ((p.v != 0) != in.guardNegated) g |= 1u << lane;
        }
      }
      const bool leaves = op == Op::kEXIT || op == Op::kRET;
      if (unknown && leaves) {
        // A data-dependent EXIT is ptxas's form of the PTX branch to the kernel's exit block
        // (`if (c) { body }` at the end of a kernel: `@!P0 EXIT`), so the hint on its line is
        // the probability that it is taken, as for that branch; library code falls through.
        if (in.library) {
          note(i, "the default for library code (" + in.inlinedFrom + "): falls through");
          unknown = 0;
        } else if (const BranchHint* h = branchHintAt(o.branches, in.sourceFile, in.sourceLine)) {
          g |= probabilityLanes(unknown, h->takenProbability);
          unknown = 0;
          note(i, "probability " + std::to_string(h->takenProbability) + " (exit)");
        }
      }
      if (unknown && !leaves && !(op == Op::kBRA && !(mods & kModDIV))) {
        // nvcc if-converts short data-dependent `if` bodies into predicated instructions. The
        // hint on the line gives the probability P that the branch over the body is taken (as
        // in the PTX, where `if (c) body` is `@!c bra skip`), so a predicated body instruction
        // runs in a share 1 − P of the undecided lanes.
        if (const BranchHint* h = branchHintAt(o.branches, in.sourceFile, in.sourceLine)) {
          g |= probabilityLanes(unknown, 1.0 - h->takenProbability);
          unknown = 0;
          note(i, "probability " + std::to_string(h->takenProbability) + " (predicated body)");
        }
      }
      ++executed;
      pathHash = pathHash * folding::kHashBase + (static_cast<std::uint64_t>(i) << 32 | (g | unknown));
      if (o.recordStream) out.stream.emplace_back(i, g | unknown);
      if ((o.recordStream || o.recordAddresses) && in.memoryWidthBytes > 0) recordAddresses(i, g | unknown);
      if (op == Op::kBRA && !(mods & kModDIV)) {
        if (unknown && in.library) {
          libraryDefault(pc, i, unknown, g);
        } else if (unknown) {
          Expected<void> r = resolveUnknown(pc, i, unknown, g);
          if (!r) return std::move(r).takeError();
        }
        isBranch = true;
        taken = g;
        continue;
      }
      if (op == Op::kEXIT || op == Op::kRET) {
        if (unknown) return makeError("the SASS EXIT at 0x" + fmt_hex(in.offset) + " depends on values the SASS count does not track");
        exitNow |= g;
        continue;
      }
      if (op == Op::kCALL) {
        // A call that was not expanded (CALL.ABS to vprintf, recursion below the expansion
        // depth): the callee may change the argument, result and scratch registers of the ABI.
        for (int lane = 0; lane < kLanes; ++lane) {
          if (!((g | unknown) >> lane & 1)) continue;
          lanes->r[lane][0] = V{};
          for (int r = 2; r < 16; ++r) lanes->r[lane][r] = V{};
        }
        continue;
      }
      for (int lane = 0; lane < kLanes; ++lane) {
        if (g >> lane & 1) execute(i, lane);
        if (unknown >> lane & 1) {
          execute(i, lane);
          if (!in.operands.empty()) write(in.operands[0], lane, V{});
        }
      }
      if (logging && (g | unknown)) {
        if (!isAffine(i)) {
          noteNonAffine(i, g | unknown);
        } else if ((op == Op::kISETP || op == Op::kUISETP) && in.mods.size() >= 2) {
          // The comparison of every lane with known operands (.EX: the high words; the low
          // words' comparison is logged where it is made).
          const Cmp cmp = decoded[i].cmp;
          const char kind = cmp == Cmp::kLt ? 'l' : cmp == Cmp::kLe ? 'L' : cmp == Cmp::kGt ? 'g' : cmp == Cmp::kGe ? 'G'
                          : cmp == Cmp::kEq ? 'e' : cmp == Cmp::kNe ? 'n' : '?';
          const bool u32 = (mods & kModU32);
          for (int lane = 0; lane < kLanes; ++lane) {
            if (!((g | unknown) >> lane & 1) || in.operands.size() < 4) continue;
            const V a = read(in.operands[2], lane), b = read(in.operands[3], lane);
            if (!a.known || !b.known) continue;
            const Int128 x = u32 ? static_cast<Int128>(a.v) : static_cast<Int128>(static_cast<std::int32_t>(a.v));
            const Int128 y = u32 ? static_cast<Int128>(b.v) : static_cast<Int128>(static_cast<std::int32_t>(b.v));
            setpLog.push_back(folding::comparison(i, lane, (mods & kModEX) ? '?' : kind, u32, 32, x, y));
          }
        }
      }
    }
    simt.finish(exitNow, isBranch, taken);
  }
  return out;
}

void expandSassStream(const SassWarpCount& run, long long begin, long long end,
                      const std::function<void(int, std::uint32_t, const std::vector<long long>*)>& emit) {
  const auto& records = run.accesses;
  // Data-dependent accesses (no lanes) stand for no address: emitted without lanes.
  folding::expandFolded(
      run.stream, run.folds, records.size(), [&](size_t k) { return records[k].position; },
      [&](size_t k) -> const std::vector<long long>& { return records[k].lanes; }, begin, end,
      [&](int i, std::uint32_t m, const std::vector<long long>* lanes) { emit(i, m, lanes && !lanes->empty() ? lanes : nullptr); });
}

}  // namespace foresight::cuda
