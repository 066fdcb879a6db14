// SPDX-License-Identifier: Apache-2.0
/// \file
/// predictWorkload() and explainWorkload().
#include "foresight/workload/run_workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

#include "foresight/model/predict.h"
#include "foresight/support/process.h"
#include "foresight/support/strings.h"
#include "foresight/support/text_file.h"

namespace foresight {

namespace {

namespace fs = std::filesystem;

/// A model's error without a file: the input's, on this GPU.
Error located(Error e, const std::string& path, const Gpu& gpu) {
  if (e.file.empty()) {
    e.message = "on GPU '" + gpu.name + "': " + e.message;
    e.file = path;
  }
  return e;
}

Expected<GpuPrediction> predictOnGpu(const std::string& path, const PredictOptions& o, const Gpu& gpu) {
  Expected<ModelOptions> model = resolveModelNames(o.model, inputKindOf(path), &gpu);
  if (!model) return std::move(model).takeError();
  WorkloadOptions wo = o.workload;
  wo.input.gpu = &gpu;
  wo.searchModel = *model;
  Expected<Workload> w = loadWorkload(path, wo);
  if (!w) return std::move(w).takeError();
  Expected<std::vector<KernelRun>> runs = workloadRuns(*w, wo.input.kernel);
  if (!runs) return std::move(runs).takeError();
  GpuPrediction out;
  out.gpu = &gpu;
  out.frontend = w->frontend;
  out.model = *model;
  out.program = !w->runs.empty();
  for (KernelRun& run : *runs) {
    const KernelInput& kernel = w->kernels[run.kernel];
    Expected<Prediction> p = predict(kernel, run.launch, gpu, *model);
    if (!p) return located(std::move(p).takeError(), path, gpu);
    if (w->layouts && !out.layouts) {  // a skeleton's one run: its winner, before the notes
      out.layouts = SkeletonLayoutsReport{std::move(w->layouts->skeleton), {std::move(w->layouts->search), *p}};
    }
    for (std::string& note : run.notes) p->warnings.push_back(std::move(note));
    out.kernels.push_back({kernel.ir.name, run.launch, run.launchesPerRun, std::move(*p)});
  }
  return out;
}

/// The lines of a text, without their ends.
std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// A kernel file as the fixes see it (advise/fixes.h): re-read for another launch, and for a .cu
/// file its lines, and its source changed and compiled again. The changed source is a copy of
/// the same name in a private folder, with the original's folder first on the include path, so
/// that its includes, its line numbers (and the hints that name them) stay. The macros a -D fix
/// tries are listed only when `tryDefines` (they cost a compilation each).
InputAccess inputAccess(const std::string& path, const WorkloadOptions& options, bool tryDefines) {
  const std::string name = fs::path(path).filename().string();
  const bool source = fs::path(path).extension() == ".cu";
  // Read on first use, once (the fixes that edit lines run side by side).
  struct Lines {
    std::once_flag read;
    std::vector<std::string> text;
  };
  auto lines = std::make_shared<Lines>();
  const auto sourceLines = [path, lines]() -> const std::vector<std::string>* {
    std::call_once(lines->read, [&] {
      Expected<std::string> text = readTextFile(path, "CUDA source");
      if (text) lines->text = splitLines(*text);
    });
    return &lines->text;
  };
  InputAccess access;
  access.rebuild = [path, name, source, options, sourceLines](const InputChange& change) -> Expected<KernelInput> {
    const Launch& launch = change.launch;
    const std::vector<LineEdit>& edits = change.edits;
    WorkloadOptions other = options;
    other.input.progress = nullptr;
    other.launch.grid = launch.grid;
    other.launch.block = launch.block;
    if (other.input.launch) {
      other.input.launch->grid = launch.grid;
      other.input.launch->block = launch.block;
    }
    for (const auto& set : change.macros) {
      const std::string& macro = set.first;
      const long long value = set.second;
      if (!source) return makeError("a fix cannot set -D " + macro + ": the input is not compiled", path, 0);
      auto& macros = other.input.macros;
      const auto named = [&macro](const auto& m) { return m.first == macro; };
      macros.erase(std::remove_if(macros.begin(), macros.end(), named), macros.end());
      macros.push_back({macro, std::to_string(value)});
      if (other.input.launch) other.input.launch->macros[macro] = value;
    }
    std::string input = path;
    std::optional<TempDir> folder;
    if (!edits.empty()) {
      std::vector<std::string> text = *sourceLines();
      for (const LineEdit& e : edits) {
        if (!source || e.file != name || e.line < 1 || static_cast<size_t>(e.line) > text.size()) {
          return makeError(fmt::format("a fix cannot change {}:{}: only the lines of the input's own .cu source", e.file, e.line),
                           path, 0);
        }
        text[static_cast<size_t>(e.line) - 1] = e.text;
      }
      Expected<TempDir> made = TempDir::create("foresight-fix");
      if (!made) return std::move(made).takeError();
      folder = std::move(*made);
      input = folder->file(name);
      std::ofstream out(input);
      for (const std::string& line : text) out << line << '\n';
      if (!out) return makeError("cannot write the changed source '" + input + "'", path, 0);
      other.input.includeDirs.insert(other.input.includeDirs.begin(), fs::absolute(path).parent_path().string());
    }
    Expected<Workload> again = loadWorkload(input, other);
    if (!again) return std::move(again).takeError();
    Expected<KernelRun> one = workloadRun(*again, other.input.kernel);
    if (!one) return std::move(one).takeError();
    return std::move(again->kernels[one->kernel]);
  };
  if (source) {
    access.sourceLine = [name, sourceLines](const std::string& file, int line) -> std::optional<std::string> {
      const std::vector<std::string>& text = *sourceLines();
      if (file != name || line < 1 || static_cast<size_t>(line) > text.size()) return std::nullopt;
      return text[static_cast<size_t>(line) - 1];
    };
  }
  if (source && tryDefines) {
    // The integer -D values given, then the source's own defaults (#ifndef NAME / #define NAME N)
    // of the macros no -D sets.
    const auto given = [&options](const std::string& macro) {
      return std::any_of(options.input.macros.begin(), options.input.macros.end(),
                         [&macro](const auto& m) { return m.first == macro; });
    };
    for (const auto& [macro, value] : options.input.macros) {
      if (std::optional<long long> v = toInteger(value, 0)) access.macros.push_back({macro, *v});
    }
    const std::vector<std::string>& text = *sourceLines();
    for (size_t i = 0; i + 1 < text.size(); ++i) {
      std::istringstream guard(text[i]), define(text[i + 1]);
      std::string ifndef, macro, hashDefine, defined, value;
      if (!(guard >> ifndef >> macro) || ifndef != "#ifndef") continue;
      if (!(define >> hashDefine >> defined >> value) || hashDefine != "#define" || defined != macro) continue;
      const std::optional<long long> v = toInteger(value, 0);
      if (v && !given(macro)) access.macros.push_back({macro, *v});
    }
  }
  return access;
}

}  // namespace

Expected<WorkloadPrediction> predictWorkload(const std::string& path, const PredictOptions& options) {
  if (options.gpus.empty()) return makeError("predict needs at least one GPU");
  WorkloadPrediction out;
  out.path = path;
  for (const Gpu* gpu : options.gpus) {
    Expected<GpuPrediction> one = predictOnGpu(path, options, *gpu);
    if (!one) return std::move(one).takeError();
    out.gpus.push_back(std::move(*one));
  }
  return out;
}

Expected<WorkloadExplanation> explainWorkload(const std::string& path, const ExplainWorkloadOptions& options) {
  if (!options.gpu) return makeError("explain needs a GPU");
  const Gpu& gpu = *options.gpu;
  Expected<ExplainOptions> eo = explainOptions(options.model, inputKindOf(path), &gpu);
  if (!eo) return std::move(eo).takeError();
  eo->lines = options.lines;
  eo->placement = options.placement;
  WorkloadOptions wo = options.workload;
  wo.input.gpu = &gpu;
  wo.searchModel = eo->timing;  // a skeleton: the best layout by the time explain reports
  Expected<Workload> w = loadWorkload(path, wo);
  if (!w) return std::move(w).takeError();
  Expected<KernelRun> run = workloadRun(*w, wo.input.kernel);
  if (!run) return std::move(run).takeError();
  const KernelInput& kernel = w->kernels[run->kernel];
  if (inputKindOf(path) == InputKind::Cuda) eo->input = inputAccess(path, wo, options.tryDefines);
  Expected<ExplainResult> r = explainKernel(kernel, run->launch, gpu, *eo);
  if (!r) return located(std::move(r).takeError(), path, gpu);
  for (std::string& note : run->notes) r->prediction.warnings.push_back(std::move(note));
  return WorkloadExplanation{path, w->frontend, kernel.ir.name, &gpu, run->launch, std::move(*r)};
}

}  // namespace foresight
