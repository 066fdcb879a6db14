// SPDX-License-Identifier: Apache-2.0
// Code skeletons (skeleton_parser.h), loaded without sample files.
#include "foresight/frontend/skeleton/skeleton_frontend.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > foresight::fuzz::kMaxFuzzInput) return -1;
  (void)foresight::skeleton::loadSkeletonFromString(std::string(foresight::fuzz::asText(data, size)), "fuzz.sk", "");
  return 0;
}
