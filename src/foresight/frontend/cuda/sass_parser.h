// SPDX-License-Identifier: Apache-2.0
/// \file
/// Parser of nvdisasm (12.x) text into a SassListing.
#pragma once

#include <string>
#include <string_view>

#include "foresight/frontend/cuda/sass_listing.h"
#include "foresight/support/error.h"

namespace foresight::cuda {

/// Parses `nvdisasm -c [-g] [-hex]` output; `fileName` is used in error locations.
[[nodiscard]] Expected<SassListing> parseSass(std::string_view text, const std::string& fileName);

}  // namespace foresight::cuda
