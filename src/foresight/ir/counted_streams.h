// SPDX-License-Identifier: Apache-2.0
/// \file
/// `CountedStreamSource`: exact per-warp streams for KernelIRs whose blocks are counted
/// categories rather than control flow (skeletons, C loops). The order of the stream follows
/// the blocks' execution counts, as synthesizeStream() does — K rounds, K the largest count; a
/// block executed n times runs in the rounds r where ⌊(r+1)·n/K⌋ > ⌊r·n/K⌋, i.e. spread evenly
/// — but every global, local or texture access carries the lane addresses of that very
/// execution, asked from the frontend (`AccessAddresses`): the j-th execution of a statement by
/// a warp gets the addresses of the j-th element of each lane's own address sequence. So reuse
/// within and between warps and blocks is the program's, not synthesized.
///
/// Any window of the stream is produced without materialising the rest: the start of round r
/// is Σ_b ⌊r·n_b/K⌋·size_b, so a position is found by bisection over the rounds.
#pragma once

#include <memory>
#include <vector>

#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/warp_stream.h"

namespace foresight {

/// Where a frontend's memory statements go, for any warp of the launch.
class AccessAddresses {
 public:
  virtual ~AccessAddresses() = default;
  /// Lane byte addresses (one per lane of the warp; negative = inactive lane) of execution
  /// `execution` (0-based, in the warp's own order) of statement `access` by warp `warp`
  /// (0-based in its block) of block `block` (linear index in the grid).
  virtual void lanes(int access, long long block, int warp, long long execution, std::vector<long long>& out) const = 0;
  /// The launch's exact footprint, when the frontend knows it (WarpStreamSource::footprint()).
  [[nodiscard]] virtual std::optional<Footprint> footprint() const { return std::nullopt; }
};

/// The stream source of a counted KernelIR.
class CountedStreamSource final : public WarpStreamSource {
 public:
  /// `accessOf[b][i]`: the AccessAddresses statement of instruction i of block b, -1 for
  /// instructions without addresses (they keep the static MemoryAccess). Executions per warp are
  /// the blocks' `executionsPerWarp`, rounded to the nearest integer (as synthesizeStream()).
  /// `blocks` and `warpsPerBlock` bound the warps that may be asked for.
  CountedStreamSource(const KernelIR& ir, std::vector<std::vector<int>> accessOf,
                      std::shared_ptr<const AccessAddresses> addresses, long long blocks, int warpsPerBlock);

  [[nodiscard]] Expected<std::vector<DynamicInstruction>> stream(long long block, int warp) const override;
  /// The systematic windows (sampleStream()), generated directly.
  [[nodiscard]] Expected<SampledStream> sampled(long long block, int warp, const StreamSampling& sampling) const override;
  [[nodiscard]] std::optional<Footprint> footprint() const override {
    return addresses_ ? addresses_->footprint() : std::nullopt;
  }
  /// Dynamic instructions of every warp's stream.
  [[nodiscard]] long long length() const { return length_; }

 private:
  /// Appends positions [begin, end) of warp (block, warp)'s stream.
  void emit(long long block, int warp, long long begin, long long end, std::vector<DynamicInstruction>& out) const;
  /// Start of round r: Σ_b ⌊r·n_b/K⌋·size_b.
  [[nodiscard]] long long roundStart(long long r) const;
  [[nodiscard]] Expected<void> check(long long block, int warp) const;

  std::vector<long long> executions_;  ///< n_b
  std::vector<int> sizes_;             ///< instructions per block
  std::vector<std::vector<int>> accessOf_;
  std::shared_ptr<const AccessAddresses> addresses_;
  long long rounds_ = 0;  ///< K
  long long length_ = 0;
  long long blocks_ = 1;
  int warpsPerBlock_ = 1;
};

}  // namespace foresight
