// SPDX-License-Identifier: Apache-2.0
/// \file
/// Reads a CUDA cubin (ELF64, EM_CUDA = 190) with our own parser: per kernel the register
/// count, stack frame, static shared memory, barriers, `__launch_bounds__` limits and the
/// parameter layout in the parameter constant bank, from the `.nv.info` / `.nv.info.<kernel>`
/// records (format: u8 fmt, u8 attribute, then a u16 value for fmt 1–3 or a u16 size and
/// that many bytes for fmt 4). The values equal `ptxas -v` (toolchain.md §2).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "foresight/support/error.h"

namespace foresight::cuda {

/// One kernel parameter in the parameter constant bank.
struct CubinParam {
  int ordinal = 0;  ///< position in the signature (0-based)
  int offset = 0;   ///< byte offset from the start of the parameter block
  int size = 0;     ///< bytes
};

/// Resource usage and layout of one kernel in a cubin.
struct CubinKernel {
  std::string name;                 ///< mangled symbol name ("_Z6vecaddPKfS0_Pfi")
  int registers = 0;                ///< REGCOUNT (= "Used N registers")
  long long frameBytes = 0;         ///< FRAME_SIZE (= "N bytes stack frame")
  long long minStackBytes = 0;      ///< MIN_STACK_SIZE
  long long sharedBytes = 0;        ///< static shared memory (sm_90's reserved 1 KiB removed)
  int barriers = 0;                 ///< named barriers used (= "used N barriers")
  std::optional<int> maxThreads[3];  ///< __launch_bounds__ / maxntid, when given
  int maxRegCount = 0;              ///< MAXREG_COUNT (255 unless limited)
  int paramBankOffset = 0;          ///< where the parameters start in constant bank 0
  int paramBytes = 0;               ///< CBANK_PARAM_SIZE
  std::vector<CubinParam> params;   ///< sorted by ordinal
  long long textBytes = 0;          ///< size of .text.<kernel> (16 bytes per instruction)
  std::vector<long long> exitOffsets;  ///< byte offsets of EXIT instructions
};

/// The kernels of a cubin and its target.
struct Cubin {
  int smVersion = 0;  ///< 90 for sm_90 (from e_flags bits 8–15 in CUDA 13 cubins)
  std::vector<CubinKernel> kernels;
  /// The kernel with this mangled name, or nullptr.
  [[nodiscard]] const CubinKernel* find(std::string_view name) const;
};

/// Parses cubin bytes; `fileName` is used in error messages.
[[nodiscard]] Expected<Cubin> readCubin(std::string_view bytes, const std::string& fileName);

}  // namespace foresight::cuda
