// SPDX-License-Identifier: Apache-2.0
/// \file
/// Array contents described by a pattern (docs/validation.md#buffers): element i of an array
/// filled with `zero`, `ones`, `iota`, `random`, `random_int:LO:HI`, `constant:V`, `mod:K`,
/// `csr_rowptr:K`, `csr_cols:K:NCOLS`, `torus_cols:W:N` or `chase:S`, computed on its own, in
/// O(1), so that the validation runner fills buffers with it and the CUDA frontend's warp runs
/// read the same values without materialising the array. Plain C++17 without dependencies: the
/// runner (validation/runner/build.sh) compiles it with nvcc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace foresight {

/// Element type of an array or scalar argument.
enum class ElemType { F32, F64, I32, U32, I64 };
/// "f32", "f64", "i32", "u32", "i64".
[[nodiscard]] const char* elemTypeName(ElemType t);
/// Every type's elemTypeName(), in the enum's order: "f32", "f64", "i32", "u32", "i64".
[[nodiscard]] const std::vector<std::string>& elemTypeNames();
/// The type of a name elemTypeName() gives; nullopt for any other.
[[nodiscard]] std::optional<ElemType> parseElemType(const std::string& name);
/// Bytes per element.
[[nodiscard]] int elemTypeBytes(ElemType t);
[[nodiscard]] inline bool isFloatElem(ElemType t) { return t == ElemType::F32 || t == ElemType::F64; }

/// Deterministic 64-bit generator (splitmix64): draw i of a generator seeded with s is
/// mix(s + (i + 1) × γ), so any element of a random pattern is computed on its own.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next();
  double uniform();  ///< [0, 1) from next()'s top 53 bits
};
/// Draw `i` (0-based) of a SplitMix64 seeded with `seed`.
[[nodiscard]] std::uint64_t splitMixDraw(std::uint64_t seed, long long i);

/// A seed from an experiment's, variant's and buffer's names (FNV-1a), as the runner seeds
/// each buffer's random pattern.
[[nodiscard]] std::uint64_t patternSeed(const std::string& experiment, const std::string& variant,
                                        const std::string& buffer);

/// A pattern kind and how many integer parameters it takes (`constant` takes one real).
struct InitPatternKind {
  const char* name;
  int params;
};
/// Every kind, in the order docs/validation.md lists them; `poison` (NaN for floats, all bits
/// set for integers) has no element value: patternElement() refuses it.
[[nodiscard]] const std::vector<InitPatternKind>& initPatternKinds();

/// A pattern with its parameters evaluated.
struct InitPattern {
  std::string kind;
  std::vector<long long> params;  ///< integer parameters
  double value = 0;               ///< constant:V
};

/// Why `p` cannot fill an array of `count` elements (unknown kind, wrong parameter count, a
/// non-positive K, csr_cols' K above NCOLS, random_int's LO above HI, poison); empty when it can.
[[nodiscard]] std::string checkInitPattern(const InitPattern& p, long long count);

/// The elements of an array of `count` elements of `type` filled with a pattern
/// (checkInitPattern() empty), each computed on its own: index patterns store integers,
/// converted to the element type; `random` draws a float in [0, 1) for float arrays and an
/// integer in [0, 100) otherwise (draw i of a SplitMix64 seeded with `seed`); `random_int`
/// converts its integer.
class PatternElements {
 public:
  PatternElements(InitPattern pattern, ElemType type, std::uint64_t seed, long long count);
  /// The bits element `i` holds (little-endian, zero-extended to 64 bits).
  [[nodiscard]] std::uint64_t bits(long long i) const;
  [[nodiscard]] ElemType type() const { return type_; }
  [[nodiscard]] long long count() const { return count_; }

 private:
  InitPattern pattern_;
  int kind_ = 0;  ///< index into initPatternKinds()
  ElemType type_;
  std::uint64_t seed_;
  long long count_;
};

}  // namespace foresight
