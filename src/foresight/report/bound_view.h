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

#include "foresight/gpu/gpu.h"
#include "foresight/model/gemm_bound.h"
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

}  // namespace foresight
