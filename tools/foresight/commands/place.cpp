// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight place FILE`: PORPLE's data placement for the global arrays of a CUDA kernel
/// (advise/placement/place.h): the arrays and their options, the ranked plans with the placement
/// model's cost and the timing model's time, and the chosen plan per array.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "foresight/advise/placement/patch.h"
#include "foresight/advise/placement/place.h"
#include "foresight/model/default_model.h"
#include "foresight/report/place_view.h"
#include "foresight/support/text_file.h"

namespace foresight::cli {

namespace {

struct PlaceCliOptions {
  CommonOptions common;
  std::string msl;             ///< --msl FILE
  std::string search = "hybrid";
  bool latencyCentric = false;  ///< --latency-centric: MICRO'14's sum instead of the path max
  bool computeIntensive = false;
  int profileBlocks = 1;
  bool earlyStop = false;  ///< --early-stop: PORPLE's Procedure 2 prunes the trace
  int ranked = 5;
  bool emitPatch = false;  ///< --emit-patch: the chosen plan as a diff of the kernel's source
};

/// The CUDA source of an input: itself for a .cu, else the .cu beside it with the same first
/// name component (`transpose.sm_90.sass` → `transpose.cu`, as scripts/update_cuda_fixtures.sh
/// stores them).
Expected<std::string> cudaSourceOf(const std::string& input) {
  namespace fs = std::filesystem;
  const fs::path p(input);
  if (p.extension() == ".cu") return input;
  const std::string stem = p.filename().string().substr(0, p.filename().string().find('.'));
  const fs::path sibling = p.parent_path() / (stem + ".cu");
  std::error_code ec;
  if (fs::exists(sibling, ec)) return sibling.string();
  return makeError("--emit-patch needs the kernel's CUDA source: no " + sibling.string() + " beside the input", input, 0);
}

int runPlace(const PlaceCliOptions& po) {
  const CommonOptions& o = po.common;
  Expected<Gpu> gpu = resolveOneGpu(o, "place");
  if (!gpu) return reportError(gpu.error());
  PlaceOptions options;
  if (!po.msl.empty()) {
    Expected<MslSpec> msl = loadMsl(po.msl);
    if (!msl) return reportError(msl.error());
    options.msl = std::move(*msl);
  }
  std::optional<SearchMethod> method = parseSearchMethod(po.search);
  if (!method) return reportError(makeError("--search '" + po.search + "': expected greedy, bnb, hybrid or exhaustive"));
  options.search.method = *method;
  options.model.pathBased = !po.latencyCentric;
  options.model.computeIntensive = po.computeIntensive;
  options.profile.blocks = po.profileBlocks;
  options.profile.earlyStop = po.earlyStop;
  options.ranked = po.ranked;
  Expected<ModelOptions> timing = toModelOptions(o, &*gpu);
  if (!timing) return reportError(timing.error());
  options.timing = *timing;

  Expected<LoadedKernel> k = loadKernel(o, *gpu);
  if (!k) return reportError(k.error());
  Expected<PlaceResult> r = placeKernel(k->kernel(), k->launch, *gpu, options);
  if (!r) {
    Error e = r.error();
    if (e.file.empty()) e.file = o.input;
    return reportError(e);
  }
  if (po.emitPatch) {
    Expected<std::string> path = cudaSourceOf(o.input);
    if (!path) return reportError(path.error());
    Expected<std::string> source = readTextFile(*path, "CUDA source");
    if (!source) return reportError(source.error());
    Expected<std::string> patch = placementPatch(*source, *path, k->kernel().ir.name, r->profile, r->search.plan);
    if (!patch) return reportError(patch.error());
    std::cout << *patch;
    return kExitOk;
  }
  for (const std::string& note : k->input.notes) r->warnings.push_back(note);
  const PlaceView view({o.input, k->input.frontend, k->kernel().ir.name, &*gpu, k->launch}, std::move(*r),
                       modelName(options.timing));
  return printView(view, printOptions(o));
}

}  // namespace

std::function<int()> setupPlace(CLI::App& sub) {
  auto options = std::make_shared<PlaceCliOptions>();
  addCommonOptions(sub, options->common);
  addHtmlOption(sub, options->common.html);
  sub.add_option("--msl", options->msl, "PORPLE memory specification (MSL) file; default: derived from --gpu");
  sub.add_option("--search", options->search, "placement search: hybrid (default), greedy, bnb, exhaustive");
  sub.add_flag("--latency-centric", options->latencyCentric,
               "MICRO'14 model: sum over all arrays instead of TC'17's max over paths");
  sub.add_flag("--compute-intensive", options->computeIntensive,
               "use each memory's compute-intensive concurrency factor (second value of its MSL pair)");
  sub.add_option("--profile-blocks", options->profileBlocks, "blocks profiled (PORPLE: 1, the first)")
      ->check(CLI::Range(1, 1 << 20));
  sub.add_flag("--early-stop", options->earlyStop,
               "PORPLE's active-learning early stop (Procedure 2): trace the profiled warps only until their mean "
               "accessed index settles (default: every warp)");
  sub.add_option("--ranked", options->ranked, "alternative plans listed after the chosen one (default 5)")
      ->check(CLI::Range(0, 1000));
  sub.add_flag("--emit-patch", options->emitPatch,
               "print the chosen plan as a unified diff of the kernel's .cu source instead of the report");
  return [options] { return runPlace(*options); };
}

}  // namespace foresight::cli
