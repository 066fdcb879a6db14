// SPDX-License-Identifier: Apache-2.0
/// \file
/// `ExploreView`: the report of `foresight explore` on a kernel — the space, the variants ranked
/// by predicted time (values, launch, time, ratio to the best, occupancy, bound), the variants
/// that could not be predicted with the reason, and the best as a `-D` line.
///
/// Sample text output:
///   input      vecadd.cu (cuda frontend)
///   kernel     vecadd
///   gpu        h100: NVIDIA H100 SXM5 80GB, 132 SMs at 1.980 GHz
///   model      mwp-cwp (modern variant)
///   space      TX=32..2048:pow2 (7 values): 7 variants, 6 predicted
///
///   rank  TX    grid      block     time        vs best  occupancy  bound
///      1  256   4096x1x1  256x1x1   12.345 us   1.00x    100.0%     dram (throughput)
///   ...
///   not predicted
///         TX=2048: block x 2048 exceeds CUDA's limit of 1024
///
///   best       -D TX=256 (12.345 us; grid 4096x1x1, block 256x1x1)
#pragma once

#include <string>

#include "foresight/explore/explore.h"
#include "foresight/gpu/gpu.h"
#include "foresight/report/view.h"

namespace foresight {

/// One variant as JSON: index, values, defines, rank (null when not predicted), launch, time,
/// occupancy, bound, error. `rank` 0 = not ranked yet (the `--jsonl` lines).
[[nodiscard]] nlohmann::json exploredVariantJson(const ExploredVariant& v, int rank);

/// Text and JSON of an exhaustive search.
class ExploreView : public View {
 public:
  /// `top`: ranked rows shown in text (0 = all); JSON always has every variant.
  ExploreView(std::string input, const Gpu* gpu, SearchSpace space, ExploreResult result, long long top)
      : input_(std::move(input)), gpu_(gpu), space_(std::move(space)), result_(std::move(result)), top_(top) {}
  [[nodiscard]] std::string name() const override { return "explore"; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] nlohmann::json toJson() const override;
  /// The best variant (the first of the ranking; explore() guarantees one is predicted).
  [[nodiscard]] const ExploredVariant& best() const { return result_.variants.front(); }

 private:
  std::string input_;
  const Gpu* gpu_;
  SearchSpace space_;
  ExploreResult result_;
  long long top_;
};

}  // namespace foresight
