// SPDX-License-Identifier: Apache-2.0
/// \file
/// Small queries on the skeleton types.
#include "foresight/frontend/skeleton/skeleton.h"

namespace foresight::skeleton {

VarMask Affine::vars() const {
  VarMask m = 0;
  for (const auto& [v, c] : terms) m |= VarMask{1} << v;
  return m;
}

long long Skeleton::loopSpaceSize() const {
  long long n = 1;
  for (int d = 0; d < parallelDims; ++d) n *= extent(d);
  return n;
}

int Skeleton::findArray(const std::string& arrayName) const {
  for (size_t i = 0; i < arrays.size(); ++i) {
    if (arrays[i].name == arrayName) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace foresight::skeleton
