// SPDX-License-Identifier: Apache-2.0
/// \file
/// Loading an input file through the frontend its extension selects, into KernelInputs and an
/// optional launch. Today: `.toml` workload summaries; skeleton, C and CUDA frontends plug in here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "foresight/frontend/input_options.h"
#include "foresight/ir/kernel_input.h"
#include "foresight/ir/launch.h"
#include "foresight/support/error.h"

namespace foresight {

/// What a frontend produced from one input file.
struct LoadedInput {
  std::string path;
  std::string frontend;                ///< "summary"
  std::vector<KernelInput> kernels;    ///< at least one
  std::optional<Launch> launch;        ///< when the input file gives one
  std::vector<std::string> notes;      ///< what the frontend could not derive or was hinted
};

/// Reads `path` with the frontend for its extension. Errors name the file (and line).
[[nodiscard]] Expected<LoadedInput> loadInput(const std::string& path);
/// Same, with the options frontends such as CUDA need (target GPU, launch, hints).
[[nodiscard]] Expected<LoadedInput> loadInput(const std::string& path, const InputOptions& options);

/// The kernel `name` names (chooseKernel(), kernel_name.h: its shown name, its symbol, or a bare
/// name matching one kernel only), or the only kernel when `name` is empty; an Error otherwise.
[[nodiscard]] Expected<const KernelInput*> selectKernel(const LoadedInput& input,
                                                       const std::string& name);

}  // namespace foresight
