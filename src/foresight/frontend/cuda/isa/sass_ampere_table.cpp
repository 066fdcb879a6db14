// SPDX-License-Identifier: Apache-2.0
/// \file
/// SASS opcode classes of Ampere and Ada (sm_80 … sm_89): Turing's plus asynchronous copies
/// (LDGSTS, LDGDEPBAR) and the warp-wide reductions (REDUX).
#include "foresight/frontend/cuda/isa/sass_common_rows.h"

namespace foresight::cuda {

namespace {
constexpr OpcodeClass kRows[] = {
    FORESIGHT_SASS_COMMON_ROWS(FORESIGHT_SASS_ROW)
    // IMAD on the FMA pipe (lai-teg-and-bound.md §8.2); the FP32 gap of Ampere presets is already
    // that of the 16 lanes per scheduler that execute it.
    {"IMAD", InstrClass::Fp32, 0}, {"IMUL", InstrClass::Fp32, 0},
    {"LDGSTS", InstrClass::Ldst, 0}, {"LDGDEPBAR", InstrClass::Ldst, 0}, {"REDUX", InstrClass::Int, 0},
    {"DMMA", InstrClass::Tensor, 0},
};
}  // namespace

const InstrClassTable& sassAmpereTable() {
  static const InstrClassTable kTable{"ampere", kRows};
  return kTable;
}

}  // namespace foresight::cuda
