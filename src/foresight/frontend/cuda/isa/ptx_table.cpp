// SPDX-License-Identifier: Apache-2.0
/// \file
/// PTX opcode classes (PTX ISA 9.0 instruction set, by base opcode and operand type kind).
#include "foresight/frontend/cuda/isa/instr_class_table.h"

namespace foresight::cuda {

namespace {
using C = InstrClass;
constexpr OpcodeClass kRows[] = {
    // Floating point (fp32 pipe; f16/bf16 packed math also runs there).
    {"add.f32", C::Fp32, 1}, {"sub.f32", C::Fp32, 1}, {"mul.f32", C::Fp32, 1}, {"fma.f32", C::Fp32, 2},
    {"mad.f32", C::Fp32, 2}, {"min.f32", C::Fp32, 0}, {"max.f32", C::Fp32, 0}, {"abs.f32", C::Fp32, 0},
    {"neg.f32", C::Fp32, 0}, {"setp.f32", C::Fp32, 0}, {"selp.f32", C::Int, 0}, {"mov.f32", C::Int, 0},
    {"add.f16", C::Fp32, 1}, {"mul.f16", C::Fp32, 1}, {"fma.f16", C::Fp32, 2},
    {"div.f32", C::Sfu, 1}, {"rcp.f32", C::Sfu, 1}, {"sqrt.f32", C::Sfu, 1}, {"rsqrt.f32", C::Sfu, 1},
    {"sin.f32", C::Sfu, 1}, {"cos.f32", C::Sfu, 1}, {"ex2.f32", C::Sfu, 1}, {"lg2.f32", C::Sfu, 1},
    {"tanh.f32", C::Sfu, 1},
    {"add.f64", C::Fp64, 1}, {"sub.f64", C::Fp64, 1}, {"mul.f64", C::Fp64, 1}, {"fma.f64", C::Fp64, 2},
    {"mad.f64", C::Fp64, 2}, {"div.f64", C::Fp64, 1}, {"rcp.f64", C::Fp64, 1}, {"sqrt.f64", C::Fp64, 1},
    {"setp.f64", C::Fp64, 0}, {"min.f64", C::Fp64, 0}, {"max.f64", C::Fp64, 0}, {"mov.f64", C::Int, 0},
    {"cvt", C::Sfu, 0},  // conversions involving floating point (integer-only cvt: "cvt.int")
    {"cvt.int", C::Int, 0},
    // Integer and logic.
    {"add", C::Int, 0}, {"sub", C::Int, 0}, {"mul", C::Int, 0}, {"mad", C::Int, 0}, {"mul24", C::Int, 0},
    {"mad24", C::Int, 0}, {"div", C::Int, 0}, {"rem", C::Int, 0}, {"min", C::Int, 0}, {"max", C::Int, 0},
    {"abs", C::Int, 0}, {"neg", C::Int, 0}, {"and", C::Int, 0}, {"or", C::Int, 0}, {"xor", C::Int, 0},
    {"not", C::Int, 0}, {"shl", C::Int, 0}, {"shr", C::Int, 0}, {"shf", C::Int, 0}, {"lop3", C::Int, 0},
    {"setp", C::Int, 0}, {"selp", C::Int, 0}, {"slct", C::Int, 0}, {"mov", C::Int, 0}, {"cvta", C::Int, 0},
    {"popc", C::Int, 0}, {"clz", C::Int, 0}, {"brev", C::Int, 0}, {"bfe", C::Int, 0}, {"bfi", C::Int, 0},
    {"prmt", C::Int, 0}, {"activemask", C::Int, 0}, {"vote", C::Int, 0},
    // Memory.
    {"ld", C::Ldst, 0}, {"ldu", C::Ldst, 0}, {"st", C::Ldst, 0}, {"atom", C::Ldst, 0}, {"red", C::Ldst, 0},
    {"shfl", C::Ldst, 0}, {"cp", C::Ldst, 0}, {"prefetch", C::Ldst, 0}, {"membar", C::Ldst, 0},
    {"fence", C::Ldst, 0}, {"tex", C::Ldst, 0}, {"tld4", C::Ldst, 0}, {"suld", C::Ldst, 0}, {"sust", C::Ldst, 0},
    {"ldmatrix", C::Ldst, 0}, {"stmatrix", C::Ldst, 0},
    // Tensor cores.
    {"mma", C::Tensor, 0}, {"wmma", C::Tensor, 0}, {"wgmma", C::Tensor, 0},
    // Control.
    {"bra", C::Control, 0}, {"ret", C::Control, 0}, {"exit", C::Control, 0}, {"bar", C::Control, 0},
    {"barrier", C::Control, 0}, {"call", C::Control, 0}, {"trap", C::Control, 0}, {"nanosleep", C::Control, 0},
};
}  // namespace

const InstrClassTable& ptxClassTable() {
  static const InstrClassTable kTable{"ptx", kRows};
  return kTable;
}

}  // namespace foresight::cuda
