// SPDX-License-Identifier: Apache-2.0
/// \file
/// The frontends, listed once (`frontends()`: name, kind, extensions, documentation, loader), and
/// loading an input file through the one its extension selects, into KernelInputs and an optional
/// launch. What a skeleton means to the commands (its best layout) is workload/workload.h.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "foresight/frontend/input_options.h"
#include "foresight/ir/kernel_input.h"
#include "foresight/ir/launch.h"
#include "foresight/support/error.h"

namespace foresight {

/// One kernel's launches in a run of a program: C loop programs launch each marked loop's kernel
/// with its own launch, a fitted number of times per run.
struct KernelRun {
  size_t kernel = 0;               ///< index into LoadedInput::kernels
  Launch launch;
  double launchesPerRun = 1;       ///< fitted, may be fractional
  std::vector<std::string> notes;  ///< about this kernel
};

/// What a frontend produced from one input file.
struct LoadedInput {
  std::string path;
  std::string frontend;                ///< "summary"
  std::vector<KernelInput> kernels;    ///< at least one
  std::optional<Launch> launch;        ///< when the input file gives one
  std::vector<std::string> notes;      ///< what the frontend could not derive or was hinted
  /// A program's run: every kernel with its launch and launches per run (C loop programs).
  /// Empty for a kernel file, whose selected kernel is launched once with `launch`.
  std::vector<KernelRun> runs;
};

/// What a frontend reads, as far as the models and the default model are concerned.
enum class InputKind {
  Cuda,      ///< .cu, .ptx, .cubin, .sass
  CLoop,     ///< .c loop nests (CGPredict's frontend)
  Summary,   ///< .toml workload summaries
  Skeleton,  ///< .sk code skeletons (GROPHECY's frontend)
};

/// One frontend: the input kind it reads, its file extensions, where its language is documented,
/// and its loader. A new frontend is its directory under frontend/ and a row in input.cpp.
struct Frontend {
  InputKind kind;
  const char* name;                    ///< "cuda": LoadedInput::frontend, report names
  std::vector<const char*> extensions;  ///< ".cu", ...
  const char* description;             ///< ".cu/.ptx/.cubin/.sass" in error messages
  const char* docs;                    ///< "docs/input-cuda.md"
  Expected<LoadedInput> (*load)(const std::string& path, const InputOptions& options);
};

/// Every frontend.
[[nodiscard]] std::span<const Frontend> frontends();
/// The frontend for `path`'s extension, or nullptr.
[[nodiscard]] const Frontend* frontendFor(const std::string& path);
/// "cuda", "cloop", "summary", "skeleton".
[[nodiscard]] const char* inputKindName(InputKind k);
/// The kind of an input file, from its extension (anything unknown counts as CUDA, whose
/// frontend then reports what it cannot read).
[[nodiscard]] InputKind inputKindOf(const std::string& path);

/// Reads `path` with the frontend for its extension. Errors name the file (and line).
[[nodiscard]] Expected<LoadedInput> loadInput(const std::string& path);
/// Same, with the options frontends such as CUDA need (target GPU, launch, hints).
[[nodiscard]] Expected<LoadedInput> loadInput(const std::string& path, const InputOptions& options);

/// The kernel `name` names (chooseKernel(), kernel_name.h: its shown name, its symbol, or a bare
/// name matching one kernel only), or the only kernel when `name` is empty; an Error otherwise.
[[nodiscard]] Expected<const KernelInput*> selectKernel(const LoadedInput& input,
                                                       const std::string& name);

}  // namespace foresight
