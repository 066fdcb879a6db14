// SPDX-License-Identifier: Apache-2.0
// PTX (ptx_parser.h) through the whole CUDA frontend: CFG, call expansion, the warp interpreter
// and the KernelIR of the first kernel, with no cubin and no SASS.
#include "cuda_fuzz.h"
#include "foresight/frontend/cuda/ptx_parser.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace foresight;
  if (size > fuzz::kMaxFuzzInput) return -1;
  const std::string text(fuzz::asText(data, size));
  Expected<cuda::PtxModule> module = cuda::parsePtx(text, "fuzz.ptx");
  if (!module || module->kernels.empty()) return 0;
  fuzz::MemoryToolchain tools({{"fuzz.ptx", text}});
  (void)cuda::loadCuda("fuzz.ptx", fuzz::runnableOptions(*module, module->kernels.front().name), tools);
  return 0;
}
