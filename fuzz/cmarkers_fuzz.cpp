// SPDX-License-Identifier: Apache-2.0
// The C loop frontend's source markers (markers.h).
#include "foresight/frontend/cloop/markers.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > foresight::fuzz::kMaxFuzzInput) return -1;
  (void)foresight::cloop::parseMarkers("fuzz.c", std::string(foresight::fuzz::asText(data, size)));
  return 0;
}
