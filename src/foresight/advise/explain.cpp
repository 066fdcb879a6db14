// SPDX-License-Identifier: Apache-2.0
/// \file
/// The explain pipeline (explain.h).
#include "foresight/advise/explain.h"

#include <fmt/format.h>

#include <optional>

#include "foresight/model/default_model.h"
#include "foresight/model/emulate/emulate_model.h"
#include "foresight/model/floors.h"
#include "foresight/model/predict.h"
#include "foresight/model/registry.h"
#include "foresight/support/parallel.h"

namespace foresight {

namespace {
/// Issues of the emulated SM the timeline keeps (a page stays small; the first waves show the
/// warps' interleaving).
constexpr size_t kTimelineIssues = 1500;
}  // namespace

Expected<ExplainOptions> explainOptions(const ModelNames& names, InputKind kind, const Gpu* gpu) {
  ModelNames n = names;
  // A variant alone selects its family (`--variant saake`: emulate).
  if (n.model == "auto") {
    if (const char* family = familyOfVariant(n.variant)) n.model = family;
  }
  Expected<ModelOptions> timing = resolveModelNames(n, kind, gpu);
  if (!timing && n.model != "emulate") {
    ModelNames plain = n;
    plain.policy = "gto";
    plain.l1HitRate = plain.l2HitRate = -1;
    Expected<ModelOptions> without = resolveModelNames(plain, kind, gpu);
    if (without && without->model != ModelKind::Emulate) timing = std::move(without);  // else the original error
  }
  if (!timing) return std::move(timing).takeError();
  ModelNames forced = names;
  forced.model = "emulate";
  if (timing->model != ModelKind::Emulate) forced.variant = "auto";
  Expected<ModelOptions> emulate = resolveModelNames(forced, kind, nullptr);
  if (!emulate) return std::move(emulate).takeError();
  ExplainOptions out;
  out.timing = std::move(*timing);
  out.emulate = emulate->emulate;
  return out;
}

Expected<ExplainResult> explainKernel(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                      const ExplainOptions& options) {
  const ModelOptions& timing = options.timing;
  const EmulateOptions& eo = options.emulate;
  Expected<emu::KernelEmulation> emulation = emu::KernelEmulation::create(kernel, launch, gpu, eo);
  if (!emulation) return std::move(emulation).takeError();
  SensitivityOptions so;
  so.central = eo.variant != EmulateVariant::Saake;  // the paper perturbs by +10% only
  so.fit = so.central;
  // The time is predict's: the emulation itself when emulate is the timing model, otherwise
  // predict() with the timing model and the emulation's memory analysis.
  ModelOptions shared = timing;
  if (!eo.l1HitRate && !eo.l2HitRate) shared.emulate.memory = emulation->builder().sharedMemory();
  const bool ownModel = timing.model != ModelKind::Emulate;
  // The analyses below read the emulation and the kernel only, and none needs another's result
  // until they are all done (the what-ifs' speedups are taken against the emulated time once it
  // is known: rebaseWhatIf()): they run side by side, each also spreading its own runs over the
  // cores, and their errors are reported in the order a sequential run would meet them.
  std::optional<Expected<emu::KernelTiming>> timingRun;
  std::optional<Expected<SensitivityReport>> sensitivity;
  std::optional<Expected<std::vector<WhatIfResult>>> whatIf;
  std::optional<Expected<Prediction>> ownPrediction;
  std::optional<Expected<SensitivityReport>> own;
  std::optional<Expected<std::vector<WhatIfResult>>> ownWhatIf;
  // The fixes' inputs known now; the changes they emulate are tried beside the analyses (their
  // judgement against the base time waits for it: rankFixes()).
  FixInputs fi;
  fi.kernel = &kernel;
  fi.launch = launch;
  fi.gpu = &gpu;
  fi.emulate = eo;
  fi.memory = emulation->builder().memory();
  fi.input = options.input;
  if (ownModel) fi.timing = &shared;
  FixTrials trials;
  parallelFor(ownModel ? 5 : 4, [&](std::size_t job) {
    switch (job) {
      case 0: sensitivity = analyzeSensitivity(*emulation, so); break;
      case 1: whatIf = analyzeWhatIf(*emulation, kernel, 0); break;
      case 2: timingRun = emulation->run(); break;
      case 3: trials = tryFixChanges(fi); break;
      default:
        // The timing model's time and its own dependence on the GPU (the same elasticity method).
        ownPrediction = predict(kernel, launch, gpu, shared);
        if (!*ownPrediction) break;
        own = analyzeModelSensitivity(kernel, launch, gpu, shared, so);
        if (!*own) break;
        ownWhatIf = analyzeModelWhatIf(kernel, launch, gpu, shared, (*ownPrediction)->cycles);
        break;
    }
  });
  if (!*timingRun) return std::move(*timingRun).takeError();
  if (!*sensitivity) return std::move(*sensitivity).takeError();
  // The emulation through predict()'s floors: the base of the what-ifs and the fixes (each
  // floored the same way), and the time when emulate is the timing model.
  Expected<Prediction> emulated =
      withFloors(emu::makeEmulatePrediction(*emulation, **timingRun, **sensitivity, gpu, eo), kernel, launch, gpu,
                 emulation->builder().memory());
  if (!emulated) return std::move(emulated).takeError();
  if (!*whatIf) return std::move(*whatIf).takeError();
  rebaseWhatIf(**whatIf, emulated->cycles);
  const double emulatedSeconds = emulated->seconds;
  const double emulatedCycles = emulated->cycles;
  Expected<Prediction> prediction = ownModel ? std::move(*ownPrediction) : std::move(emulated);
  if (!prediction) return std::move(prediction).takeError();
  if (ownModel) {
    prediction->warnings.push_back(fmt::format(
        "explain: the time and the timing model's sensitivity and what-ifs are the {} model's, as predict reports "
        "it; the sensitivity analysis, bottleneck and what-ifs after them run the emulate model ({} variant), which "
        "predicts {:.4g} us",
        modelName(timing), emulateVariantName(eo.variant), emulatedSeconds * 1e6));
  }
  ExplainResult r;
  r.prediction = std::move(*prediction);
  r.sensitivity = std::move(**sensitivity);
  r.whatIf = std::move(**whatIf);
  r.conflicts = registerConflictsByLine(kernel.ir, r.whatIf);
  // PORPLE's placement of the arrays, timed by the emulation like the other fixes (a kernel
  // without per-lane addresses has none: no placement fix).
  std::optional<PlaceResult> placement;
  if (options.placement && kernel.ir.streams && !kernel.ir.arrays.empty()) {
    PlaceOptions po;
    po.timing.model = ModelKind::Emulate;
    po.timing.emulate = eo;
    if (Expected<PlaceResult> placed = placeKernel(kernel, launch, gpu, po)) placement = std::move(*placed);
  }
  if (options.lines) {
    Expected<EmulationTrace> trace = traceEmulation(*emulation, kernel.ir, kTimelineIssues);
    if (!trace) return std::move(trace).takeError();
    r.lines = std::move(trace->lines);
    r.timeline = std::move(trace->timeline);
  }
  Expected<Roofline> roof = roofline(kernel, launch, gpu, emulation->builder().memory(), r.prediction.seconds);
  if (roof) r.roofline = std::move(*roof);  // a GPU without the pipes a roof needs has none
  r.occupancyByBlock = occupancyByBlockSize(kernel, launch, gpu);
  if (ownModel) {
    if (!*own) return std::move(*own).takeError();
    r.timingSensitivity = std::move(**own);
    if (!*ownWhatIf) return std::move(*ownWhatIf).takeError();
    r.timingWhatIf = std::move(**ownWhatIf);
  }
  fi.baseCycles = emulatedCycles;
  fi.whatIf = r.whatIf;
  fi.conflicts = r.conflicts;
  fi.placement = placement ? &*placement : nullptr;
  if (ownModel) {
    fi.timingCycles = r.prediction.cycles;
    fi.timingWhatIf = r.timingWhatIf;
  }
  Expected<std::vector<Fix>> fixes = rankFixes(fi, std::move(trials));
  if (!fixes) return std::move(fixes).takeError();
  r.fixes = std::move(*fixes);
  return r;
}

}  // namespace foresight
