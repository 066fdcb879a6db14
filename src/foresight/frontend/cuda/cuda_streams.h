// SPDX-License-Identifier: Apache-2.0
/// \file
/// `CudaStreamSource`: the CUDA frontend's per-warp dynamic streams (ir/warp_stream.h). Each
/// requested warp is executed — over the SASS when the KernelIR holds SASS (sass_interpreter.h),
/// else over the PTX (warp_interpreter.h) — with the launch's values and hints, and every
/// executed instruction is mapped onto its KernelIR (block, index), with the lane addresses of
/// that very execution where they are known (data-dependent ones keep the static access).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "foresight/frontend/cuda/cubin_reader.h"
#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/frontend/cuda/ptx_cfg.h"
#include "foresight/frontend/cuda/sass_interpreter.h"
#include "foresight/frontend/cuda/sass_listing.h"
#include "foresight/ir/warp_stream.h"

namespace foresight::cuda {

/// (block, index) in the KernelIR of every instruction of a CFG whose blocks were lowered one to
/// one, in order.
[[nodiscard]] std::vector<std::pair<int, int>> irLocations(const PtxCfg& cfg, size_t instructions);

class CudaStreamSource final : public WarpStreamSource {
 public:
  /// Streams from the PTX run; `locations[i]` places PTX instruction i in the KernelIR.
  CudaStreamSource(std::shared_ptr<const WarpStreams> ptx, std::vector<std::pair<int, int>> locations);
  /// Streams from the SASS run of `fn` (the layout is owned here; `options.layout` is ignored).
  CudaStreamSource(SassFunction fn, CubinKernel layout, SassRunOptions options, std::vector<std::pair<int, int>> locations);

  [[nodiscard]] Expected<std::vector<DynamicInstruction>> stream(long long block, int warp) const override;
  /// The windows are taken from the run's folded stream without expanding the rest (the run
  /// itself is flat in the trip counts of folded loops).
  [[nodiscard]] Expected<SampledStream> sampled(long long block, int warp, const StreamSampling& sampling) const override;

 private:
  using Emit = std::function<void(int, std::uint32_t, const std::vector<long long>*)>;
  /// The SASS run of (block, warp): kept for the next request of the same warp (the memory
  /// engine and the emulation ask for many of the same warps) while the kept runs hold fewer
  /// than kRunCacheItems recorded instructions and lane addresses.
  [[nodiscard]] Expected<std::shared_ptr<const SassWarpCount>> sassRun(long long block, int warp) const;
  /// Appends positions [begin, end) of a run's full stream (`expander` emits them: PTX trace or
  /// SASS run, folds expanded), mapped onto the KernelIR.
  [[nodiscard]] Expected<void> expandInto(const std::function<void(long long, long long, const Emit&)>& expander,
                                          long long begin, long long end, std::vector<DynamicInstruction>& out) const;
  std::shared_ptr<const WarpStreams> ptx_;
  std::shared_ptr<const SassFunction> sass_;
  std::shared_ptr<const CubinKernel> layout_;
  SassRunOptions options_;
  /// Shared by every SASS run (null when preparing failed: each run then reports why).
  std::shared_ptr<const SassPrepared> prepared_;
  std::vector<std::pair<int, int>> locations_;
  struct RunCache {
    std::mutex mutex;
    std::map<std::pair<long long, int>, std::shared_ptr<const SassWarpCount>> runs;
    long long items = 0;
  };
  std::shared_ptr<RunCache> runs_ = std::make_shared<RunCache>();
};

}  // namespace foresight::cuda
