// SPDX-License-Identifier: Apache-2.0
/// \file
/// `ArrayData`: what the array a pointer argument points to holds, so that a frontend that
/// executes the kernel (the CUDA frontend's warp runs) can read it: the addresses of loads that
/// depend on loaded indices (CSR columns, graph neighbours, a pointer-chasing ring), and the
/// branches and trip counts those values decide, come out exact instead of hinted or taken as
/// uniform. Contents are an init pattern (support/patterns.h; computed per element, never
/// materialised) or a binary file's bytes. docs/input-cuda.md#array-contents.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "foresight/support/error.h"
#include "foresight/support/patterns.h"

namespace foresight {

class ArrayData {
 public:
  /// Elements from `pattern` (checked: an Error says why it cannot fill `count` elements;
  /// `count` = 0: as many as the kernel reads, for patterns that do not depend on it).
  [[nodiscard]] static Expected<ArrayData> fromPattern(ElemType type, InitPattern pattern, std::uint64_t seed,
                                                       long long count);
  /// The bytes of the binary file at `path` (the elements in the GPU's little-endian layout).
  [[nodiscard]] static Expected<ArrayData> fromFile(ElemType type, const std::string& path);

  /// The `bytes` (1 ... 8) little-endian bytes at byte `offset` of the array, zero-extended;
  /// nullopt where they are not all inside it.
  [[nodiscard]] std::optional<std::uint64_t> read(long long offset, int bytes) const;

  [[nodiscard]] ElemType type() const { return type_; }
  /// Elements (0: unbounded, a pattern given without a size).
  [[nodiscard]] long long count() const { return count_; }
  /// "i32 torus_cols:2048:4194304", "f32 file x.bin": how notes and reports name it.
  [[nodiscard]] const std::string& description() const { return description_; }

 private:
  ElemType type_ = ElemType::I32;
  long long count_ = 0;
  std::string description_;
  std::optional<PatternElements> elements_;
  std::shared_ptr<const std::vector<unsigned char>> bytes_;
};

/// Parses a `--data` value: "TYPE:PATTERN[:PARAM…]" (a pattern of support/patterns.h whose
/// integer parameters are expressions over `vars`, the launch's macros; `constant` takes a
/// real) or "TYPE:file:PATH"; TYPE is f32, f64, i32, u32 or i64. `bytes` is the array's size
/// when the launch gives it (`--array`), which bounds the elements and is required by `chase`.
/// `what` names the option in Errors ("--data cols").
[[nodiscard]] Expected<ArrayData> parseArrayData(const std::string& spec, std::optional<long long> bytes,
                                                 const std::map<std::string, long long>& vars, const std::string& what);

}  // namespace foresight
