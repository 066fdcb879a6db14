// SPDX-License-Identifier: Apache-2.0
// Validation corpus manifests (manifest.h) and measurement lines (measurement.h).
#include "foresight/validation/manifest.h"
#include "foresight/validation/measurement.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace foresight;
  if (size > fuzz::kMaxFuzzInput) return -1;
  const std::string text(fuzz::asText(data, size));
  (void)loadManifestFromString(text, "fuzz/manifest.toml");
  (void)parseMeasurementLine(text, "fuzz.jsonl", 1);
  return 0;
}
