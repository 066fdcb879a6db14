// SPDX-License-Identifier: Apache-2.0
/// \file
/// `ExploreView`: the report of `foresight explore` on a kernel — the space, the variants ranked
/// by predicted time (values, launch, time, ratio to the best, occupancy, bound), the variants
/// that could not be predicted with the reason, and the best as a `-D` line. The text is rendered
/// from the JSON (printExploreText), so the two never disagree and a merged set of shards
/// (mergeExploreReports) prints exactly as the unsplit search would.
///
/// Sample text output:
///   input      vecadd.cu (cuda frontend)
///   kernel     vecadd
///   gpu        h100: NVIDIA H100 SXM5 80GB, 132 SMs at 1.980 GHz
///   model      mwp-cwp (modern variant)
///   space      TX=64..2048:pow2 (6 values): 6 variants, 5 predicted
///
///   rank    TX  grid       block     time      vs best  occupancy  bound
///      1    64  16384x1x1  64x1x1    7.290 us  1.00x    100.0%     dram (throughput)
///   ...
///   not predicted
///     TX=2048: block 2048,1,1 exceeds CUDA's block limits (x and y up to 1024, z up to 64)
///
///   best       -D TX=64 (7.290 us; grid 16384x1x1, block 64x1x1)
#pragma once

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "foresight/explore/explore.h"
#include "foresight/gpu/gpu.h"
#include "foresight/report/view.h"

namespace foresight {

/// One variant as JSON: index, values, defines, rank (null when not predicted), launch, time,
/// occupancy, bound, error. `rank` 0 = not ranked yet (the `--jsonl` lines).
[[nodiscard]] nlohmann::json exploredVariantJson(const ExploredVariant& v, int rank);

/// The text of an explore report from its JSON; `top` ranked rows (0 = all).
void printExploreText(const nlohmann::json& report, long long top, std::ostream& os);

/// The reports of the shards of one search (`explore --json --shard i/n`, each shard once) as
/// the unsplit search's report: the variants together, ranked again (time, then index). An
/// Error when the reports are of different searches (input, kernel, GPU, model, space), a shard
/// is missing or given twice, or a report is not a sharded explore report.
[[nodiscard]] Expected<nlohmann::json> mergeExploreReports(const std::vector<nlohmann::json>& reports);

/// Text and JSON of an exhaustive search (or of one shard of it).
class ExploreView : public View {
 public:
  /// `top`: ranked rows shown in text (0 = all); JSON always has every variant.
  ExploreView(std::string input, const Gpu* gpu, SearchSpace space, ExploreResult result, long long top)
      : input_(std::move(input)), gpu_(gpu), space_(std::move(space)), result_(std::move(result)), top_(top) {}
  [[nodiscard]] std::string name() const override { return "explore"; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] nlohmann::json toJson() const override;
  /// The best variant: the first of the ranking when it is predicted (a shard may have none).
  [[nodiscard]] const ExploredVariant* best() const {
    return !result_.variants.empty() && result_.variants.front().prediction ? &result_.variants.front() : nullptr;
  }

 private:
  std::string input_;
  const Gpu* gpu_;
  SearchSpace space_;
  ExploreResult result_;
  long long top_;
};

}  // namespace foresight
