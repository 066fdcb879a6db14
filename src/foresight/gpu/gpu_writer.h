// SPDX-License-Identifier: Apache-2.0
/// \file
/// Gpu → TOML text in the format of docs/gpu-format.md, the inverse of gpu_loader: for every Gpu
/// the loader produced, loadGpuFromString(writeGpuToml(gpu)) gives an equal Gpu (values in their
/// original units, provenance kept). Used by `foresight calibrate` to write measured
/// descriptions; comments of the original file are not kept.
#pragma once

#include <string>

#include "foresight/gpu/gpu.h"

namespace foresight {

/// The TOML text of `gpu`, with an optional leading comment (each line prefixed with "# ").
[[nodiscard]] std::string writeGpuToml(const Gpu& gpu, const std::string& headerComment = "");

}  // namespace foresight
