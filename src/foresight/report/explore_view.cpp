// SPDX-License-Identifier: Apache-2.0
/// \file
/// Rendering of ExploreView as text and JSON.
#include "foresight/report/explore_view.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>

#include "foresight/report/prediction_view.h"

namespace foresight {

namespace {

std::string dimText(const Dim3& d) { return fmt::format("{}x{}x{}", d.x, d.y, d.z); }

std::string boundText(const Prediction& p) {
  return fmt::format("{} ({})", resourceName(p.bound.resource), boundModeName(p.bound.mode));
}

std::string valuesText(const std::map<std::string, long long>& values) {
  std::string s;
  for (const auto& [name, value] : values) s += fmt::format("{}{}={}", s.empty() ? "" : " ", name, value);
  return s;
}

}  // namespace

nlohmann::json exploredVariantJson(const ExploredVariant& v, int rank) {
  nlohmann::json j;
  j["index"] = v.index;
  j["values"] = v.values;
  j["defines"] = defineLine(v.values);
  j["rank"] = v.prediction && rank > 0 ? nlohmann::json(rank) : nlohmann::json(nullptr);
  if (v.launch) {
    j["grid"] = {v.launch->grid.x, v.launch->grid.y, v.launch->grid.z};
    j["block"] = {v.launch->block.x, v.launch->block.y, v.launch->block.z};
  }
  if (v.prediction) {
    const Prediction& p = *v.prediction;
    j["time_s"] = p.seconds;
    j["cycles"] = p.cycles;
    j["occupancy"] = p.occupancy.fraction;
    j["bound"] = {{"resource", resourceName(p.bound.resource)}, {"mode", boundModeName(p.bound.mode)}};
    j["error"] = nullptr;
  } else {
    j["error"] = v.error;
  }
  return j;
}

void ExploreView::printText(std::ostream& os) const {
  const ExploredVariant& b = best();
  const Prediction& bp = *b.prediction;
  os << fmt::format("input      {} ({} frontend)\n", input_, b.frontend);
  os << fmt::format("kernel     {}\n", b.kernel);
  os << fmt::format("gpu        {}: {}, {} SMs at {:.3f} GHz\n", gpu_->name, gpu_->fullName, gpu_->smCount.value,
                    gpu_->clockGhz.value);
  os << fmt::format("model      {} ({} variant)\n", bp.model, bp.variant);
  os << fmt::format("space      {}: {} variants, {} predicted\n", space_.describe(), result_.spaceSize, result_.predicted);
  os << "\n";
  // Columns: rank, one per parameter, grid, block, time, vs best, occupancy, bound.
  std::vector<std::string> header = {"rank"};
  for (const SpaceDimension& d : space_.dimensions) header.push_back(d.name);
  for (const char* h : {"grid", "block", "time", "vs best", "occupancy", "bound"}) header.emplace_back(h);
  std::vector<std::vector<std::string>> rows;
  int rank = 0;
  for (const ExploredVariant& v : result_.variants) {
    if (!v.prediction) break;
    ++rank;
    if (top_ > 0 && rank > top_) continue;
    const Prediction& p = *v.prediction;
    std::vector<std::string> row = {std::to_string(rank)};
    for (const SpaceDimension& d : space_.dimensions) row.push_back(std::to_string(v.values.at(d.name)));
    row.push_back(dimText(v.launch->grid));
    row.push_back(dimText(v.launch->block));
    row.push_back(timeText(p.seconds));
    row.push_back(fmt::format("{:.2f}x", p.seconds / bp.seconds));
    row.push_back(fmt::format("{:.1f}%", 100.0 * p.occupancy.fraction));
    row.push_back(boundText(p));
    rows.push_back(std::move(row));
  }
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& r : rows) width[c] = std::max(width[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (size_t c = 0; c < cells.size(); ++c) {
      const bool last = c + 1 == cells.size();
      // Numbers right-aligned (rank and the parameters), text left-aligned.
      const bool right = c <= space_.dimensions.size();
      if (c) s += "  ";
      s += right ? fmt::format("{:>{}}", cells[c], width[c]) : last ? cells[c] : fmt::format("{:<{}}", cells[c], width[c]);
    }
    os << s << "\n";
  };
  line(header);
  for (const auto& r : rows) line(r);
  if (top_ > 0 && result_.predicted > top_) os << fmt::format("({} more; --top 0 shows all)\n", result_.predicted - top_);
  if (result_.predicted < result_.spaceSize) {
    os << "\nnot predicted\n";
    for (const ExploredVariant& v : result_.variants) {
      if (!v.prediction) os << fmt::format("  {}: {}\n", valuesText(v.values), v.error);
    }
  }
  os << "\n";
  os << fmt::format("best       {} ({}; grid {}, block {})\n", defineLine(b.values), timeText(bp.seconds),
                    dimText(b.launch->grid), dimText(b.launch->block));
}

nlohmann::json ExploreView::toJson() const {
  const ExploredVariant& b = best();
  nlohmann::json j;
  j["input"] = input_;
  j["frontend"] = b.frontend;
  j["kernel"] = b.kernel;
  j["gpu"] = gpu_->name;
  j["model"] = b.prediction->model;
  j["variant"] = b.prediction->variant;
  nlohmann::json space = nlohmann::json::array();
  for (const SpaceDimension& d : space_.dimensions) space.push_back({{"name", d.name}, {"values", d.values}});
  j["space"] = space;
  j["space_size"] = result_.spaceSize;
  j["predicted"] = result_.predicted;
  nlohmann::json variants = nlohmann::json::array();
  int rank = 0;
  for (const ExploredVariant& v : result_.variants) variants.push_back(exploredVariantJson(v, v.prediction ? ++rank : 0));
  j["variants"] = variants;
  j["best"] = exploredVariantJson(b, 1);
  return j;
}

}  // namespace foresight
