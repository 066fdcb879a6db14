// SPDX-License-Identifier: Apache-2.0
// SASS listings (sass_parser.h) through the whole CUDA frontend with the PTX and cubin they were
// disassembled from (the matmul fixture): SASS-PTX mapping and the SASS interpreter.
#include "cuda_fuzz.h"
#include "foresight/frontend/cuda/ptx_parser.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace foresight;
  if (size > 4 * fuzz::kMaxFuzzInput) return -1;
  static const std::string ptx = fuzz::sourceFile("tests/frontend/cuda/fixtures/matmul.sm_90.ptx");
  static const std::string cubin = fuzz::sourceFile("tests/frontend/cuda/fixtures/matmul.sm_90.cubin");
  static const cuda::PtxModule module = *cuda::parsePtx(ptx, "fuzz.ptx");
  fuzz::MemoryToolchain tools({{"fuzz.ptx", ptx}, {"fuzz.cubin", cubin}, {"fuzz.sass", std::string(fuzz::asText(data, size))}});
  for (const cuda::PtxKernel& k : module.kernels) (void)cuda::loadCuda("fuzz.sass", fuzz::runnableOptions(module, k.name), tools);
  return 0;
}
