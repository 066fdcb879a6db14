// SPDX-License-Identifier: Apache-2.0
/// \file
/// SASS opcode classes of Turing (sm_75), also used for Volta (sm_70, sm_72: the same SASS generation).
#include "foresight/frontend/cuda/isa/sass_common_rows.h"

namespace foresight::cuda {

namespace {
constexpr OpcodeClass kRows[] = {
    FORESIGHT_SASS_COMMON_ROWS(FORESIGHT_SASS_ROW)
    // IMAD on the FMA pipe (lai-teg-and-bound.md §8.2).
    {"IMAD", InstrClass::Fp32, 0}, {"IMUL", InstrClass::Fp32, 0},
};
}  // namespace

const InstrClassTable& sassTuringTable() {
  static const InstrClassTable kTable{"turing", kRows};
  return kTable;
}

}  // namespace foresight::cuda
