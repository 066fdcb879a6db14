// SPDX-License-Identifier: Apache-2.0
/// \file
/// `AccessClass`: CGPredict's access-pattern classes of a warp's global memory instruction
/// (cgpredict.md §4.2). Hong & Kim distinguish only coalesced and uncoalesced and charge
/// constant (broadcast) accesses as coalesced. Used by the memory analyses and the workload
/// summary alike.
#pragma once

namespace foresight {

/// Access-pattern class of one warp memory instruction.
enum class AccessClass {
  Coalesced,    ///< max stride between consecutive active lanes <= the access width
  Uncoalesced,  ///< anything else
  Constant,     ///< every active lane reads the same address (broadcast)
};
inline constexpr int kNumAccessClasses = 3;

/// "coalesced", "uncoalesced", "constant".
[[nodiscard]] const char* accessClassName(AccessClass c);

}  // namespace foresight
