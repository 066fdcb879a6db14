// SPDX-License-Identifier: Apache-2.0
/// \file
/// The emulated warps' streams: systematic samples of whole warp runs, blocks extrapolated in
/// their grid position, weighted by the grid's average block.
#include "foresight/model/emulate/stream_sampling.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "foresight/support/parallel.h"

namespace foresight::emu {

namespace {

/// The cached sample of a warp reduced to `cap` instructions: at least 8 windows (of 32 to
/// kSampleWindow instructions) so that a small cap still spans the whole run.
SampledStream capped(const CachedStream& c, long long cap) {
  if (static_cast<long long>(c.instructions.size()) <= cap) return c;
  return subsampleStream(c, {cap, std::clamp<long long>(cap / 8, 32, kSampleWindow)});
}

}  // namespace

std::vector<DynamicInstruction> extrapolateBlock(const std::vector<DynamicInstruction>& a,
                                                 const std::vector<DynamicInstruction>& b, int i, size_t cap) {
  std::vector<DynamicInstruction> out(b.begin(), b.begin() + static_cast<long long>(std::min(b.size(), cap)));
  const size_t n = std::min({a.size(), b.size(), cap});
  for (size_t k = 0; k < n; ++k) {
    if (a[k].block != b[k].block || a[k].index != b[k].index) break;  // control flow diverged
    if (a[k].laneAddresses.size() != b[k].laneAddresses.size()) continue;
    for (size_t l = 0; l < b[k].laneAddresses.size(); ++l) {
      const long long x = a[k].laneAddresses[l], y = b[k].laneAddresses[l];
      if (x >= 0 && y >= 0) out[k].laneAddresses[l] = std::max(0LL, x + static_cast<long long>(i) * (y - x));
    }
  }
  return out;
}

Expected<EmulatedStreams> selectEmulatedStreams(const KernelIR& ir, const StreamSelection& sel, const StreamFetch& fetch) {
  EmulatedStreams out;
  const long long totalBlocks = std::max<long long>(1, sel.totalBlocks);
  const long long second = std::min<long long>(sel.activeSms, totalBlocks - 1);
  // Emulated block i's grid block (blocks 0 and 1 of the SM run their own streams), and the
  // grid samples that weight the blocks beyond the emulated ones.
  auto gridBlock = [&](int i) {
    long long blockId = static_cast<long long>(i) * sel.activeSms;
    if (blockId >= totalBlocks) blockId = std::min<long long>(i, totalBlocks - 1);
    if (ir.streams && i >= 2) blockId = std::min<long long>(static_cast<long long>(i) * sel.activeSms, totalBlocks - 1);
    return blockId;
  };
  const long long gridSamples = std::min<long long>(kGridSamples, totalBlocks);
  auto gridSample = [&](long long k) { return totalBlocks * k / gridSamples; };
  if (ir.streams) {
    // The warps fetched below (each a run of the frontend), fetched side by side first; the
    // selection then reads them in its own order, and a failed fetch fails there again.
    std::vector<std::pair<long long, int>> wanted;
    for (int i = 0; i < std::min(sel.blocksPerSm, 2); ++i) {
      for (int w = 0; w < sel.warpsPerBlock; ++w) wanted.emplace_back(gridBlock(i), w);
    }
    if (sel.blocksPerSm > 2) {
      for (int w = 0; w < sel.warpsPerBlock; ++w) wanted.emplace_back(0, w), wanted.emplace_back(second, w);
    }
    for (long long k = 0; k < gridSamples; ++k) wanted.emplace_back(gridSample(k), 0);
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    parallelFor(wanted.size(), [&](std::size_t k) { (void)fetch(wanted[k].first, wanted[k].second); });
  }
  double fullSum = 0, keptSum = 0;
  std::vector<long long> sources;  // grid block whose exact stream each emulated block follows
  std::vector<std::optional<std::pair<SampledStream, SampledStream>>> bases;  // per warp, blocks 0 and `second`
  for (int i = 0; i < sel.blocksPerSm; ++i) {
    const long long blockId = gridBlock(i);
    sources.push_back(ir.streams && i >= 2 ? second : blockId);
    for (int w = 0; w < sel.warpsPerBlock; ++w) {
      if (ir.streams) {
        std::vector<DynamicInstruction> ops;
        double full = 0;
        if (i < 2) {
          Expected<const CachedStream*> s = fetch(blockId, w);
          if (!s) return std::move(s).takeError();
          SampledStream c = capped(**s, sel.cap);
          full = c.fullLength;
          out.windows += c.scale > 1 ? static_cast<long long>(c.windows.size()) : 0;
          ops = std::move(c.instructions);
        } else {
          // Blocks 2, 3, … extrapolate from blocks 0 and `second`: their capped warps, once.
          if (bases.empty()) bases.resize(static_cast<size_t>(sel.warpsPerBlock));
          std::optional<std::pair<SampledStream, SampledStream>>& base = bases[static_cast<size_t>(w)];
          if (!base) {
            Expected<const CachedStream*> a = fetch(0, w);
            if (!a) return std::move(a).takeError();
            Expected<const CachedStream*> b = fetch(second, w);
            if (!b) return std::move(b).takeError();
            base.emplace(capped(**a, sel.cap), capped(**b, sel.cap));
          }
          const SampledStream& ca = base->first;
          const SampledStream& cb = base->second;
          full = cb.fullLength;
          out.windows += cb.scale > 1 ? static_cast<long long>(cb.windows.size()) : 0;
          ops = extrapolateBlock(ca.instructions, cb.instructions, i, static_cast<size_t>(sel.cap));
        }
        fullSum += full;
        keptSum += static_cast<double>(ops.size());
        out.streams.push_back(std::move(ops));
      } else {
        StreamSynthesis so;
        so.maxInstructions = sel.cap;
        so.warpIndex = blockId * sel.warpsPerBlock + w;
        so.totalWarps = totalBlocks * sel.warpsPerBlock;
        Expected<SynthesizedStream> s = synthesizeStream(ir, so);
        if (!s) return std::move(s).takeError();
        fullSum += s->fullLength;
        keptSum += static_cast<double>(s->instructions.size());
        out.streams.push_back(std::move(s->instructions));
      }
      out.warpBlock.push_back(i);
    }
  }
  out.scale = keptSum > 0 ? fullSum / keptSum : 1;

  // Blocks beyond the emulated ones: the SM's blocks are dealt round robin over the whole grid,
  // so they stand for the grid's average block. Warp 0 of kGridSamples blocks spread evenly
  // over the grid against warp 0 of the emulated blocks' sources.
  if (ir.streams && !sources.empty()) {
    double grid = 0, emulated = 0;
    for (long long k = 0; k < gridSamples; ++k) {
      Expected<const CachedStream*> s = fetch(gridSample(k), 0);
      if (!s) return std::move(s).takeError();
      grid += (*s)->fullLength / static_cast<double>(gridSamples);
    }
    for (long long b : sources) {
      Expected<const CachedStream*> s = fetch(b, 0);
      if (!s) return std::move(s).takeError();
      emulated += (*s)->fullLength / static_cast<double>(sources.size());
    }
    if (grid > 0 && emulated > 0) out.gridWeight = grid / emulated;
    out.scale *= out.gridWeight;
  }
  return out;
}

}  // namespace foresight::emu
