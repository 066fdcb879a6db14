// SPDX-License-Identifier: Apache-2.0
/// \file
/// Corpus × measurements × models → rows → per-model scores.
#include "foresight/validation/validate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/memory/hierarchy.h"
#include "foresight/model/default_model.h"
#include "foresight/model/predict.h"
#include "foresight/model/registry.h"
#include "foresight/support/edit_distance.h"
#include "foresight/validation/accuracy.h"
#include "foresight/validation/measurement.h"
#include "foresight/workload/workload.h"

namespace foresight {

InputOptions launchInputOptions(const ResolvedExperiment& e, const ResolvedLaunch& l, const Gpu& gpu) {
  InputOptions options;
  options.gpu = &gpu;
  options.launch = l.launch;
  options.kernel = l.kernel;
  for (const auto& [name, value] : e.defines) options.macros.emplace_back(name, std::to_string(value));
  for (const ResolvedHint& h : e.trips) options.trips.push_back({h.file, h.line, h.value});
  for (const ResolvedHint& h : e.branches) options.branches.push_back({h.file, h.line, h.value});
  return options;
}

std::vector<ModelChoice> applicableModels() {
  std::vector<ModelChoice> out;
  // "default": what `--model auto` means for the experiment's input kind and GPU (default_model.h),
  // resolved per experiment in predictExperiment.
  out.push_back({"default", ModelOptions{}});
  for (const RegisteredModel& m : registeredModels()) out.push_back({m.name(), m.options});
  return out;
}

std::vector<Expected<double>> predictExperiment(const ResolvedExperiment& e,
                                                const std::vector<ModelChoice>& models,
                                                const Gpu& gpu, double toolTimeoutSeconds) {
  std::vector<double> seconds(models.size(), 0.0);
  std::vector<std::optional<Error>> errors(models.size());
  // What the L2 holds when a launch starts (docs/validation.md#what-the-l2-holds): the samples
  // run back to back over the same buffers when copies are not rotated, nothing flushed and
  // nothing re-uploaded, so each finds its data as the sample before left it; otherwise the
  // first launch of a kernel starts cold. The repeats of a launch follow it: warm.
  const L2Start sampleStart = !e.rotate && !e.flush && !e.reinit ? L2Start::Warm : L2Start::Cold;
  for (const ResolvedLaunch& l : e.launches) {
    InputOptions options = launchInputOptions(e, l, gpu);
    options.toolTimeoutSeconds = toolTimeoutSeconds;
    WorkloadOptions wo;  // a skeleton: its best layout under the default model, block pinned
    wo.input = std::move(options);
    Expected<Workload> input = loadWorkload(e.source, wo);
    Expected<const KernelInput*> kernel =
        input ? selectKernel(*input, l.kernel) : Expected<const KernelInput*>(input.error());
    // A skeleton's launch follows from its layout (the manifest's block only pins it).
    Launch first = input && input->layouts && input->launch ? *input->launch : l.launch;
    first.l2Start = sampleStart;
    first.timing = l.launch.timing;
    Launch repeated = first;
    repeated.l2Start = L2Start::Warm;
    repeated.timing = LaunchTiming::Stream;  // queued behind the first run
    // (launch, times): the first run, then the repeats when they start or are timed differently.
    std::vector<std::pair<const Launch*, long long>> runs{{&first, l.repeat}};
    if (l.repeat > 1 && (first.l2Start != L2Start::Warm || first.timing != LaunchTiming::Stream)) {
      runs = {{&first, 1}, {&repeated, l.repeat - 1}};
    }
    for (const auto& [launch, times] : runs) {
      // The memory analysis depends on the kernel, launch and GPU only: once for all models
      // (each would otherwise run it again). A failure is left to each model's predict().
      std::shared_ptr<const MemoryTraffic> traffic;
      if (kernel) {
        const KernelInput& k = **kernel;
        Expected<MemoryTraffic> t = analyzeMemory(k.ir, k.summary ? &*k.summary : nullptr, *launch, gpu);
        if (t) traffic = std::make_shared<const MemoryTraffic>(std::move(*t));
      }
      for (size_t m = 0; m < models.size(); ++m) {
        if (errors[m]) continue;
        if (!kernel) {
          errors[m] = kernel.error();
          continue;
        }
        ModelOptions options = resolveDefaultModel(models[m].options, inputKindOf(e.source), &gpu);
        options.emulate.memory = traffic;
        Expected<Prediction> p = predict(**kernel, *launch, gpu, options);
        if (!p) {
          errors[m] = p.error();
          continue;
        }
        seconds[m] += p->seconds * static_cast<double>(times);
      }
    }
  }
  std::vector<Expected<double>> out;
  for (size_t m = 0; m < models.size(); ++m) {
    out.push_back(errors[m] ? Expected<double>(*errors[m]) : Expected<double>(seconds[m]));
  }
  return out;
}

std::vector<ModelSummary> scoreRows(const std::vector<ValidationRow>& rows,
                                    const std::vector<std::string>& models) {
  std::vector<ModelSummary> out;
  for (const std::string& model : models) {
    ModelSummary s;
    s.model = model;
    std::vector<double> errors;
    std::vector<const ValidationRow*> scored;
    // (gpu, group) → (measured, predicted) pairs
    std::map<std::pair<std::string, std::string>,
             std::pair<std::vector<double>, std::vector<double>>>
        groups;
    // the same over the rows that are alternatives, for the regret
    std::map<std::pair<std::string, std::string>,
             std::pair<std::vector<double>, std::vector<double>>>
        choices;
    for (const ValidationRow& r : rows) {
      if (r.model != model) continue;
      if (!r.error) {
        ++s.notPredicted;
        continue;
      }
      ++s.predicted;
      errors.push_back(*r.error);
      scored.push_back(&r);
      auto& g = groups[{r.gpu, r.group}];
      g.first.push_back(r.measuredSeconds);
      g.second.push_back(*r.predictedSeconds);
      if (r.alternative) {
        auto& c = choices[{r.gpu, r.group}];
        c.first.push_back(r.measuredSeconds);
        c.second.push_back(*r.predictedSeconds);
      }
    }
    s.geomeanAbsError = geomeanAbs(errors);
    s.medianAbsError = medianAbs(errors);
    std::stable_sort(scored.begin(), scored.end(),
                     [](const ValidationRow* a, const ValidationRow* b) {
                       return std::fabs(*a->error) > std::fabs(*b->error);
                     });
    for (size_t i = 0; i < scored.size() && i < 3; ++i) s.worst.push_back(*scored[i]);
    double rhoSum = 0, logRegretSum = 0;
    int rhoCount = 0, regretCount = 0;
    for (const auto& [key, pairs] : groups) {
      if (pairs.first.size() < 2) continue;
      GroupCorrelation g{key.first, key.second, static_cast<int>(pairs.first.size()),
                         spearman(pairs.first, pairs.second), std::nullopt};
      if (auto c = choices.find(key); c != choices.end() && c->second.first.size() >= 2) {
        g.regret = regret(c->second.first, c->second.second);
      }
      if (g.rho) {
        rhoSum += *g.rho;
        ++rhoCount;
      }
      if (g.regret) {
        logRegretSum += std::log(*g.regret);
        ++regretCount;
        s.maxRegret = std::max(s.maxRegret.value_or(1.0), *g.regret);
      }
      s.groups.push_back(g);
    }
    if (rhoCount > 0) s.meanRho = rhoSum / rhoCount;
    if (regretCount > 0) s.meanRegret = std::exp(logRegretSum / regretCount);
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<SourceSummary> scoreBySource(const std::vector<ValidationRow>& rows,
                                         const std::vector<std::string>& models) {
  // (source, gpu) → model index → errors and counts
  std::map<std::pair<std::string, std::string>, std::vector<SourceSummary>> cells;
  std::map<std::pair<std::string, std::string>, std::vector<std::vector<double>>> errors;
  for (const ValidationRow& r : rows) {
    const auto m = std::find(models.begin(), models.end(), r.model);
    if (m == models.end()) continue;
    // A measurement without a published source is one of ours (validation/measurements).
    const std::string source = r.source.empty() ? "ours" : r.source;
    const auto key = std::make_pair(source, r.gpu);
    auto& cell = cells[key];
    if (cell.empty()) {
      for (const std::string& name : models) {
        SourceSummary s;
        s.source = source;
        s.gpu = r.gpu;
        s.model = name;
        cell.push_back(std::move(s));
      }
      errors[key].resize(models.size());
    }
    SourceSummary& s = cell[static_cast<size_t>(m - models.begin())];
    if (!r.error) {
      ++s.notPredicted;
      continue;
    }
    ++s.predicted;
    errors[key][static_cast<size_t>(m - models.begin())].push_back(*r.error);
    // error > 1: predicted more than twice the measured time; error < -0.5: less than half.
    if (*r.error > 1.0 || *r.error < -0.5) ++s.beyond2x;
  }
  std::vector<SourceSummary> out;
  for (auto& [key, cell] : cells) {
    for (size_t i = 0; i < cell.size(); ++i) {
      cell[i].geomeanAbsError = geomeanAbs(errors[key][i]);
      cell[i].medianAbsError = medianAbs(errors[key][i]);
      out.push_back(cell[i]);
    }
  }
  return out;
}

Expected<ValidationReport> validate(const ValidateOptions& options, const PredictFn& predictFn,
                                    const GpuFn& gpuFn) {
  ValidationReport report;
  report.corpusDir = options.corpusDir;
  report.measurementsDir =
      options.measurementsDir.empty()
          ? (std::filesystem::path(options.corpusDir) / "measurements").string()
          : options.measurementsDir;
  std::vector<ModelChoice> models;
  const std::vector<ModelChoice> all = applicableModels();
  if (options.models.empty()) {
    models = all;
  } else {
    std::vector<std::string> names;
    for (const ModelChoice& m : all) names.push_back(m.name);
    for (const std::string& want : options.models) {
      const auto it = std::find_if(all.begin(), all.end(),
                                   [&](const ModelChoice& m) { return m.name == want; });
      if (it == all.end())
        return makeError("unknown model '" + want + "'" + didYouMean(want, names));
      models.push_back(*it);
    }
  }
  for (const ModelChoice& m : models) report.models.push_back(m.name);

  Expected<std::vector<Manifest>> corpus = loadCorpus(options.corpusDir);
  if (!corpus) return std::move(corpus).takeError();
  Expected<std::vector<MeasurementFile>> files = loadMeasurements(report.measurementsDir);
  if (!files) return std::move(files).takeError();

  // (experiment, variant) → resolved experiment
  std::map<std::pair<std::string, std::string>, ResolvedExperiment> resolved;
  std::vector<std::string> experimentNames;
  for (const Manifest& m : *corpus) {
    ++report.experiments;
    experimentNames.push_back(m.name);
    for (const VariantSpec& v : m.variants) {
      Expected<ResolvedExperiment> r = resolveVariant(m, v, options.arrayContents);
      if (!r) return std::move(r).takeError();
      ++report.variants;
      resolved.emplace(std::make_pair(m.name, v.name), std::move(*r));
    }
  }
  const GpuFn resolveGpuFn =
      gpuFn ? gpuFn : GpuFn([](const std::string& n) { return resolveGpu(n); });

  // The latest line of each variant wins; earlier runs are kept in the file as history.
  struct FilePlan {
    const MeasurementFile* file = nullptr;
    std::map<std::pair<std::string, std::string>, const Measurement*> latest;
    std::vector<std::pair<std::string, std::string>> order;
  };
  std::vector<FilePlan> plans;
  int total = 0;
  for (const MeasurementFile& file : *files) {
    FilePlan plan;
    plan.file = &file;
    for (const Measurement& m : file.measurements) {
      if (!options.experiments.empty() &&
          std::find(options.experiments.begin(), options.experiments.end(), m.experiment) ==
              options.experiments.end()) {
        continue;
      }
      const auto key = std::make_pair(m.experiment, m.variant);
      if (plan.latest.count(key)) {
        ++report.superseded;
      } else {
        plan.order.push_back(key);
      }
      plan.latest[key] = &m;
    }
    total += static_cast<int>(plan.order.size());
    plans.push_back(std::move(plan));
  }

  int done = 0;
  for (const FilePlan& plan : plans) {
    const MeasurementFile& file = *plan.file;
    report.gpus.push_back(file.gpu);
    Expected<Gpu> gpu = resolveGpuFn(options.gpu.empty() ? file.gpu : options.gpu);
    for (const auto& key : plan.order) {
      const Measurement& m = *plan.latest.at(key);
      ++report.measurements;
      const auto it = resolved.find(key);
      std::vector<Expected<double>> predictions;
      const auto start = std::chrono::steady_clock::now();
      if (it != resolved.end() && gpu) {
        // The runner's samples each time one sequence with CUDA events around it: its first launch
        // is timed alone, the others follow it back to back (docs/validation.md#launch-timing).
        // Published times keep their benchmarks' back-to-back loops.
        const ResolvedExperiment* e = &it->second;
        ResolvedExperiment timedAlone;
        if (m.source.empty() && !e->launches.empty()) {
          timedAlone = *e;
          timedAlone.launches.front().launch.timing = LaunchTiming::Alone;
          e = &timedAlone;
        }
        predictions = predictFn ? predictFn(*e, models, *gpu)
                                : predictExperiment(*e, models, *gpu, options.toolTimeoutSeconds);
      }
      if (options.progress) {
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        options.progress({++done, total, file.gpu, m.experiment, m.variant, took.count()});
      }
      for (size_t mi = 0; mi < models.size(); ++mi) {
        ValidationRow row{file.gpu,        m.experiment, m.variant, "", models[mi].name,
                          m.medianSeconds, {},           {},        "", m.source};
        if (it == resolved.end()) {
          const bool known = std::find(experimentNames.begin(), experimentNames.end(),
                                       m.experiment) != experimentNames.end();
          row.reason =
              known ? "variant '" + m.variant + "' is not in the manifest"
                    : "experiment not in the corpus" + didYouMean(m.experiment, experimentNames);
        } else if (!gpu) {
          row.group = it->second.group;
          row.alternative = it->second.alternatives;
          row.reason = "no GPU description: " + gpu.error().message;
        } else {
          row.group = it->second.group;
          row.alternative = it->second.alternatives;
          const Expected<double>& p = predictions.at(mi);
          if (!p) {
            row.reason = p.error().message;
          } else if (!(*p > 0) || !std::isfinite(*p)) {
            row.reason = "the model predicted a non-positive time";
          } else {
            row.predictedSeconds = *p;
            row.error = relativeError(*p, m.medianSeconds);
          }
        }
        report.rows.push_back(std::move(row));
      }
    }
  }
  report.summaries = scoreRows(report.rows, report.models);
  report.bySource = scoreBySource(report.rows, report.models);
  return report;
}

}  // namespace foresight
