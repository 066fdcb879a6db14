// SPDX-License-Identifier: Apache-2.0
/// \file
/// Architecture support checks shared by every Toolchain.
#include "foresight/frontend/cuda/toolchain.h"

#include <array>
#include <string_view>

namespace foresight::cuda {

namespace {
constexpr std::array<std::string_view, 7> kSassArchs = {"sm_75", "sm_80", "sm_86", "sm_87",
                                                        "sm_89", "sm_90", "sm_90a"};
constexpr std::array<std::string_view, 6> kPtxOnlyArchs = {"sm_88",  "sm_100", "sm_103",
                                                           "sm_110", "sm_120", "sm_121"};
}  // namespace

bool nvdisasmDecodes(const std::string& arch) {
  for (std::string_view a : kSassArchs) {
    if (a == arch) return true;
  }
  return false;
}

Expected<void> checkSupportedArch(const std::string& arch) {
  if (nvdisasmDecodes(arch)) return {};
  for (std::string_view a : kPtxOnlyArchs) {
    if (a == arch) return {};
  }
  return makeError("unsupported CUDA architecture '" + arch +
                   "': the CUDA frontend targets sm_75 … sm_90a (SASS and PTX) and sm_100 … "
                   "sm_121 (PTX only); CUDA 13 dropped sm_70 and older");
}

}  // namespace foresight::cuda
