// SPDX-License-Identifier: Apache-2.0
// cubin (ELF) files (cubin_reader.h).
#include "foresight/frontend/cuda/cubin_reader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4 * foresight::fuzz::kMaxFuzzInput) return -1;
  (void)foresight::cuda::readCubin(foresight::fuzz::asText(data, size), "fuzz.cubin");
  return 0;
}
