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

std::vector<StreamWindow> systematicWindows(long long n, const StreamSampling& sampling) {
  std::vector<StreamWindow> out;
  if (n <= 0) return out;
  if (sampling.budget <= 0 || n <= sampling.budget) {
    out.push_back({0, static_cast<size_t>(n), 0, 1});
    return out;
  }
  const long long window = std::clamp<long long>(sampling.window, 1, sampling.budget);
  const long long k = std::max<long long>(1, sampling.budget / window);
  size_t kept = 0;
  for (long long i = 0; i < k; ++i) {
    // Stratum i is [i·n/k, (i+1)·n/k); its window sits in the middle of it.
    const long long lo = i * n / k, hi = (i + 1) * n / k;
    const long long len = std::min(window, hi - lo);
    StreamWindow w;
    w.begin = kept;
    w.end = kept + static_cast<size_t>(len);
    w.origin = static_cast<double>(lo + (hi - lo - len) / 2);
    w.weight = static_cast<double>(hi - lo) / static_cast<double>(std::max<long long>(1, len));
    kept = w.end;
    out.push_back(w);
  }
  return out;
}

SampledStream sampleStream(std::vector<DynamicInstruction> full, const StreamSampling& sampling) {
  SampledStream out;
  const long long n = static_cast<long long>(full.size());
  out.fullLength = static_cast<double>(n);
  out.windows = systematicWindows(n, sampling);
  if (out.windows.size() == 1 && out.windows[0].end == full.size()) {
    out.instructions = std::move(full);
    return out;
  }
  for (const StreamWindow& w : out.windows) {
    const size_t start = static_cast<size_t>(w.origin);
    for (size_t j = start; j < start + (w.end - w.begin); ++j) out.instructions.push_back(std::move(full[j]));
  }
  out.scale = out.fullLength / static_cast<double>(std::max<size_t>(1, out.instructions.size()));
  return out;
}

SampledStream subsampleStream(const SampledStream& sample, const StreamSampling& sampling) {
  const long long budget = sampling.budget;
  if (budget <= 0 || static_cast<long long>(sample.instructions.size()) <= budget) return sample;
  // Chunks of at most `window` instructions of the sample's windows, each standing for its
  // share of its window's full-stream instructions; a systematic sample of the chunks.
  const long long window = std::clamp<long long>(sampling.window, 1, budget);
  struct Chunk {
    size_t begin, end;
    double origin, stands;
  };
  std::vector<Chunk> chunks;
  for (const StreamWindow& w : sample.windows) {
    for (size_t b = w.begin; b < w.end; b += static_cast<size_t>(window)) {
      const size_t e = std::min(w.end, b + static_cast<size_t>(window));
      chunks.push_back({b, e, w.origin + static_cast<double>(b - w.begin), w.weight * static_cast<double>(e - b)});
    }
  }
  SampledStream out;
  out.fullLength = sample.fullLength;
  const size_t keep = std::clamp<size_t>(static_cast<size_t>(budget / window), 1, chunks.size());
  for (size_t i = 0; i < keep; ++i) {
    // The middle chunk of the i-th of `keep` equal groups of chunks stands for the group.
    const size_t lo = i * chunks.size() / keep, hi = (i + 1) * chunks.size() / keep;
    const Chunk& c = chunks[(lo + hi - 1) / 2];
    StreamWindow w;
    w.begin = out.instructions.size();
    w.origin = c.origin;
    out.instructions.insert(out.instructions.end(), sample.instructions.begin() + static_cast<long long>(c.begin),
                            sample.instructions.begin() + static_cast<long long>(c.end));
    w.end = out.instructions.size();
    double stands = 0;
    for (size_t g = lo; g < hi; ++g) stands += chunks[g].stands;
    w.weight = stands / static_cast<double>(std::max<size_t>(1, c.end - c.begin));
    out.windows.push_back(w);
  }
  out.scale = out.fullLength / static_cast<double>(std::max<size_t>(1, out.instructions.size()));
  return out;
}

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
