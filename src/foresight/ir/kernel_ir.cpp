// SPDX-License-Identifier: Apache-2.0
/// \file
/// Name tables of the IR enums.
#include "foresight/ir/kernel_ir.h"

namespace foresight {

const char* memorySpaceName(MemorySpace s) {
  switch (s) {
    case MemorySpace::Global: return "global";
    case MemorySpace::Shared: return "shared";
    case MemorySpace::Local: return "local";
    case MemorySpace::Constant: return "constant";
    case MemorySpace::Texture: return "texture";
  }
  return "global";
}

const char* cacheOpName(CacheOp c) {
  switch (c) {
    case CacheOp::Default: return "default";
    case CacheOp::Cg: return "cg";
    case CacheOp::Cs: return "cs";
    case CacheOp::Lu: return "lu";
    case CacheOp::Cv: return "cv";
    case CacheOp::Nc: return "nc";
    case CacheOp::Wt: return "wt";
  }
  return "default";
}

BlockResources blockResources(const ThreadResources& resources, const Launch& launch) {
  BlockResources b;
  b.threadsPerBlock = static_cast<int>(launch.threadsPerBlock());
  b.registersPerThread = resources.registers;
  b.sharedPerBlock = resources.staticSharedBytes + launch.dynamicSharedBytes;
  b.carveoutPercent = launch.carveoutPercent;
  return b;
}

}  // namespace foresight
