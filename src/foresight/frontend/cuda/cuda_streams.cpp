// SPDX-License-Identifier: Apache-2.0
/// \file
/// Per-warp KernelIR streams of CUDA kernels from the PTX or SASS warp runs.
#include "foresight/frontend/cuda/cuda_streams.h"

#include <functional>
#include <optional>
#include <string>

namespace foresight::cuda {

std::vector<std::pair<int, int>> irLocations(const PtxCfg& cfg, size_t instructions) {
  std::vector<std::pair<int, int>> out(instructions, {-1, -1});
  for (size_t b = 0; b < cfg.blocks.size(); ++b) {
    for (int i = cfg.blocks[b].first; i < cfg.blocks[b].end && i < static_cast<int>(instructions); ++i) {
      out[i] = {static_cast<int>(b), i - cfg.blocks[b].first};
    }
  }
  return out;
}

CudaStreamSource::CudaStreamSource(std::shared_ptr<const WarpStreams> ptx, std::vector<std::pair<int, int>> locations)
    : ptx_(std::move(ptx)), locations_(std::move(locations)) {}

CudaStreamSource::CudaStreamSource(SassFunction fn, CubinKernel layout, SassRunOptions options,
                                   std::vector<std::pair<int, int>> locations)
    : sass_(std::make_shared<const SassFunction>(std::move(fn))),
      layout_(std::make_shared<const CubinKernel>(std::move(layout))),
      options_(std::move(options)),
      locations_(std::move(locations)) {
  options_.layout = layout_.get();
  options_.recordStream = true;
  if (Expected<std::shared_ptr<const SassPrepared>> p = prepareSassRun(*sass_, options_)) prepared_ = std::move(*p);
}

namespace {

/// Builds the KernelIR stream from an ordered (instruction, mask) list and the sparse address
/// records (position in the list, lanes).
template <class Records, class Position, class Lanes>
Expected<std::vector<DynamicInstruction>> assemble(const std::vector<std::pair<int, std::uint32_t>>& order, Records& addresses,
                                                   const std::vector<std::pair<int, int>>& locations, Position position,
                                                   Lanes lanesOf) {
  std::vector<DynamicInstruction> out;
  out.reserve(order.size());
  size_t next = 0;
  for (size_t pos = 0; pos < order.size(); ++pos) {
    const auto [instruction, mask] = order[pos];
    if (instruction < 0 || instruction >= static_cast<int>(locations.size()) || locations[instruction].first < 0) {
      return makeError("internal: executed instruction " + std::to_string(instruction) + " has no KernelIR location");
    }
    DynamicInstruction d;
    d.block = locations[instruction].first;
    d.index = locations[instruction].second;
    d.activeMask = mask;
    if (next < addresses.size() && position(addresses[next]) == pos) d.laneAddresses = std::move(lanesOf(addresses[next++]));
    out.push_back(std::move(d));
  }
  return out;
}

/// Recorded instructions and lane addresses a kept SASS run may hold at most, over all its warps.
constexpr long long kRunCacheItems = 1LL << 23;

}  // namespace

Expected<std::shared_ptr<const SassWarpCount>> CudaStreamSource::sassRun(long long block, int warp) const {
  const Launch& launch = options_.launch;
  if (block < 0 || block >= launch.grid.count()) return makeError("block " + std::to_string(block) + " is outside the grid");
  if (warp < 0 || warp >= (launch.block.count() + 31) / 32) return makeError("warp " + std::to_string(warp) + " is outside the block");
  {
    std::lock_guard<std::mutex> lock(runs_->mutex);
    if (auto it = runs_->runs.find({block, warp}); it != runs_->runs.end()) return it->second;
  }
  Expected<SassWarpCount> run = runSassWarp(*sass_, options_, block, warp, prepared_.get());
  if (!run) return std::move(run).takeError();
  auto shared = std::make_shared<const SassWarpCount>(std::move(*run));
  long long items = static_cast<long long>(shared->stream.size());
  for (const LaneAccess& a : shared->accesses) items += 1 + static_cast<long long>(a.lanes.size());
  std::lock_guard<std::mutex> lock(runs_->mutex);
  if (runs_->items + items <= kRunCacheItems && runs_->runs.emplace(std::make_pair(block, warp), shared).second) {
    runs_->items += items;
  }
  return shared;
}

Expected<std::vector<DynamicInstruction>> CudaStreamSource::stream(long long block, int warp) const {
  if (sass_) {
    Expected<std::shared_ptr<const SassWarpCount>> r = sassRun(block, warp);
    if (!r) return std::move(r).takeError();
    const SassWarpCount& run = **r;
    if (run.folds.empty()) {
      std::vector<LaneAccess> accesses = run.accesses;
      return assemble(run.stream, accesses, locations_, [](const LaneAccess& a) { return a.position; },
                      [](LaneAccess& a) -> std::vector<long long>& { return a.lanes; });
    }
    std::vector<DynamicInstruction> out;
    Expected<void> ok = expandInto(
        [&](long long b, long long e, const Emit& emit) { expandStream(run, b, e, emit); }, 0, run.dynamicInstructions, out);
    if (!ok) return std::move(ok).takeError();
    return out;
  }
  Expected<WarpTrace> trace = ptx_->trace(block, warp);
  if (!trace) return std::move(trace).takeError();
  std::vector<DynamicInstruction> out;
  out.reserve(static_cast<size_t>(expandedLength(*trace)));
  Expected<void> ok = expandInto([&](long long b, long long e, const Emit& emit) { expandStream(*trace, b, e, emit); }, 0,
                                 expandedLength(*trace), out);
  if (!ok) return std::move(ok).takeError();
  return out;
}

Expected<void> CudaStreamSource::expandInto(const std::function<void(long long, long long, const Emit&)>& expander,
                                            long long begin, long long end, std::vector<DynamicInstruction>& out) const {
  std::string error;
  expander(begin, end, [&](int instruction, std::uint32_t mask, const std::vector<long long>* lanes) {
    if (instruction < 0 || instruction >= static_cast<int>(locations_.size()) || locations_[instruction].first < 0) {
      error = "internal: executed instruction " + std::to_string(instruction) + " has no KernelIR location";
      return;
    }
    DynamicInstruction d;
    d.block = locations_[instruction].first;
    d.index = locations_[instruction].second;
    d.activeMask = mask;
    if (lanes) d.laneAddresses = *lanes;
    out.push_back(std::move(d));
  });
  if (!error.empty()) return makeError(error);
  return {};
}

Expected<SampledStream> CudaStreamSource::sampled(long long block, int warp, const StreamSampling& sampling) const {
  std::function<void(long long, long long, const Emit&)> expander;
  long long n = 0;
  std::shared_ptr<const SassWarpCount> run;
  std::optional<WarpTrace> trace;
  if (sass_) {
    Expected<std::shared_ptr<const SassWarpCount>> r = sassRun(block, warp);
    if (!r) return std::move(r).takeError();
    run = std::move(*r);
    n = run->dynamicInstructions;
    expander = [&](long long b, long long e, const Emit& emit) { expandStream(*run, b, e, emit); };
  } else {
    Expected<WarpTrace> t = ptx_->trace(block, warp);
    if (!t) return std::move(t).takeError();
    trace = std::move(*t);
    n = expandedLength(*trace);
    expander = [&](long long b, long long e, const Emit& emit) { expandStream(*trace, b, e, emit); };
  }
  SampledStream out;
  out.fullLength = static_cast<double>(n);
  out.windows = systematicWindows(n, sampling);
  size_t kept = 0;
  for (const StreamWindow& w : out.windows) kept += w.end - w.begin;
  out.instructions.reserve(kept);
  for (const StreamWindow& w : out.windows) {
    const long long start = static_cast<long long>(w.origin);
    Expected<void> ok = expandInto(expander, start, start + static_cast<long long>(w.end - w.begin), out.instructions);
    if (!ok) return std::move(ok).takeError();
  }
  out.scale = out.instructions.empty() ? 1 : out.fullLength / static_cast<double>(out.instructions.size());
  return out;
}

}  // namespace foresight::cuda
