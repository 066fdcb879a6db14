// SPDX-License-Identifier: Apache-2.0
// Init patterns: each element from foresight::PatternElements, stored in the buffer's
// element type, in chunks on the machine's cores.
#include "patterns.h"

#include <algorithm>
#include <cstring>

#include "foresight/support/parallel.h"

namespace runner {

bool fillBuffer(const PlanBuffer& b, uint64_t seed, std::vector<unsigned char>& bytes,
                std::string& error) {
  const std::optional<foresight::ElemType> type = foresight::parseElemType(b.type);
  if (!type) {
    error = "unknown type '" + b.type + "' of buffer '" + b.name + "'";
    return false;
  }
  const int width = foresight::elemTypeBytes(*type);
  bytes.assign(static_cast<size_t>(b.count) * width, 0);
  if (b.init == "poison") {
    // NaN for floats, all bits set for integers: an unwritten element cannot pass a check.
    if (!b.params.empty()) {
      error = "init pattern 'poison' of buffer '" + b.name + "' takes 0 parameter(s)";
      return false;
    }
    std::memset(bytes.data(), 0xff, bytes.size());
    return true;
  }
  const foresight::InitPattern pattern{b.init, b.params, b.value};
  if (std::string why = foresight::checkInitPattern(pattern, b.count); !why.empty()) {
    error = why + " (buffer '" + b.name + "')";
    return false;
  }
  if (b.init == "zero") return true;
  // Chunks of 2^20 elements on the machine's cores; every element is computed on its own.
  constexpr long long kChunk = 1 << 20;
  const long long chunks = (b.count + kChunk - 1) / kChunk;
  unsigned char* base = bytes.data();
  const foresight::PatternElements elements(pattern, *type, seed, b.count);
  foresight::parallelFor(static_cast<std::size_t>(chunks), [&](std::size_t c) {
    const long long begin = static_cast<long long>(c) * kChunk;
    const long long end = std::min(b.count, begin + kChunk);
    for (long long i = begin; i < end; ++i) {
      const uint64_t bits = elements.bits(i);
      std::memcpy(base + i * width, &bits, static_cast<size_t>(width));  // little-endian host
    }
  });
  return true;
}

}  // namespace runner
