// SPDX-License-Identifier: Apache-2.0
/// \file
/// `Launch`: how a kernel is started — grid and block shape, dynamic shared memory, scalar
/// kernel arguments and problem-size macros.
#pragma once

#include <map>
#include <string>

namespace foresight {

/// A 3-D extent (grid in blocks, or block in threads).
struct Dim3 {
  long long x = 1;
  long long y = 1;
  long long z = 1;
  [[nodiscard]] long long count() const { return x * y * z; }
  bool operator==(const Dim3&) const = default;
};

/// One kernel launch.
struct Launch {
  Dim3 grid;                       ///< blocks
  Dim3 block;                      ///< threads per block
  long long dynamicSharedBytes = 0;
  std::map<std::string, long long> args;    ///< scalar kernel arguments by name
  std::map<std::string, long long> macros;  ///< -D NAME=VALUE problem-size macros

  [[nodiscard]] long long blocks() const { return grid.count(); }
  [[nodiscard]] long long threadsPerBlock() const { return block.count(); }
};

}  // namespace foresight
