// SPDX-License-Identifier: Apache-2.0
/// \file
/// SASS opcode classes of Hopper (sm_90, sm_90a): Ampere's plus VIADD/VIADDMNMX (integer adds
/// on the ALU), I2FP/F2IP (conversions on the FP32 pipe), warpgroup MMA (HGMMA …), TMA (UTMALDG, UTMASTG, UBLKCP) and mbarriers (SYNCS).
#include "foresight/frontend/cuda/isa/sass_common_rows.h"

namespace foresight::cuda {

namespace {
constexpr OpcodeClass kRows[] = {
    FORESIGHT_SASS_COMMON_ROWS(FORESIGHT_SASS_ROW)
    // IMAD and IMUL issue to the FMA-heavy half of the FP32 lanes (16 per scheduler), not at the
    // FP32 rate of 32: on an H200 (2026-11-26) a chain of mad.lo.u32 ran 1.90 warp instructions
    // per cycle per SM (calibrate/microbench.cu) and the corpus's int_chain 1.94, against 3.2 to
    // 4 for FFMA. The int class has that rate (gap 2) on Hopper presets.
    {"IMAD", InstrClass::Int, 0}, {"IMUL", InstrClass::Int, 0},
    {"LDGSTS", InstrClass::Ldst, 0}, {"LDGDEPBAR", InstrClass::Ldst, 0}, {"REDUX", InstrClass::Int, 0},
    {"DMMA", InstrClass::Tensor, 0}, {"VIADD", InstrClass::Int, 0}, {"VIADDMNMX", InstrClass::Int, 0},
    {"VIMNMX", InstrClass::Int, 0}, {"VIMNMX3", InstrClass::Int, 0}, {"HGMMA", InstrClass::Tensor, 0},
    {"IGMMA", InstrClass::Tensor, 0}, {"QGMMA", InstrClass::Tensor, 0}, {"BGMMA", InstrClass::Tensor, 0},
    {"WARPGROUP", InstrClass::Control, 0},
    {"UTMALDG", InstrClass::Ldst, 0}, {"UTMASTG", InstrClass::Ldst, 0}, {"UBLKCP", InstrClass::Ldst, 0},
    {"SYNCS", InstrClass::Ldst, 0}, {"ACQBULK", InstrClass::Ldst, 0}, {"ELECT", InstrClass::Int, 0},
    {"FENCE", InstrClass::Ldst, 0}, {"I2FP", InstrClass::Fp32, 0}, {"F2IP", InstrClass::Fp32, 0}, {"UCGABAR_ARV", InstrClass::Control, 0}, {"UCGABAR_WAIT", InstrClass::Control, 0},
};
}  // namespace

const InstrClassTable& sassHopperTable() {
  static const InstrClassTable kTable{"hopper", kRows};
  return kTable;
}

}  // namespace foresight::cuda
