// SPDX-License-Identifier: Apache-2.0
/// \file
/// Stream synthesis from blocks, execution counts and representative addresses.
#include "foresight/ir/warp_stream.h"

#include <algorithm>
#include <cmath>

namespace foresight {

namespace {

/// Shift of one execution's addresses: the representative extent rounded up to 128 B.
long long addressSpan(const MemoryAccess& m) {
  long long lo = -1, hi = -1;
  for (long long a : m.laneAddresses) {
    if (a < 0) continue;
    lo = lo < 0 ? a : std::min(lo, a);
    hi = std::max(hi, a + m.widthBytes);
  }
  if (lo < 0) return 0;
  const long long extent = hi - lo;
  return std::max<long long>(128, (extent + 127) / 128 * 128);
}

bool shifts(const MemoryAccess& m) {
  return !m.dataDependent && !m.laneAddresses.empty() &&
         (m.space == MemorySpace::Global || m.space == MemorySpace::Local || m.space == MemorySpace::Texture);
}

}  // namespace

Expected<SynthesizedStream> synthesizeStream(const KernelIR& kernel, const StreamSynthesis& options) {
  SynthesizedStream out;
  double maxCount = 0;
  for (const BasicBlock& b : kernel.blocks) {
    out.fullLength += b.executionsPerWarp * static_cast<double>(b.instructions.size());
    if (!b.instructions.empty()) maxCount = std::max(maxCount, b.executionsPerWarp);
  }
  if (out.fullLength <= 0 || maxCount <= 0) {
    return makeError("kernel '" + kernel.name + "' executes no instructions");
  }
  // Rounds: K = ceil(max count), reduced to K' when the stream is capped.
  const double rounds = std::max(1.0, std::ceil(maxCount - 1e-9));
  double kept = rounds;
  if (options.maxInstructions > 0 && out.fullLength > static_cast<double>(options.maxInstructions)) {
    kept = std::max(1.0, std::floor(rounds * static_cast<double>(options.maxInstructions) / out.fullLength));
  }
  const double shrink = kept / rounds;
  // Blocks after the last hottest block are the epilogue.
  int lastHot = -1;
  for (int i = 0; i < static_cast<int>(kernel.blocks.size()); ++i) {
    if (!kernel.blocks[i].instructions.empty() && kernel.blocks[i].executionsPerWarp >= maxCount - 1e-9) {
      lastHot = i;
    }
  }
  const int nBlocks = static_cast<int>(kernel.blocks.size());
  std::vector<long long> emitted(nBlocks, 0);
  std::vector<long long> spans;
  const int K = static_cast<int>(kept);
  for (int k = 0; k < K; ++k) {
    for (int b = 0; b < nBlocks; ++b) {
      const BasicBlock& block = kernel.blocks[b];
      if (block.instructions.empty()) continue;
      const double n = block.executionsPerWarp * shrink;
      const double target = n * (k + 1) / kept;
      // Epilogue blocks run late (floor), the others early (ceil); totals round to nearest.
      long long cumulative = b > lastHot ? static_cast<long long>(std::floor(target + 1e-9))
                                         : static_cast<long long>(std::ceil(target - 1e-9));
      const long long total = std::llround(n);
      cumulative = k + 1 == K ? total : std::min(cumulative, total);
      for (; emitted[b] < cumulative; ++emitted[b]) {
        for (int i = 0; i < static_cast<int>(block.instructions.size()); ++i) {
          DynamicInstruction d;
          d.block = b;
          d.index = i;
          const Instruction& inst = block.instructions[i];
          if (inst.memory && shifts(*inst.memory)) {
            const long long span = addressSpan(*inst.memory);
            const long long shift = (options.warpIndex + emitted[b] * options.totalWarps) * span;
            d.laneAddresses = inst.memory->laneAddresses;
            for (long long& a : d.laneAddresses) {
              if (a >= 0) a += shift;
            }
          }
          out.instructions.push_back(std::move(d));
        }
      }
    }
  }
  if (out.instructions.empty()) return makeError("kernel '" + kernel.name + "': the synthesized stream is empty");
  out.scale = out.fullLength / static_cast<double>(out.instructions.size());
  return out;
}

}  // namespace foresight
