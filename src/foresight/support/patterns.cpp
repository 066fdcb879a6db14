// SPDX-License-Identifier: Apache-2.0
/// \file
/// Element values of the init patterns (patterns.h).
#include "foresight/support/patterns.h"

#include <cstring>
#include <utility>

namespace foresight {
namespace {

constexpr std::uint64_t kGamma = 0x9e3779b97f4a7c15ULL;

std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The bits of `type` holding the integer `i` (isInteger) or the real `f`.
std::uint64_t encode(ElemType type, double f, long long i, bool isInteger) {
  switch (type) {
    case ElemType::F32: {
      const float v = isInteger ? static_cast<float>(i) : static_cast<float>(f);
      std::uint32_t bits = 0;
      std::memcpy(&bits, &v, 4);
      return bits;
    }
    case ElemType::F64: {
      const double v = isInteger ? static_cast<double>(i) : f;
      std::uint64_t bits = 0;
      std::memcpy(&bits, &v, 8);
      return bits;
    }
    case ElemType::I32:
    case ElemType::U32:
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(isInteger ? i : static_cast<long long>(f)));
    case ElemType::I64:
      return static_cast<std::uint64_t>(isInteger ? i : static_cast<long long>(f));
  }
  return 0;
}

}  // namespace

const char* elemTypeName(ElemType t) {
  switch (t) {
    case ElemType::F32: return "f32";
    case ElemType::F64: return "f64";
    case ElemType::I32: return "i32";
    case ElemType::U32: return "u32";
    case ElemType::I64: return "i64";
  }
  return "?";
}

namespace {
constexpr ElemType kElemTypes[] = {ElemType::F32, ElemType::F64, ElemType::I32, ElemType::U32, ElemType::I64};
}  // namespace

const std::vector<std::string>& elemTypeNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (ElemType t : kElemTypes) out.emplace_back(elemTypeName(t));
    return out;
  }();
  return names;
}

std::optional<ElemType> parseElemType(const std::string& name) {
  for (ElemType t : kElemTypes) {
    if (name == elemTypeName(t)) return t;
  }
  return std::nullopt;
}

int elemTypeBytes(ElemType t) { return t == ElemType::F64 || t == ElemType::I64 ? 8 : 4; }

std::uint64_t SplitMix64::next() { return mix(state += kGamma); }

double SplitMix64::uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

std::uint64_t splitMixDraw(std::uint64_t seed, long long i) {
  return mix(seed + (static_cast<std::uint64_t>(i) + 1) * kGamma);
}

std::uint64_t patternSeed(const std::string& experiment, const std::string& variant, const std::string& buffer) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const std::string* s : {&experiment, &variant, &buffer}) {
    for (unsigned char c : *s) h = (h ^ c) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
  }
  return h;
}

const std::vector<InitPatternKind>& initPatternKinds() {
  static const std::vector<InitPatternKind> kinds = {
      {"zero", 0},       {"ones", 0},     {"iota", 0},       {"random", 0},
      {"random_int", 2}, {"constant", 1}, {"mod", 1},        {"poison", 0},
      {"csr_rowptr", 1}, {"csr_cols", 2}, {"torus_cols", 2}, {"chase", 1}};
  return kinds;
}

std::string checkInitPattern(const InitPattern& p, long long count) {
  const InitPatternKind* kind = nullptr;
  for (const InitPatternKind& k : initPatternKinds()) {
    if (p.kind == k.name) kind = &k;
  }
  if (!kind) return "unknown init pattern '" + p.kind + "'";
  if (p.kind == "poison") return "'poison' has no values (it marks an output the kernel must write)";
  const size_t want = p.kind == "constant" ? 0 : static_cast<size_t>(kind->params);
  if (p.params.size() != want) {
    return "init pattern '" + p.kind + "' takes " + std::to_string(kind->params) + " parameter(s)";
  }
  if (count <= 0) return "init pattern '" + p.kind + "' needs a positive element count";
  if ((p.kind == "mod" || p.kind == "csr_cols" || p.kind == "torus_cols") && (p.params[0] <= 0 || (p.params.size() > 1 && p.params[1] <= 0))) {
    return "init pattern '" + p.kind + "' needs positive parameters";
  }
  if (p.kind == "csr_cols" && p.params[0] > p.params[1]) return "init pattern 'csr_cols' needs K <= NCOLS";
  if (p.kind == "random_int" && p.params[1] < p.params[0]) return "init pattern 'random_int' needs LO <= HI";
  return "";
}

namespace {
enum Kind { kZero, kOnes, kIota, kRandom, kRandomInt, kConstant, kMod, kPoison, kCsrRowptr, kCsrCols, kTorusCols, kChase };
}  // namespace

PatternElements::PatternElements(InitPattern pattern, ElemType type, std::uint64_t seed, long long count)
    : pattern_(std::move(pattern)), type_(type), seed_(seed), count_(count) {
  const std::vector<InitPatternKind>& kinds = initPatternKinds();
  for (size_t k = 0; k < kinds.size(); ++k) {
    if (pattern_.kind == kinds[k].name) kind_ = static_cast<int>(k);
  }
}

std::uint64_t PatternElements::bits(long long i) const {
  const std::vector<long long>& p = pattern_.params;
  const bool isFloat = isFloatElem(type_);
  const auto integer = [&](long long v) { return encode(type_, 0, v, true); };
  switch (kind_) {
    case kZero: case kPoison: return 0;
    case kOnes: return integer(1);
    case kIota: return integer(i);
    case kConstant: return encode(type_, pattern_.value, static_cast<long long>(pattern_.value), !isFloat);
    case kRandom: {
      const std::uint64_t draw = splitMixDraw(seed_, i);
      if (isFloat) return encode(type_, static_cast<double>(draw >> 11) * (1.0 / 9007199254740992.0), 0, false);
      return integer(static_cast<long long>(draw % 100));
    }
    case kRandomInt: {
      const unsigned long long span = static_cast<unsigned long long>(p[1] - p[0]) + 1;
      return integer(p[0] + static_cast<long long>(splitMixDraw(seed_, i) % span));
    }
    case kMod: return integer(i % p[0]);
    case kCsrRowptr: return integer(i * p[0]);
    case kChase: return integer((i + p[0]) % count_);
    case kCsrCols: {
      // Row r = i / K holds K distinct columns spread over the matrix: from a pseudo-random
      // column, in steps of NCOLS / K.
      const long long k = p[0], m = p[1], row = i / k, j = i % k;
      const long long start = static_cast<long long>((static_cast<unsigned long long>(row) * 2654435761ULL) % static_cast<unsigned long long>(m));
      return integer((start + j * (m / k)) % m);
    }
    case kTorusCols: {
      // The 4 neighbours (right, left, below, above) of node i / 4 on a W-wide torus of N nodes.
      const long long w = p[0], n = p[1], node = (i / 4) % n, which = i % 4;
      const long long x = node % w, rowStart = node - x;
      if (which == 0) return integer(rowStart + (x + 1) % w);
      if (which == 1) return integer(rowStart + (x + w - 1) % w);
      if (which == 2) return integer((node + w) % n);
      return integer((node + n - w) % n);
    }
    default: return 0;
  }
}

}  // namespace foresight
