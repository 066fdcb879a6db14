// SPDX-License-Identifier: Apache-2.0
/// \file
/// Architecture support checks shared by every Toolchain.
#include "foresight/frontend/cuda/toolchain.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>
#include <string_view>

namespace foresight::cuda {

namespace {
constexpr std::array<std::string_view, 9> kSassArchs = {"sm_70", "sm_72", "sm_75", "sm_80", "sm_86",
                                                        "sm_87", "sm_89", "sm_90", "sm_90a"};
constexpr std::array<std::string_view, 2> kLegacyArchs = {"sm_70", "sm_72"};
constexpr std::array<std::string_view, 6> kPtxOnlyArchs = {"sm_88",  "sm_100", "sm_103",
                                                           "sm_110", "sm_120", "sm_121"};

/// Whether `arch` is one of `list`.
template <size_t N>
bool listed(const std::array<std::string_view, N>& list, const std::string& arch) {
  return std::find(list.begin(), list.end(), arch) != list.end();
}

}  // namespace

bool nvdisasmDecodes(const std::string& arch) { return listed(kSassArchs, arch); }

bool needsLegacyPtxas(const std::string& arch) { return listed(kLegacyArchs, arch); }

std::string retargetPtx(const std::string& ptx, const std::string& arch) {
  std::istringstream in(ptx);
  std::string out, line;
  out.reserve(ptx.size());
  while (std::getline(in, line)) {
    if (line.rfind(".target ", 0) == 0) {
      line = ".target " + arch;
    } else if (line.rfind(".version ", 0) == 0) {
      // ".version 9.0": major.minor; anything newer than 8.5 reads as 8.5.
      int major = 0, minor = 0;
      if (std::sscanf(line.c_str() + 9, "%d.%d", &major, &minor) == 2 && (major > 8 || (major == 8 && minor > 5))) {
        line = ".version 8.5";
      }
    }
    out += line;
    out += '\n';
  }
  return out;
}

Expected<void> checkSupportedArch(const std::string& arch) {
  if (nvdisasmDecodes(arch) || listed(kPtxOnlyArchs, arch)) return {};
  return makeError("unsupported CUDA architecture '" + arch +
                   "': the CUDA frontend targets sm_70 … sm_90a (SASS and PTX; sm_70 and sm_72 through "
                   "CUDA 12.5's ptxas) and sm_100 … sm_121 (PTX only)");
}

}  // namespace foresight::cuda
