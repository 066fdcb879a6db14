// SPDX-License-Identifier: Apache-2.0
/// \file
/// Per-warp dynamic instruction streams of a KernelIR. A frontend that can execute warps (the
/// CUDA frontend) attaches a `WarpStreamSource` to its KernelIR (`KernelIR::streams`); models
/// that replay instructions in order (the `emulate` model) ask it for the stream of any warp of
/// the launch, generated on demand. When a KernelIR has no source (summaries, skeletons),
/// `synthesizeStream()` derives one from the blocks' execution counts and loops.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "foresight/ir/kernel_ir.h"
#include "foresight/support/error.h"

namespace foresight {

/// One dynamic execution of a KernelIR instruction by a warp.
struct DynamicInstruction {
  int block = 0;  ///< index into KernelIR::blocks
  int index = 0;  ///< index into BasicBlock::instructions
  std::uint32_t activeMask = 0xffffffffu;  ///< lanes that execute it
  /// Byte address per lane of this execution (negative = inactive lane) when the instruction
  /// accesses memory and its addresses are known; empty = use the static MemoryAccess.
  std::vector<long long> laneAddresses;
};

/// How to reduce a warp's stream to a representative sample: systematic windows.
struct StreamSampling {
  /// Most instructions kept (0 = keep the whole stream). A longer stream keeps K windows of
  /// `window` consecutive instructions, K = max(1, budget / window), one from the middle of
  /// each of K equal strata of the stream (systematic sampling, as SMARTS samples a program:
  /// Wunderlich et al., ISCA 2003), so every phase of the run is represented in proportion to
  /// its dynamic count and each loop by iterations from its steady state, not the prefix.
  long long budget = 0;
  long long window = 256;  ///< consecutive instructions per window (several loop iterations)
};

/// One window of a sampled stream.
struct StreamWindow {
  size_t begin = 0;   ///< first instruction of the window in SampledStream::instructions
  size_t end = 0;     ///< one past its last
  double origin = 0;  ///< position of its first instruction in the full stream
  double weight = 1;  ///< full-stream instructions each kept instruction of the window stands for
};

/// A warp's stream reduced to windows that stand for the whole run.
struct SampledStream {
  std::vector<DynamicInstruction> instructions;  ///< the windows, concatenated in stream order
  std::vector<StreamWindow> windows;
  double fullLength = 0;  ///< dynamic instructions of the whole stream
  /// fullLength / instructions.size(): every window of a systematic sample has the same
  /// weight, so the sample's time scaled by this stands for the whole stream's.
  double scale = 1;
};

/// The windows sampleStream() keeps of a stream of `length` instructions: `begin`/`end` index
/// the concatenated sample, `origin` is the window's first position in the full stream.
[[nodiscard]] std::vector<StreamWindow> systematicWindows(long long length, const StreamSampling& sampling);

/// Reduces `full` to a systematic sample (see StreamSampling). A stream within the budget is
/// kept whole (one window of weight 1).
[[nodiscard]] SampledStream sampleStream(std::vector<DynamicInstruction> full, const StreamSampling& sampling);

/// Keeps at most `sampling.budget` instructions of an already sampled stream: its windows cut
/// into chunks of at most `sampling.window` instructions, and a systematic sample of those
/// chunks (the middle chunk of each of budget / window equal groups), with weights and scale
/// adjusted so that the result still stands for `sample.fullLength` instructions.
[[nodiscard]] SampledStream subsampleStream(const SampledStream& sample, const StreamSampling& sampling);

/// Distinct bytes one launch reads and writes (a byte both read and written counts as written).
struct Footprint {
  double readBytes = 0;
  double writtenBytes = 0;
  /// true: exact (replaces the engine's estimate); false: an upper bound (caps it).
  bool exact = true;
};

/// Produces the dynamic instruction stream of any warp of one launch.
class WarpStreamSource {
 public:
  virtual ~WarpStreamSource() = default;
  /// The launch's footprint when the source knows it exactly (skeletons: the union of bounded
  /// regular sections over the whole loop space) or an upper bound of it (C loops: the hull of
  /// each array's affine accesses); nullopt = the memory engine estimates it from the sampled
  /// streams alone.
  [[nodiscard]] virtual std::optional<Footprint> footprint() const { return std::nullopt; }
  /// The stream of warp `warp` (0-based within its block) of block `block` (linear index), in
  /// execution order: every instruction, from the first to the last.
  [[nodiscard]] virtual Expected<std::vector<DynamicInstruction>> stream(long long block, int warp) const = 0;
  /// A representative sample of that stream (sampleStream()) with its full length: what models
  /// that replay a bounded number of instructions (emulate) should ask for. The default samples
  /// the full stream(); a source may produce the windows without materialising the rest.
  [[nodiscard]] virtual Expected<SampledStream> sampled(long long block, int warp, const StreamSampling& sampling) const {
    Expected<std::vector<DynamicInstruction>> s = stream(block, warp);
    if (!s) return std::move(s).takeError();
    return sampleStream(std::move(*s), sampling);
  }
};

/// Options of synthesizeStream().
struct StreamSynthesis {
  /// Cap on the instructions returned (0 = none). A longer stream keeps a proportional sample
  /// of its rounds (see synthesizeStream) and reports the ratio in `scale`.
  long long maxInstructions = 0;
  long long warpIndex = 0;   ///< linear index of the warp in the launch (address offsets)
  long long totalWarps = 1;  ///< warps in the launch
};

/// A synthesized stream and how much of the full one it represents.
struct SynthesizedStream {
  std::vector<DynamicInstruction> instructions;
  double fullLength = 0;  ///< dynamic instructions of the uncapped stream (Σ executions x size)
  double scale = 1;       ///< fullLength / instructions.size()
};

/// Derives one warp's dynamic stream from a KernelIR without a WarpStreamSource (summaries,
/// skeletons, CUDA kernels before exact streams): the blocks are replayed in K "rounds", K the
/// largest `executionsPerWarp`; a block executed n times runs in n of the K rounds, spread
/// evenly; blocks before the hottest blocks run in the first rounds (prologue), blocks after
/// them in the last rounds (epilogue). A stream over `maxInstructions` replays only K' < K
/// rounds with every count scaled by K'/K. Global, local and texture accesses with
/// representative lane addresses get fresh addresses for each warp and execution: the
/// representative addresses shifted by (warpIndex + execution x totalWarps) x span, span their
/// extent rounded up to 128 B (no reuse across executions is assumed: exact reuse needs a
/// WarpStreamSource). Errors for a kernel with no instructions.
[[nodiscard]] Expected<SynthesizedStream> synthesizeStream(const KernelIR& kernel,
                                                           const StreamSynthesis& options = {});

}  // namespace foresight
