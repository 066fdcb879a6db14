// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight predict FILE`: time, occupancy and bound of an input's launches on one or more GPUs
/// (predictWorkload(), workload/run_workload.h; the view fits the result).
#include <CLI/CLI.hpp>
#include <deque>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "foresight/report/workload_views.h"
#include "foresight/workload/run_workload.h"

namespace foresight::cli {

namespace {

int runPredict(const CommonOptions& o) {
  std::deque<Gpu> gpus;
  Expected<WorkloadPrediction> result = predictOnGpus(o, gpus);
  if (!result) return reportError(result.error());
  return printView(WorkloadPredictionView(std::move(*result)), printOptions(o));
}

}  // namespace

std::function<int()> setupPredict(CLI::App& sub) {
  auto options = std::make_shared<CommonOptions>();
  addCommonOptions(sub, *options);
  addSummaryOption(sub, options->summary);
  addHtmlOption(sub, options->html);
  return [options] { return runPredict(*options); };
}

}  // namespace foresight::cli
