// SPDX-License-Identifier: Apache-2.0
/// \file
/// Rendering of PredictionView as text and JSON.
#include "foresight/report/prediction_view.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>

namespace foresight {

namespace {

std::string dim3Text(const Dim3& d) { return fmt::format("{}x{}x{}", d.x, d.y, d.z); }

nlohmann::json dim3Json(const Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); }

/// Integers and large values to the unit, others to 4 significant digits.
std::string numberText(double v) {
  if (std::isinf(v)) return "inf";
  const double mag = std::fabs(v);
  if (mag >= 1e15) return fmt::format("{:.4g}", v);
  if (mag >= 1e4 || std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{:.0f}", v);
  return fmt::format("{:.4g}", v);
}

}  // namespace

std::string timeText(double seconds) {
  if (seconds >= 1) return fmt::format("{:.3f} s", seconds);
  if (seconds >= 1e-3) return fmt::format("{:.3f} ms", seconds * 1e3);
  return fmt::format("{:.3f} us", seconds * 1e6);
}

void printContextHeader(std::ostream& os, const PredictionContext& c, const std::string& modelLine) {
  const Gpu& gpu = *c.gpu;
  os << fmt::format("input      {} ({} frontend)\n", c.input, c.frontend);
  os << fmt::format("kernel     {}\n", c.kernel);
  os << fmt::format("gpu        {}: {}, {} SMs at {:.3f} GHz\n", gpu.name, gpu.fullName, gpu.smCount.value,
                    gpu.clockGhz.value);
  if (!modelLine.empty()) os << fmt::format("model      {}\n", modelLine);
  os << fmt::format("launch     grid {}, block {}: {} blocks of {} threads\n", dim3Text(c.launch.grid),
                    dim3Text(c.launch.block), c.launch.blocks(), c.launch.threadsPerBlock());
  if (c.launch.dynamicSharedBytes > 0) {
    os << fmt::format("           {} B of dynamic shared memory per block\n", c.launch.dynamicSharedBytes);
  }
  if (c.launch.l2Start == L2Start::Warm) {
    os << "           warm L2: its data as the same launch left it just before\n";
  }
  if (c.launch.timing == LaunchTiming::Alone) {
    os << "           timed alone: CUDA events just before and after it (the GPU's launch latency added)\n";
  }
}

std::string predictionSummary(const PredictionContext& c, const Prediction& p) {
  return fmt::format("{} on {}: {}, {} bound ({}), {}/{}", c.kernel, c.gpu->name, timeText(p.seconds),
                     resourceName(p.bound.resource), boundModeName(p.bound.mode), p.model, p.variant);
}

nlohmann::json contextJson(const PredictionContext& c) {
  nlohmann::json j;
  j["input"] = c.input;
  j["frontend"] = c.frontend;
  j["kernel"] = c.kernel;
  j["gpu"] = c.gpu->name;
  j["launch"] = {{"grid", dim3Json(c.launch.grid)},
                 {"block", dim3Json(c.launch.block)},
                 {"dynamic_shared_bytes", c.launch.dynamicSharedBytes}};
  if (c.launch.l2Start == L2Start::Warm) j["launch"]["l2"] = l2StartName(c.launch.l2Start);
  if (c.launch.timing == LaunchTiming::Alone) j["launch"]["timing"] = launchTimingName(c.launch.timing);
  return j;
}

namespace {

/// `context`: what was predicted, with the model and the carveout's shared capacity.
std::shared_ptr<const ReportPart> contextPart(std::shared_ptr<const PredictionContext> c,
                                              std::shared_ptr<const Prediction> p) {
  return makeReportPart(
      "context",
      [c, p](std::ostream& os) {
        printContextHeader(os, *c, fmt::format("{} ({} variant)", p->model, p->variant));
        if (c->launch.carveoutPercent) {
          os << fmt::format("           carveout {}% -> {} KiB of shared memory per SM\n", *c->launch.carveoutPercent,
                            p->occupancy.sharedCapacity / 1024);
        }
      },
      [c, p] {
        nlohmann::json j = contextJson(*c);
        j["model"] = p->model;
        j["variant"] = p->variant;
        if (c->launch.carveoutPercent) {
          j["launch"]["carveout_percent"] = *c->launch.carveoutPercent;
          j["launch"]["shared_capacity_bytes"] = p->occupancy.sharedCapacity;
        }
        return j;
      });
}

/// `summary`: time, occupancy, bound and the MWP/CWP headline values.
std::shared_ptr<const ReportPart> summaryPart(std::shared_ptr<const Prediction> p) {
  return makeReportPart(
      "summary",
      [p](std::ostream& os) {
        os << fmt::format("time       {} ({:.0f} cycles)\n", timeText(p->seconds), p->cycles);
        os << fmt::format("occupancy  {} blocks/SM, {} warps/SM ({:.1f}%), limited by {}\n",
                          p->occupancy.blocksPerSm, p->occupancy.warpsPerSm, 100.0 * p->occupancy.fraction,
                          occupancyLimiterName(p->occupancy.limiter));
        // Blocks the model actually keeps on an SM (mwp-cwp: Active_blocks_per_SM; emulate:
        // blocks_resident) when the grid is too small to fill the occupancy limit.
        const NamedValue* active = p->value("Active_blocks_per_SM");
        if (!active) active = p->value("blocks_resident");
        if (active && active->value < p->occupancy.blocksPerSm) {
          os << fmt::format("           the grid fills {} of them per SM (fewer blocks than one wave)\n",
                            active->value);
        }
        os << fmt::format("bound      {} ({}): {}\n", resourceName(p->bound.resource),
                          boundModeName(p->bound.mode), p->boundExplanation);
        for (const char* headline : {"MWP", "CWP"}) {
          if (const NamedValue* v = p->value(headline)) {
            os << fmt::format("{:<10} {}\n", headline, numberText(v->value));
          }
        }
      },
      [p] {
        nlohmann::json j;
        j["occupancy"] = {{"blocks_per_sm", p->occupancy.blocksPerSm},
                          {"warps_per_sm", p->occupancy.warpsPerSm},
                          {"warps_per_block", p->occupancy.warpsPerBlock},
                          {"fraction", p->occupancy.fraction},
                          {"limiter", occupancyLimiterName(p->occupancy.limiter)}};
        j["cycles"] = p->cycles;
        j["time_s"] = p->seconds;
        j["bound"] = {{"resource", resourceName(p->bound.resource)},
                      {"mode", boundModeName(p->bound.mode)},
                      {"explanation", p->boundExplanation}};
        return j;
      });
}

/// `values`: every named value of the model, with its note.
std::shared_ptr<const ReportPart> valuesPart(std::shared_ptr<const Prediction> p) {
  return makeReportPart(
      "values",
      [p](std::ostream& os) {
        os << "model values\n";
        // One column for the numbers: the names' width, at least 20.
        size_t width = 20;
        for (const NamedValue& v : p->values) width = std::max(width, v.name.size());
        for (const NamedValue& v : p->values) {
          os << fmt::format("  {:<{}} {:>14}  {}\n", v.name, width, numberText(v.value), v.note);
        }
      },
      [p] {
        nlohmann::json values = nlohmann::json::object();
        for (const NamedValue& v : p->values) {
          values[v.name] = std::isinf(v.value) ? nlohmann::json(nullptr) : nlohmann::json(v.value);
        }
        return nlohmann::json{{"values", values}};
      });
}

/// `resources`: the cycles each resource would need alone and its share of the time.
std::shared_ptr<const ReportPart> resourcesPart(std::shared_ptr<const Prediction> p) {
  return makeReportPart(
      "resources",
      [p](std::ostream& os) {
        os << "resources (cycles each would need alone; share of the predicted time)\n";
        for (const ResourceUse& r : p->resources) {
          os << fmt::format("  {:<12} {:>14.0f}  {:6.1f}%\n", resourceName(r.resource), r.busyCycles,
                            100.0 * r.utilization);
        }
      },
      [p] {
        nlohmann::json resources = nlohmann::json::array();
        for (const ResourceUse& r : p->resources) {
          resources.push_back({{"name", resourceName(r.resource)},
                               {"busy_cycles", r.busyCycles},
                               {"utilization", r.utilization}});
        }
        return nlohmann::json{{"resources", resources}};
      });
}

/// `warnings`: what the model could not take into account (no text when there is none).
std::shared_ptr<const ReportPart> warningsPart(std::shared_ptr<const Prediction> p) {
  return makeReportPart(
      "warnings",
      [p](std::ostream& os) {
        if (p->warnings.empty()) return;
        os << "warnings\n";
        for (const std::string& w : p->warnings) os << "  - " << w << "\n";
      },
      [p] { return nlohmann::json{{"warnings", p->warnings}}; });
}

}  // namespace

PredictionView::PredictionView(PredictionContext context, Prediction prediction)
    : Report("prediction", {}),
      context_(std::make_shared<const PredictionContext>(std::move(context))),
      prediction_(std::make_shared<const Prediction>(std::move(prediction))) {
  parts_ = {contextPart(context_, prediction_), summaryPart(prediction_), valuesPart(prediction_),
            resourcesPart(prediction_), warningsPart(prediction_)};
}

void GpuComparisonView::printText(std::ostream& os) const {
  if (rows_.empty()) return;
  const PredictionContext& first = rows_.front().context();
  os << fmt::format("input      {} ({} frontend)\n\n", first.input, first.frontend);
  std::vector<std::array<std::string, 7>> table = {{"kernel", "gpu", "time", "occupancy", "bound", "model", "launch"}};
  for (const PredictionView& r : rows_) {
    const Prediction& p = r.prediction();
    const PredictionContext& c = r.context();
    table.push_back({c.kernel, c.gpu->name, timeText(p.seconds), fmt::format("{:.1f}%", 100.0 * p.occupancy.fraction),
                     fmt::format("{} ({})", resourceName(p.bound.resource), boundModeName(p.bound.mode)),
                     p.model + "/" + p.variant,
                     fmt::format("grid {}, block {}", dim3Text(c.launch.grid), dim3Text(c.launch.block))});
  }
  std::array<size_t, 7> width{};
  for (const auto& row : table) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : table) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) line += fmt::format("{:<{}}", row[i], i + 1 < row.size() ? width[i] + 2 : 0);
    os << line << "\n";
  }
  bool warned = false;
  for (const PredictionView& r : rows_) {
    for (const std::string& w : r.prediction().warnings) {
      if (!warned) os << "\nwarnings\n";
      warned = true;
      os << fmt::format("  - {} on {}: {}\n", r.context().kernel, r.context().gpu->name, w);
    }
  }
}

std::string GpuComparisonView::summary() const {
  std::string out;
  for (const PredictionView& r : rows_) out += r.summary();
  return out;
}

nlohmann::json GpuComparisonView::toJson() const {
  nlohmann::json all = nlohmann::json::array();
  for (const PredictionView& r : rows_) all.push_back(r.toJson());
  return all;
}

double ProgramPredictionView::programSeconds() const {
  double total = 0;
  for (const Kernel& k : kernels_) total += k.view.prediction().seconds * k.launchesPerRun;
  return total;
}

void ProgramPredictionView::printText(std::ostream& os) const {
  std::string parts;
  for (size_t i = 0; i < kernels_.size(); ++i) {
    const Kernel& k = kernels_[i];
    parts += fmt::format("{}{} {:.3f} ms x {}", parts.empty() ? "" : ", ", k.view.context().kernel,
                         k.view.prediction().seconds * 1e3, k.launchesPerRun);
    if (i) os << "\n";
    k.view.printText(os);
  }
  if (!single()) os << fmt::format("\nprogram    {:.3f} ms per run ({})\n", programSeconds() * 1e3, parts);
}

std::string ProgramPredictionView::summary() const {
  if (single()) return kernels_[0].view.summary();
  std::string out;
  for (const Kernel& k : kernels_) {
    out += fmt::format("{} x {} per run\n", predictionSummary(k.view.context(), k.view.prediction()), k.launchesPerRun);
  }
  return out + fmt::format("program: {} per run\n", timeText(programSeconds()));
}

nlohmann::json ProgramPredictionView::toJson() const {
  nlohmann::json all = nlohmann::json::array();
  for (const Kernel& k : kernels_) {
    nlohmann::json j = k.view.toJson();
    j["launches_per_run"] = k.launchesPerRun;
    all.push_back(j);
  }
  if (single()) return all[0];
  return {{"input", input_}, {"kernels", all}, {"program_time_s", programSeconds()}};
}

}  // namespace foresight
