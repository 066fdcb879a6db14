// SPDX-License-Identifier: Apache-2.0
/// \file
/// The search space of `foresight explore` on a kernel: named integer parameters, each with a
/// list of values, whose Cartesian product are the variants. A parameter is a `-D` macro of the
/// CUDA source and a variable of the launch expressions (`--grid "cdiv(N, TX)"`).
///
/// Text form (`--space`), items separated by commas:
///   NAME=LO..HI          every integer from LO to HI
///   NAME=LO..HI:STEP     LO, LO+STEP, … up to HI
///   NAME=LO..HI:pow2     LO, 2·LO, 4·LO, … up to HI (LO ≥ 1)
///   NAME=V1,V2,V3        the listed values (an item without '=' continues the list before it)
/// e.g. "TX=8..256:pow2,COARSEN=1..16:pow2,UNROLL=1,2,4" has 6 × 5 × 3 = 90 variants.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "foresight/support/error.h"

namespace foresight {

/// One parameter and its values, in the order written (duplicates removed).
struct SpaceDimension {
  std::string name;
  std::vector<long long> values;
  std::string text;  ///< as written, e.g. "TX=8..256:pow2"
};

/// A Cartesian product of parameters.
struct SearchSpace {
  std::vector<SpaceDimension> dimensions;

  /// Variants in the product (1 for an empty space); saturates at LLONG_MAX.
  [[nodiscard]] long long size() const;
  /// The `index`-th variant (0 ≤ index < size()), the last dimension varying fastest.
  [[nodiscard]] std::map<std::string, long long> point(long long index) const;
  /// "TX=8..256:pow2 (6 values), UNROLL=1,2,4 (3 values)".
  [[nodiscard]] std::string describe() const;
};

/// Parses one `--space` text and appends its parameters to `space`. A malformed item, an empty
/// or over-long range (more than 65536 values), a zero or negative step, `pow2` from a value
/// below 1, or a name given twice is an Error quoting the item.
[[nodiscard]] Expected<void> parseSpace(std::string_view text, SearchSpace& space);

}  // namespace foresight
