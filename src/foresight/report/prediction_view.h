// SPDX-License-Identifier: Apache-2.0
/// \file
/// `PredictionView`: the report of `foresight predict` — what was predicted (input, kernel, GPU,
/// model, launch) and the Prediction (time, occupancy, bound, model values, resources, warnings).
///
/// Sample text output:
///   input      examples/summary/matmul-fx5600.toml (summary frontend)
///   kernel     matmul_tiled
///   gpu        fx5600: NVIDIA Quadro FX 5600, 16 SMs at 1.350 GHz
///   model      mwp-cwp (grophecy variant)
///   launch     grid 50x50x1, block 16x16x1: 2500 blocks of 256 threads
///
///   time       8.900 ms (12015208 cycles)
///   occupancy  3 blocks/SM, 24 warps/SM (100.0%), limited by warps
///   bound      issue (throughput): CWP-1 is the smallest of MWP, CWP-1 and N-1: compute-bound
///   MWP        11.67
///   CWP        3.296
///   ...
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/ir/launch.h"
#include "foresight/model/prediction.h"
#include "foresight/report/report.h"

namespace foresight {

/// What was predicted, for the report header.
struct PredictionContext {
  std::string input;     ///< input file path
  std::string frontend;  ///< "summary"
  std::string kernel;
  const Gpu* gpu = nullptr;
  Launch launch;
};

/// Seconds in the unit that keeps 1-3 digits before the point ("12.345 us", "1.200 ms").
[[nodiscard]] std::string timeText(double seconds);

/// The lines every kernel report starts with: input, kernel, gpu, `model` (when `modelLine` is
/// not empty), launch and its dynamic shared memory.
void printContextHeader(std::ostream& os, const PredictionContext& c, const std::string& modelLine = "");
/// "vecadd on h100: 12.345 us, dram bound (throughput), mwp-cwp/modern" (no newline).
[[nodiscard]] std::string predictionSummary(const PredictionContext& c, const Prediction& p);

/// The same as JSON keys: input, frontend, kernel, gpu, launch {grid, block, dynamic_shared_bytes}.
[[nodiscard]] nlohmann::json contextJson(const PredictionContext& c);

/// Text and JSON of one prediction, as the parts `context` (input, kernel, GPU, model, launch),
/// `summary` (time, occupancy, bound, MWP/CWP), `values` (the model's named values), `resources`
/// (cycles each resource would need alone) and `warnings`.
class PredictionView : public Report {
 public:
  PredictionView(PredictionContext context, Prediction prediction);
  [[nodiscard]] std::string summary() const override { return predictionSummary(*context_, *prediction_) + "\n"; }
  [[nodiscard]] const PredictionContext& context() const { return *context_; }
  [[nodiscard]] const Prediction& prediction() const { return *prediction_; }

 private:
  std::shared_ptr<const PredictionContext> context_;
  std::shared_ptr<const Prediction> prediction_;
};

/// `foresight predict FILE --gpu a,b,c`: the same input's predictions on several GPUs, side by
/// side (one row per kernel and GPU: time, occupancy, bound, model); JSON: the array of the
/// single-GPU reports.
///
/// Sample text output:
///   input      validation/polybench/gemm.cu (cuda frontend)
///
///   kernel  gpu    time        occupancy  bound             model
///   gemm    h100   20.436 us   100.0%     l1 (throughput)   mwp-cwp/modern
///   gemm    a100   31.052 us   100.0%     l1 (throughput)   mwp-cwp/modern
class GpuComparisonView : public View {
 public:
  explicit GpuComparisonView(std::vector<PredictionView> rows) : rows_(std::move(rows)) {}
  [[nodiscard]] std::string name() const override { return "gpu_comparison"; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] std::string summary() const override;
  [[nodiscard]] nlohmann::json toJson() const override;

 private:
  std::vector<PredictionView> rows_;
};

/// `foresight predict FILE.c`: the predicted kernels of one program run, each with its launches
/// per run, and the program's time (each kernel's time × its launches). A single kernel launched
/// once is its PredictionView; otherwise text adds a `program` line and JSON is
/// `{input, kernels: [PredictionView + launches_per_run], program_time_s}`.
class ProgramPredictionView : public View {
 public:
  struct Kernel {
    PredictionView view;
    double launchesPerRun = 1;  ///< fitted (C loops), may be fractional
  };
  ProgramPredictionView(std::string input, std::vector<Kernel> kernels)
      : input_(std::move(input)), kernels_(std::move(kernels)) {}
  [[nodiscard]] std::string name() const override { return "program"; }
  void printText(std::ostream& os) const override;
  /// Each kernel's line with its launches per run, then "program: T per run".
  [[nodiscard]] std::string summary() const override;
  [[nodiscard]] nlohmann::json toJson() const override;
  /// Σ kernel seconds × launches per run.
  [[nodiscard]] double programSeconds() const;

 private:
  [[nodiscard]] bool single() const { return kernels_.size() == 1 && kernels_[0].launchesPerRun == 1; }
  std::string input_;
  std::vector<Kernel> kernels_;
};

}  // namespace foresight
