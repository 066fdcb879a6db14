// SPDX-License-Identifier: Apache-2.0
/// \file
/// Views of GPU descriptions: the preset table of `foresight gpus`.
///
/// Sample text output:
///   name       architecture cc    SMs clock (GHz) DRAM (GB/s) L2 (MiB)  DRAM source  full name
///   fx5600     tesla        1.0    16       1.350        76.8        -  paper:000    NVIDIA Quadro FX 5600
#pragma once

#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/report/view.h"

namespace foresight {

/// A table of GPUs with their headline numbers and where those come from.
class GpuListView : public View {
 public:
  explicit GpuListView(std::vector<Gpu> gpus) : gpus_(std::move(gpus)) {}
  [[nodiscard]] std::string name() const override { return "gpus"; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] nlohmann::json toJson() const override;

 private:
  std::vector<Gpu> gpus_;
};

}  // namespace foresight
