// SPDX-License-Identifier: Apache-2.0
// Runner host logic: buffer init patterns (the list and meaning: docs/validation.md; the
// manifest parser in src/foresight/validation/manifest.cpp accepts the same names).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan_reader.h"

namespace runner {

/// Deterministic 64-bit generator (splitmix64), so runs are reproducible.
struct SplitMix64 {
  uint64_t state;
  uint64_t next();
  double uniform();  // [0, 1)
};

/// A seed from the experiment, variant and buffer names (FNV-1a).
uint64_t seedFor(const std::string& experiment, const std::string& variant,
                 const std::string& buffer);

/// The bytes of a buffer filled with its pattern. Returns false with `error` set for an unknown
/// pattern or wrong parameters.
bool fillBuffer(const PlanBuffer& b, uint64_t seed, std::vector<unsigned char>& bytes,
                std::string& error);

}  // namespace runner
