// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight validate`: predicted vs measured times for the experiment corpus, per experiment
/// and per model (docs/validation.md). `--emit-plan FILE` writes the run plan the GPU runner
/// reads instead of validating.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "../command.h"
#include "../common_options.h"
#include "../progress_line.h"
#include "foresight/report/validation_view.h"
#include "foresight/validation/manifest.h"
#include "foresight/validation/plan.h"
#include "foresight/validation/validate.h"

namespace foresight::cli {

namespace {

struct ValidateCliOptions {
  ValidateOptions library;
  std::string emitPlan;
  bool json = false;
  std::string html;  ///< --html FILE
};

int emitPlan(const ValidateCliOptions& o) {
  Expected<std::vector<Manifest>> corpus = loadCorpus(o.library.corpusDir);
  if (!corpus) return reportError(corpus.error());
  std::vector<ResolvedExperiment> resolved;
  for (const Manifest& m : *corpus) {
    if (!o.library.experiments.empty() &&
        std::find(o.library.experiments.begin(), o.library.experiments.end(), m.name) ==
            o.library.experiments.end()) {
      continue;
    }
    for (const VariantSpec& v : m.variants) {
      Expected<ResolvedExperiment> r = resolveVariant(m, v);
      if (!r) return reportError(r.error());
      resolved.push_back(std::move(*r));
    }
  }
  if (resolved.empty()) return reportError(makeError("no experiment matches --experiment"));
  std::ofstream out(o.emitPlan);
  if (!out) return reportError(makeError("cannot write plan '" + o.emitPlan + "'"));
  out << writePlan(resolved);
  std::cerr << "foresight: wrote " << resolved.size() << " experiment variants to " << o.emitPlan
            << "\n";
  return kExitOk;
}

int runValidate(const ValidateCliOptions& o) {
  if (!o.emitPlan.empty()) return emitPlan(o);
  ValidateOptions options = o.library;
  // Progress on stderr: an updating line on a terminal, else one line per measurement (no
  // timings, so that logs and golden outputs are reproducible). The table goes to stdout at the end.
  const bool tty = ::isatty(2) != 0;
  if (progressWanted()) options.progress = [tty](const ValidationProgress& p) {
    const std::string line = "validate: [" + std::to_string(p.done) + "/" + std::to_string(p.total) +
                             "] " + p.gpu + " " + p.experiment + "/" + p.variant;
    if (tty) {
      std::cerr << "\r\033[K" << line << (p.done == p.total ? "\r\033[K" : "") << std::flush;
    } else {
      std::cerr << line << "\n";
    }
  };
  Expected<ValidationReport> report = validate(options);
  if (!report) return reportError(report.error());
  const ValidationView view(std::move(*report));
  return printView(view, PrintOptions{o.json, false, o.html, "validation"});
}

}  // namespace

std::function<int()> setupValidate(CLI::App& sub) {
  auto o = std::make_shared<ValidateCliOptions>();
  sub.add_option("--corpus", o->library.corpusDir, "Experiment corpus directory")
      ->capture_default_str();
  sub.add_option("--measurements", o->library.measurementsDir,
                 "Directory of <gpu>.jsonl measurement files (default: CORPUS/measurements)");
  sub.add_option("--model", o->library.models,
                 "Score only this model (repeatable), e.g. mwp-cwp/grophecy");
  sub.add_option("--gpu", o->library.gpu,
                 "Predict every measurement file with this GPU instead of its name");
  sub.add_option("--emit-plan", o->emitPlan,
                 "Write the runner's plan for the corpus to FILE and stop");
  sub.add_option("--experiment", o->library.experiments,
                 "Only these experiments (repeatable; also filters --emit-plan)");
  addToolTimeoutOption(sub, o->library.toolTimeoutSeconds,
                       "Wall-clock limit of each nvcc, ptxas, nvdisasm or clang run, seconds (default: per tool)");
  sub.add_flag("--array-contents", o->library.arrayContents,
               "Give the frontends the manifests' integer buffer contents (--data): exact addresses for accesses that "
               "index through them");
  sub.add_flag("--json", o->json, "Print one JSON object on stdout");
  addHtmlOption(sub, o->html);
  return [o] { return runValidate(*o); };
}

}  // namespace foresight::cli
