// SPDX-License-Identifier: Apache-2.0
/// \file
/// Rendering of ValidationView as text and JSON.
#include "foresight/report/validation_view.h"

#include "foresight/report/prediction_view.h"

#include <fmt/format.h>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

namespace foresight {

namespace {

std::string percent(const std::optional<double>& v, bool sign) {
  if (!v) return "n/a";
  return sign ? fmt::format("{:+.1f}%", *v * 100) : fmt::format("{:.1f}%", *v * 100);
}

nlohmann::json optionalJson(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

nlohmann::json rowJson(const ValidationRow& r) {
  nlohmann::json j = {{"gpu", r.gpu},
                      {"experiment", r.experiment},
                      {"variant", r.variant},
                      {"group", r.group},
                      {"model", r.model},
                      {"measured_s", r.measuredSeconds},
                      {"predicted_s", optionalJson(r.predictedSeconds)},
                      {"error", optionalJson(r.error)}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (!r.source.empty()) j["source"] = r.source;
  return j;
}

}  // namespace

void ValidationView::printText(std::ostream& os) const {
  const ValidationReport& r = report_;
  os << fmt::format("corpus     {}: {} experiments, {} variants\n", r.corpusDir, r.experiments,
                    r.variants);
  std::string gpus;
  for (const std::string& g : r.gpus) gpus += (gpus.empty() ? "" : ", ") + g;
  os << fmt::format("measured   {}: {} measurements{}{}\n", r.measurementsDir, r.measurements,
                    gpus.empty() ? "" : " on " + gpus,
                    r.superseded ? fmt::format(" ({} older runs superseded)", r.superseded) : "");
  std::string models;
  for (const std::string& m : r.models) models += (models.empty() ? "" : ", ") + m;
  os << fmt::format("models     {}\n", models);
  if (r.measurements == 0) {
    os << "\npending: no GPU measurements committed yet (run validation/runner on a GPU; "
          "docs/validation.md)\n";
  }

  size_t wName = 18, wModel = 5;
  for (const ValidationRow& row : r.rows) {
    wName = std::max(wName, row.experiment.size() + 1 + row.variant.size());
    wModel = std::max(wModel, row.model.size());
  }
  for (const std::string& m : r.models) wModel = std::max(wModel, m.size());
  os << fmt::format("\n{:<6}  {:<{}}  {:<{}}  {:>12}  {:>12}  {:>8}\n", "gpu", "experiment/variant",
                    wName, "model", wModel, "measured", "predicted", "error");
  for (const ValidationRow& row : r.rows) {
    const std::string name = row.experiment + "/" + row.variant;
    if (row.error) {
      os << fmt::format("{:<6}  {:<{}}  {:<{}}  {:>12}  {:>12}  {:>8}\n", row.gpu, name, wName,
                        row.model, wModel, timeText(row.measuredSeconds),
                        timeText(*row.predictedSeconds), percent(row.error, true));
    } else {
      os << fmt::format("{:<6}  {:<{}}  {:<{}}  {:>12}  not predicted ({})\n", row.gpu, name, wName,
                        row.model, wModel, timeText(row.measuredSeconds), row.reason);
    }
  }

  os << fmt::format("\n{:<{}}  {:>9}  {:>13}  {:>13}  {:>12}  {:<17}  {}\n", "model", wModel, "predicted",
                    "not predicted", "geomean |err|", "median |err|", "mean rho (groups)", "regret (mean, max)");
  for (const ModelSummary& s : r.summaries) {
    const std::string rho = fmt::format("{} ({})", s.meanRho ? fmt::format("{:.3f}", *s.meanRho) : "n/a", s.groups.size());
    os << fmt::format("{:<{}}  {:>9}  {:>13}  {:>13}  {:>12}  {:<17}  {}\n", s.model, wModel,
                      s.predicted, s.notPredicted, percent(s.geomeanAbsError, false),
                      percent(s.medianAbsError, false), rho,
                      s.meanRegret ? fmt::format("{:.3f}, {:.3f}", *s.meanRegret, *s.maxRegret) : "n/a");
  }
  if (!r.bySource.empty()) {
    size_t wSource = 6, wGpu = 3;
    for (const SourceSummary& s : r.bySource) {
      wSource = std::max(wSource, s.source.size());
      wGpu = std::max(wGpu, s.gpu.size());
    }
    os << fmt::format("\n{:<{}}  {:<{}}  {:<{}}  {:>9}  {:>13}  {:>13}  {:>12}  {:>8}\n", "source",
                      wSource, "gpu", wGpu, "model", wModel, "predicted", "not predicted",
                      "geomean |err|", "median |err|", "beyond 2x");
    for (const SourceSummary& s : r.bySource) {
      os << fmt::format("{:<{}}  {:<{}}  {:<{}}  {:>9}  {:>13}  {:>13}  {:>12}  {:>8}\n", s.source,
                        wSource, s.gpu, wGpu, s.model, wModel, s.predicted, s.notPredicted,
                        percent(s.geomeanAbsError, false), percent(s.medianAbsError, false),
                        s.beyond2x);
    }
  }
  for (const ModelSummary& s : r.summaries) {
    for (const ValidationRow& w : s.worst) {
      os << fmt::format("worst      {} {} {}/{} {}\n", s.model, w.gpu, w.experiment, w.variant,
                        percent(w.error, true));
    }
    for (const GroupCorrelation& g : s.groups) {
      os << fmt::format("rank       {} {} {}: rho {} over {} variants, regret {}\n", s.model, g.gpu, g.group,
                        g.rho ? fmt::format("{:.3f}", *g.rho) : "n/a (all tied)", g.n,
                        g.regret ? fmt::format("{:.3f}", *g.regret) : "n/a");
    }
  }
}

nlohmann::json ValidationView::toJson() const {
  const ValidationReport& r = report_;
  nlohmann::json rows = nlohmann::json::array();
  for (const ValidationRow& row : r.rows) rows.push_back(rowJson(row));
  nlohmann::json summaries = nlohmann::json::array();
  for (const ModelSummary& s : r.summaries) {
    nlohmann::json worst = nlohmann::json::array();
    for (const ValidationRow& w : s.worst) worst.push_back(rowJson(w));
    nlohmann::json groups = nlohmann::json::array();
    for (const GroupCorrelation& g : s.groups) {
      groups.push_back(
          {{"gpu", g.gpu}, {"group", g.group}, {"n", g.n}, {"rho", optionalJson(g.rho)}, {"regret", optionalJson(g.regret)}});
    }
    summaries.push_back({{"model", s.model},
                         {"predicted", s.predicted},
                         {"not_predicted", s.notPredicted},
                         {"geomean_abs_error", optionalJson(s.geomeanAbsError)},
                         {"median_abs_error", optionalJson(s.medianAbsError)},
                         {"worst", worst},
                         {"groups", groups},
                         {"mean_rho", optionalJson(s.meanRho)},
                         {"mean_regret", optionalJson(s.meanRegret)},
                         {"max_regret", optionalJson(s.maxRegret)}});
  }
  nlohmann::json out = {{"corpus", r.corpusDir},
                        {"measurements_dir", r.measurementsDir},
                        {"experiments", r.experiments},
                        {"variants", r.variants},
                        {"measurements", r.measurements},
                        {"superseded", r.superseded},
                        {"gpus", r.gpus},
                        {"models", r.models},
                        {"rows", rows},
                        {"summaries", summaries},
                        {"pending", r.measurements == 0}};
  if (!r.bySource.empty()) {
    nlohmann::json bySource = nlohmann::json::array();
    for (const SourceSummary& s : r.bySource) {
      bySource.push_back({{"source", s.source},
                          {"gpu", s.gpu},
                          {"model", s.model},
                          {"predicted", s.predicted},
                          {"not_predicted", s.notPredicted},
                          {"geomean_abs_error", optionalJson(s.geomeanAbsError)},
                          {"median_abs_error", optionalJson(s.medianAbsError)},
                          {"beyond_2x", s.beyond2x}});
    }
    out["by_source"] = bySource;
  }
  return out;
}

}  // namespace foresight
