// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight models`: the registered models (model/registry.h), where each comes from, what it
/// does, and for which inputs it is the default (`--model auto`) on the GPU given, if any.
///
/// Sample text output:
///   model              default for        origin                        summary
///   mwp-cwp/hong-kim   -                  Hong & Kim, ISCA'09           memory-warp vs compute-warp ...
#pragma once

#include <string>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/report/view.h"

namespace foresight {

class ModelListView : public View {
 public:
  /// `gpu` (may be null) decides CUDA's default, which depends on what the GPU describes.
  explicit ModelListView(const Gpu* gpu) : gpu_(gpu) {}
  [[nodiscard]] std::string name() const override { return "models"; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] nlohmann::json toJson() const override;

 private:
  const Gpu* gpu_;
};

}  // namespace foresight
