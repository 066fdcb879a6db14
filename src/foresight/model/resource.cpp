// SPDX-License-Identifier: Apache-2.0
/// \file
/// Name table of the bound vocabulary.
#include "foresight/model/resource.h"

namespace foresight {

namespace {
constexpr const char* kResourceNames[kNumResources] = {
    "issue", "fp32", "fp64",  "int",      "sfu",     "tensor",  "shared",
    "l1",    "l2",   "dram",  "constant", "texture", "barrier", "parallelism"};
}  // namespace

const char* resourceName(Resource r) { return kResourceNames[static_cast<int>(r)]; }

std::optional<Resource> parseResource(std::string_view name) {
  for (int i = 0; i < kNumResources; ++i) {
    if (name == kResourceNames[i]) return static_cast<Resource>(i);
  }
  return std::nullopt;
}

Resource resourceOfPipe(InstrClass c) {
  switch (c) {
    case InstrClass::Fp32: return Resource::Fp32;
    case InstrClass::Fp64: return Resource::Fp64;
    case InstrClass::Int: return Resource::Int;
    case InstrClass::Sfu: return Resource::Sfu;
    case InstrClass::Tensor: return Resource::Tensor;
    case InstrClass::Ldst: return Resource::L1;
    case InstrClass::Control: return Resource::Issue;
  }
  return Resource::Issue;
}

const char* boundModeName(BoundMode m) {
  return m == BoundMode::Latency ? "latency" : "throughput";
}

}  // namespace foresight
