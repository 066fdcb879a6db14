// SPDX-License-Identifier: Apache-2.0
/// \file
/// Parses the PTX that nvcc emits (ISA 7.x–9.x) into a PtxModule: `.entry` kernels with their
/// parameters, register declarations (`%r<30>`), variables, labels, guarded instructions with
/// register, special-register, immediate, address and vector operands, and `.loc`/`.file`
/// source lines; module variables with their initialisers; `.func` device functions, whose
/// calls are expanded in place in each kernel (PtxInstruction::callExpanded; recursion 6 calls
/// deep, then the call stays a call), with notes in PtxKernel::notes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "foresight/frontend/cuda/ptx_module.h"
#include "foresight/support/error.h"

namespace foresight::cuda {

/// Parses PTX text; `fileName` is used in error locations (file:line of the PTX).
/// The IEEE bits of `value` as an f32 (`bytes` = 4: the nearest float) or an f64 element.
[[nodiscard]] std::uint64_t realBits(double value, int bytes);

[[nodiscard]] Expected<PtxModule> parsePtx(std::string_view text, const std::string& fileName);

}  // namespace foresight::cuda
