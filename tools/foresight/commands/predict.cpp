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
  sub.add_option("--timing", options->timing,
                 "How the time is taken: stream (per launch of back-to-back launches, as timing loops measure; the "
                 "default) or alone (each launch timed on its own, CUDA events just before and after it: adds the "
                 "GPU's launch_latency)")
      ->check(CLI::IsMember({"stream", "alone"}));
  addSummaryOption(sub, options->summary);
  addHtmlOption(sub, options->html);
  return [options] { return runPredict(*options); };
}

}  // namespace foresight::cli
