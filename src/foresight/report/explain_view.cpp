// SPDX-License-Identifier: Apache-2.0
/// \file
/// Rendering of ExplainView.
#include "foresight/report/explain_view.h"

#include <algorithm>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

namespace foresight {

namespace {
const char* parameterName(BoundMode m) { return m == BoundMode::Latency ? "latency" : "gap"; }

/// One line per elasticity worth showing, with a bar of its size.
void printElasticities(std::ostream& os, const std::vector<Elasticity>& entries) {
  for (const Elasticity& e : entries) {
    if (std::abs(e.elasticity) < 0.005) continue;
    const int bar = static_cast<int>(std::clamp(e.elasticity, 0.0, 1.0) * 20 + 0.5);
    os << fmt::format("  {:<10} {:<8} {:6.2f}  {}\n", e.unit, parameterName(e.parameter), e.elasticity,
                      std::string(static_cast<size_t>(bar), '#'));
  }
}

/// "dram latency -> dram (latency)": the largest elasticity's parameter and the bound it names.
std::string boundText(const SensitivityReport& s) {
  return fmt::format("{} {} -> {} ({})", s.boundUnit, parameterName(s.bound.mode), resourceName(s.bound.resource),
                     boundModeName(s.bound.mode));
}

void printWhatIf(std::ostream& os, const std::vector<WhatIfResult>& switches) {
  for (const WhatIfResult& w : switches) {
    os << fmt::format("  {:<24} {:>12.0f}  {:5.2f}x  {}\n", w.name, w.penalty, w.speedup, w.description);
  }
}

nlohmann::json whatIfJson(const std::vector<WhatIfResult>& switches) {
  nlohmann::json out = nlohmann::json::array();
  for (const WhatIfResult& w : switches) {
    out.push_back({{"name", w.name}, {"cycles", w.cycles}, {"penalty", w.penalty}, {"speedup", w.speedup}});
  }
  return out;
}

nlohmann::json elasticitiesJson(const std::vector<Elasticity>& entries) {
  nlohmann::json out = nlohmann::json::array();
  for (const Elasticity& e : entries) {
    out.push_back({{"resource", e.unit}, {"bound_resource", resourceName(e.resource)},
                   {"parameter", parameterName(e.parameter)}, {"elasticity", e.elasticity}});
  }
  return out;
}

}  // namespace

ExplainView::ExplainView(PredictionContext context, ExplainResult result) : Report("explain", {}) {
  auto r = std::make_shared<const ExplainResult>(std::move(result));
  const Prediction& prediction = r->prediction;
  const std::string model = fmt::format("{}/{}", prediction.model, prediction.variant);
  summary_ = predictionSummary(context, prediction) + "; top fix: ";
  if (r->fixes.empty()) {
    summary_ += fmt::format("none saves {:.0f}% or more\n", 100 * (kFixThreshold - 1));
  } else {
    const Fix& top = r->fixes.front();
    summary_ += fmt::format(
        "{} {}{:.2f}x{}{}\n", top.kind, top.upperBound ? "<=" : "", top.speedup,
        top.modelSpeedup ? fmt::format(" ({}: {}{:.2f}x)", model, top.upperBound ? "<=" : "", *top.modelSpeedup)
                         : std::string(),
        top.lines.empty() ? std::string() : fmt::format(" at {}:{}", top.lines[0].file, top.lines[0].line));
  }
  parts_ = PredictionView(std::move(context), prediction).parts();
  // Each part keeps the result alive through an alias of the member it shows.
  std::shared_ptr<const std::optional<SensitivityReport>> timing(r, &r->timingSensitivity);
  std::shared_ptr<const std::vector<WhatIfResult>> timingSwitches(r, &r->timingWhatIf);
  std::shared_ptr<const SensitivityReport> s(r, &r->sensitivity);
  std::shared_ptr<const std::vector<WhatIfResult>> switches(r, &r->whatIf);
  std::shared_ptr<const std::vector<RegisterConflictLine>> lines(r, &r->conflicts);
  std::shared_ptr<const std::vector<Fix>> changes(r, &r->fixes);
  std::shared_ptr<const std::optional<std::vector<SourceLineCost>>> costs(r, &r->lines);

  std::shared_ptr<const std::optional<Roofline>> roof(r, &r->roofline);
  parts_.push_back(makeReportPart(
      "roofline",
      [roof](std::ostream& os) {
        if (!*roof || (*roof)->flops <= 0) return;
        const Roofline& rf = **roof;
        std::string peaks;
        for (const RooflinePeak& p : rf.peaks) {
          peaks += fmt::format("{}{} {:.1f} TFLOPS", peaks.empty() ? "" : ", ", p.name, p.gflops / 1e3);
        }
        os << "roofline (floating-point work against the bytes each level moves; ridge = peak / bandwidth)\n";
        os << fmt::format("  flops      {:.4g} in {}: {:.1f} GFLOPS; peaks {}\n", rf.flops, timeText(rf.seconds),
                          rf.gflops(), peaks.empty() ? "none" : peaks);
        const double peak = rf.peaks.empty() ? 0 : rf.peaks.front().gflops;
        for (const RooflineLevel& l : rf.levels) {
          const double ridge = l.bandwidthGBs > 0 ? peak / l.bandwidthGBs : 0;
          os << fmt::format("  {:<10} {:>12.4g} B  {:>10.4g} flop/B  ridge {:>8.3g}  {}\n", l.name, l.bytes,
                            l.intensity(rf.flops), ridge,
                            ridge <= 0 ? "" : l.intensity(rf.flops) < ridge ? "memory side" : "compute side");
        }
      },
      [roof] {
        if (!*roof) return nlohmann::json{{"roofline", nullptr}};
        const Roofline& rf = **roof;
        nlohmann::json levels = nlohmann::json::array(), peaks = nlohmann::json::array();
        for (const RooflineLevel& l : rf.levels) {
          levels.push_back({{"name", l.name}, {"bytes", l.bytes}, {"bandwidth_gbs", l.bandwidthGBs},
                            {"intensity", l.intensity(rf.flops)}});
        }
        for (const RooflinePeak& p : rf.peaks) peaks.push_back({{"name", p.name}, {"gflops", p.gflops}});
        return nlohmann::json{{"roofline",
                               {{"flops", rf.flops}, {"seconds", rf.seconds}, {"gflops", rf.gflops()},
                                {"levels", levels}, {"peaks", peaks}}}};
      }));
  parts_.push_back(makeReportPart(
      "timing_sensitivity",
      [timing, model](std::ostream& os) {
        if (!*timing || (*timing)->entries.empty()) return;
        const SensitivityReport& t = **timing;
        os << fmt::format("timing model's sensitivity ({}: elasticity of its time to the GPU's timing parameters, {}; sum = {:.2f})\n",
                          model, t.method, t.sum);
        printElasticities(os, t.entries);
        os << fmt::format("largest     {}\n", boundText(t));
      },
      [timing] {
        nlohmann::json j = {{"timing_sensitivity", nullptr}};
        if (!*timing) return j;
        const SensitivityReport& t = **timing;
        j["timing_sensitivity"] = {{"entries", elasticitiesJson(t.entries)},
                                   {"sum", t.sum},
                                   {"method", t.method},
                                   {"largest", {{"unit", t.boundUnit}, {"resource", resourceName(t.bound.resource)},
                                                {"mode", boundModeName(t.bound.mode)}}},
                                   {"warnings", t.warnings}};
        return j;
      }));
  parts_.push_back(makeReportPart(
      "timing_whatif",
      [timingSwitches, model](std::ostream& os) {
        if (timingSwitches->empty()) return;
        os << fmt::format("timing model's what-if ({}: cycles saved when the penalty is removed, predicted again)\n",
                          model);
        printWhatIf(os, *timingSwitches);
      },
      [timingSwitches] { return nlohmann::json{{"timing_whatif", whatIfJson(*timingSwitches)}}; }));
  parts_.push_back(makeReportPart(
      "sensitivity",
      [s](std::ostream& os) {
        os << fmt::format("sensitivity (elasticity of T to each parameter, {}; sum = {:.2f})\n", s->method, s->sum);
        printElasticities(os, s->entries);
        os << fmt::format("bottleneck  {}{}\n", boundText(*s), s->clearWinner ? "" : "; no clear winner, see regions");
      },
      [s] {
        nlohmann::json j;
        j["sensitivity"] = elasticitiesJson(s->entries);
        j["sensitivity_sum"] = s->sum;
        j["sensitivity_method"] = s->method;
        j["bottleneck"] = {{"unit", s->boundUnit}, {"resource", resourceName(s->bound.resource)},
                           {"mode", boundModeName(s->bound.mode)}, {"clear_winner", s->clearWinner}};
        return j;
      }));
  parts_.push_back(makeReportPart(
      "regions",
      [s](std::ostream& os) {
        if (s->regional.empty()) return;
        os << "regions (elasticity share of total time per source range)\n";
        for (const Elasticity& e : s->regional) {
          os << fmt::format("  {:<10} {:<8} {:<28} {:6.2f}\n", e.unit, parameterName(e.parameter), e.region,
                            e.elasticity);
        }
      },
      [s] {
        nlohmann::json regions = nlohmann::json::array();
        for (const Elasticity& e : s->regional) {
          regions.push_back({{"resource", e.unit}, {"parameter", parameterName(e.parameter)},
                             {"region", e.region}, {"elasticity", e.elasticity}});
        }
        return nlohmann::json{{"regions", regions}};
      }));
  parts_.push_back(makeReportPart(
      "alone",
      [s](std::ostream& os) {
        os << "resources alone (cycles each would need by itself)\n";
        for (const ResourceAlone& a : s->alone) {
          if (a.cycles <= 0) continue;
          os << fmt::format("  {:<10} {:>14.0f}  {:5.1f}%\n", a.unit, a.cycles, 100.0 * a.cycles / s->cycles);
        }
      },
      [s] {
        nlohmann::json alone = nlohmann::json::array();
        for (const ResourceAlone& a : s->alone) alone.push_back({{"resource", a.unit}, {"cycles", a.cycles}});
        return nlohmann::json{{"alone", alone}};
      }));
  parts_.push_back(makeReportPart(
      "whatif",
      [switches](std::ostream& os) {
        os << "what-if (cycles saved when the penalty is removed)\n";
        printWhatIf(os, *switches);
      },
      [switches] { return nlohmann::json{{"whatif", whatIfJson(*switches)}}; }));
  parts_.push_back(makeReportPart(
      "register_bank_conflicts",
      [lines](std::ostream& os) {
        if (lines->empty()) return;
        os << "register-bank conflicts (FFMA sources read from one bank; cycles: the line's share of conflict-free-registers)\n";
        os << fmt::format("  {:<28} {:>5} {:>10} {:>6} {:>17} {:>12}\n", "line", "FFMA", "conflicted", "degree",
                          "extra cycles/warp", "cycles");
        for (const RegisterConflictLine& c : *lines) {
          const std::string where = c.line > 0 ? fmt::format("{}:{}", c.file, c.line) : std::string("(no line)");
          os << fmt::format("  {:<28} {:>5} {:>10} {:>6} {:>17.0f} {:>12.0f}\n", where, c.checked, c.conflicted,
                            fmt::format("{}-way", c.maxDegree), c.extraCyclesPerWarp, c.predictedCycles);
        }
      },
      [lines] {
        nlohmann::json conflicts = nlohmann::json::array();
        for (const RegisterConflictLine& c : *lines) {
          conflicts.push_back({{"file", c.file}, {"line", c.line}, {"ffma", c.checked}, {"conflicted", c.conflicted},
                               {"max_degree", c.maxDegree}, {"extra_cycles_per_warp", c.extraCyclesPerWarp},
                               {"predicted_cycles", c.predictedCycles}});
        }
        return nlohmann::json{{"register_bank_conflicts", conflicts}};
      }));
  parts_.push_back(makeReportPart(
      "fixes",
      [changes, model](std::ostream& os) {
        os << "fixes (changes worth making, best first; speedups predicted by the emulate model, each against the "
              "kernel as it is)\n";
        if (changes->empty()) os << fmt::format("  none: no change saves {:.0f}% or more\n", 100 * (kFixThreshold - 1));
        for (const Fix& f : *changes) {
          os << fmt::format("  {:>8}  {:<21} {}\n", fmt::format("{}{:.2f}x", f.upperBound ? "<=" : "", f.speedup),
                            f.kind, f.change);
          for (const FixLine& l : f.lines) os << fmt::format("{:12}{}:{}  {}\n", "", l.file, l.line, l.detail);
          os << fmt::format("{:12}why: {} ({})\n", "", f.why, f.basis);
          if (f.modelSpeedup) os << fmt::format("{:12}{} predicts {}{:.2f}x\n", "", model, f.upperBound ? "<=" : "",
                                               *f.modelSpeedup);
        }
      },
      [changes] {
        nlohmann::json out = nlohmann::json::array();
        for (const Fix& f : *changes) {
          nlohmann::json lines = nlohmann::json::array();
          for (const FixLine& l : f.lines) lines.push_back({{"file", l.file}, {"line", l.line}, {"detail", l.detail}});
          out.push_back({{"kind", f.kind}, {"change", f.change}, {"why", f.why}, {"lines", lines}, {"basis", f.basis},
                         {"cycles_before", f.cyclesBefore}, {"cycles_after", f.cyclesAfter}, {"speedup", f.speedup},
                         {"upper_bound", f.upperBound},
                         {"model_speedup", f.modelSpeedup ? nlohmann::json(*f.modelSpeedup) : nlohmann::json(nullptr)}});
        }
        return nlohmann::json{{"fixes", out}};
      }));
  parts_.push_back(makeReportPart(
      "lines",
      [costs](std::ostream& os) {
        if (!*costs) return;
        double total = 0;
        for (const SourceLineCost& c : **costs) total += c.stallCycles;
        os << "source lines (emulated SM: warp instructions issued, warp-cycles waited before they could issue, "
              "and on what)\n";
        os << fmt::format("  {:<28} {:>6} {:>10} {:>14} {:>6}  {:<26} {:>14}\n", "line", "instrs", "issued",
                          "stall cycles", "share", "waits most on", "not selected");
        for (const SourceLineCost& c : **costs) {
          const std::string where = c.line > 0 ? fmt::format("{}:{}", c.file, c.line) : std::string("(no line)");
          std::string most = "-";
          if (!c.waits.empty() && c.stallCycles > 0) {
            const LineWait& w = c.waits.front();
            const std::string what = w.unit.empty()         ? w.reason
                                     : w.reason == "operand" ? w.unit + " result"
                                     : w.reason == "queue"   ? w.unit + " throughput"
                                                             : w.reason;
            most = fmt::format("{} ({:.0f}%)", what, 100 * w.cycles / c.stallCycles);
          }
          os << fmt::format("  {:<28} {:>6} {:>10} {:>14.0f} {:>5.1f}%  {:<26} {:>14.0f}\n", where, c.instructions,
                            c.issued, c.stallCycles, total > 0 ? 100 * c.stallCycles / total : 0.0, most,
                            c.notSelectedCycles);
        }
      },
      [costs] {
        if (!*costs) return nlohmann::json(nullptr);
        nlohmann::json out = nlohmann::json::array();
        for (const SourceLineCost& c : **costs) {
          nlohmann::json waits = nlohmann::json::array();
          for (const LineWait& w : c.waits) waits.push_back({{"reason", w.reason}, {"unit", w.unit}, {"cycles", w.cycles}});
          out.push_back({{"file", c.file}, {"line", c.line}, {"instructions", c.instructions}, {"issued", c.issued},
                         {"stall_cycles", c.stallCycles}, {"not_selected_cycles", c.notSelectedCycles},
                         {"waits", waits}});
        }
        return nlohmann::json{{"lines", out}};
      }));
  std::shared_ptr<const std::vector<OccupancyPoint>> curve(r, &r->occupancyByBlock);
  parts_.push_back(makeReportPart("occupancy_by_block", nullptr, [curve] {
    nlohmann::json out = nlohmann::json::array();
    for (const OccupancyPoint& p : *curve) {
      out.push_back({{"threads", p.threads}, {"blocks_per_sm", p.blocksPerSm}, {"warps_per_sm", p.warpsPerSm},
                     {"fraction", p.fraction}, {"limiter", occupancyLimiterName(p.limiter)}});
    }
    return nlohmann::json{{"occupancy_by_block", out}};
  }));
  std::shared_ptr<const std::optional<std::vector<TimelineEntry>>> timeline(r, &r->timeline);
  parts_.push_back(makeReportPart("timeline", nullptr, [timeline] {
    if (!*timeline) return nlohmann::json(nullptr);
    nlohmann::json out = nlohmann::json::array();
    for (const TimelineEntry& e : **timeline) {
      out.push_back({{"warp", e.warp}, {"cycle", e.cycle}, {"finish", e.finish}, {"op", e.op}, {"unit", e.unit}});
    }
    return nlohmann::json{{"timeline", out}};
  }));
}

}  // namespace foresight
