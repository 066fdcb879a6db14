// SPDX-License-Identifier: Apache-2.0
// Runner host logic: buffer init patterns. The patterns themselves (names, parameters, element
// values, seeds) are the library's (src/foresight/support/patterns.h), so that the CUDA
// frontend reads exactly the values the runner uploads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "foresight/support/patterns.h"
#include "plan_reader.h"

namespace runner {

/// The bytes of a buffer filled with its pattern (element i: foresight::PatternElements::bits()),
/// on the machine's cores; `poison` sets every bit (NaN for floats). Returns false with `error`
/// set for an unknown pattern, a wrong parameter count or bad parameters.
bool fillBuffer(const PlanBuffer& b, uint64_t seed, std::vector<unsigned char>& bytes,
                std::string& error);

}  // namespace runner
