// SPDX-License-Identifier: Apache-2.0
/// \file
/// The attainable-peak report of `foresight bound` (model/gemm_bound.h).
///
/// Sample text output:
///   gpu        gtx580: NVIDIA GeForce GTX 580, peak 1581.1 GFLOPS (FP32)
///   variant    lai (Lai 2013, Eqs. 4.1-4.11)
///   bound      1304.4 GFLOPS = 82.5 % of peak, bound by the instruction mix
///   ...
#pragma once

#include <optional>

#include "foresight/gpu/gpu.h"
#include "foresight/model/gemm_bound.h"
#include "foresight/model/kernel_bound.h"
#include "foresight/report/prediction_view.h"
#include "foresight/report/report.h"
#include "foresight/report/view.h"

namespace foresight {

/// One SGEMM bound with its parameters, register budget and the two terms of Eq. 4.11.
class GemmBoundView : public View {
 public:
  GemmBoundView(const Gpu& gpu, GemmBound bound, long long m, long long n, long long k)
      : gpuName_(gpu.name), gpuFullName_(gpu.fullName), bound_(std::move(bound)), m_(m), n_(n), k_(k) {}
  [[nodiscard]] std::string name() const override { return "bound"; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] nlohmann::json toJson() const override;

 private:
  std::string gpuName_;
  std::string gpuFullName_;
  GemmBound bound_;
  long long m_, n_, k_;
};

/// The bound of one kernel launch as compiled (`foresight bound FILE --kernel K`): the floors,
/// the inner loop's mix, the emulator's prediction and its gap to the bound, and optionally
/// the best GEMM of a given size on the same GPU.
///
/// Sample text output:
///   bound      425.518 us at least: 40.4 TFLOPS, bound by issue
///   floors     issue 425.5 us, fp32 339.2 us, shared 95.4 us, ldst 53.0 us, dram 6.0 us
///   inner loop 0x0350 (gemm_regtile.cu:41), 256 iterations per warp
///   ...
/// Parts: `context` and `kernel_bound` (bound, floors, inner loop, emulate gap, gemm).
class KernelBoundView : public Report {
 public:
  /// `emulated`: the emulator's prediction of the launch; `gemm`: the best GEMM bound of the
  /// size the user gave (m, n, k), or nullopt.
  KernelBoundView(PredictionContext context, KernelBound bound, Prediction emulated, std::optional<GemmBound> gemm,
                  long long m = 0, long long n = 0, long long k = 0);
};

}  // namespace foresight
