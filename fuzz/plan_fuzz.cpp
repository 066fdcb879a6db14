// SPDX-License-Identifier: Apache-2.0
// The validation runner's JSON run plans (validation/runner/host/plan_reader.h).
#include "fuzz_support.h"
#include "host/plan_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > foresight::fuzz::kMaxFuzzInput) return -1;
  std::vector<runner::PlanExperiment> plan;
  std::string error;
  if (runner::parsePlan(std::string(foresight::fuzz::asText(data, size)), plan, error)) {
    for (const runner::PlanExperiment& e : plan) (void)e.totalBytes();
  }
  return 0;
}
