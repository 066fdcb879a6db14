// SPDX-License-Identifier: Apache-2.0
/// \file
/// SASS opcode rows shared by the Volta-derived families (sm_75 … sm_90): the classification
/// of lai-teg-and-bound.md §8.2. Included by the per-family tables only; each family adds its
/// own rows, IMAD and IMUL among them (their pipe differs by family).
#pragma once

#include "foresight/frontend/cuda/isa/instr_class_table.h"

// X-macro rows: FORESIGHT_SASS_ROW(mnemonic, class, flops)
#define FORESIGHT_SASS_COMMON_ROWS(R)                                                          \
  R("FFMA", Fp32, 2) R("FADD", Fp32, 1) R("FMUL", Fp32, 1) R("FMNMX", Int, 0) R("FSETP", Fp32, 0) \
  R("FSEL", Int, 0) R("FCHK", Fp32, 0) R("FSWZADD", Fp32, 1) R("HFMA2", Fp32, 4) R("HADD2", Fp32, 2) \
  R("HMUL2", Fp32, 2) R("HSETP2", Fp32, 0) R("HMNMX2", Fp32, 0)                                 \
  R("IADD3", Int, 0) R("IABS", Int, 0) R("IMNMX", Int, 0)  \
  R("ISETP", Int, 0) R("LEA", Int, 0) R("LOP3", Int, 0) R("SHF", Int, 0) R("SEL", Int, 0)        \
  R("MOV", Int, 0) R("PRMT", Int, 0) R("PLOP3", Int, 0) R("P2R", Int, 0) R("R2P", Int, 0)        \
  R("VOTE", Int, 0) R("IDP", Int, 0) R("FLO", Sfu, 0) R("POPC", Sfu, 0) R("BREV", Sfu, 0)         \
  R("BMSK", Int, 0) R("SGXT", Int, 0) R("CS2R", Int, 0) R("S2R", Control, 0) R("R2UR", Int, 0)    \
  R("MUFU", Sfu, 1) R("I2F", Sfu, 0) R("F2I", Sfu, 0) R("F2F", Sfu, 0) R("I2I", Sfu, 0)           \
  R("FRND", Sfu, 0) R("F2FP", Sfu, 0)                                                           \
  R("DFMA", Fp64, 2) R("DADD", Fp64, 1) R("DMUL", Fp64, 1) R("DSETP", Fp64, 0)                 \
  R("HMMA", Tensor, 0) R("IMMA", Tensor, 0) R("BMMA", Tensor, 0)                                \
  R("LDG", Ldst, 0) R("STG", Ldst, 0) R("LD", Ldst, 0) R("ST", Ldst, 0) R("LDS", Ldst, 0)       \
  R("STS", Ldst, 0) R("LDL", Ldst, 0) R("STL", Ldst, 0) R("LDSM", Ldst, 0) R("ATOM", Ldst, 0)   \
  R("ATOMS", Ldst, 0) R("ATOMG", Ldst, 0) R("RED", Ldst, 0) R("SHFL", Ldst, 0) R("MEMBAR", Ldst, 0) \
  R("CCTL", Ldst, 0) R("ERRBAR", Ldst, 0) R("MATCH", Ldst, 0) R("LDC", Ldst, 0) R("ULDC", Int, 0) \
  R("TEX", Ldst, 0) R("TLD", Ldst, 0) R("TLD4", Ldst, 0) R("TXQ", Ldst, 0) R("SULD", Ldst, 0)    \
  R("SUST", Ldst, 0)                                                                            \
  R("UMOV", Int, 0) R("UIADD3", Int, 0) R("ULOP3", Int, 0) R("USHF", Int, 0) R("UISETP", Int, 0) \
  R("ULEA", Int, 0) R("UIMAD", Int, 0) R("USEL", Int, 0) R("UPLOP3", Int, 0) R("S2UR", Control, 0) \
  R("VOTEU", Int, 0) R("UFLO", Int, 0) R("UPOPC", Int, 0) R("UBREV", Int, 0) R("UPRMT", Int, 0) R("USGXT", Int, 0) \
  R("BRA", Control, 0) R("BRX", Control, 0) R("JMP", Control, 0) R("JMX", Control, 0)          \
  R("CALL", Control, 0) R("RET", Control, 0) R("EXIT", Control, 0) R("BSSY", Control, 0)       \
  R("BSYNC", Control, 0) R("BREAK", Control, 0) R("WARPSYNC", Control, 0) R("BAR", Control, 0)  \
  R("NOP", Control, 0) R("YIELD", Control, 0) R("BPT", Control, 0) R("KILL", Control, 0)        \
  R("NANOSLEEP", Control, 0) R("DEPBAR", Control, 0)

#define FORESIGHT_SASS_ROW(m, c, f) {m, ::foresight::InstrClass::c, f},
