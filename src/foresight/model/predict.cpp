// SPDX-License-Identifier: Apache-2.0
/// \file
/// Model dispatch: resolves `auto`, derives the workload summary when needed, and calls the model.
#include "foresight/model/predict.h"

#include "foresight/ir/summarize.h"
#include "foresight/model/emulate/emulate_model.h"
#include "foresight/model/mwp_cwp.h"

namespace foresight {

Expected<Prediction> predict(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                             const ModelOptions& options) {
  // The emulator replays instructions; it reads the summary only when the IR has no blocks.
  if (options.model == ModelKind::Emulate) return emu::predictEmulate(kernel, launch, gpu, options.emulate);
  WorkloadSummary summary;
  if (kernel.summary) {
    summary = *kernel.summary;
  } else {
    Expected<WorkloadSummary> derived = summarize(kernel.ir, gpu);
    if (!derived) return std::move(derived).takeError();
    summary = *derived;
  }
  switch (options.model) {
    case ModelKind::Auto:
    case ModelKind::MwpCwp:
    case ModelKind::Emulate:
      return predictMwpCwp(summary, kernel.ir.resources, launch, gpu, options);
  }
  return makeError("unknown model");
}

}  // namespace foresight
