// SPDX-License-Identifier: Apache-2.0
/// \file
/// Reading a whole file into memory, the one way every loader does it.
#pragma once

#include <cstddef>
#include <string>

#include "foresight/support/error.h"

namespace foresight {

/// The largest input file any loader reads (64 MiB): larger ones are refused with a message
/// instead of exhausting memory or spending minutes in a parser or in nvcc.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{64} << 20;

/// The bytes of `path` (binary-safe). Errors: "cannot read <what> '<path>'" (missing or
/// unreadable), "…: it is a directory", "…: it is a device, not a file" (/dev/zero), and
/// "<what> '<path>' is larger than the 64 MiB limit" (also for a pipe that never ends).
[[nodiscard]] Expected<std::string> readTextFile(const std::string& path, const std::string& what = "file",
                                                 std::size_t maxBytes = kMaxInputFileBytes);

}  // namespace foresight
