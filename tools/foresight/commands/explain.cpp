// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight explain FILE`: predict's time for the same input and options (the default model
/// unless --model/--variant say otherwise), with the emulate model's SAAKE sensitivity analysis
/// (bottleneck resource and mode) and TEG what-if penalties, for any input (CUDA, skeleton via
/// its best layout, summary).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "../skeleton_report.h"
#include "foresight/advise/explain.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/default_model.h"
#include "foresight/report/explain_view.h"

namespace foresight::cli {

namespace {

Error located(Error e, const std::string& input, const Gpu& gpu) {
  if (e.file.empty()) {
    e.message = "on GPU '" + gpu.name + "': " + e.message;
    e.file = input;
  }
  return e;
}

/// The options explain runs with (advise/explain.h).
Expected<ExplainOptions> runOptions(const CommonOptions& o, const Gpu* gpu) {
  return explainOptions({o.model, o.variant, o.policy, o.l1HitRate, o.l2HitRate, o.quantizeWaves, o.smemRule},
                        inputKindOf(o.input), gpu);
}

int explain(const CommonOptions& o, const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
            const std::string& frontend, const std::vector<std::string>& notes) {
  Expected<ExplainOptions> eo = runOptions(o, &gpu);
  if (!eo) return reportError(eo.error());
  Expected<ExplainResult> r = explainKernel(kernel, launch, gpu, *eo);
  if (!r) return reportError(located(r.error(), o.input, gpu));
  for (const std::string& note : notes) r->prediction.warnings.push_back(note);
  const ExplainView view({o.input, frontend, kernel.ir.name, &gpu, launch}, std::move(r->prediction),
                         std::move(r->sensitivity), std::move(r->whatIf), std::move(r->conflicts));
  return printView(view, o.json);
}

int runExplain(const CommonOptions& o) {
  if (isSkeletonInput(o.input)) {
    // The best layout predict reports (searched with the timing model), then emulated.
    Expected<ExplainOptions> eo = runOptions(o, nullptr);  // skeletons: GROPHECY's default on any GPU
    if (!eo) return reportError(eo.error());
    CommonOptions search = o;
    if (eo->timing.model != ModelKind::Emulate) {
      search.policy = "gto";
      search.l1HitRate = search.l2HitRate = -1;
    }
    Expected<SkeletonKernel> sk = bestSkeletonKernel(search);
    if (!sk) return reportError(sk.error());
    return explain(o, sk->kernel, sk->launch, sk->gpu, "skeleton", {"explain: the best layout of the layout search"});
  }
  Expected<Gpu> gpu = resolveOneGpu(o, "explain");
  if (!gpu) return reportError(gpu.error());
  Expected<LoadedKernel> k = loadKernel(o, *gpu);
  if (!k) return reportError(k.error());
  return explain(o, k->kernel(), k->launch, *gpu, k->input.frontend, k->input.notes);
}

}  // namespace

std::function<int()> setupExplain(CLI::App& sub) {
  auto options = std::make_shared<CommonOptions>();
  addCommonOptions(sub, *options);
  return [options] { return runExplain(*options); };
}

}  // namespace foresight::cli
