// SPDX-License-Identifier: Apache-2.0
/// \file
/// Choosing a kernel by the name a user writes after `--kernel`: the name the frontend shows
/// ("block_sum<256>", "ns::scale<float>"), its linker symbol ("_Z9block_sumILi256EEvPfS0_"), or
/// the bare name without template arguments when that names one kernel only. One rule for every
/// command, docs/input-cuda.md "Kernel names".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "foresight/support/error.h"

namespace foresight {

/// A kernel as a frontend names it.
struct KernelName {
  std::string name;    ///< shown to the user and copied back: "block_sum<256>", "vecadd"
  std::string symbol;  ///< linker symbol when it differs from `name`; may be empty
};

/// `name` without its template arguments and parameter list, and without whitespace
/// ("ns::block_sum< 256 >" → "ns::block_sum").
[[nodiscard]] std::string bareKernelName(const std::string& name);

/// The index in `kernels` of the kernel `request` names; errors about `file` (line 0).
/// - empty `request`: the only kernel, else an Error listing the names;
/// - `request` equal, ignoring whitespace, to a name (or to its end after a `::`) or equal to a
///   symbol: that kernel;
/// - otherwise `request` equal to the bare name of exactly one kernel: that kernel; of several
///   (template instantiations, overloads): an Error listing their names;
/// - otherwise an Error "kernel 'x' not found" with a suggestion.
[[nodiscard]] Expected<std::size_t> chooseKernel(const std::vector<KernelName>& kernels, const std::string& request,
                                                 const std::string& file);

}  // namespace foresight
