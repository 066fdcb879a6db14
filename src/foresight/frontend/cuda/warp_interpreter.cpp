// SPDX-License-Identifier: Apache-2.0
/// \file
/// One-warp PTX execution with per-lane known/unknown integer values, a SIMT reconvergence
/// stack at immediate post-dominators, hint-driven resolution of data-dependent branches, and
/// per-instruction memory statistics (sectors via memory/coalescing.h, wavefronts via
/// memory/bank_conflicts.h).
#include "foresight/frontend/cuda/warp_interpreter.h"

#include <algorithm>
#include <cctype>
#include <array>
#include <bit>
#include <cmath>
#include <set>

#include "foresight/frontend/cuda/bound_loads.h"
#include "foresight/frontend/cuda/float_compare.h"
#include "foresight/frontend/cuda/loop_folding.h"
#include "foresight/frontend/cuda/warp_executor.h"
#include "foresight/memory/bank_conflicts.h"
#include "foresight/memory/coalescing.h"
#include "foresight/support/strings.h"

namespace foresight::cuda {

namespace {

constexpr int kLanes = 32;
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;
constexpr long long kLocalWindow = 1LL << 36;  ///< generic addresses of the local depot
constexpr long long kGlobalVarBase = 48LL << 40;

/// Origins of unknown values (warp_executor.h).
constexpr int kKnown = kOriginKnown;
constexpr int kFromMemory = kOriginMemory;
constexpr int kFromOther = kOriginOther;  ///< clocks, floating point, unsupported instructions

struct Lane {
  /// The value when known; when unknown, the base of the allocation the value points into
  /// (a pointer parameter's plus unknown data, see allocationOf()), or 0.
  std::uint64_t bits = 0;
  int origin = kKnown;  ///< > 0: argument (ordinal + 1) that was not given
};
using Reg = std::array<Lane, kLanes>;

/// PTX base opcodes the interpreter distinguishes, decoded once per run.
enum class PtxOp : std::uint8_t {
  kOther,
  kAbs,
  kAdd,
  kAnd,
  kAtom,
  kBar,
  kBarrier,
  kBra,
  kCall,
  kCp,
  kCvt,
  kCvta,
  kDiv,
  kEx2,
  kExit,
  kFence,
  kFma,
  kLd,
  kLdu,
  kLg2,
  kMad,
  kMad24,
  kMax,
  kMembar,
  kMin,
  kMov,
  kMul,
  kMul24,
  kNanosleep,
  kNeg,
  kNot,
  kOr,
  kPmevent,
  kPrefetch,
  kRcp,
  kRed,
  kRem,
  kRet,
  kRsqrt,
  kSelp,
  kSetp,
  kShfl,
  kShl,
  kShr,
  kSin,
  kCos,
  kSqrt,
  kSt,
  kSub,
  kTrap,
  kXor,
};

/// The fewest operands an instruction of `op` has (add d, a, b: 3); malformed PTX with fewer
/// is an Error before anything runs.
int minOperands(PtxOp op) {
  switch (op) {
    case PtxOp::kBra: case PtxOp::kCall: return 1;
    case PtxOp::kAbs: case PtxOp::kNeg: case PtxOp::kNot: case PtxOp::kMov: case PtxOp::kCvt: case PtxOp::kCvta:
    case PtxOp::kLd: case PtxOp::kLdu: case PtxOp::kSt: case PtxOp::kRed: return 2;
    case PtxOp::kAdd: case PtxOp::kSub: case PtxOp::kMul: case PtxOp::kMul24: case PtxOp::kDiv: case PtxOp::kRem:
    case PtxOp::kAnd: case PtxOp::kOr: case PtxOp::kXor: case PtxOp::kShl: case PtxOp::kShr: case PtxOp::kMin:
    case PtxOp::kMax: case PtxOp::kSetp: case PtxOp::kAtom: return 3;
    case PtxOp::kMad: case PtxOp::kMad24: case PtxOp::kSelp: case PtxOp::kShfl: return 4;
    default: return 0;
  }
}

PtxOp decodeOp(const std::string& base) {
  static const std::map<std::string, PtxOp> kOps = {
      {"abs", PtxOp::kAbs},
      {"add", PtxOp::kAdd},
      {"and", PtxOp::kAnd},
      {"atom", PtxOp::kAtom},
      {"bar", PtxOp::kBar},
      {"barrier", PtxOp::kBarrier},
      {"bra", PtxOp::kBra},
      {"call", PtxOp::kCall},
      {"cp", PtxOp::kCp},
      {"cvt", PtxOp::kCvt},
      {"cvta", PtxOp::kCvta},
      {"div", PtxOp::kDiv},
      {"cos", PtxOp::kCos},
      {"ex2", PtxOp::kEx2},
      {"exit", PtxOp::kExit},
      {"fence", PtxOp::kFence},
      {"fma", PtxOp::kFma},
      {"ld", PtxOp::kLd},
      {"ldu", PtxOp::kLdu},
      {"lg2", PtxOp::kLg2},
      {"mad", PtxOp::kMad},
      {"mad24", PtxOp::kMad24},
      {"max", PtxOp::kMax},
      {"membar", PtxOp::kMembar},
      {"min", PtxOp::kMin},
      {"mov", PtxOp::kMov},
      {"mul", PtxOp::kMul},
      {"mul24", PtxOp::kMul24},
      {"nanosleep", PtxOp::kNanosleep},
      {"neg", PtxOp::kNeg},
      {"not", PtxOp::kNot},
      {"or", PtxOp::kOr},
      {"pmevent", PtxOp::kPmevent},
      {"prefetch", PtxOp::kPrefetch},
      {"rcp", PtxOp::kRcp},
      {"red", PtxOp::kRed},
      {"rem", PtxOp::kRem},
      {"ret", PtxOp::kRet},
      {"rsqrt", PtxOp::kRsqrt},
      {"selp", PtxOp::kSelp},
      {"setp", PtxOp::kSetp},
      {"shfl", PtxOp::kShfl},
      {"shl", PtxOp::kShl},
      {"shr", PtxOp::kShr},
      {"sin", PtxOp::kSin},
      {"sqrt", PtxOp::kSqrt},
      {"st", PtxOp::kSt},
      {"sub", PtxOp::kSub},
      {"trap", PtxOp::kTrap},
      {"xor", PtxOp::kXor},
  };
  auto it = kOps.find(base);
  return it == kOps.end() ? PtxOp::kOther : it->second;
}

std::uint64_t maskBits(int bits) { return bits >= 64 ? ~0ULL : ((1ULL << bits) - 1); }

long long asInt(std::uint64_t bits, PtxType t) {
  if (t.bits >= 64) return static_cast<long long>(bits);
  const std::uint64_t m = maskBits(t.bits);
  std::uint64_t v = bits & m;
  if (t.kind == 's' && ((v >> (t.bits - 1)) & 1)) v |= ~m;
  return static_cast<long long>(v);
}

/// A floating-point register's value: f32 in the low 32 bits, f64 in all 64.
double floatOf(std::uint64_t bits, int width) {
  return width == 64 ? std::bit_cast<double>(bits) : static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
}

/// The bits of `v` as a `width`-bit float (rounded to nearest for f32).
std::uint64_t floatBits(double v, int width) {
  return width == 64 ? std::bit_cast<std::uint64_t>(v) : std::bit_cast<std::uint32_t>(static_cast<float>(v));
}

/// PTX's float-to-integral rounding modifier (.rni nearest even, .rzi toward zero, .rmi down,
/// .rpi up) applied to `x`; `fallback` when the instruction has none.
double roundIntegral(const std::vector<std::string>& mods, double x, char fallback) {
  char mode = fallback;
  for (const std::string& m : mods) {
    if (m == "rni") mode = 'n';
    if (m == "rzi") mode = 'z';
    if (m == "rmi") mode = 'm';
    if (m == "rpi") mode = 'p';
  }
  switch (mode) {
    case 'z': return std::trunc(x);
    case 'm': return std::floor(x);
    case 'p': return std::ceil(x);
    case 'n': return std::nearbyint(x);
    default: return x;
  }
}

bool hasMod(const PtxInstruction& i, const char* m) {
  return std::find(i.mods.begin(), i.mods.end(), m) != i.mods.end();
}

/// cvt between floats (.rni/.rzi/.rmi/.rpi round to an integral value; f64 → f32 to nearest),
/// from float to integer (rounded as the modifier says, saturated to the type, NaN as 0) and
/// from integer to float (.rn nearest, .rz/.rm/.rp directed): the destination's bits.
std::uint64_t convertFloat(const PtxInstruction& inst, std::uint64_t bits, PtxType dt, PtxType st) {
  if (st.kind == 'f') {
    double x = floatOf(bits, st.bits);
    if (dt.kind == 'f') {
      x = roundIntegral(inst.mods, x, '-');
      if (hasMod(inst, "sat")) x = std::isnan(x) ? 0.0 : std::clamp(x, 0.0, 1.0);
      return floatBits(x, dt.bits);
    }
    if (std::isnan(x)) return 0;
    x = roundIntegral(inst.mods, x, 'z');
    const int b = std::clamp(dt.bits, 8, 64);
    if (dt.kind == 's') {
      const double lo = -std::ldexp(1.0, b - 1), hi = std::ldexp(1.0, b - 1);
      if (x <= lo) return static_cast<std::uint64_t>(static_cast<long long>(lo)) & maskBits(b);
      if (x >= hi) return maskBits(b - 1);
      return static_cast<std::uint64_t>(static_cast<long long>(x)) & maskBits(b);
    }
    if (x <= 0) return 0;
    if (x >= std::ldexp(1.0, b)) return maskBits(b);
    return static_cast<std::uint64_t>(x);
  }
  const bool isSigned = st.kind == 's';
  const long long v = asInt(bits, st);
  const std::uint64_t u = bits & maskBits(st.bits);
  if (dt.bits == 64) return floatBits(isSigned ? static_cast<double>(v) : static_cast<double>(u), 64);
  const long double exact = isSigned ? static_cast<long double>(v) : static_cast<long double>(u);
  float f = static_cast<float>(exact);  // nearest, ties to even
  if (hasMod(inst, "rp") && static_cast<long double>(f) < exact) f = std::nextafter(f, INFINITY);
  if (hasMod(inst, "rm") && static_cast<long double>(f) > exact) f = std::nextafter(f, -INFINITY);
  if (hasMod(inst, "rz") && std::fabs(static_cast<long double>(f)) > std::fabs(exact)) f = std::nextafter(f, 0.0f);
  return std::bit_cast<std::uint32_t>(f);
}

/// One float arithmetic operation in T's precision (round to nearest).
template <class T>
T floatResult(PtxOp op, T a, T b, T c) {
  switch (op) {
    case PtxOp::kAdd: return a + b;
    case PtxOp::kSub: return a - b;
    case PtxOp::kMul: return a * b;
    case PtxOp::kMad: case PtxOp::kFma: return std::fma(a, b, c);
    case PtxOp::kDiv: return a / b;
    case PtxOp::kMin: return std::fmin(a, b);
    case PtxOp::kMax: return std::fmax(a, b);
    case PtxOp::kAbs: return std::fabs(a);
    case PtxOp::kNeg: return -a;
    case PtxOp::kSqrt: return std::sqrt(a);
    case PtxOp::kRsqrt: return T(1) / std::sqrt(a);
    case PtxOp::kRcp: return T(1) / a;
    case PtxOp::kEx2: return std::exp2(a);
    case PtxOp::kLg2: return std::log2(a);
    case PtxOp::kSin: return std::sin(a);
    case PtxOp::kCos: return std::cos(a);
    default: return T(0);
  }
}

/// A float arithmetic instruction on known operands (f32 computed in single precision, f64 in
/// double; round to nearest; .sat clamps to [0, 1]; .ftz flushes subnormal f32 inputs and
/// results to zero): the result's bits.
std::uint64_t floatOp(const PtxInstruction& inst, PtxOp op, int width, std::uint64_t ab, std::uint64_t bb, std::uint64_t cb) {
  const bool sat = hasMod(inst, "sat");
  if (width == 32) {
    const bool ftz = hasMod(inst, "ftz");
    auto flush = [&](float f) { return ftz && std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; };
    auto in = [&](std::uint64_t bits) { return flush(std::bit_cast<float>(static_cast<std::uint32_t>(bits))); };
    float r = flush(floatResult(op, in(ab), in(bb), in(cb)));
    if (sat) r = std::isnan(r) ? 0.0f : std::clamp(r, 0.0f, 1.0f);
    return std::bit_cast<std::uint32_t>(r);
  }
  double r = floatResult(op, std::bit_cast<double>(ab), std::bit_cast<double>(bb), std::bit_cast<double>(cb));
  if (sat) r = std::isnan(r) ? 0.0 : std::clamp(r, 0.0, 1.0);
  return std::bit_cast<std::uint64_t>(r);
}

/// The allocation a value points into: the synthetic base of the pointer parameter whose window
/// (WarpInterpreter::pointerBase, 2^40 bytes each) holds it, or 0. A known value is its own
/// address; an unknown one carries its allocation's base in `bits` when it was formed by
/// adding unknown data to a pointer (base + 4 * cols[j]), and 0 otherwise.
std::uint64_t allocationOf(const Lane& v) {
  const std::uint64_t window = v.bits >> 40;
  return window >= 1 && window < static_cast<std::uint64_t>(kGlobalVarBase >> 40) ? window << 40 : 0;
}

int firstOrigin(std::initializer_list<int> origins) {
  for (int o : origins) {
    if (o != kKnown) return o;
  }
  return kKnown;
}


/// The run-time state of one warp.
struct WarpState {
  std::vector<Reg> regs;
  long long ctaid[3] = {0, 0, 0};
  std::array<long long, kLanes> tid[3];
  std::uint32_t valid = 0;  ///< lanes that exist (block size may not fill the warp)
  int warp = 0;
};

using folding::Comparison;

Comparison comparison(int index, int lane, const std::string& cmp, PtxType t, long long x, long long y,
                      std::uint64_t ux, std::uint64_t uy) {
  const bool unsignedCmp = cmp == "lo" || cmp == "ls" || cmp == "hi" || cmp == "hs" || t.kind != 's';
  char kind = '?';
  if (cmp == "lt" || cmp == "lo") kind = 'l';
  else if (cmp == "le" || cmp == "ls") kind = 'L';
  else if (cmp == "gt" || cmp == "hi") kind = 'g';
  else if (cmp == "ge" || cmp == "hs") kind = 'G';
  else if (cmp == "eq") kind = 'e';
  else if (cmp == "ne") kind = 'n';
  return unsignedCmp ? folding::comparison(index, lane, kind, true, t.bits, static_cast<Int128>(ux), static_cast<Int128>(uy))
                     : folding::comparison(index, lane, kind, false, t.bits, x, y);
}


}  // namespace

std::optional<ShuffleMode> shuffleMode(std::string_view name) {
  auto is = [&](std::string_view want) {
    return name.size() == want.size() && std::equal(name.begin(), name.end(), want.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == b;
           });
  };
  if (is("up")) return ShuffleMode::Up;
  if (is("down")) return ShuffleMode::Down;
  if (is("bfly")) return ShuffleMode::Bfly;
  if (is("idx")) return ShuffleMode::Idx;
  return std::nullopt;
}

ShuffleSource shuffleSource(ShuffleMode mode, int lane, std::uint32_t b, std::uint32_t c) {
  const int bval = static_cast<int>(b & 31), clamp = static_cast<int>(c & 31), segment = static_cast<int>(c >> 8 & 31);
  const int maxLane = (lane & segment) | (clamp & ~segment), minLane = lane & segment;
  ShuffleSource s{lane, false};
  switch (mode) {
    case ShuffleMode::Up: s = {lane - bval, lane - bval >= maxLane}; break;
    case ShuffleMode::Down: s = {lane + bval, lane + bval <= maxLane}; break;
    case ShuffleMode::Bfly: s = {lane ^ bval, (lane ^ bval) <= maxLane}; break;
    case ShuffleMode::Idx: {
      const int j = minLane | (bval & ~segment);
      s = {j, j <= maxLane};
      break;
    }
  }
  if (!s.inRange) s.lane = lane;
  return s;
}

int sameAddressLanes(std::span<const long long> lanes) {
  std::map<long long, int> perAddress;
  int most = 0;
  for (long long a : lanes) {
    if (a >= 0) most = std::max(most, ++perAddress[a]);
  }
  return std::max(1, most);
}

Expected<long long> accessUnits(std::span<const long long> lanes, int widthBytes, PtxSpace space, bool atomic,
                                int lanesPerRequest) {
  if (space == PtxSpace::Shared) {
    BankOptions banks;
    banks.lanesPerRequest = lanesPerRequest;
    Expected<BankConflicts> b = countBankConflicts(lanes, widthBytes, banks);
    if (!b) return std::move(b).takeError();
    const long long wavefronts = static_cast<long long>(b->wavefronts);
    return atomic ? std::max<long long>(wavefronts, sameAddressLanes(lanes)) : wavefronts;
  }
  if (atomic && space != PtxSpace::Const) {
    // Per 32-byte sector, as many passes as its most contended address has lanes.
    std::map<long long, std::map<long long, int>> sectors;
    for (long long a : lanes) {
      if (a >= 0) ++sectors[a / 32][a];
    }
    long long passes = 0;
    for (const auto& [sector, addresses] : sectors) {
      int most = 0;
      for (const auto& [address, count] : addresses) most = std::max(most, count);
      passes += most;
    }
    return passes;
  }
  if (space == PtxSpace::Const) {
    std::set<long long> distinct;
    for (long long a : lanes) {
      if (a >= 0) distinct.insert(a);
    }
    return static_cast<long long>(distinct.size());
  }
  Expected<SectorCount> c = countSectors(lanes, widthBytes);
  if (!c) return std::move(c).takeError();
  return static_cast<long long>(c->sectors);
}

bool endsWithPath(const std::string& path, const std::string& name) {
  if (name.empty()) return false;
  if (path.size() < name.size()) return false;
  if (path.compare(path.size() - name.size(), name.size(), name) != 0) return false;
  return path.size() == name.size() || path[path.size() - name.size() - 1] == '/';
}

const BranchHint* branchHintAt(const std::vector<BranchHint>& hints, const std::string& path, int line) {
  for (const BranchHint& h : hints) {
    if (h.line == line && endsWithPath(path, h.file)) return &h;
  }
  return nullptr;
}

long long expandedLength(const WarpTrace& trace) {
  return folding::expandedLength(trace.stream.size(), trace.folds);
}

void expandStream(const WarpTrace& trace, long long begin, long long end,
                  const std::function<void(int, std::uint32_t, const std::vector<long long>*)>& emit) {
  const auto& records = trace.accesses;
  folding::expandFolded(
      trace.stream, trace.folds, records.size(), [&](size_t k) { return records[k].position; },
      [&](size_t k) -> const std::vector<long long>& { return records[k].lanes; }, begin, end,
      [&](int i, std::uint32_t m, const std::vector<long long>* lanes) { emit(i, m, lanes && !lanes->empty() ? lanes : nullptr); });
}

long long WarpInterpreter::pointerBase(int ordinal) { return static_cast<long long>(ordinal + 1) << 40; }

std::optional<std::uint64_t> WarpInterpreter::arrayValue(const std::map<int, ArrayData>& arrays, long long address, int bytes) {
  if (arrays.empty() || address < kPointerWindow) return std::nullopt;
  const auto it = arrays.find(static_cast<int>(address / kPointerWindow) - 1);
  if (it == arrays.end()) return std::nullopt;
  return it->second.read(address % kPointerWindow, bytes);
}

WarpInterpreter::WarpInterpreter(const PtxModule& module, const PtxKernel& kernel, const PtxCfg& cfg,
                                 InterpreterOptions options, std::string fileName)
    : module_(module), kernel_(kernel), cfg_(cfg), options_(std::move(options)), fileName_(std::move(fileName)) {
  long long offset = 0;
  auto place = [&](const PtxVariable& v) {
    const long long a = std::max(1, v.align);
    offset = (offset + a - 1) / a * a;
    sharedOffsets_[v.name] = offset;
    offset += v.bytes;
  };
  for (const PtxVariable& v : kernel_.variables) {
    if (v.space == "shared" && !v.external) place(v);
  }
  for (const PtxVariable& v : module_.globals) {
    if (v.space == "shared" && !v.external) place(v);
  }
  offset = (offset + 15) / 16 * 16;
  for (const PtxVariable& v : module_.globals) {
    if (v.space == "shared" && v.external) sharedOffsets_[v.name] = offset;
  }
  for (const PtxVariable& v : kernel_.variables) {
    if (v.space == "shared" && v.external) sharedOffsets_[v.name] = offset;
  }
  long long g = kGlobalVarBase;
  for (const PtxVariable& v : module_.globals) {
    if (v.space == "global" || v.space == "const") {
      globalBases_[v.name] = g;
      if (!v.init.empty()) initialised_[g] = &v;
      g += (v.bytes + (1LL << 20)) / (1LL << 20) * (1LL << 20);
    }
  }
  for (size_t i = 0; i < kernel_.params.size(); ++i) paramOrdinal_[kernel_.params[i].name] = static_cast<int>(i);

  // Bound loads of hinted loops (bound_loads.h), from each instruction's facts.
  if (!options_.trips.empty()) {
    std::vector<BoundLoadFacts> facts(kernel_.instructions.size());
    const auto reg = [](const PtxOperand& o) { return o.kind == PtxOperand::Kind::Register ? o.reg : -1; };
    for (size_t i = 0; i < kernel_.instructions.size(); ++i) {
      const PtxInstruction& x = kernel_.instructions[i];
      BoundLoadFacts& f = facts[i];
      auto file = module_.files.find(x.sourceFile);
      f.path = file == module_.files.end() ? nullptr : &file->second;
      f.line = x.sourceLine;
      const auto& ops = x.operands;
      if (ops.empty()) continue;
      const bool param = std::find(x.mods.begin(), x.mods.end(), "param") != x.mods.end();
      f.load = (x.base == "ld" || x.base == "ldu") && !param && !x.library;
      if (x.base != "st" && x.base != "red") {
        if (ops[0].kind == PtxOperand::Kind::Vector) {
          for (const PtxOperand& e : ops[0].elems) {
            if (reg(e) >= 0) f.defs.push_back(e.reg);
          }
        } else if (reg(ops[0]) >= 0) {
          f.defs.push_back(ops[0].reg);
        }
      }
      if (f.load) f.dst = reg(ops[0]);
      if (x.base == "mov" && ops.size() == 2 && reg(ops[1]) >= 0) f.copyFrom = ops[1].reg, f.dst = reg(ops[0]);
      if ((x.base == "add" || x.base == "sub") && ops.size() == 3 && reg(ops[0]) >= 0 && reg(ops[0]) == reg(ops[1]) &&
          ops[2].kind == PtxOperand::Kind::Immediate) {
        f.stepped = ops[0].reg;
        f.stepBy = ops[2].imm;
        // The 32-bit index (64-bit registers step pointers in bytes).
        const bool narrow = std::any_of(x.mods.begin(), x.mods.end(), [](const std::string& m) { return m == "s32" || m == "u32"; });
        f.indexStep = x.base == "add" && narrow;
      }
      if (x.base == "setp") {
        for (const PtxOperand& o : ops) {
          if (reg(o) >= 0) f.compared.push_back(o.reg);
        }
      }
      if (x.base == "add" && ops.size() == 3) f.sumA = reg(ops[1]), f.sumB = reg(ops[2]);
      if (x.base == "mov" || x.base == "mul" || x.base == "cvt" || x.base == "shl" || x.base == "mad") {
        for (size_t k = 1; k < ops.size(); ++k) {
          if (reg(ops[k]) >= 0) f.indexUses.push_back(ops[k].reg);
        }
      }
    }
    boundLoads_ = findBoundLoads(cfg_, facts, options_.trips);
  }
}

Expected<WarpTrace> WarpInterpreter::run(long long block, int warp) const {
  const Launch& L = options_.launch;
  WarpState st;
  st.regs.assign(kernel_.registers.size(), Reg{});
  st.warp = warp;
  st.ctaid[0] = block % L.grid.x;
  st.ctaid[1] = (block / L.grid.x) % L.grid.y;
  st.ctaid[2] = block / (L.grid.x * L.grid.y);
  for (int lane = 0; lane < kLanes; ++lane) {
    const long long t = static_cast<long long>(warp) * kLanes + lane;
    if (t < L.block.count()) st.valid |= 1u << lane;
    st.tid[0][lane] = t % L.block.x;
    st.tid[1][lane] = (t / L.block.x) % L.block.y;
    st.tid[2][lane] = t / (L.block.x * L.block.y);
  }
  ExecutionSetup setup;
  setup.cfg = &cfg_;
  setup.valid = st.valid;
  setup.trips = &options_.trips;
  setup.branches = &options_.branches;
  setup.maxInstructions = options_.maxInstructionsPerWarp;
  setup.recordStream = options_.recordStream;
  setup.foldLoops = options_.foldLoops;
  setup.kernelName = options_.kernelName.empty() ? kernel_.name : options_.kernelName;
  setup.paramNames = options_.paramNames;
  WarpExecution ex(std::move(setup), kernel_.instructions.size());

  auto where = [&](const PtxInstruction& inst) -> std::string {
    auto f = module_.files.find(inst.sourceFile);
    std::string file = f == module_.files.end() ? fileName_ : f->second;
    const size_t slash = file.rfind('/');
    if (slash != std::string::npos) file = file.substr(slash + 1);
    return file + ":" + std::to_string(inst.sourceLine);
  };
  auto sourcePath = [&](const PtxInstruction& inst) -> std::string {
    auto f = module_.files.find(inst.sourceFile);
    return f == module_.files.end() ? fileName_ : f->second;
  };
  // Where errors point: the input as the user named it when it is the source file itself.
  auto errorFile = [&](const PtxInstruction& inst) -> std::string {
    const std::string p = sourcePath(inst);
    const std::string base = p.substr(p.rfind('/') + 1);
    const std::string inputBase = fileName_.substr(fileName_.rfind('/') + 1);
    return base == inputBase ? fileName_ : base;
  };
  // Errors about an instruction: its PTX line when the input is PTX, else its `.loc` source
  // line (the generated PTX's lines mean nothing to the user), else the input without a line.
  auto errorAt = [&](std::string message, const PtxInstruction& inst) -> Error {
    if (fileName_.ends_with(".ptx")) return makeError(std::move(message), fileName_, inst.ptxLine);
    if (inst.sourceLine <= 0) return makeError(std::move(message), fileName_, 0);
    return makeError(std::move(message), errorFile(inst), inst.sourceLine);
  };

  // Operand evaluation ------------------------------------------------------------------------
  auto special = [&](const std::string& name, int lane) -> Lane {
    auto dim = [&](const std::string& s) { return s.back() == 'x' ? 0 : s.back() == 'y' ? 1 : 2; };
    if (name.rfind("%tid.", 0) == 0) return {static_cast<std::uint64_t>(st.tid[dim(name)][lane]), kKnown};
    if (name.rfind("%ntid.", 0) == 0) {
      const long long v[3] = {L.block.x, L.block.y, L.block.z};
      return {static_cast<std::uint64_t>(v[dim(name)]), kKnown};
    }
    if (name.rfind("%ctaid.", 0) == 0) return {static_cast<std::uint64_t>(st.ctaid[dim(name)]), kKnown};
    if (name.rfind("%nctaid.", 0) == 0) {
      const long long v[3] = {L.grid.x, L.grid.y, L.grid.z};
      return {static_cast<std::uint64_t>(v[dim(name)]), kKnown};
    }
    if (name == "%laneid") return {static_cast<std::uint64_t>(lane), kKnown};
    if (name == "%warpid") return {static_cast<std::uint64_t>(st.warp), kKnown};
    if (name == "%dynamic_smem_size") return {static_cast<std::uint64_t>(L.dynamicSharedBytes), kKnown};
    return {0, kFromOther};
  };
  auto symbolValue = [&](const std::string& name) -> Lane {
    if (auto it = sharedOffsets_.find(name); it != sharedOffsets_.end()) return {static_cast<std::uint64_t>(it->second), kKnown};
    if (auto it = globalBases_.find(name); it != globalBases_.end()) return {static_cast<std::uint64_t>(it->second), kKnown};
    for (const PtxVariable& v : kernel_.variables) {
      if (v.name == name && v.space == "local") return {static_cast<std::uint64_t>(kLocalWindow), kKnown};
    }
    return {0, kFromOther};
  };
  auto read = [&](const PtxOperand& op, int lane) -> Lane {
    switch (op.kind) {
      case PtxOperand::Kind::Register: return st.regs[op.reg][lane];
      case PtxOperand::Kind::Special: return special(op.name, lane);
      case PtxOperand::Kind::Immediate: return {static_cast<std::uint64_t>(op.imm), kKnown};
      case PtxOperand::Kind::Symbol: return symbolValue(op.name);
      default: return {0, kFromOther};
    }
  };
  auto write = [&](const PtxOperand& op, int lane, Lane v, int bits) {
    if (op.kind == PtxOperand::Kind::Register) {
      v.bits &= maskBits(bits);
      st.regs[op.reg][lane] = v;
    } else if (op.kind == PtxOperand::Kind::Vector) {
      for (const PtxOperand& e : op.elems) {
        if (e.kind == PtxOperand::Kind::Register) st.regs[e.reg][lane] = v;
      }
    }
  };
  auto writeUnknown = [&](const PtxInstruction& inst, std::uint32_t mask, int origin) {
    if (inst.operands.empty()) return;
    for (int lane = 0; lane < kLanes; ++lane) {
      if (mask >> lane & 1) write(inst.operands[0], lane, {0, origin}, 64);
    }
  };

  auto addNote = [&](std::string text) { ex.note(std::move(text)); };

  // Memory accounting ----------------------------------------------------------------------------
  std::set<int> contended;  // atomics already noted as serializing
  auto recordMemory = [&](int index, const PtxInstruction& inst, PtxSpace space, const PtxOperand& addr,
                          std::uint32_t mask, int width, bool atomic) -> Expected<void> {
    InstructionStats& s = ex.stats(index);
    std::vector<long long> lanes(kLanes, kInactiveLane);
    bool unknown = false;
    std::uint64_t allocation = 0;  // of the unknown lanes: their common allocation, or 0
    for (int lane = 0; lane < kLanes; ++lane) {
      if (!(mask >> lane & 1)) continue;
      Lane base{0, kKnown};
      if (addr.reg >= 0) {
        base = st.regs[addr.reg][lane];
      } else if (!addr.name.empty()) {
        base = symbolValue(addr.name);
      }
      if (base.origin != kKnown) {
        if (!unknown) allocation = allocationOf(base);
        else if (allocation != allocationOf(base)) allocation = 0;
        unknown = true;
        continue;
      }
      long long a = static_cast<long long>(base.bits) + addr.imm;
      PtxSpace sp = space;
      if (sp == PtxSpace::Generic) {
        sp = a >= kLocalWindow && a < kLocalWindow + (1LL << 32) ? PtxSpace::Local
             : a < (1LL << 32)                                  ? PtxSpace::Shared
                                                                : PtxSpace::Global;
      }
      if (sp == PtxSpace::Local) {
        const long long off = a - kLocalWindow;
        a = kLocalWindow + (off / width) * width * kLanes + lane * width + off % width;
      }
      lanes[lane] = a;
      if (a < 0) unknown = true;
    }
    if (unknown) {
      // A known lane outside the unknown lanes' allocation leaves it untracked.
      for (long long a : lanes) {
        if (a >= 0 && allocation != allocationOf(Lane{static_cast<std::uint64_t>(a), kKnown})) allocation = 0;
      }
      ++s.dataDependent;
      s.allocation = mergeAllocation(s.allocation, static_cast<long long>(allocation));
      return {};
    }
    ++s.knownRequests;
    if (ex.recording()) ex.recordAccess(index, lanes);
    if (s.firstAddresses.empty()) s.firstAddresses = lanes;
    Expected<long long> units = accessUnits(lanes, width, space, atomic);
    if (!units) return errorAt(where(inst) + ": " + units.error().message, inst);
    s.units += *units;
    if (atomic && !contended.count(index)) {
      if (const int same = sameAddressLanes(lanes); same > 1) {
        contended.insert(index);
        addNote(where(inst) + ": " + inst.opcode + ": " + std::to_string(same) + " lanes of a warp update one address and " +
                "serialize (" + std::to_string(*units) + (space == PtxSpace::Shared ? " wavefronts" : " passes") +
                " for the warp's request)");
      }
    }
    return {};
  };
  // The initial value of the `bytes` bytes at address `a` of an initialised module variable.
  std::set<std::string> initialNoted;
  auto initialValue = [&](const PtxInstruction& inst, long long a, int bytes, Lane& out) -> bool {
    auto it = initialised_.upper_bound(a);
    if (it == initialised_.begin()) return false;
    --it;
    const PtxVariable& v = *it->second;
    const long long off = a - it->first;
    if (off < 0 || off + bytes > static_cast<long long>(v.init.size()) || bytes > 8) return false;
    std::uint64_t bits = 0;
    for (int b = 0; b < bytes; ++b) bits |= static_cast<std::uint64_t>(v.init[static_cast<size_t>(off + b)]) << (8 * b);
    for (const PtxVariable::SymbolInit& si : v.symbolInits) {
      if (si.offset != off) continue;
      const Lane base = symbolValue(si.symbol);
      if (base.origin != kKnown) return false;
      bits = base.bits + static_cast<std::uint64_t>(si.addend);
    }
    out = {bits, kKnown};
    if (initialNoted.insert(v.name).second) {
      addNote(where(inst) + ": loads from '" + v.name + "' read its initial values (assumed unchanged by stores and "
              "cudaMemcpyToSymbol)");
    }
    return true;
  };
  // Notes which arrays of Launch::arrayData the run read, once each.
  std::set<int> arrayNoted;
  auto noteArray = [&](const PtxInstruction& inst, int ordinal) {
    if (!arrayNoted.insert(ordinal).second) return;
    const std::string name = static_cast<size_t>(ordinal) < options_.paramNames.size() ? options_.paramNames[static_cast<size_t>(ordinal)]
                                                                                       : "param_" + std::to_string(ordinal);
    addNote(where(inst) + ": loads from '" + name + "' read its given contents (" +
            options_.arrayData.at(ordinal).description() + "; assumed unchanged by the kernel's stores)");
  };
  // Call slots (`.param` arguments and return values of calls): per name and byte offset.
  std::map<std::string, std::map<long long, Reg>> callSlots;

  // Types and vector width of every instruction, parsed once per run rather than per execution.
  struct DecodedTypes {
    std::vector<PtxType> types;
    int accessBytes = 4;  ///< ptxAccessBytes: type width × .v2/.v4
  };
  std::vector<DecodedTypes> decodedTypes(kernel_.instructions.size());
  std::vector<PtxOp> decodedOps(kernel_.instructions.size());
  for (size_t i = 0; i < kernel_.instructions.size(); ++i) {
    decodedOps[i] = decodeOp(kernel_.instructions[i].base);
    const PtxInstruction& inst = kernel_.instructions[i];
    if (static_cast<int>(inst.operands.size()) < minOperands(decodedOps[i])) {
      return errorAt("'" + inst.text + "' has " + std::to_string(inst.operands.size()) + " operands; '" + inst.base +
                         "' takes at least " + std::to_string(minOperands(decodedOps[i])),
                     inst);
    }
    for (const std::string& m : kernel_.instructions[i].mods) {
      if (auto t = ptxType(m)) decodedTypes[i].types.push_back(*t);
    }
    decodedTypes[i].accessBytes = ptxAccessBytes(inst);
  }

  // Loop folding: the inputs and outputs of non-affine operations of the iterations of armed
  // loops (see LoopFold) must be equal in every folded iteration.
  auto noteNonAffine = [&](int index, int dstReg, std::uint32_t mask) {
    std::uint64_t h = static_cast<std::uint64_t>(index) * 0x9E3779B97F4A7C15ULL;
    for (int lane = 0; lane < kLanes; ++lane) {
      if (!(mask >> lane & 1)) continue;
      const Lane v = dstReg >= 0 ? st.regs[dstReg][lane] : Lane{};
      h = (h ^ v.bits ^ (static_cast<std::uint64_t>(v.origin) << 56)) * 0x100000001B3ULL + static_cast<std::uint64_t>(lane);
    }
    ex.addNonAffine(h);
  };

  // The up to three source operands of an arithmetic instruction for `lane`, and the origin
  // of the first unknown one (kKnown when all are known).
  struct Sources {
    Lane a, b, c;
    int origin;
  };
  auto sources = [&](const std::vector<PtxOperand>& ops, int lane) {
    const Lane a = read(ops[1], lane);
    const Lane b = ops.size() > 2 ? read(ops[2], lane) : Lane{};
    const Lane c = ops.size() > 3 ? read(ops[3], lane) : Lane{};
    return Sources{a, b, c, firstOrigin({a.origin, b.origin, c.origin})};
  };

  // Executes one non-branch instruction for the lanes in `mask`.
  auto execute = [&](int index, std::uint32_t mask) -> Expected<void> {
    const PtxInstruction& inst = kernel_.instructions[index];
    const PtxOp op = decodedOps[index];
    const std::vector<PtxType>& types = decodedTypes[index].types;
    const PtxType t = types.empty() ? PtxType{32, 'b'} : types.back();
    const bool isFloat = t.kind == 'f';
    const auto& ops = inst.operands;

    if (op == PtxOp::kCp) {
      if (!inst.isAsyncCopy()) {
        // The group instructions order the copies; they move no data.
        if (hasMod(inst, "async") && !hasMod(inst, "bulk") && (ops.empty() || ops[0].kind != PtxOperand::Kind::Address)) return {};
        return errorAt(where(inst) + ": '" + inst.opcode + "' (bulk asynchronous copies, the tensor memory accelerator) is not supported yet", inst);
      }
      // cp.async [dst], [src], cp-size{, src-size | ignore-src}: the global read of cp-size
      // bytes per lane (the shared-memory write side is not charged); a lane whose src-size is
      // a known 0, or whose ignore-src predicate is known true, reads nothing (it zero-fills).
      std::uint32_t reading = mask;
      if (const PtxOperand* source = inst.asyncCopySourceOperand(); source && source->kind != PtxOperand::Kind::Address) {
        const bool ignoreSrc = source->kind == PtxOperand::Kind::Register &&
                               kernel_.predicates.count(kernel_.registers[static_cast<size_t>(source->reg)]) > 0;
        for (int lane = 0; lane < kLanes; ++lane) {
          const Lane n = read(*source, lane);
          const bool readsNothing = ignoreSrc ? (n.bits & 1) != 0 : n.bits == 0;
          if ((mask >> lane & 1) && n.origin == kKnown && readsNothing) reading &= ~(1u << lane);
        }
      }
      if (reading == 0) return {};
      return recordMemory(index, inst, PtxSpace::Global, ops[1], reading, decodedTypes[index].accessBytes, false);
    }
    if (op == PtxOp::kLd || op == PtxOp::kLdu || op == PtxOp::kSt || op == PtxOp::kAtom || op == PtxOp::kRed) {
      PtxSpace space = PtxSpace::Generic;
      if (hasMod(inst, "global")) space = PtxSpace::Global;
      if (hasMod(inst, "shared")) space = PtxSpace::Shared;
      if (hasMod(inst, "local")) space = PtxSpace::Local;
      if (hasMod(inst, "const")) space = PtxSpace::Const;
      if (hasMod(inst, "param")) space = PtxSpace::Param;
      if (space == PtxSpace::Param && ops.size() > 1) {
        // A call slot (st.param before a call, ld.param of its result, ld.param of an expanded
        // callee's argument): the values stored there, per element.
        const bool toSlot = op == PtxOp::kSt;
        const PtxOperand& a = toSlot ? ops[0] : ops[1];
        if (a.kind == PtxOperand::Kind::Address && !paramOrdinal_.count(a.name)) {
          const PtxOperand& v = toSlot ? ops[1] : ops[0];
          const int elemBytes = std::max(1, t.bits / 8);
          std::vector<const PtxOperand*> elems;
          if (v.kind == PtxOperand::Kind::Vector) {
            for (const PtxOperand& e : v.elems) elems.push_back(&e);
          } else {
            elems.push_back(&v);
          }
          for (size_t k = 0; k < elems.size(); ++k) {
            const long long off = a.imm + static_cast<long long>(k) * elemBytes;
            auto& slot = callSlots[a.name];
            for (int lane = 0; lane < kLanes; ++lane) {
              if (!(mask >> lane & 1)) continue;
              if (toSlot) {
                Lane x = read(*elems[k], lane);
                x.bits &= maskBits(t.bits);
                slot[off][lane] = x;
              } else {
                auto f = slot.find(off);
                write(*elems[k], lane, f == slot.end() ? Lane{0, kFromOther} : f->second[lane], t.bits);
              }
            }
          }
          return {};
        }
      }
      if (space == PtxSpace::Param) {
        const PtxOperand& a = ops.size() > 1 ? ops[1] : ops[0];
        auto it = paramOrdinal_.find(a.name);
        if (op != PtxOp::kLd || it == paramOrdinal_.end() || a.imm != 0) {
          writeUnknown(inst, mask, kFromOther);
          return {};
        }
        const int ord = it->second;
        Lane v{0, ord + 1};
        if (std::find(options_.pointerParams.begin(), options_.pointerParams.end(), ord) != options_.pointerParams.end()) {
          v = {static_cast<std::uint64_t>(pointerBase(ord)), kKnown};
        } else if (auto s = options_.scalarArgs.find(ord); s != options_.scalarArgs.end()) {
          v = {static_cast<std::uint64_t>(s->second), kKnown};
        }
        for (int lane = 0; lane < kLanes; ++lane) {
          if (mask >> lane & 1) write(ops[0], lane, v, t.bits);
        }
        return {};
      }
      const bool store = op == PtxOp::kSt || op == PtxOp::kRed;
      const PtxOperand& addr = store ? ops[0] : ops[1];
      if (addr.kind != PtxOperand::Kind::Address) return errorAt("malformed memory operand in '" + inst.text + "'", inst);
      const int width = decodedTypes[index].accessBytes;
      const bool atomic = op == PtxOp::kAtom || op == PtxOp::kRed;
      if (Expected<void> r = recordMemory(index, inst, space, addr, mask, width, atomic); !r) return r;
      if (store) return {};
      // Addresses before the destination is written (ld %rd1, [%rd1]).
      std::array<long long, kLanes> at{};
      at.fill(-1);
      const bool arrays = !options_.arrayData.empty() && (space == PtxSpace::Global || space == PtxSpace::Generic);
      if (!atomic && (!initialised_.empty() || arrays) && space != PtxSpace::Shared && space != PtxSpace::Local) {
        for (int lane = 0; lane < kLanes; ++lane) {
          if (!(mask >> lane & 1)) continue;
          const Lane base = addr.reg >= 0 ? st.regs[addr.reg][lane] : !addr.name.empty() ? symbolValue(addr.name) : Lane{};
          if (base.origin == kKnown) at[lane] = static_cast<long long>(base.bits) + addr.imm;
        }
      }
      writeUnknown(inst, mask, kFromMemory);
      std::uint64_t loaded = static_cast<std::uint64_t>(index) * 0x9E3779B97F4A7C15ULL;  // hash of the array values read
      bool fromArray = false;
      for (int lane = 0; lane < kLanes; ++lane) {
        if (at[lane] < 0) continue;
        const int elemBytes = std::max(1, t.bits / 8);
        const PtxOperand& dst = ops[0];
        const size_t n = dst.kind == PtxOperand::Kind::Vector ? dst.elems.size() : 1;
        for (size_t k = 0; k < n; ++k) {
          const long long a = at[lane] + static_cast<long long>(k) * elemBytes;
          Lane v;
          if (!initialValue(inst, a, elemBytes, v)) {
            const std::optional<std::uint64_t> bits = arrays ? arrayValue(options_.arrayData, a, elemBytes) : std::nullopt;
            if (!bits) break;
            v = {*bits, kKnown};
            fromArray = true;
            loaded = (loaded ^ v.bits) * 0x100000001B3ULL + static_cast<std::uint64_t>(lane);
            noteArray(inst, static_cast<int>(a / kPointerWindow) - 1);
          }
          const PtxOperand& e = dst.kind == PtxOperand::Kind::Vector ? dst.elems[k] : dst;
          if (e.kind == PtxOperand::Kind::Register) write(e, lane, v, t.bits);
        }
      }
      // Values read from an array are data, not steps: equal in every folded iteration, or no fold.
      if (fromArray && ex.logging()) ex.addNonAffine(loaded);
      if (auto b = boundLoads_.find(index); b != boundLoads_.end() && addr.reg >= 0) {
        const auto [trips, asIndex] = b->second;
        ex.boundLoad(index, "trip hint " + std::to_string(trips) + " (loop bound " + (asIndex ? "pointers" : "value") + ")");
        for (int lane = 0; lane < kLanes; ++lane) {
          if (!(mask >> lane & 1)) continue;
          const Lane base = st.regs[addr.reg][lane];
          if (base.origin != kKnown) continue;
          const long long a = static_cast<long long>(base.bits) + addr.imm;
          const long long element = (a & ((1LL << 40) - 1)) / width;  // offset in its allocation
          write(ops[0], lane, {static_cast<std::uint64_t>(asIndex ? trips * element : trips), kKnown}, t.bits);
        }
      }
      return {};
    }
    if (op == PtxOp::kBar || op == PtxOp::kBarrier || op == PtxOp::kMembar || op == PtxOp::kFence || op == PtxOp::kNanosleep || op == PtxOp::kTrap ||
        op == PtxOp::kPrefetch || op == PtxOp::kPmevent) {
      return {};
    }
    if (op == PtxOp::kCall) {
      // An expanded call's body follows it; any other call (vprintf, recursion below the
      // expansion depth) is one instruction whose return slots stay unknown.
      return {};
    }
    if (ops.empty()) return {};

    // Predicate logic.
    if (t.kind == 'p' && (op == PtxOp::kAnd || op == PtxOp::kOr || op == PtxOp::kXor || op == PtxOp::kNot || op == PtxOp::kMov)) {
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(mask >> lane & 1)) continue;
        const Lane a = read(ops[1], lane);
        const Lane b = ops.size() > 2 ? read(ops[2], lane) : Lane{};
        Lane r{0, firstOrigin({a.origin, b.origin})};
        if (op == PtxOp::kAnd) r.bits = a.bits & b.bits & 1;
        if (op == PtxOp::kOr) r.bits = (a.bits | b.bits) & 1;
        if (op == PtxOp::kXor) r.bits = (a.bits ^ b.bits) & 1;
        if (op == PtxOp::kNot) r.bits = ~a.bits & 1;
        if (op == PtxOp::kMov) r.bits = a.bits & 1;
        // Short-circuit: a known false in an and, or a known true in an or, decides.
        if (op == PtxOp::kAnd && ((a.origin == kKnown && !(a.bits & 1)) || (b.origin == kKnown && !(b.bits & 1)))) r = {0, kKnown};
        if (op == PtxOp::kOr && ((a.origin == kKnown && (a.bits & 1)) || (b.origin == kKnown && (b.bits & 1)))) r = {1, kKnown};
        write(ops[0], lane, r, 1);
      }
      return {};
    }
    if (op == PtxOp::kSetp) {
      // setp.CmpOp[.BoolOp].type d, a, b[, c]
      const std::string cmp = inst.mods.empty() ? "" : inst.mods[0];
      const std::string boolOp = inst.mods.size() > 2 ? inst.mods[1] : "";
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(mask >> lane & 1)) continue;
        const Lane a = read(ops[1], lane), b = read(ops[2], lane);
        Lane r{0, firstOrigin({a.origin, b.origin})};
        if (isFloat) {
          if (r.origin == kKnown) {
            const std::optional<bool> v = t.bits >= 32 ? compareFloats(cmp, floatOf(a.bits, t.bits), floatOf(b.bits, t.bits))
                                                       : std::nullopt;
            if (v) r.bits = *v ? 1 : 0;
            else r.origin = kFromOther;
          }
        } else if (r.origin == kKnown) {
          const long long x = asInt(a.bits, t), y = asInt(b.bits, t);
          const std::uint64_t ux = a.bits & maskBits(t.bits), uy = b.bits & maskBits(t.bits);
          if (ex.logging()) ex.logComparison(comparison(index, lane, cmp, t, x, y, ux, uy));
          bool v = false;
          if (cmp == "eq") v = x == y;
          else if (cmp == "ne") v = x != y;
          else if (cmp == "lt") v = t.kind == 's' ? x < y : ux < uy;
          else if (cmp == "le") v = t.kind == 's' ? x <= y : ux <= uy;
          else if (cmp == "gt") v = t.kind == 's' ? x > y : ux > uy;
          else if (cmp == "ge") v = t.kind == 's' ? x >= y : ux >= uy;
          else if (cmp == "lo") v = ux < uy;
          else if (cmp == "ls") v = ux <= uy;
          else if (cmp == "hi") v = ux > uy;
          else if (cmp == "hs") v = ux >= uy;
          else r.origin = kFromOther;
          r.bits = v ? 1 : 0;
        }
        if (!boolOp.empty() && ops.size() > 3) {
          const Lane c = read(ops[3], lane);
          const int o = firstOrigin({r.origin, c.origin});
          if (boolOp == "and") r.bits &= c.bits;
          if (boolOp == "or") r.bits |= c.bits;
          if (boolOp == "xor") r.bits ^= c.bits;
          r.bits &= 1;
          r.origin = o;
        }
        write(ops[0], lane, r, 1);
      }
      return {};
    }
    if (op == PtxOp::kSelp) {
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(mask >> lane & 1)) continue;
        const Lane c = read(ops[3], lane);
        if (c.origin != kKnown) {
          write(ops[0], lane, {0, c.origin}, t.bits);
          continue;
        }
        write(ops[0], lane, read(ops[(c.bits & 1) ? 1 : 2], lane), t.bits);
      }
      return {};
    }
    if (op == PtxOp::kShfl && ops.size() >= 4) {
      // shfl[.sync].{up,down,bfly,idx}.b32 d[|p], a, b, c[, membermask] (PTX ISA, shfl.sync):
      // lane j's `a` moves to lane i where j is derived from b and c. A lane's result is known
      // only when b and c are known for it and source lane j is active with a known `a`; every
      // other result (and predicate) is unknown, never guessed.
      std::optional<ShuffleMode> mode;
      for (const std::string& m : inst.mods) {
        if (const std::optional<ShuffleMode> k = shuffleMode(m)) mode = k;
      }
      const PtxOperand& dst = ops[0].kind == PtxOperand::Kind::Vector && !ops[0].elems.empty() ? ops[0].elems[0] : ops[0];
      const PtxOperand* pred = ops[0].kind == PtxOperand::Kind::Vector && ops[0].elems.size() > 1 ? &ops[0].elems[1] : nullptr;
      std::array<Lane, kLanes> d{}, p{};
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(mask >> lane & 1)) continue;
        const Lane b = read(ops[2], lane), c = read(ops[3], lane);
        int origin = b.origin != kKnown ? b.origin : c.origin != kKnown ? c.origin : kKnown;
        if (origin == kKnown && !mode) origin = kFromOther;
        if (origin != kKnown) {
          d[lane] = {0, origin};
          p[lane] = {0, origin};
          continue;
        }
        const ShuffleSource src = shuffleSource(*mode, lane, static_cast<std::uint32_t>(b.bits), static_cast<std::uint32_t>(c.bits));
        const int j = src.lane;
        const bool pval = src.inRange;
        p[lane] = {pval ? 1u : 0u, kKnown};
        d[lane] = j >= 0 && j < kLanes && (mask >> j & 1) ? read(ops[1], j) : Lane{0, kFromOther};
      }
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(mask >> lane & 1)) continue;
        write(dst, lane, d[lane], 32);
        if (pred) write(*pred, lane, p[lane], 1);
      }
      if (ex.logging()) {
        for (size_t k = 1; k < ops.size(); ++k) {
          if (ops[k].kind == PtxOperand::Kind::Register) noteNonAffine(index * 8 + static_cast<int>(k), ops[k].reg, mask);
        }
        noteNonAffine(index, dst.kind == PtxOperand::Kind::Register ? dst.reg : -1, mask);
      }
      return {};
    }
    if (op == PtxOp::kMov && (ops[0].kind == PtxOperand::Kind::Vector) != (ops.back().kind == PtxOperand::Kind::Vector)) {
      // mov.b64 {lo, hi}, %rd (unpack) and mov.b64 %rd, {lo, hi} (pack): elements of
      // t.bits / n bits, the first one lowest.
      const bool unpack = ops[0].kind == PtxOperand::Kind::Vector;
      const std::vector<PtxOperand>& elems = unpack ? ops[0].elems : ops.back().elems;
      const int n = std::max<int>(1, static_cast<int>(elems.size()));
      const int eb = std::max(1, t.bits / n);
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(mask >> lane & 1)) continue;
        if (unpack) {
          const Lane v = read(ops.back(), lane);
          for (int k = 0; k < n; ++k) {
            if (elems[k].kind != PtxOperand::Kind::Register) continue;
            const Lane e{v.origin == kKnown ? (v.bits >> (k * eb)) & maskBits(eb) : 0, v.origin};
            st.regs[elems[k].reg][lane] = e;
          }
        } else {
          Lane r{0, kKnown};
          for (int k = 0; k < n; ++k) {
            const Lane e = read(elems[k], lane);
            if (e.origin != kKnown) r = {0, e.origin};
            if (r.origin == kKnown) r.bits |= (e.bits & maskBits(eb)) << (k * eb);
          }
          write(ops[0], lane, r, t.bits);
        }
      }
      if (ex.logging()) {  // shifts of the value: equal in every folded iteration, or no fold
        for (int k = 0; k < n; ++k) {
          if (elems[k].kind == PtxOperand::Kind::Register) noteNonAffine(index * 8 + k, elems[k].reg, mask);
        }
        if (ops[0].kind == PtxOperand::Kind::Register) noteNonAffine(index, ops[0].reg, mask);
      }
      return {};
    }
    if (op == PtxOp::kMov || op == PtxOp::kCvta) {
      for (int lane = 0; lane < kLanes; ++lane) {
        if (mask >> lane & 1) write(ops[0], lane, read(ops.back(), lane), t.bits);
      }
      return {};
    }
    if (op == PtxOp::kCvt) {
      const PtxType dt = types.empty() ? t : types.front();
      const PtxType sTy = types.size() > 1 ? types[1] : dt;
      const bool floats = dt.kind == 'f' || sTy.kind == 'f';
      // f16/bf16 and other widths are not tracked.
      const bool tracked = !floats || ((dt.kind != 'f' || dt.bits >= 32) && (sTy.kind != 'f' || sTy.bits >= 32));
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(mask >> lane & 1)) continue;
        const Lane a = read(ops[1], lane);
        if (a.origin != kKnown || !tracked) {
          write(ops[0], lane, {0, a.origin != kKnown ? a.origin : kFromOther}, dt.bits);
        } else if (!floats) {
          write(ops[0], lane, {static_cast<std::uint64_t>(asInt(a.bits, sTy)), kKnown}, dt.bits);
        } else {
          write(ops[0], lane, {convertFloat(inst, a.bits, dt, sTy), kKnown}, dt.bits);
        }
      }
      return {};
    }
    static const std::set<PtxOp> kFloatOps = {PtxOp::kAdd, PtxOp::kSub, PtxOp::kMul, PtxOp::kMad, PtxOp::kFma, PtxOp::kDiv,
                                              PtxOp::kMin, PtxOp::kMax, PtxOp::kAbs, PtxOp::kNeg, PtxOp::kSqrt, PtxOp::kRsqrt,
                                              PtxOp::kRcp, PtxOp::kEx2, PtxOp::kLg2, PtxOp::kSin, PtxOp::kCos};
    if (isFloat && t.bits >= 32 && kFloatOps.count(op)) {
      // Known inputs give the result the GPU computes (IEEE, round to nearest; the approximate
      // functions as their correctly rounded values), so that a branch or a trip count decided
      // by float arguments resolves (`if (powf(scale, e) > 100.0f)`, `steps = scale * 4`).
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(mask >> lane & 1)) continue;
        const auto [a, b, c, o] = sources(ops, lane);
        write(ops[0], lane, o != kKnown ? Lane{0, o} : Lane{floatOp(inst, op, t.bits, a.bits, b.bits, c.bits), kKnown}, t.bits);
      }
      if (ex.logging()) {  // float results are not affine in their bits: equal in every folded iteration, or no fold
        noteNonAffine(index, ops[0].kind == PtxOperand::Kind::Register ? ops[0].reg : -1, mask);
      }
      return {};
    }
    static const std::set<PtxOp> kIntOps = {PtxOp::kAdd, PtxOp::kSub,   PtxOp::kMul, PtxOp::kMad, PtxOp::kMul24,
                                            PtxOp::kMad24, PtxOp::kDiv, PtxOp::kRem, PtxOp::kMin, PtxOp::kMax,
                                            PtxOp::kAbs, PtxOp::kNeg,   PtxOp::kAnd, PtxOp::kOr,  PtxOp::kXor,
                                            PtxOp::kNot, PtxOp::kShl,   PtxOp::kShr};
    if (kIntOps.count(op) && !isFloat) {
      const bool wide = hasMod(inst, "wide");
      const bool hi = hasMod(inst, "hi");
      const int outBits = wide ? t.bits * 2 : t.bits;
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!(mask >> lane & 1)) continue;
        const auto [a, b, c, o] = sources(ops, lane);
        if (o != kKnown) {
          // Pointer arithmetic on unknown data stays in the pointer's allocation: the pointer is
          // an addend (add: either operand; sub: the first; mad: the third).
          std::uint64_t allocation = 0;
          if (op == PtxOp::kAdd) allocation = allocationOf(a) ? allocationOf(a) : allocationOf(b);
          else if (op == PtxOp::kSub) allocation = allocationOf(a);
          else if (op == PtxOp::kMad || op == PtxOp::kMad24) allocation = allocationOf(c);
          write(ops[0], lane, {allocation, o}, outBits);
          continue;
        }
        const long long x = asInt(a.bits, t);
        const long long y = ops.size() > 2 ? (op == PtxOp::kShl || op == PtxOp::kShr ? static_cast<long long>(b.bits & 0xffffffff) : asInt(b.bits, t)) : 0;
        const std::uint64_t ux = a.bits & maskBits(t.bits), uy = b.bits & maskBits(t.bits);
        long long r = 0;
        bool ok = true;
        if (op == PtxOp::kAdd) r = x + y;
        else if (op == PtxOp::kSub) r = x - y;
        else if (op == PtxOp::kMul || op == PtxOp::kMad || op == PtxOp::kMul24 || op == PtxOp::kMad24) {
          if (hi) {
            const Int128 p = t.kind == 's' ? static_cast<Int128>(x) * y
                                           : static_cast<Int128>(static_cast<UInt128>(ux) * uy);
            r = static_cast<long long>(p >> t.bits);
          } else {
            r = static_cast<long long>(static_cast<std::uint64_t>(t.kind == 's' ? x : static_cast<long long>(ux)) *
                                       static_cast<std::uint64_t>(t.kind == 's' ? y : static_cast<long long>(uy)));
          }
          if (op == PtxOp::kMad || op == PtxOp::kMad24) {
            const PtxType ct = wide ? PtxType{outBits, t.kind} : t;
            r += asInt(c.bits, ct);
          }
        } else if (op == PtxOp::kDiv || op == PtxOp::kRem) {
          if (y == 0 && uy == 0) {
            ok = false;
          } else if (t.kind == 's') {
            r = op == PtxOp::kDiv ? x / y : x % y;
          } else {
            r = static_cast<long long>(op == PtxOp::kDiv ? ux / uy : ux % uy);
          }
        } else if (op == PtxOp::kMin) r = t.kind == 's' ? std::min(x, y) : static_cast<long long>(std::min(ux, uy));
        else if (op == PtxOp::kMax) r = t.kind == 's' ? std::max(x, y) : static_cast<long long>(std::max(ux, uy));
        else if (op == PtxOp::kAbs) r = x < 0 ? -x : x;
        else if (op == PtxOp::kNeg) r = -x;
        else if (op == PtxOp::kAnd) r = static_cast<long long>(a.bits & b.bits);
        else if (op == PtxOp::kOr) r = static_cast<long long>(a.bits | b.bits);
        else if (op == PtxOp::kXor) r = static_cast<long long>(a.bits ^ b.bits);
        else if (op == PtxOp::kNot) r = static_cast<long long>(~a.bits);
        else if (op == PtxOp::kShl) r = y >= t.bits ? 0 : static_cast<long long>(ux << y);
        else if (op == PtxOp::kShr) {
          if (t.kind == 's') r = y >= t.bits ? (x < 0 ? -1 : 0) : x >> y;
          else r = y >= t.bits ? 0 : static_cast<long long>(ux >> y);
        }
        write(ops[0], lane, ok ? Lane{static_cast<std::uint64_t>(r), kKnown} : Lane{0, kFromOther}, outBits);
      }
      if (ex.logging()) {
        const bool affine = op == PtxOp::kAdd || op == PtxOp::kSub || op == PtxOp::kNeg ||
                            ((op == PtxOp::kMul || op == PtxOp::kMad || op == PtxOp::kMul24 || op == PtxOp::kMad24) && !hi) ||
                            (op == PtxOp::kShl && ops.size() > 2 && ops[2].kind == PtxOperand::Kind::Immediate);
        if (!affine) {
          // Inputs and output: equal in every folded iteration, or the loop is not folded.
          for (size_t k = 1; k < ops.size(); ++k) {
            if (ops[k].kind == PtxOperand::Kind::Register) noteNonAffine(index * 8 + static_cast<int>(k), ops[k].reg, mask);
          }
          noteNonAffine(index, ops[0].kind == PtxOperand::Kind::Register ? ops[0].reg : -1, mask);
        }
      }
      return {};
    }
    // Everything else (floating point, special functions, bit tricks, shuffles, votes, tensor
    // ops): the result is not tracked.
    int o = kFromOther;
    for (size_t k = 1; k < ops.size(); ++k) {
      for (int lane = 0; lane < kLanes && o == kFromOther; ++lane) {
        if (!(mask >> lane & 1)) continue;
        const Lane v = read(ops[k], lane);
        if (v.origin != kKnown) o = v.origin;
      }
    }
    writeUnknown(inst, mask, o);
    return {};
  };

  // The instruction set's side of the executor (warp_executor.h) --------------------------------
  using Steps = std::vector<std::pair<size_t, std::array<std::uint64_t, kLanes>>>;
  auto isa = makeIsa(
      [&](int i) {
        const PtxOp op = decodedOps[static_cast<size_t>(i)];
        return op == PtxOp::kBra ? Flow::kBranch : op == PtxOp::kRet || op == PtxOp::kExit ? Flow::kExit : Flow::kOther;
      },
      [&](int i, std::uint32_t m) {
        const PtxInstruction& inst = kernel_.instructions[static_cast<size_t>(i)];
        GuardLanes g{m, 0, kFromOther};
        if (inst.guard < 0) return g;
        g.on = 0;
        for (int lane = 0; lane < kLanes; ++lane) {
          if (!(m >> lane & 1)) continue;
          const Lane p = st.regs[inst.guard][lane];
          if (p.origin != kKnown) {
            g.unknown |= 1u << lane;
            g.origin = p.origin;
          } else if (((p.bits & 1) != 0) != inst.guardNegated) {
            g.on |= 1u << lane;
          }
        }
        return g;
      },
      [&](int i) {
        const PtxInstruction& inst = kernel_.instructions[static_cast<size_t>(i)];
        return SourceLocation{sourcePath(inst), inst.sourceLine, where(inst), errorFile(inst), inst.library, inst.inlinedFrom};
      },
      [&](int i, std::uint32_t on, std::uint32_t undecided, int origin) -> Expected<void> {
        if (Expected<void> r = execute(i, on | undecided); !r) return r;
        if (undecided) writeUnknown(kernel_.instructions[static_cast<size_t>(i)], undecided, origin);
        return {};
      },
      [&] { return st.regs; },
      [&](const std::vector<Reg>& s0, const std::vector<Reg>& s1, const std::vector<Reg>& s2, const std::vector<Reg>& s3,
          folding::Int128&) -> std::optional<Steps> {
        // The same origins, known values advancing by one 64-bit step per iteration.
        Steps steps;
        for (size_t r = 0; r < s3.size(); ++r) {
          std::array<std::uint64_t, kLanes> d{};
          bool moves = false;
          for (int lane = 0; lane < kLanes; ++lane) {
            const Lane a = s0[r][lane], b = s1[r][lane], c = s2[r][lane], e = s3[r][lane];
            if (a.origin != b.origin || b.origin != c.origin || c.origin != e.origin) return std::nullopt;
            if (e.origin != kKnown) continue;
            const std::uint64_t d1 = b.bits - a.bits, d2 = c.bits - b.bits, d3 = e.bits - c.bits;
            if (d1 != d2 || d2 != d3) return std::nullopt;
            d[lane] = d3;
            moves = moves || d3 != 0;
          }
          if (moves) steps.emplace_back(r, d);
        }
        return steps;
      },
      [&](const Steps& steps, long long f) {
        for (const auto& [r, d] : steps) {
          for (int lane = 0; lane < kLanes; ++lane) {
            if (st.regs[r][lane].origin == kKnown) st.regs[r][lane].bits += d[lane] * static_cast<std::uint64_t>(f);
          }
        }
      });
  return ex.run(isa);
}

}  // namespace foresight::cuda
