// SPDX-License-Identifier: Apache-2.0
/// \file
/// Which instructions of which warps the emulate model replays for one SM, and how much of the
/// launch they stand for (docs/explain.md, "What is emulated").
///
/// - Each warp's stream is a systematic sample of its whole run (ir/warp_stream.h,
///   sampleStream): windows from the middle of equal strata of the stream, so the init loop of
///   a kernel weighs what it executes and the main loop is seen in its steady state, never a
///   prefix scaled to the whole.
/// - The SM's resident blocks 0, S, 2S, ... (S active SMs): exact streams of the first two,
///   later ones extrapolated affinely in the block position from them (the interpreter is
///   costly per warp; addresses are affine in blockIdx for most kernels).
/// - Blocks beyond those: warp 0 of up to kGridSamples blocks spread evenly over the grid gives
///   the average block's length; the emulated blocks are weighted by it (triangular loops and
///   data-dependent work make later blocks longer or shorter than the first ones, and the
///   blocks an SM runs are dealt round robin over the whole grid).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/warp_stream.h"
#include "foresight/support/error.h"

namespace foresight::emu {

/// A frontend stream's representative sample (sampleStream() with kCachedBudget), cached per
/// (block, warp).
using CachedStream = SampledStream;
/// Instructions kept per cached warp stream.
inline constexpr long long kCachedBudget = 8192;
/// Consecutive instructions per sampled window.
inline constexpr long long kSampleWindow = 256;
/// Blocks sampled over the grid to weight the emulated ones.
inline constexpr int kGridSamples = 8;

/// Fetches (and caches) the sampled stream of one warp.
using StreamFetch = std::function<Expected<const CachedStream*>(long long block, int warp)>;

/// What one SM emulates.
struct StreamSelection {
  int blocksPerSm = 1;    ///< emulated blocks (resident slots and refills)
  int activeSms = 1;      ///< S: block i of this SM is block i·S of the grid
  int warpsPerBlock = 1;
  long long totalBlocks = 1;
  long long cap = 8192;   ///< instructions per emulated warp
};

/// The emulated warps' instruction streams and the factor from their time to the SM's.
struct EmulatedStreams {
  std::vector<std::vector<DynamicInstruction>> streams;  ///< per emulated warp
  std::vector<int> warpBlock;  ///< emulated block (0-based slot order) of each warp
  /// Full dynamic instructions the emulated warps stand for / instructions kept, times the
  /// grid weight.
  double scale = 1;
  /// Average warp-0 length of the grid's sampled blocks / that of the emulated blocks' sources
  /// (1 when every block runs the same count, or without exact streams).
  double gridWeight = 1;
  long long windows = 0;  ///< sampled windows over the emulated warps (0 = whole streams)
};

/// Selects the streams of one SM's emulated warps: exact sampled streams when the KernelIR has
/// a WarpStreamSource (via `fetch`), else synthesizeStream(). Errors from the source pass
/// through.
[[nodiscard]] Expected<EmulatedStreams> selectEmulatedStreams(const KernelIR& ir, const StreamSelection& selection,
                                                              const StreamFetch& fetch);

/// Stream of block `i` (i >= 2) from the streams of blocks 0 and 1: the second's sequence, each
/// active lane address a0 + i·(a1 - a0) where both blocks ran the same instruction with the
/// lane active, else the second block's address.
[[nodiscard]] std::vector<DynamicInstruction> extrapolateBlock(const std::vector<DynamicInstruction>& a,
                                                               const std::vector<DynamicInstruction>& b, int i,
                                                               size_t cap);

}  // namespace foresight::emu
