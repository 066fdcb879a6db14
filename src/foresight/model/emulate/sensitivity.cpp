// SPDX-License-Identifier: Apache-2.0
/// \file
/// Perturbation runs, elasticities, bottleneck, region drill-down and per-resource bounds.
#include "foresight/model/emulate/sensitivity.h"

#include "foresight/support/parallel.h"

#include <algorithm>
#include <cmath>

#include "foresight/model/emulate/emu_listeners.h"

namespace foresight {

namespace {

struct PerturbedParam {
  int unit;  // unit index, emu::kIssueUnit, emu::kBlockUnit or emu::kLaunchUnit
  bool gap;
  std::string name;
  Resource resource;
};

}  // namespace

Expected<SensitivityReport> analyzeSensitivity(const emu::KernelEmulation& emulation,
                                               const SensitivityOptions& options) {
  SensitivityReport report;
  const std::vector<emu::UnitSpec>& units = emulation.units();
  emu::UtilizationListener util(static_cast<int>(units.size()));
  for (const emu::UnitSpec& u : units) util.latency.push_back(u.latency);
  emu::EmuListener* listeners[] = {&util};
  Expected<emu::KernelTiming> base = emulation.run({}, listeners);
  if (!base) return std::move(base).takeError();
  report.cycles = base->cycles;
  report.method = sensitivityMethod(options);
  if (base->cycles <= 0) return makeError("the emulated kernel takes no time");

  std::vector<PerturbedParam> params;
  for (int u = 0; u < static_cast<int>(units.size()); ++u) {
    // A unit no op uses cannot move T: its elasticities are exactly 0 and are not rerun. The
    // L2's gap also scales the atomics' serialized time (KernelTiming::atomicCycles).
    const bool atomics = u == emulation.atomicUnit() && base->atomicCycles > 0;
    if (util.requests(u) <= 0 && !atomics) continue;
    if (util.requests(u) > 0 && (units[u].latency > 0 || units[u].sameWarpIssue > 0)) {
      params.push_back({u, false, units[u].name, units[u].resource});
    }
    if (units[u].gap > 0 || atomics) params.push_back({u, true, units[u].name, units[u].resource});
  }
  if (emulation.issueGap() > 0) params.push_back({emu::kIssueUnit, true, "issue", Resource::Issue});
  if (emulation.blockOverhead() > 0) params.push_back({emu::kBlockUnit, false, "block", Resource::Parallelism});
  if (base->launchOverhead > 0) params.push_back({emu::kLaunchUnit, false, "launch", Resource::Parallelism});

  // Elasticities of (parameter, region) pairs (region -1: all). Every perturbed run is
  // independent: one job per pair and step (elasticitySteps()), spread over the cores, the
  // screening steps first (screeningSteps(): a pair whose T moves at none of them has
  // elasticity 0 without the rest), each pair's relative changes then combined in step order
  // (elasticityFrom()).
  const std::vector<double> steps = elasticitySteps(options);
  const std::vector<size_t> screening = screeningSteps(options);
  using Pair = std::pair<const PerturbedParam*, int>;
  auto elasticities = [&](const std::vector<Pair>& pairs) {
    const size_t n = steps.size();
    std::vector<Expected<double>> relative(pairs.size() * n, Expected<double>(0.0));
    auto runJobs = [&](const std::vector<size_t>& jobs) {
      parallelFor(jobs.size(), [&](std::size_t j) {
        const size_t k = jobs[j];
        const PerturbedParam& p = *pairs[k / n].first;
        emu::Perturbation pert;
        pert.unit = p.unit;
        pert.gap = p.gap;
        pert.region = pairs[k / n].second;
        pert.factor = 1 + steps[k % n];
        Expected<emu::KernelTiming> t = emulation.run(pert);
        if (!t) {
          relative[k] = std::move(t).takeError();
          return;
        }
        relative[k] = (t->cycles - base->cycles) / base->cycles;
      });
    };
    // The launch overhead is added to T after the emulation (KernelEmulation::run), so a
    // perturbed run repeats the base schedule: T(1 + d) − T = d × overhead for every step, and
    // every method's slope is overhead / T, computed without emulating.
    auto emulated = [&](size_t i) { return pairs[i].first->unit != emu::kLaunchUnit; };
    std::vector<size_t> jobs;
    for (size_t i = 0; i < pairs.size(); ++i) {
      if (!emulated(i)) continue;
      for (size_t j : screening) jobs.push_back(i * n + j);
    }
    runJobs(jobs);
    // Pairs whose T moved (or failed) at a screening step: the rest of their steps.
    std::vector<bool> still(pairs.size(), false);
    jobs.clear();
    for (size_t i = 0; i < pairs.size(); ++i) {
      if (!emulated(i)) continue;
      for (size_t j : screening) still[i] = still[i] || !relative[i * n + j] || *relative[i * n + j] != 0;
      if (!still[i]) continue;
      for (size_t j = 0; j < n; ++j) {
        if (std::find(screening.begin(), screening.end(), j) == screening.end()) jobs.push_back(i * n + j);
      }
    }
    runJobs(jobs);
    std::vector<Expected<double>> out;
    for (size_t i = 0; i < pairs.size(); ++i) {
      if (!emulated(i)) {
        out.emplace_back(base->launchOverhead / base->cycles);
        continue;
      }
      if (!still[i]) {
        out.emplace_back(0.0);
        continue;
      }
      std::vector<double> r;
      for (size_t j = 0; j < n && relative[i * n + j]; ++j) r.push_back(*relative[i * n + j]);
      if (r.size() < n) {
        out.push_back(std::move(relative[i * n + r.size()]).takeError());
      } else {
        out.emplace_back(elasticityFrom(steps, r, options));
      }
    }
    return out;
  };
  std::vector<Pair> all;
  for (const PerturbedParam& p : params) all.push_back({&p, -1});
  std::vector<Expected<double>> results = elasticities(all);
  for (size_t i = 0; i < params.size(); ++i) {
    if (!results[i]) return std::move(results[i]).takeError();
    const PerturbedParam& p = params[i];
    report.entries.push_back({p.name, p.resource, p.gap ? BoundMode::Throughput : BoundMode::Latency, *results[i], ""});
  }
  rankElasticities(report, options, "the emulated schedule changes discontinuously here (warp-order or barrier-phase effects)");

  // Region drill-down of the significant parameters (not the launch overhead).
  const std::vector<std::string>& regions = emulation.builder().regionNames();
  if (options.regions && !report.clearWinner && regions.size() > 1) {
    // Up to four significant parameters, each in every region: independent runs, spread over
    // the cores like the runs above, reported in (parameter, region) order.
    struct RegionRun {
      const Elasticity* entry;
      const PerturbedParam* param;
      int region;
    };
    std::vector<RegionRun> runs;
    int done = 0;
    for (const Elasticity& entry : report.entries) {
      if (entry.elasticity < options.significant || entry.unit == "launch" || done >= 4) continue;
      ++done;
      const auto it = std::find_if(params.begin(), params.end(), [&](const PerturbedParam& p) {
        return p.name == entry.unit && p.gap == (entry.parameter == BoundMode::Throughput);
      });
      for (int r = 0; r < static_cast<int>(regions.size()); ++r) runs.push_back({&entry, &*it, r});
    }
    std::vector<Pair> pairs;
    for (const RegionRun& run : runs) pairs.push_back({run.param, run.region});
    std::vector<Expected<double>> regional = elasticities(pairs);
    for (size_t i = 0; i < runs.size(); ++i) {
      if (!regional[i]) return std::move(regional[i]).takeError();
      const Elasticity& entry = *runs[i].entry;
      report.regional.push_back({entry.unit, entry.resource, entry.parameter, *regional[i], regions[runs[i].region]});
    }
  }

  // The time each resource alone would allow: its busy time, scaled like T_SM to the launch.
  const double effWaves =
      base->smCycles > 0 ? (base->cycles - base->launchOverhead - base->atomicCycles) / base->smCycles : 0;
  const double scale = emulation.fullWave().scale * effWaves;
  for (int u = 0; u < static_cast<int>(units.size()); ++u) {
    const double instances = units[u].scope == emu::UnitScope::Scheduler ? emulation.schedulers() : 1;
    // The L2 also applies the atomics one after another (KernelTiming::atomicCycles).
    const double atomics = u == emulation.atomicUnit() ? base->atomicCycles : 0;
    report.alone.push_back({units[u].name, units[u].resource, util.throughputBusy(u) / instances * scale + atomics});
  }
  long long fullIssued = 0;
  for (const emu::EmuWarp& w : emulation.fullWave().program.warps) fullIssued += static_cast<long long>(w.ops.size());
  report.alone.push_back({"issue", Resource::Issue,
                          static_cast<double>(fullIssued) / emulation.schedulers() * emulation.issueGap() * scale});
  std::stable_sort(report.alone.begin(), report.alone.end(),
                   [](const ResourceAlone& a, const ResourceAlone& b) { return a.cycles > b.cycles; });
  return report;
}

}  // namespace foresight
