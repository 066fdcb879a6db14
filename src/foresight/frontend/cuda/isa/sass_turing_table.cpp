// SPDX-License-Identifier: Apache-2.0
/// \file
/// SASS opcode classes of Turing (sm_75).
#include "foresight/frontend/cuda/isa/sass_common_rows.h"

namespace foresight::cuda {

namespace {
constexpr OpcodeClass kRows[] = {FORESIGHT_SASS_COMMON_ROWS(FORESIGHT_SASS_ROW)};
}  // namespace

const InstrClassTable& sassTuringTable() {
  static const InstrClassTable kTable{"turing", kRows};
  return kTable;
}

}  // namespace foresight::cuda
