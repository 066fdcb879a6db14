// SPDX-License-Identifier: Apache-2.0
/// \file
/// Table lookup and the SM version → family map (the only place that maps versions to tables).
#include "foresight/frontend/cuda/isa/instr_class_table.h"

namespace foresight::cuda {

const InstrClassTable& sassTuringTable();
const InstrClassTable& sassAmpereTable();
const InstrClassTable& sassHopperTable();

std::optional<OpcodeClass> InstrClassTable::find(std::string_view key) const {
  for (const OpcodeClass& row : rows) {
    if (key == row.key) return row;
  }
  return std::nullopt;
}

Expected<const InstrClassTable*> sassClassTable(int sm) {
  struct Range {
    int lo, hi;
    const InstrClassTable& (*table)();
  };
  // Volta (sm_70, sm_72) and Turing share one SASS generation: the same 128-bit encoding and
  // opcodes (Turing adds the uniform datapath, whose rows Volta code never uses).
  static const Range kRanges[] = {{70, 75, &sassTuringTable}, {80, 89, &sassAmpereTable}, {90, 90, &sassHopperTable}};
  for (const Range& r : kRanges) {
    if (sm >= r.lo && sm <= r.hi) return &r.table();
  }
  return makeError("no SASS opcode table for sm_" + std::to_string(sm) +
                   " (tables exist for sm_70 … sm_75, sm_80 … sm_89 and sm_90)");
}

}  // namespace foresight::cuda
