// SPDX-License-Identifier: Apache-2.0
/// \file
/// Skeleton commands: load, search per GPU with progress, lower the best layout, print.
#include "skeleton_report.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "command.h"
#include "progress_line.h"
#include "foresight/frontend/skeleton/layout_hints.h"
#include "foresight/advise/layout_search.h"
#include "foresight/frontend/skeleton/lowering.h"
#include "foresight/frontend/skeleton/skeleton_frontend.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/predict.h"
#include "foresight/model/registry.h"
#include "foresight/report/skeleton_views.h"

namespace foresight::cli {

namespace {

using Clock = std::chrono::steady_clock;

Expected<std::map<std::string, long long>> parseDefines(const std::vector<std::string>& defines) {
  std::map<std::string, long long> out;
  for (const std::string& d : defines) {
    const size_t eq = d.find('=');
    const std::string name = d.substr(0, eq);
    try {
      if (eq == std::string::npos || name.empty()) throw std::invalid_argument(d);
      size_t used = 0;
      const std::string value = d.substr(eq + 1);
      out[name] = std::stoll(value, &used);
      if (used != value.size()) throw std::invalid_argument(d);
    } catch (const std::exception&) {
      return makeError("-D '" + d + "' must be NAME=INTEGER");
    }
  }
  return out;
}

/// A search error without a file is about the hints file, or else the skeleton.
Error located(Error e, const CommonOptions& o) {
  if (e.file.empty()) e.file = o.hints.empty() ? o.input : o.hints;
  return e;
}

struct Prepared {
  skeleton::Skeleton sk;
  skeleton::LayoutHints hints;
  ModelOptions model;
  std::vector<Gpu> gpus;
};

Expected<Prepared> prepare(const CommonOptions& o) {
  Prepared p;
  Expected<ModelOptions> model = toModelOptions(o);
  if (!model) return std::move(model).takeError();
  p.model = *model;
  Expected<std::map<std::string, long long>> macros = parseDefines(o.defines);
  if (!macros) return std::move(macros).takeError();
  const std::vector<std::string> names = splitGpuList(o.gpu);
  if (names.empty()) return makeError("--gpu needs at least one GPU name or file");
  for (const std::string& name : names) {
    Expected<Gpu> gpu = resolveGpu(name);
    if (!gpu) return std::move(gpu).takeError();
    p.gpus.push_back(std::move(*gpu));
  }
  Expected<skeleton::Skeleton> sk = skeleton::loadSkeletonFile(o.input, {.macros = *macros});
  if (!sk) return std::move(sk).takeError();
  p.sk = std::move(*sk);
  if (!o.hints.empty()) {
    Expected<skeleton::LayoutHints> hints =
        skeleton::loadLayoutHints(o.hints, skeleton::peripheralCostsFor(p.gpus.front()));
    if (!hints) return std::move(hints).takeError();
    p.hints = std::move(*hints);
  } else {
    p.hints.costs = skeleton::peripheralCostsFor(p.gpus.front());
  }
  if (!o.grid.empty())
    return makeError("--grid does not apply to skeletons: the grid follows from the layout");
  if (!o.block.empty()) {
    // --block X[,Y[,Z]] pins B; x is the last parallel dimension (A3).
    std::vector<int> dims;
    size_t start = 0;
    while (true) {
      const size_t comma = o.block.find(',', start);
      try {
        dims.push_back(std::stoi(
            o.block.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
      } catch (const std::exception&) {
        return makeError("--block '" + o.block + "' must be X[,Y[,Z]] with positive integers");
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (static_cast<int>(dims.size()) != p.sk.parallelDims) {
      return makeError("--block gives " + std::to_string(dims.size()) +
                       " extents; the skeleton's parallel_for has " +
                       std::to_string(p.sk.parallelDims) + " dimensions");
    }
    std::reverse(dims.begin(), dims.end());
    p.hints.domain.blocks = {dims};
  }
  return p;
}

Expected<std::vector<SkeletonSearchReport>> searchAll(const Prepared& p, const CommonOptions& o) {
  std::vector<SkeletonSearchReport> reports;
  for (const Gpu& gpu : p.gpus) {
    skeleton::SearchOptions so;
    so.domain = p.hints.domain;
    so.characterizer.costs = p.hints.costs;
    so.model = p.model;
    so.maxLayouts = o.maxVariants;
    // The search's counts on the progress line; the stage ends with this GPU's search.
    const std::string stage = "searching layouts on " + gpu.name;
    ProgressStage searching(progressReporter(), stage);
    so.progress = [&stage](const skeleton::SearchProgress& s) {
      reportProgress({stage + " (" + std::to_string(s.layouts) + " layouts so far), block/fold shapes", s.shapesDone,
                      s.shapesTotal, false});
    };
    const auto start = Clock::now();
    Expected<skeleton::BestLayout> best = skeleton::searchBestLayout(p.sk, gpu, so);
    if (!best) return located(std::move(best).takeError(), o);
    SkeletonSearchReport r;
    r.gpu = &gpu;
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    r.result = std::move(best->search);
    // The best layout through predict(), as any model would see it.
    Expected<Prediction> prediction = predict(best->lowered.kernel, best->lowered.launch, gpu, p.model);
    if (!prediction) return std::move(prediction).takeError();
    r.best = std::move(*prediction);
    r.bestLaunch = best->lowered.launch;
    reports.push_back(std::move(r));
  }
  return reports;
}

}  // namespace

Expected<SkeletonKernel> bestSkeletonKernel(const CommonOptions& o) {
  Expected<Prepared> p = prepare(o);
  if (!p) return std::move(p).takeError();
  // The layout search ranks with the model predict uses for this input and these options.
  if (p->gpus.size() > 1) return resolveOneGpu(o, "explain").error();
  const Gpu& gpu = p->gpus.front();
  skeleton::SearchOptions so;
  so.domain = p->hints.domain;
  so.characterizer.costs = p->hints.costs;
  so.model = p->model;
  so.maxLayouts = o.maxVariants;
  Expected<skeleton::BestLayout> best = skeleton::searchBestLayout(p->sk, gpu, so);
  if (!best) return located(std::move(best).takeError(), o);
  return SkeletonKernel{std::move(best->lowered.kernel), best->lowered.launch, gpu};
}

namespace {
/// The model and variant names of the search's model (the default model unless chosen).
const char* modelLabel(const ModelOptions& m) {
  const RegisteredModel* r = registeredModelOf(m);
  return r ? r->family : "mwp-cwp";
}
const char* variantLabel(const ModelOptions& m) {
  const RegisteredModel* r = registeredModelOf(m);
  return r ? r->variant : "grophecy";
}
}  // namespace

bool isSkeletonInput(const std::string& path) {
  return inputKindOf(path) == InputKind::Skeleton;
}

int runSkeletonPredict(const CommonOptions& o) {
  Expected<Prepared> p = prepare(o);
  if (!p) return reportError(p.error());
  Expected<std::vector<SkeletonSearchReport>> reports = searchAll(*p, o);
  if (!reports) return reportError(reports.error());
  const SkeletonPredictionView view(
      {o.input, &p->sk, modelLabel(p->model), variantLabel(p->model), p->hints.pinned},
      std::move(*reports));
  if (o.json) {
    std::cout << view.toJson().dump(2) << "\n";
  } else {
    view.printText(std::cout);
  }
  return kExitOk;
}

int runSkeletonExplore(const CommonOptions& o, long long top, bool csv) {
  if (csv && o.json) return reportError(makeError("choose one of --json and --csv"));
  Expected<Prepared> p = prepare(o);
  if (!p) return reportError(p.error());
  Expected<std::vector<SkeletonSearchReport>> reports = searchAll(*p, o);
  if (!reports) return reportError(reports.error());
  const LayoutRankingView view(
      {o.input, &p->sk, modelLabel(p->model), variantLabel(p->model), p->hints.pinned},
      std::move(*reports), top);
  if (o.json) {
    std::cout << view.toJson().dump(2) << "\n";
  } else if (csv) {
    view.printCsv(std::cout);
  } else {
    view.printText(std::cout);
  }
  return kExitOk;
}

}  // namespace foresight::cli
