// SPDX-License-Identifier: Apache-2.0
/// \file
/// `Toolchain`: the one interface through which the CUDA frontend reaches the outside world —
/// reading input files, compiling CUDA C++ to PTX and cubin (nvcc), assembling PTX (ptxas) and
/// disassembling cubins (nvdisasm). The real implementation runs the NVIDIA tools
/// (system_toolchain.h); tests substitute `FixtureToolchain`, which serves stored files.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "foresight/support/error.h"

namespace foresight::cuda {

/// One compilation of a CUDA source for one target architecture.
struct CompileRequest {
  std::string sourcePath;  ///< the .cu file (used for messages, line info and fixtures)
  std::string source;      ///< its contents (hashed by the compile cache)
  std::string arch;        ///< "sm_90"
  std::vector<std::pair<std::string, std::string>> macros;  ///< -D NAME=VALUE, in order
  bool lineInfo = true;    ///< pass -lineinfo (needed to map instructions to source lines)
  std::vector<std::string> includeDirs;  ///< -I DIR, in order
  std::vector<std::string> flags;        ///< further nvcc flags, as given (--nvcc-flag)
  /// Contents of the files the source includes with `#include "…"` (found next to the source or
  /// under includeDirs, transitively): hashed by the compile cache with the source, so an edited
  /// header is recompiled.
  std::string includedText;
};

/// What the tools were found as; shown by `foresight ir` and in error messages.
struct ToolchainDescription {
  std::string nvcc;      ///< path, or empty when absent
  std::string ptxas;     ///< path, or empty when absent
  std::string nvdisasm;  ///< path, or empty when absent
  std::string kind;      ///< "system", "fixtures:DIR", "cached(system)"
};

/// Compile, assemble, disassemble and read files. Every method returns an Error (never throws,
/// never prints) with a message that says what is missing and how to get it.
class Toolchain {
 public:
  virtual ~Toolchain() = default;

  /// The contents of a file (text or binary).
  [[nodiscard]] virtual Expected<std::string> readFile(const std::string& path) = 0;
  /// CUDA C++ → PTX text (`nvcc -ptx -arch=… [-lineinfo] -D…`).
  [[nodiscard]] virtual Expected<std::string> compileToPtx(const CompileRequest& request) = 0;
  /// CUDA C++ → cubin bytes (`nvcc -cubin -arch=… [-lineinfo] -D…`).
  [[nodiscard]] virtual Expected<std::string> compileToCubin(const CompileRequest& request) = 0;
  /// PTX text → cubin bytes (`ptxas -arch=… -lineinfo`); `name` names the PTX in messages.
  [[nodiscard]] virtual Expected<std::string> assemble(const std::string& ptx,
                                                       const std::string& arch,
                                                       const std::string& name) = 0;
  /// cubin bytes → nvdisasm text (`nvdisasm -c -g -hex`).
  [[nodiscard]] virtual Expected<std::string> disassemble(const std::string& cubin,
                                                          const std::string& arch,
                                                          const std::string& name) = 0;
  /// True when disassemble() can work at all (nvdisasm found / fixture present).
  [[nodiscard]] virtual bool canDisassemble(const std::string& arch) const = 0;
  /// Where the tools were found.
  [[nodiscard]] virtual ToolchainDescription describe() const = 0;
};

/// True for the architectures nvdisasm 12.5 decodes (sm_70, sm_72, sm_75 … sm_90a): the SASS
/// path applies.
[[nodiscard]] bool nvdisasmDecodes(const std::string& arch);

/// True for Volta (sm_70, sm_72): CUDA 13 dropped it, so the PTX nvcc emits for sm_75 is
/// retargeted (retargetPtx()) and assembled by the ptxas of CUDA 12.5, which still knows it.
[[nodiscard]] bool needsLegacyPtxas(const std::string& arch);

/// PTX emitted for another target, retargeted to `arch`: the `.target` directive names `arch`
/// and a `.version` above 8.5 (the newest PTX ISA that CUDA 12.5's ptxas reads) becomes 8.5.
/// The instructions are kept: PTX written for sm_75 is valid for sm_70 unless it uses a newer
/// feature, which ptxas then reports.
[[nodiscard]] std::string retargetPtx(const std::string& ptx, const std::string& arch);

/// Validates a target architecture for the CUDA frontend: sm_70 … sm_90a (SASS and PTX; Volta
/// through CUDA 12.5's ptxas) and sm_100 … sm_121 (PTX only). Anything older is an Error naming
/// the supported range.
[[nodiscard]] Expected<void> checkSupportedArch(const std::string& arch);

}  // namespace foresight::cuda
