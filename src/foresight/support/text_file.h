// SPDX-License-Identifier: Apache-2.0
/// \file
/// Reading a whole file into memory, the one way every loader does it.
#pragma once

#include <string>

#include "foresight/support/error.h"

namespace foresight {

/// The bytes of `path` (binary-safe). An unreadable file gives "cannot read <what> '<path>'".
[[nodiscard]] Expected<std::string> readTextFile(const std::string& path,
                                                 const std::string& what = "file");

}  // namespace foresight
