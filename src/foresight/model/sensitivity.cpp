// SPDX-License-Identifier: Apache-2.0
/// \file
/// The elasticity method shared by the models' sensitivity analyses, and the GPU-parameter
/// analysis of any registered model (sensitivity.h).
#include "foresight/model/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "foresight/memory/hierarchy.h"
#include "foresight/model/predict.h"
#include "foresight/support/parallel.h"

namespace foresight {

std::string sensitivityMethod(const SensitivityOptions& options) {
  char m[64];
  const int pct = static_cast<int>(options.step * 100 + 0.5);
  if (!options.central) {
    std::snprintf(m, sizeof m, "+%d%%", pct);
  } else if (!options.fit) {
    std::snprintf(m, sizeof m, "±%d%%", pct);
  } else {
    std::snprintf(m, sizeof m, "slope over ±%d%%, ±%d%%", pct, 2 * pct);
  }
  return m;
}

std::vector<double> elasticitySteps(const SensitivityOptions& options) {
  if (!options.central) return {options.step};
  if (options.fit) return {-2 * options.step, -options.step, options.step, 2 * options.step};
  return {-options.step, options.step};
}

std::vector<size_t> screeningSteps(const SensitivityOptions& options) {
  if (options.central && options.fit) return {0, 3};
  std::vector<size_t> all(elasticitySteps(options).size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

double elasticityFrom(const std::vector<double>& steps, const std::vector<double>& relatives,
                      const SensitivityOptions& options) {
  if (!options.central) return relatives.front() / options.step;
  double num = 0, den = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    num += steps[i] * relatives[i];
    den += steps[i] * steps[i];
  }
  return num / den;
}

Expected<double> elasticityOf(const std::function<Expected<double>(double)>& relative, const SensitivityOptions& options) {
  const std::vector<double> steps = elasticitySteps(options);
  std::vector<double> relatives(steps.size(), 0.0);
  std::vector<bool> done(steps.size(), false);
  bool moved = false;
  for (size_t i : screeningSteps(options)) {
    Expected<double> r = relative(steps[i]);
    if (!r) return r;
    relatives[i] = *r;
    done[i] = true;
    moved = moved || *r != 0;
  }
  if (!moved) return 0.0;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (done[i]) continue;
    Expected<double> r = relative(steps[i]);
    if (!r) return r;
    relatives[i] = *r;
  }
  return elasticityFrom(steps, relatives, options);
}

void rankElasticities(SensitivityReport& report, const SensitivityOptions& options, const std::string& cause) {
  report.sum = 0;
  for (const Elasticity& e : report.entries) report.sum += e.elasticity;
  std::stable_sort(report.entries.begin(), report.entries.end(),
                   [](const Elasticity& a, const Elasticity& b) { return a.elasticity > b.elasticity; });
  if (std::abs(report.sum - 1) > options.sumTolerance) {
    char w[300];
    std::snprintf(w, sizeof w, "sensitivity: elasticities sum to %.2f, not 1: %s; read them as a ranking", report.sum,
                  cause.c_str());
    report.warnings.push_back(w);
  }
  if (report.entries.empty()) return;
  const Elasticity& top = report.entries.front();
  report.bound = {top.resource, top.parameter};
  report.boundUnit = top.unit;
  report.clearWinner = report.entries.size() < 2 || report.entries[1].elasticity < options.tieRatio * top.elasticity;
}

Expected<ModelOptions> withMemoryTraffic(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                        ModelOptions model) {
  if (model.emulate.memory) return model;
  Expected<MemoryTraffic> t = analyzeMemory(kernel.ir, kernel.summary ? &*kernel.summary : nullptr, launch, gpu);
  if (!t) return std::move(t).takeError();
  model.emulate.memory = std::make_shared<const MemoryTraffic>(std::move(*t));
  return model;
}

std::vector<GpuTimingParameter> gpuTimingParameters(const Gpu& gpu) {
  std::vector<GpuTimingParameter> out;
  for (int c = 0; c < kNumInstrClasses; ++c) {
    if (!gpu.pipelines[c]) continue;
    const InstrClass k = static_cast<InstrClass>(c);
    out.push_back({instrClassName(k), resourceOfPipe(k), BoundMode::Latency, false,
                   [c](Gpu& g, double f) { g.pipelines[c]->latency.value *= f; }});
    out.push_back({instrClassName(k), resourceOfPipe(k), BoundMode::Throughput, false,
                   [c](Gpu& g, double f) { g.pipelines[c]->gap.value *= f; }});
  }
  // The [mwp_cwp] section describes the same issue, L2 and DRAM timing for the paper variants:
  // each of its values moves with the parameter it is a form of.
  out.push_back({"issue", Resource::Issue, BoundMode::Throughput, false, [](Gpu& g, double f) {
                   g.issueWidth.value /= f;
                   g.mwpCwp.issueCycles.value *= f;
                   if (g.mwpCwp.instCycles) g.mwpCwp.instCycles->value *= f;
                 }});
  for (size_t i = 0; i < gpu.memory.size(); ++i) {
    const MemoryLevel& m = gpu.memory[i];
    const Resource r = parseResource(m.resource).value_or(Resource::Dram);
    out.push_back({m.name, r, BoundMode::Latency, true, [i, r](Gpu& g, double f) {
                     MemoryLevel& l = g.memory[i];
                     l.latency.value *= f;
                     if (l.farLatency) l.farLatency->value *= f;
                     MwpCwpParams& mc = g.mwpCwp;
                     if (r == Resource::Dram) mc.memLatency.value *= f;
                     if (r == Resource::L2 && mc.l2Latency) mc.l2Latency->value *= f;
                   }});
    out.push_back({m.name, r, BoundMode::Throughput, true, [i, r](Gpu& g, double f) {
                     MemoryLevel& l = g.memory[i];
                     for (std::optional<Param<double>>* b : {&l.bandwidth, &l.readBandwidth, &l.writeBandwidth, &l.mixedBandwidth}) {
                       if (*b) (*b)->value /= f;
                     }
                     MwpCwpParams& mc = g.mwpCwp;
                     if (r == Resource::Dram) {
                       mc.memBandwidth.value /= f;
                       mc.departureDelayCoal.value *= f;
                       mc.departureDelayUncoal.value *= f;
                       if (mc.dramDepartureDelay) mc.dramDepartureDelay->value *= f;
                     }
                     if (r == Resource::L2 && mc.l2DepartureDelay) mc.l2DepartureDelay->value *= f;
                     // The L2's atomic and read-modify-write service times are its throughput too.
                     for (std::optional<Param<double>>* t : {&l.sameAddressAtomicUs, &l.sameAddressAtomicIntUs,
                                                             &l.atomicUnitOpUs, &l.sectorRmwUs}) {
                       if (*t) (*t)->value *= f;
                     }
                   }});
  }
  if (gpu.barrier) {
    out.push_back({"barrier", Resource::Barrier, BoundMode::Latency, false, [](Gpu& g, double f) {
                     g.barrier->latency.value *= f;
                     g.barrier->arrival.value *= f;
                     g.barrier->block.value *= f;
                   }});
  }
  if (gpu.launchOverheadUs || gpu.blockOverheadCycles) {
    out.push_back({"launch", Resource::Parallelism, BoundMode::Latency, false, [](Gpu& g, double f) {
                     if (g.launchOverheadUs) g.launchOverheadUs->value *= f;
                     if (g.blockOverheadCycles) g.blockOverheadCycles->value *= f;
                   }});
  }
  if (gpu.blockDispatchCycles) {
    out.push_back({"dispatch", Resource::Parallelism, BoundMode::Throughput, false,
                   [](Gpu& g, double f) { g.blockDispatchCycles->value *= f; }});
  }
  return out;
}

Expected<SensitivityReport> analyzeModelSensitivity(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                                    const ModelOptions& model, const SensitivityOptions& options) {
  SensitivityReport report;
  report.method = sensitivityMethod(options);
  // The memory engine's traffic counts requests, sectors and hits: no timing parameter moves it.
  Expected<ModelOptions> withTraffic = withMemoryTraffic(kernel, launch, gpu, model);
  if (!withTraffic) return std::move(withTraffic).takeError();
  const ModelOptions& shared = *withTraffic;
  Expected<Prediction> base = predict(kernel, launch, gpu, shared);
  if (!base) return std::move(base).takeError();
  report.cycles = base->cycles;
  if (base->cycles <= 0) return makeError("the prediction takes no time");
  const std::vector<GpuTimingParameter> params = gpuTimingParameters(gpu);
  std::vector<Expected<double>> results(params.size(), Expected<double>(0.0));
  parallelFor(params.size(), [&](std::size_t i) {
    results[i] = elasticityOf(
        [&](double d) -> Expected<double> {
          Gpu perturbed = gpu;
          params[i].scale(perturbed, 1 + d);
          Expected<Prediction> p = predict(kernel, launch, perturbed, shared);
          if (!p) return std::move(p).takeError();
          return (p->cycles - base->cycles) / base->cycles;
        },
        options);
  });
  for (size_t i = 0; i < params.size(); ++i) {
    if (!results[i]) return std::move(results[i]).takeError();
    // A parameter the prediction does not read (or reads below a rounding) is left out.
    if (std::abs(*results[i]) < 1e-9) continue;
    report.entries.push_back({params[i].unit, params[i].resource, params[i].mode, *results[i], ""});
  }
  rankElasticities(report, options,
                   "the model's time is not homogeneous in these parameters here (a bound switches within the "
                   "steps, or a term does not scale with them)");
  return report;
}

}  // namespace foresight
