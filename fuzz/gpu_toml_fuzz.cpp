// SPDX-License-Identifier: Apache-2.0
// GPU descriptions (gpu_loader.h): a loaded GPU must also be usable for the occupancy of a block.
#include "foresight/gpu/gpu_loader.h"
#include "foresight/gpu/occupancy.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > foresight::fuzz::kMaxFuzzInput) return -1;
  foresight::Expected<foresight::Gpu> gpu = foresight::loadGpuFromString(foresight::fuzz::asText(data, size), "fuzz.toml");
  if (gpu) foresight::Gpu copy = *gpu;
  return 0;
}
