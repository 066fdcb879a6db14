// SPDX-License-Identifier: Apache-2.0
// Skeleton layout hints (layout_hints.h).
#include "foresight/frontend/skeleton/layout_hints.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > foresight::fuzz::kMaxFuzzInput) return -1;
  (void)foresight::skeleton::parseLayoutHints(foresight::fuzz::asText(data, size), "fuzz.hints.toml");
  return 0;
}
