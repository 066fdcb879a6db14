// SPDX-License-Identifier: Apache-2.0
/// \file
/// One-warp SASS control-flow execution with per-lane 32-bit known/unknown integer values.
#include "foresight/frontend/cuda/sass_interpreter.h"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "foresight/frontend/cuda/bound_loads.h"
#include "foresight/frontend/cuda/float_compare.h"
#include "foresight/frontend/cuda/loop_folding.h"
#include "foresight/frontend/cuda/ptx_cfg.h"
#include "foresight/frontend/cuda/sass_ptx_map.h"
#include "foresight/frontend/cuda/warp_executor.h"
#include "foresight/frontend/cuda/warp_interpreter.h"
#include "foresight/support/strings.h"

namespace foresight::cuda {

namespace {

constexpr int kLanes = 32;

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
  kBITS,
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
  kF2I,
  kFADD,
  kFCHK,
  kFFMA,
  kFLO,
  kFMNMX,
  kFMUL,
  kFRND,
  kFSEL,
  kFSETP,
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
  kP2R,
  kPLOP3,
  kPOPC,
  kPRMT,
  kR2P,
  kR2UR,
  kRED,
  kREDUX,
  kRET,
  kS2R,
  kS2UR,
  kSEL,
  kSHF,
  kSHFL,
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
  kVIMNMX3,
  kVOTE,
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
// Float modifiers, read for every lane of every F32 instruction.
constexpr unsigned kModFTZ = 1u << 16;
constexpr unsigned kModSAT = 1u << 17;
constexpr unsigned kModTRUNC = 1u << 18;
constexpr unsigned kModFLOOR = 1u << 19;
constexpr unsigned kModCEIL = 1u << 20;
constexpr unsigned kModEX2 = 1u << 21;
constexpr unsigned kModLG2 = 1u << 22;
constexpr unsigned kModRSQ = 1u << 23;
constexpr unsigned kModSQRT = 1u << 24;
constexpr unsigned kModSIN = 1u << 25;
constexpr unsigned kModCOS = 1u << 26;
constexpr std::pair<const char*, unsigned> kModNames[] = {
    {"64", kMod64}, {"DIV", kModDIV}, {"EX", kModEX},   {"HI", kModHI},   {"L", kModL},     {"S32", kModS32},
    {"SX32", kModSX32}, {"U32", kModU32}, {"WIDE", kModWIDE}, {"X", kModX}, {"32", kMod32}, {"U64", kModU64},
    {"S64", kModS64}, {"W", kModW}, {"RCP", kModRCP}, {"E", kModE}, {"FTZ", kModFTZ}, {"SAT", kModSAT},
    {"TRUNC", kModTRUNC}, {"FLOOR", kModFLOOR}, {"CEIL", kModCEIL}, {"EX2", kModEX2}, {"LG2", kModLG2},
    {"RSQ", kModRSQ}, {"SQRT", kModSQRT}, {"SIN", kModSIN}, {"COS", kModCOS}};
const std::map<std::string, Op>& opTable() {
  static const std::map<std::string, Op> kTable = {
      {"BAR", Op::kBAR},
      {"BMSK", Op::kBITS},
      {"BPT", Op::kBPT},
      {"BRA", Op::kBRA},
      {"BREV", Op::kBITS},
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
      {"FADD", Op::kFADD},
      {"FFMA", Op::kFFMA},
      {"FMNMX", Op::kFMNMX},
      {"FMUL", Op::kFMUL},
      {"FRND", Op::kFRND},
      {"FSETP", Op::kFSETP},
      {"FLO", Op::kFLO},
      {"UFLO", Op::kFLO},
      {"FCHK", Op::kFCHK},
      {"HFMA2", Op::kHFMA2},
      {"I2F", Op::kI2F},
      {"I2FP", Op::kI2F},
      {"IABS", Op::kIABS},
      {"IADD3", Op::kIADD3},
      {"IMAD", Op::kIMAD},
      {"IMNMX", Op::kIMNMX},
      {"VIMNMX", Op::kIMNMX},  // Hopper's IMNMX: min when the predicate is true, else max
      {"VIMNMX3", Op::kVIMNMX3},
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
      {"P2R", Op::kP2R},
      {"PLOP3", Op::kPLOP3},
      {"POPC", Op::kPOPC},
      {"UPOPC", Op::kPOPC},
      {"PRMT", Op::kPRMT},
      {"UPRMT", Op::kPRMT},
      {"R2P", Op::kR2P},
      {"R2UR", Op::kR2UR},
      {"RED", Op::kRED},
      {"REDUX", Op::kREDUX},
      {"RET", Op::kRET},
      {"S2R", Op::kS2R},
      {"S2UR", Op::kS2UR},
      {"SEL", Op::kSEL},
      {"SHF", Op::kSHF},
      {"SGXT", Op::kBITS},
      {"SHFL", Op::kSHFL},
      {"ST", Op::kST},
      {"STG", Op::kSTG},
      {"STL", Op::kSTL},
      {"STS", Op::kSTS},
      {"UBMSK", Op::kBITS},
      {"UBREV", Op::kBITS},
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
      {"USGXT", Op::kBITS},
      {"USHF", Op::kUSHF},
      {"VIADD", Op::kVIADD},
      {"VIADDMNMX", Op::kVIADDMNMX},
      {"VOTE", Op::kVOTE},
      {"VOTEU", Op::kVOTE},
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

/// `r BOP c` for ISETP/FSETP (r known when `known`), short-circuiting on a decisive known side.
V combinePredicate(bool known, bool r, V c, Bop bop) {
  if (bop == Bop::kAnd) {
    if ((c.known && !c.v) || (known && !r)) return {0, true};
    return {1, known && c.known};
  }
  if (bop == Bop::kOr) {
    if ((c.known && c.v) || (known && r)) return {1, true};
    return {0, known && c.known};
  }
  if (bop == Bop::kXor) return {(r ? 1u : 0u) ^ c.v, known && c.known};
  return {r ? 1u : 0u, known};
}

/// A float immediate as nvdisasm prints it ("0.5", "-24", "1.1754943508222875e-38", "+INF",
/// "-QNAN"); nullopt when the text is not a number.
std::optional<float> floatImmediate(std::string text) {
  text = trim(text);
  if (!text.empty() && text[0] == '+') text.erase(0, 1);
  const bool negative = !text.empty() && text[0] == '-';
  const std::string body = negative ? text.substr(1) : text;
  if (body == "INF") return negative ? -INFINITY : INFINITY;
  if (body == "QNAN" || body == "NAN") return std::numeric_limits<float>::quiet_NaN();
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  return static_cast<float>(v);
}

}  // namespace

bool isSassAtomic(const SassInstruction& i) {
  const std::string& m = i.mnemonic;
  return m == "ATOM" || m == "ATOMG" || m == "ATOMS" || m == "RED" || m == "REDG";
}

namespace {

/// Registers of the four files in one index space: R0–R254, UR0–UR62, P0–P6, UP0–UP6 (RZ, URZ,
/// PT and UPT hold constants and have none).
constexpr int kRegisterSlots = 256 + 64 + 8 + 8;
int registerSlot(SassOperand::Kind kind, int reg) {
  switch (kind) {
    case SassOperand::Kind::Register: return reg >= 0 && reg < 255 ? reg : -1;
    case SassOperand::Kind::Uniform: return reg >= 0 && reg < 63 ? 256 + reg : -1;
    case SassOperand::Kind::Predicate: return reg >= 0 && reg < 7 ? 320 + reg : -1;
    case SassOperand::Kind::UniformPredicate: return reg >= 0 && reg < 7 ? 328 + reg : -1;
    default: return -1;
  }
}

/// Registers an operand may cover in `in`, over-approximated: its written width, the 4-byte
/// words of the access for a load's or store's value, two for 64-bit forms, eight for matrix
/// instructions, four for an opcode whose operand widths are not known here.
void operandSlots(const SassInstruction& in, const SassOperand& op, std::vector<int>& out) {
  if (op.kind == SassOperand::Kind::Memory) {
    for (const SassOperand& part : op.parts) operandSlots(in, part, out);
    return;
  }
  static const char* const kOneWord[] = {"FFMA", "FADD", "FMUL", "FMNMX", "FSETP", "FSEL", "FCHK", "FSWZADD", "HFMA2",
                                         "HADD2", "HMUL2", "HSETP2", "HMNMX2", "IADD3", "IABS", "IMNMX", "VIMNMX",
                                         "VIMNMX3", "ISETP", "LEA", "LOP3", "SHF", "SEL", "MOV", "PRMT", "PLOP3",
                                         "VOTE", "IDP", "FLO", "POPC", "BREV", "BMSK", "SGXT", "S2R", "R2UR", "MUFU",
                                         "I2F", "F2I", "F2F", "I2I", "FRND", "F2FP", "IMAD", "VIADD", "VIADDMNMX",
                                         "UMOV", "UIADD3", "ULOP3", "USHF", "UISETP", "ULEA", "UIMAD", "USEL", "UPLOP3",
                                         "S2UR", "UFLO", "UPOPC", "UBREV", "UPRMT", "USGXT", "ULDC", "LDC", "SHFL",
                                         "BRA", "EXIT", "BAR", "P2R"};
  static const char* const kMatrix[] = {"HMMA", "IMMA", "BMMA", "DMMA", "HGMMA", "IGMMA", "LDSM", "STSM", "MOVM"};
  int words = 4;
  if (std::find_if(std::begin(kOneWord), std::end(kOneWord), [&](const char* m) { return in.mnemonic == m; }) !=
      std::end(kOneWord)) {
    words = 1;
  }
  if (in.memoryWidthBytes > 0) words = std::max(1, in.memoryWidthBytes / 4);
  const bool wide = std::any_of(in.mods.begin(), in.mods.end(), [](const std::string& m) {
    return m == "64" || m == "F64" || m == "U64" || m == "S64" || m == "WIDE" || m.find("64") != std::string::npos;
  });
  if (wide || in.mnemonic.rfind("D", 0) == 0) words = std::max(words, 2);
  if (std::find_if(std::begin(kMatrix), std::end(kMatrix), [&](const char* m) { return in.mnemonic == m; }) !=
      std::end(kMatrix)) {
    words = 8;
  }
  const bool predicate = op.kind == SassOperand::Kind::Predicate || op.kind == SassOperand::Kind::UniformPredicate;
  const int n = predicate ? 1 : std::max(op.width, words);
  for (int k = 0; k < n; ++k) {
    const int slot = registerSlot(op.kind, op.reg + k);
    if (slot >= 0 && (op.kind != SassOperand::Kind::Uniform || op.reg + k < 63)) out.push_back(slot);
  }
}

bool controlMnemonic(const std::string& m) {
  return m == "BRA" || m == "BRX" || m == "JMP" || m == "JMX" || m == "CALL" || m == "RET" || m == "EXIT" ||
         m == "BSSY" || m == "BSYNC" || m == "BREAK" || m == "WARPSYNC" || m == "BAR" || m == "KILL" || m == "BPT";
}

/// Which registers hold data only at the loop headers, and which instructions' results can
/// reach control (SassPrepared::dataOnly, foldSensitive): a backward dataflow over the CFG of
/// the registers whose value can still reach a use that matters — an address, a guard, a
/// control instruction, or an input of an instruction that may write such a register. What an
/// instruction may write is over-approximated (operandSlots(); every predicate operand; the
/// register after a leading predicate, as in SHFL PT, R3, …), what it reads too (every
/// register operand, its destination included), and only an unguarded one-word destination
/// is taken as overwritten, so the split errs on "matters". A function with calls, returns or
/// indirect jumps (flow the CFG does not show) keeps every register.
void relevance(const std::vector<SassInstruction>& code, const PtxCfg& cfg, std::vector<char>& dataOnly,
               std::vector<char>& foldSensitive) {
  using Set = std::bitset<kRegisterSlots>;
  const size_t n = code.size();
  dataOnly.assign(kRegisterSlots, 0);
  foldSensitive.assign(n, 1);
  for (const SassInstruction& in : code) {
    const std::string& m = in.mnemonic;
    if (m == "CALL" || m == "RET" || m == "BRX" || m == "JMX" || m == "JMP") return;
  }
  std::vector<Set> mayWrite(n), reads(n), sinks(n), kills(n);
  std::vector<char> control(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const SassInstruction& in = code[i];
    const auto& ops = in.operands;
    const bool store = in.mnemonic == "STG" || in.mnemonic == "STS" || in.mnemonic == "STL" || in.mnemonic == "ST" ||
                       in.mnemonic == "RED" || in.mnemonic == "SUST";
    control[i] = controlMnemonic(in.mnemonic) ? 1 : 0;
    for (size_t k = 0; k < ops.size(); ++k) {
      const SassOperand& op = ops[k];
      const bool predicate = op.kind == SassOperand::Kind::Predicate || op.kind == SassOperand::Kind::UniformPredicate;
      std::vector<int> slots;
      operandSlots(in, op, slots);
      for (int slot : slots) reads[i].set(static_cast<size_t>(slot));
      if (op.kind == SassOperand::Kind::Memory || control[i]) {
        for (int slot : slots) sinks[i].set(static_cast<size_t>(slot));
        continue;
      }
      const bool afterPredicate = k == 1 && (ops[0].kind == SassOperand::Kind::Predicate ||
                                             ops[0].kind == SassOperand::Kind::UniformPredicate);
      if ((k == 0 && !store) || predicate || afterPredicate) {
        for (int slot : slots) mayWrite[i].set(static_cast<size_t>(slot));
      }
    }
    if (in.mnemonic == "R2P") {
      for (int p = 0; p < 7; ++p) mayWrite[i].set(static_cast<size_t>(320 + p));
    }
    if (in.mnemonic == "P2R") {
      for (int p = 0; p < 7; ++p) reads[i].set(static_cast<size_t>(320 + p));
    }
    if (in.guard >= 0 && in.guard != 7) {
      const int slot = registerSlot(in.guardUniform ? SassOperand::Kind::UniformPredicate : SassOperand::Kind::Predicate, in.guard);
      if (slot >= 0) sinks[i].set(static_cast<size_t>(slot));
    } else if (!store && !ops.empty() && (ops[0].kind == SassOperand::Kind::Register || ops[0].kind == SassOperand::Kind::Uniform)) {
      // Overwritten for sure: an unguarded destination that operandSlots() takes as one word.
      std::vector<int> slots;
      operandSlots(in, ops[0], slots);
      if (slots.size() == 1) kills[i].set(static_cast<size_t>(slots[0]));
    }
  }
  // Backward: live[i] = registers whose value before instruction i can reach a use that matters.
  auto gen = [&](size_t i, const Set& after) { return control[i] || (mayWrite[i] & after).any(); };
  auto transfer = [&](size_t i, const Set& after) {
    Set live = after & ~kills[i];
    live |= sinks[i];
    if (gen(i, after)) live |= reads[i];
    return live;
  };
  const size_t blocks = cfg.blocks.size();
  std::vector<Set> in(blocks);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = blocks; b-- > 0;) {
      const PtxBlock& blk = cfg.blocks[b];
      Set live;
      for (int s : blk.successors) live |= in[static_cast<size_t>(s)];
      for (int i = blk.end; i-- > blk.first;) live = transfer(static_cast<size_t>(i), live);
      if (live != in[b]) {
        in[b] = live;
        changed = true;
      }
    }
  }
  for (size_t b = 0; b < blocks; ++b) {
    const PtxBlock& blk = cfg.blocks[b];
    Set live;
    for (int s : blk.successors) live |= in[static_cast<size_t>(s)];
    for (int i = blk.end; i-- > blk.first;) {
      foldSensitive[static_cast<size_t>(i)] = gen(static_cast<size_t>(i), live) ? 1 : 0;
      live = transfer(static_cast<size_t>(i), live);
    }
  }
  Set atHeaders;
  for (const PtxLoop& l : cfg.loops) atHeaders |= in[static_cast<size_t>(l.header)];
  for (int s = 0; s < kRegisterSlots; ++s) dataOnly[static_cast<size_t>(s)] = atHeaders.test(static_cast<size_t>(s)) ? 0 : 1;
}

}  // namespace

/// What a SASS run needs of the function and the options that no block or warp changes.
struct SassPrepared {
  std::vector<Decoded> decoded;  ///< per instruction
  PtxCfg cfg;
  /// Loads that produce a hinted loop's bounds (bound_loads.h): instruction → (trip, per element).
  std::map<int, std::pair<long long, bool>> boundLoads;
  /// Per register (registerSlot()): at every loop header its value can reach no address, guard,
  /// branch or comparison that does (relevance()).
  std::vector<char> dataOnly;
  /// Per instruction: whether loop folding must see its inputs equal in every folded iteration
  /// (a non-affine instruction whose result can reach control or an address, or a control
  /// instruction); one that writes data-only registers alone need not.
  std::vector<char> foldSensitive;
};

Expected<std::shared_ptr<const SassPrepared>> prepareSassRun(const SassFunction& fn, const SassRunOptions& o) {
  const std::vector<SassInstruction>& code = fn.instructions;
  const int n = static_cast<int>(code.size());
  auto prepared = std::make_shared<SassPrepared>();
  std::vector<Decoded>& decoded = prepared->decoded;
  decoded.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) decoded[i] = decode(code[i]);
  auto indexOf = [&](const std::string& label) -> int {
    auto it = fn.labels.find(label);
    return it == fn.labels.end() ? -1 : static_cast<int>(it->second / 16);
  };
  // Basic blocks.
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
  PtxCfg& cfg = prepared->cfg;
  cfg = linkCfg(leader, [&](int i) {
    const SassInstruction& last = code[i];
    const bool guarded = last.guard >= 0 && last.guard != 7;
    if (last.mnemonic == "BRA" && !hasMod(last, "DIV")) return BlockEnd{BlockEnd::Kind::kBranch, indexOf(last.target), guarded};
    if (last.mnemonic == "EXIT" || last.mnemonic == "RET") return BlockEnd{BlockEnd::Kind::kExit, -1, guarded};
    return BlockEnd{};
  });

  // Registers that hold data only at the loop headers, and the instructions whose inputs
  // folding must compare.
  relevance(code, cfg, prepared->dataOnly, prepared->foldSensitive);

  // Loads that produce a hinted loop's bounds (bound_loads.h), from each instruction's facts.
  if (!o.trips.empty()) {
    std::vector<BoundLoadFacts> facts(static_cast<size_t>(n));
    const auto reg = [](const SassOperand& op) {
      return op.kind == SassOperand::Kind::Register && op.width == 1 && op.reg != 255 && !op.negated ? op.reg : -1;
    };
    for (int i = 0; i < n; ++i) {
      const SassInstruction& in = code[i];
      BoundLoadFacts& f = facts[static_cast<size_t>(i)];
      f.path = &in.sourceFile;
      f.line = in.sourceLine;
      const auto& ops = in.operands;
      if (ops.empty()) continue;
      f.load = (in.mnemonic == "LDG" || in.mnemonic == "LD") && !in.library;
      if (!decoded[i].noDestination && ops[0].kind == SassOperand::Kind::Register && ops[0].reg != 255) {
        // A load writes as many registers as it has 4-byte words; a pair operand two.
        const int words = std::max({1, ops[0].width, in.memoryWidthBytes / 4});
        for (int w = 0; w < words; ++w) f.defs.push_back(ops[0].reg + w);
      }
      if (f.load) f.dst = reg(ops[0]);
      // A register copy (MOV d, s; IMAD.MOV d, RZ, RZ, s).
      const bool imadMov = in.mnemonic == "IMAD" && std::find(in.mods.begin(), in.mods.end(), "MOV") != in.mods.end();
      const SassOperand* from = in.mnemonic == "MOV" && ops.size() == 2 ? &ops[1] : imadMov && ops.size() == 4 ? &ops[3] : nullptr;
      if (from && reg(*from) >= 0) f.copyFrom = reg(*from), f.dst = reg(ops[0]);
      // r = r + constant: VIADD r, r, imm or IADD3 r, r, imm, RZ.
      const bool viadd = in.mnemonic == "VIADD" && ops.size() == 3;
      const bool iadd3 = in.mnemonic == "IADD3" && ops.size() == 4 && ops[3].reg == 255;
      if ((viadd || iadd3) && reg(ops[0]) >= 0 && reg(ops[0]) == reg(ops[1]) && ops[2].kind == SassOperand::Kind::Immediate) {
        f.stepped = reg(ops[0]);
        f.stepBy = ops[2].offset;
        f.indexStep = ops[2].integer;
      }
      if (in.mnemonic == "ISETP") {
        for (const SassOperand& op : ops) {
          if (reg(op) >= 0) f.compared.push_back(reg(op));
        }
      }
      // IADD3 d, a, b, c and IMAD.IADD d, a, 0x1, b (a + 1 × b) add two registers.
      const bool imadIadd = in.mnemonic == "IMAD" && std::find(in.mods.begin(), in.mods.end(), "IADD") != in.mods.end();
      if ((in.mnemonic == "IADD3" || imadIadd) && ops.size() >= 4) f.sumA = reg(ops[1]), f.sumB = reg(ops[imadIadd ? 3 : 2]);
      if (in.mnemonic == "IMAD" || in.mnemonic == "LEA" || in.mnemonic == "SHF" || in.mnemonic == "MOV") {
        for (size_t k = 1; k < ops.size(); ++k) {
          if (reg(ops[k]) >= 0) f.indexUses.push_back(reg(ops[k]));
        }
      }
    }
    prepared->boundLoads = findBoundLoads(cfg, facts, o.trips);
  }
  return std::shared_ptr<const SassPrepared>(std::move(prepared));
}

Expected<SassWarpCount> runSassWarp(const SassFunction& fn, const SassRunOptions& o, long long blockIndex, int warp,
                                    const SassPrepared* prepared) {
  if (!o.layout) return makeError("the SASS count needs the cubin's parameter layout");
  std::shared_ptr<const SassPrepared> own;
  if (!prepared) {
    Expected<std::shared_ptr<const SassPrepared>> p = prepareSassRun(fn, o);
    if (!p) return std::move(p).takeError();
    own = std::move(*p);
    prepared = own.get();
  }
  const std::vector<SassInstruction>& code = fn.instructions;
  const int n = static_cast<int>(code.size());
  const std::vector<Decoded>& decoded = prepared->decoded;
  const PtxCfg& cfg = prepared->cfg;
  const std::map<int, std::pair<long long, bool>>& boundLoads = prepared->boundLoads;

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
    // The lane masks relative to this lane (PTX %lanemask_lt and kin).
    const std::uint32_t self = 1u << lane;
    if (t == "SR_EQMASK") return {self, true};
    if (t == "SR_LTMASK") return {self - 1, true};
    if (t == "SR_LEMASK") return {(self - 1) | self, true};
    if (t == "SR_GTMASK") return {~((self - 1) | self), true};
    if (t == "SR_GEMASK") return {~(self - 1), true};
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

  // The byte address memory operand `mem` names for `lane` (64-bit register pairs; `extended`:
  // Volta/Turing's .E, each register the low half of a pair unless .U32; [R3.X4]: a scaled
  // index), or nullopt when a part is unknown (data-dependent).
  auto operandAddress = [&](const SassOperand& mem, int lane, bool extended) -> std::optional<long long> {
    unsigned long long a = static_cast<unsigned long long>(mem.offset);
    for (size_t k = mem.descriptor ? 1 : 0; k < mem.parts.size(); ++k) {
      const SassOperand& part = mem.parts[k];
      const V lo = read(part, lane);
      V hi{0, true};
      const bool pair = part.width >= 2 || (extended && !part.u32);
      if (pair && part.reg != 255) hi = readAt(part, lane, 1, 0, std::string::npos);
      if (!lo.known || !hi.known) return std::nullopt;
      a += ((static_cast<unsigned long long>(hi.v) << 32) | lo.v) * static_cast<unsigned long long>(part.scale);
    }
    return static_cast<long long>(a & ((1ULL << 62) - 1));
  };

  ExecutionSetup setup;
  setup.cfg = &cfg;
  setup.valid = valid;
  setup.trips = &o.trips;
  setup.branches = &o.branches;
  setup.maxInstructions = o.maxInstructions;
  setup.recordStream = o.recordStream;
  setup.recordAddresses = o.recordAddresses;
  setup.foldLoops = o.foldLoops;
  setup.kernelName = fn.name;
  setup.untracked = "values the SASS run does not track";
  WarpExecution ex(std::move(setup), static_cast<size_t>(n));
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
    // F32 arithmetic on known values, as the PTX run computes it (IEEE, to nearest; MUFU's
    // approximations as the correctly rounded functions; .FTZ, .SAT): float arguments decide
    // branches and trip counts here too. Operands may be -x, |x|, -|x|; immediates are decimal.
    if (op == Op::kFADD || op == Op::kFMUL || op == Op::kFFMA || op == Op::kFMNMX || op == Op::kFRND || op == Op::kFSEL ||
        op == Op::kFSETP || op == Op::kMUFU || op == Op::kFCHK) {
      auto f = [&](size_t k) -> std::optional<float> {
        if (k >= ops.size()) return std::nullopt;
        const SassOperand& o = ops[k];
        if (o.kind == SassOperand::Kind::Immediate) return floatImmediate(o.text);
        const V v = readAt(o, lane, 0, 0, std::string::npos);  // the bits, without integer modifiers
        if (!v.known) return std::nullopt;
        float x = std::bit_cast<float>(v.v);
        if (o.text.find('|') != std::string::npos) x = std::fabs(x);
        if (!o.text.empty() && o.text[0] == '-') x = -x;
        return x;
      };
      const bool ftz = (mods & kModFTZ) != 0;
      const auto out = [&](std::optional<float> r) {
        if (!r) return write(ops[0], lane, V{});
        float x = *r;
        if (ftz && std::fpclassify(x) == FP_SUBNORMAL) x = std::copysign(0.0f, x);
        if (mods & kModSAT) x = std::isnan(x) ? 0.0f : std::clamp(x, 0.0f, 1.0f);
        write(ops[0], lane, V{std::bit_cast<std::uint32_t>(x), true});
      };
      const std::optional<float> a = f(1), b = f(2);
      switch (op) {
        case Op::kFADD: return out(a && b ? std::optional<float>(*a + *b) : std::nullopt);
        case Op::kFMUL: return out(a && b ? std::optional<float>(*a * *b) : std::nullopt);
        case Op::kFFMA: {
          const std::optional<float> c = f(3);
          return out(a && b && c ? std::optional<float>(std::fma(*a, *b, *c)) : std::nullopt);
        }
        case Op::kFMNMX: {
          const V p = src(3);
          return out(a && b && p.known ? std::optional<float>(p.v ? std::fmin(*a, *b) : std::fmax(*a, *b)) : std::nullopt);
        }
        case Op::kFRND: {
          if (!a) return out(std::nullopt);
          const float r = (mods & kModTRUNC) ? std::trunc(*a) : (mods & kModFLOOR) ? std::floor(*a)
                          : (mods & kModCEIL) ? std::ceil(*a) : std::nearbyint(*a);
          return out(r);
        }
        case Op::kFSEL: {
          const V p = src(3);
          if (!p.known) return out(std::nullopt);
          return out(p.v ? a : b);
        }
        case Op::kFCHK:
          // FCHK p, a, b: whether a / b needs the IEEE division's slow path, which ptxas calls
          // only when it is set (divisionNeedsSlowPath()); unknown with an unknown operand,
          // where the branch around the call skips it (SassInstruction::skipsSlowPath).
          if (!a || !b) return write(ops[0], lane, V{});
          return write(ops[0], lane, V{divisionNeedsSlowPath(*a, *b) ? 1u : 0u, true});
        case Op::kMUFU: {
          if (!a) return unknownOutputs();
          if (mods & kModRCP) return out(1.0f / *a);
          if (mods & kModEX2) return out(std::exp2(*a));
          if (mods & kModLG2) return out(std::log2(*a));
          if (mods & kModRSQ) return out(1.0f / std::sqrt(*a));
          if (mods & kModSQRT) return out(std::sqrt(*a));
          if (mods & kModSIN) return out(std::sin(*a));
          if (mods & kModCOS) return out(std::cos(*a));
          return unknownOutputs();
        }
        default: {  // FSETP.CMP.BOP p, q, a, b, c: p = cmp(a, b) BOP c, q = !cmp(a, b) BOP c
          if (in.mods.size() < 2 || ops.size() < 5) return unknownOutputs();
          std::string cmp = in.mods[0];
          for (char& ch : cmp) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
          const std::optional<float> x = f(2), y = f(3);
          bool known = false, r = false;
          if (x && y) {
            if (const std::optional<bool> v = compareFloats(cmp, *x, *y)) known = true, r = *v;
          }
          const V c = src(4);
          write(ops[0], lane, combinePredicate(known, r, c, decoded[index].bop));
          return write(ops[1], lane, combinePredicate(known, !r, c, decoded[index].bop));
        }
      }
    }
    if (op == Op::kI2F || op == Op::kF2I) {
      const V a = src(1);
      if (!a.known || ops.size() < 2) return unknownOutputs();
      const std::optional<std::uint32_t> r = op == Op::kI2F ? intToFloatBits(in, a.v) : floatToIntBits(in, a.v);
      return r ? write(ops[0], lane, V{*r, true}) : unknownOutputs();
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
    if (op == Op::kSEL || op == Op::kUSEL) {
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
      return write(ops[0], lane, combinePredicate(known, r, c, bop));
    }
    if (op == Op::kPOPC || op == Op::kFLO) {
      // POPC d, a: the set bits of a. FLO[.U32|.S32][.SH] d, a: the position of a's most
      // significant one (.S32: of its most significant bit unlike the sign), 0xffffffff when
      // there is none; .SH gives the count of bits above it instead (31 - position).
      const V a = src(1);
      if (!a.known) return write(ops[0], lane, V{});
      if (op == Op::kPOPC) return write(ops[0], lane, V{static_cast<std::uint32_t>(std::popcount(a.v)), true});
      const bool sign = (mods & kModS32) != 0;
      const std::uint32_t x = sign && (a.v >> 31) ? ~a.v : a.v;
      if (x == 0) return write(ops[0], lane, V{~0u, true});
      const auto position = static_cast<std::uint32_t>(31 - std::countl_zero(x));
      const bool shift = std::find(in.mods.begin(), in.mods.end(), "SH") != in.mods.end();
      return write(ops[0], lane, V{shift ? 31 - position : position, true});
    }
    if (op == Op::kBITS) {
      // BREV d, a: a's bits reversed. BMSK d, pos, width: `width` ones from bit `pos` (.W: the
      // width and position taken mod 32; else clamped to the word). SGXT d, a, bits: a's low
      // `bits` bits sign-extended (.U32: zero-extended).
      const V a = src(1), b = src(2);
      const std::string& m = in.mnemonic;
      const bool brev = m == "BREV" || m == "UBREV";
      if (!a.known || (!brev && !b.known)) return write(ops[0], lane, V{});
      if (brev) {
        std::uint32_t r = 0;
        for (int bit = 0; bit < 32; ++bit) r |= ((a.v >> bit) & 1u) << (31 - bit);
        return write(ops[0], lane, V{r, true});
      }
      const bool wrap = (mods & kModW) != 0;
      if (m == "BMSK" || m == "UBMSK") {
        const std::uint32_t pos = wrap ? a.v & 31 : std::min<std::uint32_t>(a.v, 32);
        const std::uint32_t width = wrap ? b.v & 31 : std::min<std::uint32_t>(b.v, 32);
        const std::uint64_t ones = (std::uint64_t{1} << width) - 1;
        return write(ops[0], lane, V{static_cast<std::uint32_t>(ones << pos), true});
      }
      const std::uint32_t bits = wrap ? b.v & 31 : std::min<std::uint32_t>(b.v, 32);
      if (bits == 0 || bits >= 32) return write(ops[0], lane, V{bits == 0 ? 0u : a.v, true});
      const std::uint32_t low = a.v & ((1u << bits) - 1);
      const bool negative = !u32 && (low >> (bits - 1) & 1u);
      return write(ops[0], lane, V{negative ? low | (~0u << bits) : low, true});
    }
    if (op == Op::kPRMT) {
      // PRMT d, a, sel, b (default mode only): byte k of d is byte (sel's nibble k & 7) of the
      // pair {b, a} (a bytes 0-3, b bytes 4-7), or that byte's sign replicated when the
      // nibble's bit 3 is set. ptxas widens bytes and halves with it.
      if (in.mods.size() > 0 && in.mods[0] != "B32") return unknownOutputs();
      const V a = src(1), sel = src(2), b = src(3);
      if (!a.known || !sel.known || !b.known) return write(ops[0], lane, V{});
      const std::uint64_t pair = (static_cast<std::uint64_t>(b.v) << 32) | a.v;
      std::uint32_t r = 0;
      for (int k = 0; k < 4; ++k) {
        const std::uint32_t nibble = sel.v >> (4 * k) & 0xf;
        std::uint32_t byte = static_cast<std::uint32_t>(pair >> (8 * (nibble & 7)) & 0xff);
        if (nibble & 8) byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * k);
      }
      return write(ops[0], lane, V{r, true});
    }
    if (op == Op::kR2P || op == Op::kP2R) {
      // R2P PR, a, mask: P0-P6 take a's bits where the mask has them. P2R d, PR, a, mask: d = a
      // with the masked bits replaced by P0-P6. The byte forms (.B1-.B3) are not tracked.
      const auto isByte = [](const std::string& x) { return x.size() == 2 && x[0] == 'B' && x[1] >= '1' && x[1] <= '3'; };
      bool byteForm = std::any_of(in.mods.begin(), in.mods.end(), isByte);
      for (const SassOperand& o : ops) {
        byteForm = byteForm || o.text.find(".B1") != std::string::npos || o.text.find(".B2") != std::string::npos ||
                   o.text.find(".B3") != std::string::npos;
      }
      if (op == Op::kR2P) {
        if (ops.size() < 3) return;
        const V a = src(1), mask = src(2);
        for (int p = 0; p < 7; ++p) {
          if (mask.known && !(mask.v >> p & 1)) continue;
          const bool known = a.known && mask.known && !byteForm;
          lanes->p[lane][p] = V{known ? (a.v >> p & 1u) : 0u, known};
        }
        return;
      }
      if (ops.size() < 4 || byteForm) return write(ops[0], lane, V{});
      const V a = src(2), mask = src(3);
      std::uint32_t preds = 0;
      bool known = a.known && mask.known;
      for (int p = 0; p < 7 && known; ++p) {
        if (!(mask.v >> p & 1)) continue;
        const V v = lanes->p[lane][p];
        known = v.known;
        if (v.v) preds |= 1u << p;
      }
      return write(ops[0], lane, known ? V{(a.v & ~mask.v) | (preds & mask.v), true} : V{});
    }
    if (op == Op::kIABS) {
      const V a = src(1);
      return write(ops[0], lane, a.known ? V{static_cast<std::uint32_t>(std::abs(static_cast<std::int32_t>(a.v))), true} : V{});
    }
    if (op == Op::kIMNMX || op == Op::kUIMNMX || op == Op::kVIMNMX3) {
      // d, a, b[, c], p: the least of the sources when p is true, else the greatest (VIMNMX3, of
      // three: `VIMNMX3 R8, R9, R8, R6, PT` is pathfinder's min(min(left, up), right)).
      const bool three = op == Op::kVIMNMX3;
      const V a = src(1), b = src(2), c = three ? src(3) : V{0, true}, p = src(three ? 4 : 3);
      if (!(a.known && b.known && c.known && p.known)) return write(ops[0], lane, V{});
      const auto value = [&](const V& v) { return u32 ? static_cast<long long>(v.v) : static_cast<long long>(static_cast<std::int32_t>(v.v)); };
      const long long x = value(a), y = value(b), z = three ? value(c) : x;
      return write(ops[0], lane, V{static_cast<std::uint32_t>(p.v ? std::min({x, y, z}) : std::max({x, y, z})), true});
    }
    if (auto bl = boundLoads.find(index); bl != boundLoads.end() && ops.size() > 1 && ops[1].kind == SassOperand::Kind::Memory) {
      // A load feeding a hinted loop bound: N, or N × the element index of the address (its
      // low word is the offset in the allocation: pointer parameters are based at multiples of
      // 2^32).
      const auto [trips, asIndex] = bl->second;
      ex.boundLoad(index, "trip hint " + std::to_string(trips) + " (loop bound " + (asIndex ? "pointers" : "value") + ")");
      std::uint32_t low = static_cast<std::uint32_t>(ops[1].offset);
      bool known = true;
      for (size_t k = ops[1].descriptor ? 1 : 0; k < ops[1].parts.size(); ++k) {
        const V v = read(ops[1].parts[k], lane);
        known = known && v.known;
        low += v.v;
      }
      if (!asIndex) return write(ops[0], lane, V{static_cast<std::uint32_t>(trips), true});
      const int width = std::max(1, in.memoryWidthBytes);
      return write(ops[0], lane, known ? V{static_cast<std::uint32_t>(trips * (low / width)), true} : V{});
    }
    if ((op == Op::kLDG || op == Op::kLD) && !o.arrayData.empty() && ops.size() > 1 && ops[1].kind == SassOperand::Kind::Memory &&
        isReg(ops[0])) {
      // A load at a known address inside a given array (SassRunOptions::arrayData) reads its
      // values: one 32-bit register per word (.64: a pair, .128: four), .U8/.S8/.U16/.S16
      // zero- or sign-extended.
      const bool global = sassAccessKind(in).space == SassSpace::Global;
      if (const std::optional<long long> at = operandAddress(ops[1], lane, global && (mods & kModE) != 0)) {
        const int width = std::max(1, in.memoryWidthBytes);
        const int words = std::max(1, width / 4);
        std::array<V, 4> values{};
        bool known = words <= 4;
        for (int w = 0; known && w < words; ++w) {
          const std::optional<std::uint64_t> bits = WarpInterpreter::arrayValue(o.arrayData, *at + 4LL * w, std::min(4, width));
          known = bits.has_value();
          if (!known) break;
          std::uint32_t v = static_cast<std::uint32_t>(*bits);
          const bool sign = std::find(in.mods.begin(), in.mods.end(), width == 1 ? "S8" : "S16") != in.mods.end();
          if (width < 4 && sign && (v >> (8 * width - 1) & 1)) v |= ~0u << (8 * width);
          values[static_cast<size_t>(w)] = V{v, true};
        }
        if (known) {
          for (int w = 0; w < words; ++w) writeAt(ops[0], ops[0].reg + w, lane, values[static_cast<size_t>(w)]);
          return;
        }
      }
    }
    // Stores, branches and barriers have no register destination.
    if (decoded[index].noDestination) return;
    unknownOutputs();
  };

  // The instructions whose lanes read each other's values, executed for the warp at once: the
  // values are known only when every lane that runs has decided to (no undecided guard).
  //  - VOTE.{ANY,ALL,EQ} / VOTEU (uniform) d..., p: a register destination gets the ballot of p
  //    over the running lanes (`VOTEU.ANY UR6, UPT, PT` is the active mask ptxas builds a
  //    warp-aggregated atomic from), a predicate destination whether any, all, or all-or-none
  //    of them have p.
  //  - REDUX.{SUM,MIN,MAX,AND,OR,XOR}[.S32] d, a: a reduced over the running lanes into the
  //    uniform d (`atomicAdd(total, v)` of a whole warp: REDUX.SUM, then one leader lane adds).
  //  - SHFL.{IDX,UP,DOWN,BFLY} p, d, a, b, c: d = a of the source lane that PTX's shfl.sync
  //    computes from b and c (c's bits 0-4 the clamp, 8-12 the segment mask); p whether that
  //    lane was in range (else d = the lane's own a). A source lane that does not run gives an
  //    unknown value.
  auto acrossLanes = [&](int index, std::uint32_t on, std::uint32_t undecided) {
    const SassInstruction& in = code[index];
    const auto& ops = in.operands;
    const std::uint32_t runs = on | undecided;
    if (ops.empty()) return;
    if (decoded[index].op == Op::kVOTE) {
      const SassOperand& source = ops.back();
      std::uint32_t ballot = 0;
      bool known = undecided == 0;
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(runs >> lane & 1)) continue;
        const V p = read(source, lane);
        known = known && p.known;
        if (p.v) ballot |= 1u << lane;
      }
      const std::string mode = in.mods.empty() ? "" : in.mods[0];
      const bool result = mode == "ALL" ? ballot == runs : mode == "EQ" ? (ballot == 0 || ballot == runs) : ballot != 0;
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(runs >> lane & 1)) continue;
        for (size_t k = 0; k + 1 < ops.size(); ++k) {
          if (isPred(ops[k])) write(ops[k], lane, V{result ? 1u : 0u, known});
          else if (isReg(ops[k])) write(ops[k], lane, known ? V{ballot, true} : V{});
        }
      }
      return;
    }
    if (decoded[index].op == Op::kREDUX) {
      const std::string mode = in.mods.empty() ? "" : in.mods[0];
      const bool sign = (decoded[index].mods & kModS32) != 0;
      const bool valid = mode == "SUM" || mode == "MIN" || mode == "MAX" || mode == "AND" || mode == "OR" || mode == "XOR";
      bool known = valid && undecided == 0 && ops.size() >= 2;
      long long acc = 0;
      bool first = true;
      for (int lane = 0; known && lane < kLanes; ++lane) {
        if (!(runs >> lane & 1)) continue;
        const V a = read(ops[1], lane);
        known = a.known;
        const long long x = sign ? static_cast<long long>(static_cast<std::int32_t>(a.v)) : static_cast<long long>(a.v);
        if (first) {
          acc = x;
          first = false;
        } else if (mode == "SUM") {
          acc += x;
        } else if (mode == "MIN") {
          acc = std::min(acc, x);
        } else if (mode == "MAX") {
          acc = std::max(acc, x);
        } else if (mode == "AND") {
          acc &= x;
        } else if (mode == "OR") {
          acc |= x;
        } else {
          acc ^= x;
        }
      }
      for (int lane = 0; lane < kLanes; ++lane) {
        if (runs >> lane & 1) write(ops[0], lane, known && !first ? V{static_cast<std::uint32_t>(acc), true} : V{});
      }
      return;
    }
    // SHFL
    if (ops.size() < 5 || in.mods.empty()) {
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(runs >> lane & 1)) continue;
        for (size_t k = 0; k < 2 && k < ops.size(); ++k) write(ops[k], lane, V{});
      }
      return;
    }
    const std::optional<ShuffleMode> mode = shuffleMode(in.mods[0]);  // another mode: every result unknown
    std::array<V, kLanes> value{}, inRange{};
    for (int lane = 0; lane < kLanes; ++lane) {
      if (!(runs >> lane & 1)) continue;
      const V b = read(ops[3], lane), c = read(ops[4], lane);
      if (!mode || !b.known || !c.known || (undecided >> lane & 1)) continue;
      const ShuffleSource source = shuffleSource(*mode, lane, b.v, c.v);
      const int j = source.lane;
      const bool ok = source.inRange;
      inRange[static_cast<size_t>(lane)] = V{ok ? 1u : 0u, true};
      const bool sourceRuns = j >= 0 && j < kLanes && (on >> j & 1);
      value[static_cast<size_t>(lane)] = sourceRuns ? read(ops[2], j) : V{};
    }
    for (int lane = 0; lane < kLanes; ++lane) {
      if (!(runs >> lane & 1)) continue;
      write(ops[0], lane, inRange[static_cast<size_t>(lane)]);
      write(ops[1], lane, value[static_cast<size_t>(lane)]);
    }
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
    const SassSpace space = sassAccessKind(in).space;
    const bool local = space == SassSpace::Local;
    // Volta/Turing write a 64-bit global address with plain registers (`LDG.E.SYS R6, [R2]`,
    // `STG.E.SYS [R6.64+UR4], R3`): the `.E` (extended address) modifier says that each
    // register is the low half of a pair (a `.U32` one excepted).
    const bool extended = space == SassSpace::Global && (decoded[index].mods & kModE) != 0;
    const int width = std::max(1, in.memoryWidthBytes);
    const int rowLanes = in.matrixRowLanes();  // ldmatrix .1/.2: the other lanes' addresses are unused
    std::vector<long long> lanesOut(kLanes, -1);
    for (int lane = 0; lane < kLanes; ++lane) {
      if (!(mask >> lane & 1) || (rowLanes > 0 && lane >= rowLanes)) continue;
      if (local) {
        // Thread-private stack slots, interleaved per lane as the hardware lays them out.
        lanesOut[lane] = (1LL << 36) + (mem->offset / width) * width * kLanes + lane * width;
        continue;
      }
      const std::optional<long long> a = operandAddress(*mem, lane, extended);
      if (!a) {  // data-dependent
        ex.recordAccess(index, {});
        return;
      }
      lanesOut[lane] = *a;
    }
    ex.recordAccess(index, std::move(lanesOut));
  };

  // Loop folding (LoopFold in warp_interpreter.h). Low registers of the 64-bit address pairs of
  // memory operands ([R2.64]: R2 low, R3 high), per file (R, UR): a fold may carry such a low
  // word past 2^32 into its high word, the pair moving as one 64-bit value. Any other 32-bit
  // register must not wrap within a fold.
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
  // While loops are collected for folding: the inputs of non-affine instructions (equal in
  // every folded iteration) and the known comparisons (their first change ends the fold).
  auto logIteration = [&](int i, std::uint32_t mask) {
    const SassInstruction& in = code[i];
    const Op op = decoded[i].op;
    const unsigned mods = decoded[i].mods;
    if (!isAffine(i)) {
      // One whose results hold data only may see other inputs in every iteration.
      if (!prepared->foldSensitive[static_cast<size_t>(i)]) return;
      std::uint64_t h = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL;
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(mask >> lane & 1)) continue;
        for (const SassOperand& op : in.operands) {
          if (op.kind == SassOperand::Kind::Memory) continue;
          const V v = read(op, lane);
          h = (h ^ v.v ^ (v.known ? 0x5555ULL << 40 : 0)) * folding::kHashBase + static_cast<std::uint64_t>(lane);
        }
      }
      ex.addNonAffine(h);
      return;
    }
    if ((op != Op::kISETP && op != Op::kUISETP) || in.mods.size() < 2 || in.operands.size() < 4) return;
    // The comparison of every lane with known operands (.EX: the high words; the low words'
    // comparison is logged where it is made).
    const Cmp cmp = decoded[i].cmp;
    const char kind = cmp == Cmp::kLt ? 'l' : cmp == Cmp::kLe ? 'L' : cmp == Cmp::kGt ? 'g' : cmp == Cmp::kGe ? 'G'
                    : cmp == Cmp::kEq ? 'e' : cmp == Cmp::kNe ? 'n' : '?';
    const bool u32 = (mods & kModU32);
    for (int lane = 0; lane < kLanes; ++lane) {
      if (!(mask >> lane & 1)) continue;
      const V a = read(in.operands[2], lane), b = read(in.operands[3], lane);
      if (!a.known || !b.known) continue;
      const folding::Int128 x = u32 ? static_cast<folding::Int128>(a.v) : static_cast<folding::Int128>(static_cast<std::int32_t>(a.v));
      const folding::Int128 y = u32 ? static_cast<folding::Int128>(b.v) : static_cast<folding::Int128>(static_cast<std::int32_t>(b.v));
      ex.logComparison(folding::comparison(i, lane, (mods & kModEX) ? '?' : kind, u32, 32, x, y));
    }
  };
  /// A register that advances by a constant 32-bit step per folded iteration, or (forget) a
  /// data-only one that does not, unknown after the fold.
  struct Move {
    int file, reg, lane;
    std::uint32_t step;
    bool pair = false;  ///< the low word of an address pair: the 64-bit pair moves by step (signed)
    bool forget = false;
  };
  const std::vector<char>& dataOnly = prepared->dataOnly;
  constexpr int kFileBase[4] = {0, 256, 320, 328};
  using Registers = std::unique_ptr<Lanes>;

  // The instruction set's side of the executor (warp_executor.h) --------------------------------
  auto isa = makeIsa(
      [&](int i) {
        const Op op = decoded[i].op;
        if (op == Op::kBRA && !(decoded[i].mods & kModDIV)) return Flow::kBranch;
        return op == Op::kEXIT || op == Op::kRET ? Flow::kExit : Flow::kOther;
      },
      [&](int i, std::uint32_t m) {
        const SassInstruction& in = code[i];
        GuardLanes g{m, 0, kOriginOther};
        if (in.guard < 0 || in.guard == 7) return g;
        g.on = 0;
        for (int lane = 0; lane < kLanes; ++lane) {
          if (!(m >> lane & 1)) continue;
          const V p = in.guardUniform ? lanes->up[lane][in.guard] : lanes->p[lane][in.guard];
          if (!p.known) g.unknown |= 1u << lane;
          else if ((p.v != 0) != in.guardNegated) g.on |= 1u << lane;
        }
        return g;
      },
      [&](int i) {
        const SassInstruction& in = code[i];
        const std::string base = in.sourceFile.substr(in.sourceFile.rfind('/') + 1);
        return SourceLocation{in.sourceFile, in.sourceLine, base + ":" + std::to_string(in.sourceLine), base, in.library, in.inlinedFrom,
                              in.skipsSlowPath};
      },
      [&](int i, std::uint32_t on, std::uint32_t undecided, int) -> Expected<void> {
        const SassInstruction& in = code[i];
        const std::uint32_t runs = on | undecided;
        // Lane addresses before it executes (it may overwrite its own address registers); the
        // undecided lanes' addresses are recorded like any other lane's.
        if (ex.recording() && in.memoryWidthBytes > 0) recordAddresses(i, runs);
        if (decoded[i].op == Op::kCALL) {
          // A call that was not expanded (CALL.ABS to vprintf, recursion below the expansion
          // depth): the callee may change the argument, result and scratch registers of the ABI.
          for (int lane = 0; lane < kLanes; ++lane) {
            if (!(runs >> lane & 1)) continue;
            lanes->r[lane][0] = V{};
            for (int r = 2; r < 16; ++r) lanes->r[lane][r] = V{};
          }
          return {};
        }
        if (decoded[i].op == Op::kVOTE || decoded[i].op == Op::kSHFL || decoded[i].op == Op::kREDUX) {
          acrossLanes(i, on, undecided);
          if (ex.logging()) logIteration(i, runs);
          return {};
        }
        for (int lane = 0; lane < kLanes; ++lane) {
          if (!(runs >> lane & 1)) continue;
          execute(i, lane);
          if ((undecided >> lane & 1) && !in.operands.empty()) write(in.operands[0], lane, V{});
          if ((undecided >> lane & 1) && decoded[i].op == Op::kR2P) {
            for (int p = 0; p < 7; ++p) lanes->p[lane][p] = V{};  // (PR is no predicate operand)
          }
        }
        if (ex.logging()) logIteration(i, runs);
        return {};
      },
      [&] { return std::make_unique<Lanes>(*lanes); },
      [&](const Registers& s0, const Registers& s1, const Registers& s2, const Registers& s3,
          folding::Int128& repeats) -> std::optional<std::vector<Move>> {
        // The same known-ness, constant 32-bit steps, no wrap-around; a register holding data
        // only (SassPrepared::dataOnly) that does not keep them is unknown after the fold.
        std::vector<Move> moves;
        auto check = [&](int file, int count, auto get) -> bool {
          for (int lane = 0; lane < kLanes; ++lane) {
            for (int r = 0; r < count; ++r) {
              const V a = get(*s0, lane, r), b = get(*s1, lane, r), c = get(*s2, lane, r), e = get(*s3, lane, r);
              const int slot = kFileBase[file] + r;
              const bool data = slot < kRegisterSlots && dataOnly[static_cast<size_t>(slot)];
              auto fail = [&] {
                if (!data) return false;
                moves.push_back({file, r, lane, 0, false, true});
                return true;
              };
              if (a.known != b.known || b.known != c.known || c.known != e.known) {
                if (fail()) continue;
                return false;
              }
              if (!e.known) continue;
              const std::uint32_t d1 = b.v - a.v, d2 = c.v - b.v, d3 = e.v - c.v;
              if (d1 != d2 || d2 != d3) {
                if (fail()) continue;
                return false;
              }
              if (d3 == 0) continue;
              if (file >= 2) {  // predicates do not move
                if (fail()) continue;
                return false;
              }
              const folding::Int128 d = static_cast<std::int32_t>(d3);
              if (pairLow[static_cast<size_t>(file)][static_cast<size_t>(r)]) {
                // The high word of the pair held still over the compared iterations (a carry
                // there would have broken the constant steps): the pair moves as one value.
                const V hiA = get(*s0, lane, r + 1), hiE = get(*s3, lane, r + 1);
                if (hiA.known && hiE.known && hiA.v == hiE.v) {
                  moves.push_back({file, r, lane, d3, true});
                  continue;
                }
              }
              repeats = std::min(repeats, d > 0 ? (static_cast<folding::Int128>(0xffffffffu) - e.v) / d
                                                : static_cast<folding::Int128>(e.v) / -d);
              moves.push_back({file, r, lane, d3});
            }
          }
          return true;
        };
        if (!check(0, 256, [](const Lanes& l, int lane, int r) { return l.r[lane][r]; })) return std::nullopt;
        if (!check(1, 64, [](const Lanes& l, int lane, int r) { return l.ur[lane][r]; })) return std::nullopt;
        if (!check(2, 8, [](const Lanes& l, int lane, int r) { return l.p[lane][r]; })) return std::nullopt;
        if (!check(3, 8, [](const Lanes& l, int lane, int r) { return l.up[lane][r]; })) return std::nullopt;
        return moves;
      },
      [&](const std::vector<Move>& moves, long long f) {
        for (const Move& mv : moves) {
          if (mv.forget) {
            V& v = mv.file == 0 ? lanes->r[mv.lane][mv.reg] : mv.file == 1 ? lanes->ur[mv.lane][mv.reg]
                 : mv.file == 2 ? lanes->p[mv.lane][mv.reg] : lanes->up[mv.lane][mv.reg];
            v = V{};
            continue;
          }
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
      });
  Expected<WarpTrace> trace = ex.run(isa);
  if (!trace) return std::move(trace).takeError();
  SassWarpCount out;
  static_cast<WarpTrace&>(out) = std::move(*trace);
  out.cfg = cfg;
  return out;
}

}  // namespace foresight::cuda
