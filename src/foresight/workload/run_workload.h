// SPDX-License-Identifier: Apache-2.0
/// \file
/// The `predict` and `explain` pipelines as library calls, for any input: loadWorkload() per GPU
/// (a skeleton's layout search, a C program's runs, a kernel file's selected kernel), the model
/// the names resolve to for that GPU and input, and the results the reports are built from
/// (report/workload_views.h). The CLI, `foresight batch` and the Python module call these, so an
/// input means the same to each of them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "foresight/advise/explain.h"
#include "foresight/gpu/gpu.h"
#include "foresight/ir/launch.h"
#include "foresight/model/default_model.h"
#include "foresight/model/model_options.h"
#include "foresight/model/prediction.h"
#include "foresight/support/error.h"
#include "foresight/workload/workload.h"

namespace foresight {

/// Options of predictWorkload().
struct PredictOptions {
  /// The GPUs to predict on, at least one; the caller keeps them alive while the result lives.
  std::vector<const Gpu*> gpus;
  /// The input's options (`input.gpu` is set per GPU), launch overrides, a skeleton's hints and
  /// search limit; `input.kernel` names the kernel (empty: every kernel of a program, else the
  /// only one). `searchModel` is ignored: a skeleton's layouts are ranked with the model below.
  WorkloadOptions workload;
  /// The model by name; `auto` resolves per GPU and input kind (default_model.h).
  ModelNames model;
};

/// One kernel launch predicted.
struct KernelPrediction {
  std::string kernel;         ///< its shown name
  Launch launch;
  double launchesPerRun = 1;  ///< a program's (fitted, may be fractional); 1 otherwise
  Prediction prediction;      ///< with the workload's notes among its warnings
};

/// A skeleton's search on one GPU as its reports show it: the skeleton with its hints, and the
/// ranked layouts with the winner's prediction (`report.best`, without the workload's notes).
struct SkeletonLayoutsReport {
  PreparedSkeleton skeleton;
  SkeletonSearchReport report;
};

/// The input predicted on one GPU.
struct GpuPrediction {
  const Gpu* gpu = nullptr;
  std::string frontend;  ///< "cuda"
  ModelOptions model;    ///< the model that predicted (resolved)
  bool program = false;  ///< the kernels are a program's run (each with its launches per run)
  std::vector<KernelPrediction> kernels;
  std::optional<SkeletonLayoutsReport> layouts;  ///< a skeleton's searched layouts
};

/// What predictWorkload() returns: one entry per GPU, in the order given.
struct WorkloadPrediction {
  std::string path;
  std::vector<GpuPrediction> gpus;
};

/// `foresight predict`: the input loaded for each GPU and every launch to predict predicted.
/// Errors name the file; a model's error without one also names the GPU.
[[nodiscard]] Expected<WorkloadPrediction> predictWorkload(const std::string& path, const PredictOptions& options);

/// Options of explainWorkload().
struct ExplainWorkloadOptions {
  const Gpu* gpu = nullptr;  ///< required; kept alive by the caller while the result lives
  /// As PredictOptions::workload; a program's kernel must be named unless it has one only.
  WorkloadOptions workload;
  ModelNames model;  ///< explainOptions() turns them into the timing model and the emulation
  bool lines = false;      ///< also attribute the emulation's cycles to source lines (`--lines`)
  bool placement = false;  ///< also search data placements for a fix (`--placement`)
  bool tryDefines = false;  ///< also try the -D values doubled and halved for a fix (`--try-defines`)
};

/// One kernel launch explained.
struct WorkloadExplanation {
  std::string path;
  std::string frontend;
  std::string kernel;  ///< its shown name
  const Gpu* gpu = nullptr;
  Launch launch;
  ExplainResult result;  ///< the workload's notes among the prediction's warnings
};

/// `foresight explain`: the input loaded for the GPU (a skeleton: the best layout, ranked by the
/// timing model), its kernel selected and explained (advise/explain.h).
[[nodiscard]] Expected<WorkloadExplanation> explainWorkload(const std::string& path,
                                                            const ExplainWorkloadOptions& options);

}  // namespace foresight
