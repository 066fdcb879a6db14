// SPDX-License-Identifier: Apache-2.0
// Workload summaries (summary_frontend.h), predicted by the default model on an H100.
#include "foresight/frontend/summary/summary_frontend.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/predict.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace foresight;
  if (size > fuzz::kMaxFuzzInput) return -1;
  static const Gpu gpu = *loadPreset("h100");
  Expected<LoadedInput> in = loadSummaryFromString(fuzz::asText(data, size), "fuzz.toml");
  if (!in || !in->launch) return 0;
  for (const KernelInput& k : in->kernels) (void)predict(k, *in->launch, gpu, ModelOptions{});
  return 0;
}
