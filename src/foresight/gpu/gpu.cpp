// SPDX-License-Identifier: Apache-2.0
/// \file
/// Name tables and lookups of the Gpu description.
#include "foresight/gpu/gpu.h"

#include <cctype>

namespace foresight {

namespace {
constexpr const char* kInstrClassNames[kNumInstrClasses] = {"fp32", "fp64", "int", "sfu",
                                                             "tensor", "ldst", "control"};
}  // namespace

const char* instrClassName(InstrClass c) { return kInstrClassNames[static_cast<int>(c)]; }

std::optional<InstrClass> parseInstrClass(const std::string& name) {
  for (int i = 0; i < kNumInstrClasses; ++i) {
    if (name == kInstrClassNames[i]) return static_cast<InstrClass>(i);
  }
  return std::nullopt;
}

const MemoryLevel* Gpu::memoryLevel(const std::string& levelName) const {
  for (const MemoryLevel& level : memory) {
    if (level.name == levelName) return &level;
  }
  return nullptr;
}

const MemoryLevel* Gpu::memoryForResource(const std::string& resource) const {
  for (const MemoryLevel& level : memory) {
    if (level.resource == resource) return &level;
  }
  return nullptr;
}

std::string Gpu::computeCapability() const {
  return std::to_string(ccMajor) + "." + std::to_string(ccMinor);
}

double tensorInputWork(std::string_view type) {
  std::string t(type);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "f16" || t == "fp16" || t == "bf16") return 1;
  if (t == "tf32") return 2;
  if (t == "s8" || t == "u8" || t == "int8" || t == "e4m3" || t == "e5m2" || t == "fp8") return 0.5;
  if (t == "s4" || t == "u4") return 0.25;
  if (t == "b1") return 1.0 / 32;
  return 0;
}

}  // namespace foresight
