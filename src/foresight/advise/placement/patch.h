// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight place --emit-patch`: the chosen plan's simple cases as a change of the kernel's
/// source, a unified diff (`patch -p0` applies it). An array placed on the read-only path or in
/// a texture becomes `const T* __restrict__` in the kernel's parameter list, from which nvcc
/// reads it with `ld.global.nc` (the read-only path; a texture itself needs a texture object:
/// include/foresight/placement.cuh). The other placements are no declaration change; the
/// patch's header names them and the accessor call that applies each.
#pragma once

#include <string>

#include "foresight/advise/placement/access_profile.h"
#include "foresight/advise/placement/search.h"
#include "foresight/support/error.h"

namespace foresight {

/// The patch of `plan` for kernel `kernel` defined in `source` (its text) read from `path`.
/// Errors when the kernel's definition or an array's parameter is not found in the source.
[[nodiscard]] Expected<std::string> placementPatch(const std::string& source, const std::string& path,
                                                   const std::string& kernel, const AccessProfile& profile,
                                                   const Plan& plan);

}  // namespace foresight
