// SPDX-License-Identifier: Apache-2.0
/// \file
/// Rounds of counted blocks with per-execution lane addresses (counted_streams.h).
#include "foresight/ir/counted_streams.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace foresight {

CountedStreamSource::CountedStreamSource(const KernelIR& ir, std::vector<std::vector<int>> accessOf,
                                         std::shared_ptr<const AccessAddresses> addresses, long long blocks,
                                         int warpsPerBlock)
    : accessOf_(std::move(accessOf)),
      addresses_(std::move(addresses)),
      blocks_(std::max<long long>(1, blocks)),
      warpsPerBlock_(std::max(1, warpsPerBlock)) {
  accessOf_.resize(ir.blocks.size());
  for (size_t b = 0; b < ir.blocks.size(); ++b) {
    const BasicBlock& bb = ir.blocks[b];
    const long long n = bb.instructions.empty() ? 0 : std::max(0LL, std::llround(bb.executionsPerWarp));
    executions_.push_back(n);
    sizes_.push_back(static_cast<int>(bb.instructions.size()));
    accessOf_[b].resize(bb.instructions.size(), -1);
    rounds_ = std::max(rounds_, n);
    length_ += n * static_cast<long long>(bb.instructions.size());
  }
}

long long CountedStreamSource::roundStart(long long r) const {
  long long p = 0;
  for (size_t b = 0; b < executions_.size(); ++b) {
    // ⌊r·n/K⌋ without overflow for the counts met in practice (r, n < 2^31 each).
    const long double f = static_cast<long double>(r) * static_cast<long double>(executions_[b]) / static_cast<long double>(rounds_);
    p += static_cast<long long>(std::floor(f + 1e-12L)) * sizes_[b];
  }
  return p;
}

Expected<void> CountedStreamSource::check(long long block, int warp) const {
  if (block < 0 || block >= blocks_) return makeError("block " + std::to_string(block) + " is outside the grid");
  if (warp < 0 || warp >= warpsPerBlock_) return makeError("warp " + std::to_string(warp) + " is outside the block");
  return {};
}

void CountedStreamSource::emit(long long block, int warp, long long begin, long long end,
                               std::vector<DynamicInstruction>& out) const {
  if (begin >= end || rounds_ == 0) return;
  // The last round starting at or before `begin`.
  long long lo = 0, hi = rounds_;  // roundStart(lo) <= begin < roundStart(hi) = length_
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    if (roundStart(mid) <= begin) lo = mid;
    else hi = mid;
  }
  long long pos = roundStart(lo);
  std::vector<long long> lanes;
  for (long long r = lo; r < rounds_ && pos < end; ++r) {
    for (size_t b = 0; b < executions_.size() && pos < end; ++b) {
      const long long n = executions_[b];
      if (n == 0) continue;
      const long long before = static_cast<long long>(std::floor(static_cast<long double>(r) * n / rounds_ + 1e-12L));
      const long long after = static_cast<long long>(std::floor(static_cast<long double>(r + 1) * n / rounds_ + 1e-12L));
      if (after <= before) continue;
      for (int i = 0; i < sizes_[b]; ++i, ++pos) {
        if (pos < begin) continue;
        if (pos >= end) break;
        DynamicInstruction d;
        d.block = static_cast<int>(b);
        d.index = i;
        const int access = accessOf_[b][static_cast<size_t>(i)];
        if (access >= 0 && addresses_) {
          addresses_->lanes(access, block, warp, before, lanes);
          std::uint32_t mask = 0;
          for (size_t l = 0; l < lanes.size() && l < 32; ++l) {
            if (lanes[l] >= 0) mask |= 1u << l;
          }
          d.activeMask = mask;
          d.laneAddresses = lanes;
        }
        out.push_back(std::move(d));
      }
    }
  }
}

Expected<std::vector<DynamicInstruction>> CountedStreamSource::stream(long long block, int warp) const {
  Expected<void> ok = check(block, warp);
  if (!ok) return std::move(ok).takeError();
  std::vector<DynamicInstruction> out;
  out.reserve(static_cast<size_t>(length_));
  emit(block, warp, 0, length_, out);
  return out;
}

Expected<SampledStream> CountedStreamSource::sampled(long long block, int warp, const StreamSampling& sampling) const {
  Expected<void> ok = check(block, warp);
  if (!ok) return std::move(ok).takeError();
  SampledStream out;
  out.fullLength = static_cast<double>(length_);
  out.windows = systematicWindows(length_, sampling);
  for (const StreamWindow& w : out.windows) {
    const long long start = static_cast<long long>(w.origin);
    emit(block, warp, start, start + static_cast<long long>(w.end - w.begin), out.instructions);
  }
  out.scale = out.instructions.empty() ? 1 : out.fullLength / static_cast<double>(out.instructions.size());
  return out;
}

}  // namespace foresight
