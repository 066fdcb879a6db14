// SPDX-License-Identifier: Apache-2.0
/// \file
/// `validate`: every committed measurement predicted with every applicable model, then scored.
/// Predictions go through the public path (loadInput → selectKernel → predict) so a new frontend
/// or model is validated without changes here. A measurement that cannot be predicted is kept as
/// a row with its reason, never dropped. Scoring (scoreRows) is a pure function, tested on
/// synthetic rows.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "foresight/frontend/input_options.h"
#include "foresight/gpu/gpu.h"
#include "foresight/model/model_options.h"
#include "foresight/support/error.h"
#include "foresight/validation/manifest.h"

namespace foresight {

/// One model (and variant) that validate scores, under its report name ("mwp-cwp/grophecy").
struct ModelChoice {
  std::string name;
  ModelOptions options;
};

/// Every model validate tries, in report order: "default" first (the default model for each
/// experiment's input kind and the measurement's GPU), then every variant. A model that cannot handle an experiment says so
/// through predict()'s Error, which becomes the row's reason.
[[nodiscard]] std::vector<ModelChoice> applicableModels();

/// Predicted seconds of one experiment variant under each of `models` (same order): the sum over
/// its launch sequence of repeat × predicted time, or the Error that stopped it. A launch starts
/// with a warm L2 (Launch::l2Start) when the samples run back to back over the same buffers
/// (rotate off, no flush, no re-upload), else cold; its repeats start warm. The input is loaded
/// once per launch, and its memory traffic analysed (analyzeMemory) once per start, shared by
/// all models. The default implementation is
/// predictExperiment.
using PredictFn = std::function<std::vector<Expected<double>>(
    const ResolvedExperiment&, const std::vector<ModelChoice>&, const Gpu&)>;
/// A GPU description for a measurement file's `<gpu>` stem (default: resolveGpu).
using GpuFn = std::function<Expected<Gpu>(const std::string&)>;

/// What loadInput() needs for one launch of an experiment variant: the GPU, the launch, the kernel,
/// the variant's -D macros and its trip and branch hints (frontends that read everything from the
/// file ignore them).
[[nodiscard]] InputOptions launchInputOptions(const ResolvedExperiment& experiment, const ResolvedLaunch& launch,
                                              const Gpu& gpu);

/// The real predictor: per launch, loadWorkload(source, {gpu, launch, kernel, -D macros, hints}) →
/// selectKernel → predict() with every model. `toolTimeoutSeconds` limits each nvcc, ptxas,
/// nvdisasm or clang run (0 = each tool's default).
[[nodiscard]] std::vector<Expected<double>> predictExperiment(const ResolvedExperiment& experiment,
                                                              const std::vector<ModelChoice>& models,
                                                              const Gpu& gpu, double toolTimeoutSeconds = 0);

/// One (measurement, model) pair.
struct ValidationRow {
  std::string gpu;  ///< measurement file stem
  std::string experiment;
  std::string variant;
  std::string group;  ///< empty when the experiment is not in the corpus
  std::string model;
  double measuredSeconds = 0;
  std::optional<double> predictedSeconds;
  std::optional<double> error;  ///< (predicted - measured) / measured
  std::string reason;           ///< why there is no prediction
  std::string source;           ///< the measurement's source (published sets); empty otherwise
  bool alternative = true;      ///< one of its group's alternatives (Manifest::alternatives): counts in the regret
};

/// Ranking quality of one variant group on one GPU: Spearman's rho and the regret of the
/// variant the model would choose (accuracy.h).
struct GroupCorrelation {
  std::string gpu;
  std::string group;
  int n = 0;                     ///< predicted variants in the group
  std::optional<double> rho;     ///< nullopt when n < 2 or all tied
  /// t(predicted fastest) / t(measured fastest) over the group's alternatives (rows of
  /// experiments whose variants are different problems left out); nullopt below two.
  std::optional<double> regret;
};

/// The score of one model.
struct ModelSummary {
  std::string model;
  int predicted = 0;
  int notPredicted = 0;
  std::optional<double> geomeanAbsError;
  std::optional<double> medianAbsError;
  std::vector<ValidationRow> worst;      ///< up to 3, largest |error| first
  std::vector<GroupCorrelation> groups;  ///< groups with at least two predicted variants
  std::optional<double> meanRho;         ///< mean over groups with a defined rho
  std::optional<double> meanRegret;      ///< geometric mean of the groups' regrets
  std::optional<double> maxRegret;       ///< the largest group regret
};

/// The score of one model on the points of one source and GPU (published sets: the
/// measurements that carry a `source`).
struct SourceSummary {
  std::string source;
  std::string gpu;
  std::string model;
  int predicted = 0;
  int notPredicted = 0;
  std::optional<double> geomeanAbsError;
  std::optional<double> medianAbsError;
  /// Predicted points off by more than a factor of two either way (predicted > 2 × measured or
  /// predicted < measured / 2).
  int beyond2x = 0;
};

/// The whole report.
struct ValidationReport {
  std::string corpusDir;
  std::string measurementsDir;
  int experiments = 0;            ///< manifests in the corpus
  int variants = 0;               ///< experiment variants in the corpus
  int measurements = 0;           ///< measurement lines used (after keeping the latest per variant)
  int superseded = 0;             ///< older lines of a re-measured variant, not scored
  std::vector<std::string> gpus;  ///< measurement file stems
  std::vector<std::string> models;
  std::vector<ValidationRow> rows;
  std::vector<ModelSummary> summaries;
  /// Per source ("ours" for measurements without one), GPU and model; empty without rows.
  std::vector<SourceSummary> bySource;
};

/// Where validate() stands, after each measurement is predicted with every model.
struct ValidationProgress {
  int done = 0;   ///< measurements predicted so far (1-based count)
  int total = 0;  ///< measurements to predict in this run
  std::string gpu;
  std::string experiment;
  std::string variant;
  double seconds = 0;  ///< wall time of this measurement's predictions (all models)
};

/// Options of validate().
struct ValidateOptions {
  std::string corpusDir = "validation";
  std::string measurementsDir;           ///< default: <corpusDir>/measurements
  std::vector<std::string> models;       ///< names from applicableModels(); empty = all
  std::string gpu;                       ///< predict every file with this GPU instead of its stem
  std::vector<std::string> experiments;  ///< score only these experiments; empty = all
  /// Wall-clock limit of each tool run of the real predictor (`--tool-timeout`); 0 = defaults.
  double toolTimeoutSeconds = 0;
  /// Give the frontends the contents of the manifests' integer buffers (`--array-contents`,
  /// resolveVariant()): exact addresses for the loads that index through them.
  bool arrayContents = false;
  /// Called after each measurement (for a progress line on stderr; the library never prints).
  std::function<void(const ValidationProgress&)> progress;
};

/// Scores rows (already predicted) per model: geomean and median |error|, worst three, and
/// Spearman within each (gpu, group). `models` fixes the order of the summaries.
[[nodiscard]] std::vector<ModelSummary> scoreRows(const std::vector<ValidationRow>& rows,
                                                  const std::vector<std::string>& models);

/// Scores rows with a non-empty source per (source, GPU, model), sorted by source and GPU, models
/// in the order of `models`. Rows without a source are left out.
[[nodiscard]] std::vector<SourceSummary> scoreBySource(const std::vector<ValidationRow>& rows,
                                                       const std::vector<std::string>& models);

/// Loads the corpus and the measurements, predicts and scores. Errors only for bad input
/// (a malformed manifest or measurement line, an unknown model name). An empty `predictFn` is
/// predictExperiment with `options.toolTimeoutSeconds`.
[[nodiscard]] Expected<ValidationReport> validate(const ValidateOptions& options, const PredictFn& predictFn = {},
                                                  const GpuFn& gpuFn = {});

}  // namespace foresight
