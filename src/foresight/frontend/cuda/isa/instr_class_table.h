// SPDX-License-Identifier: Apache-2.0
/// \file
/// `InstrClassTable`: opcode → instruction class (the pipeline vocabulary of gpu.h) and flops
/// per lane, as data per ISA family. One table per family lives in its own .cpp
/// (ptx_table.cpp, sass_turing_table.cpp, sass_ampere_table.cpp, sass_hopper_table.cpp);
/// logic never tests the architecture itself — it asks `sassTableFor(sm)`.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "foresight/gpu/gpu.h"
#include "foresight/support/error.h"

namespace foresight::cuda {

/// One table row. For PTX the key is "base.kind" (kind: f16, f32, f64, int, pred) or "base";
/// for SASS it is the mnemonic before the first '.'.
struct OpcodeClass {
  const char* key;
  InstrClass cls;
  double flops;  ///< floating-point operations per lane (2 for a fused multiply-add)
};

/// A family's table.
struct InstrClassTable {
  const char* family;  ///< "ptx", "turing", "ampere", "hopper"
  std::span<const OpcodeClass> rows;
  /// The row for `key`, or nullopt.
  [[nodiscard]] std::optional<OpcodeClass> find(std::string_view key) const;
};

/// The PTX table.
[[nodiscard]] const InstrClassTable& ptxClassTable();
/// The SASS table of an SM version (75 → turing, 80–89 → ampere, 90 → hopper); an Error
/// for versions without a verified table.
[[nodiscard]] Expected<const InstrClassTable*> sassClassTable(int smVersion);

}  // namespace foresight::cuda
