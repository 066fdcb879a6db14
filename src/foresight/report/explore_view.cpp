// SPDX-License-Identifier: Apache-2.0
/// \file
/// Rendering of ExploreView as JSON, the text from that JSON, and the merge of shard reports.
#include "foresight/report/explore_view.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>

#include "foresight/report/prediction_view.h"

namespace foresight {

namespace {

using nlohmann::json;

std::string dimText(const json& d) { return fmt::format("{}x{}x{}", d[0].get<long long>(), d[1].get<long long>(), d[2].get<long long>()); }

std::string valuesText(const json& values) {
  std::string s;
  for (const auto& [name, value] : values.items()) s += fmt::format("{}{}={}", s.empty() ? "" : " ", name, value.get<long long>());
  return s;
}

/// Ranked first (by time, then enumeration index), the unpredicted after in index order.
void rank(json& variants) {
  std::vector<json> v(variants.begin(), variants.end());
  std::stable_sort(v.begin(), v.end(), [](const json& a, const json& b) {
    const bool pa = a["error"].is_null(), pb = b["error"].is_null();
    if (pa != pb) return pa;
    if (pa && a["time_s"].get<double>() != b["time_s"].get<double>()) return a["time_s"].get<double>() < b["time_s"].get<double>();
    return a["index"].get<long long>() < b["index"].get<long long>();
  });
  int r = 0;
  for (json& x : v) x["rank"] = x["error"].is_null() ? json(++r) : json(nullptr);
  variants = json(v);
}

}  // namespace

nlohmann::json exploredVariantJson(const ExploredVariant& v, int rank) {
  json j;
  j["index"] = v.index;
  j["values"] = v.values;
  j["defines"] = defineLine(v.values);
  j["rank"] = v.prediction && rank > 0 ? json(rank) : json(nullptr);
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

void printExploreText(const nlohmann::json& j, long long top, std::ostream& os) {
  const json& variants = j["variants"];
  const json& best = j["best"];
  os << fmt::format("input      {} ({} frontend)\n", j["input"].get<std::string>(), j["frontend"].get<std::string>());
  os << fmt::format("kernel     {}\n", j["kernel"].get<std::string>());
  os << fmt::format("gpu        {}: {}, {} SMs at {:.3f} GHz\n", j["gpu"].get<std::string>(),
                    j["gpu_full_name"].get<std::string>(), j["sms"].get<int>(), j["clock_ghz"].get<double>());
  os << fmt::format("model      {} ({} variant)\n", j["model"].get<std::string>(), j["variant"].get<std::string>());
  std::string space;
  for (const json& d : j["space"]) {
    const size_t n = d["values"].size();
    space += fmt::format("{}{} ({} {})", space.empty() ? "" : ", ", d["text"].get<std::string>(), n, n == 1 ? "value" : "values");
  }
  const long long predicted = j["predicted"].get<long long>();
  os << fmt::format("space      {}: {} variants", space, j["space_size"].get<long long>());
  if (j.contains("shard")) {
    os << fmt::format(", shard {} of {}: {} of them", j["shard"][0].get<long long>(), j["shard"][1].get<long long>(), variants.size());
  }
  os << fmt::format(", {} predicted\n\n", predicted);
  if (best.is_null()) {
    os << "no variant of this shard could be predicted\n";
  } else {
    const double bestTime = best["time_s"].get<double>();
    // Columns: rank, one per parameter, grid, block, time, vs best, occupancy, bound.
    std::vector<std::string> header = {"rank"};
    for (const json& d : j["space"]) header.push_back(d["name"].get<std::string>());
    for (const char* h : {"grid", "block", "time", "vs best", "occupancy", "bound"}) header.emplace_back(h);
    const size_t numbers = j["space"].size() + 1;  // right-aligned columns
    std::vector<std::vector<std::string>> rows;
    for (const json& v : variants) {
      if (v["rank"].is_null()) continue;
      if (top > 0 && v["rank"].get<long long>() > top) continue;
      std::vector<std::string> row = {std::to_string(v["rank"].get<long long>())};
      for (const json& d : j["space"]) row.push_back(std::to_string(v["values"][d["name"].get<std::string>()].get<long long>()));
      row.push_back(dimText(v["grid"]));
      row.push_back(dimText(v["block"]));
      row.push_back(timeText(v["time_s"].get<double>()));
      row.push_back(fmt::format("{:.2f}x", v["time_s"].get<double>() / bestTime));
      row.push_back(fmt::format("{:.1f}%", 100.0 * v["occupancy"].get<double>()));
      row.push_back(fmt::format("{} ({})", v["bound"]["resource"].get<std::string>(), v["bound"]["mode"].get<std::string>()));
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
        if (c) s += "  ";
        if (c < numbers) {
          s += fmt::format("{:>{}}", cells[c], width[c]);
        } else {
          s += c + 1 == cells.size() ? cells[c] : fmt::format("{:<{}}", cells[c], width[c]);
        }
      }
      os << s << "\n";
    };
    line(header);
    for (const auto& r : rows) line(r);
    if (top > 0 && predicted > top) os << fmt::format("({} more; --top 0 shows all)\n", predicted - top);
  }
  if (predicted < static_cast<long long>(variants.size())) {
    os << "\nnot predicted\n";
    for (const json& v : variants) {
      if (!v["error"].is_null()) os << fmt::format("  {}: {}\n", valuesText(v["values"]), v["error"].get<std::string>());
    }
  }
  if (!best.is_null()) {
    os << "\n";
    os << fmt::format("best       {} ({}; grid {}, block {})\n", best["defines"].get<std::string>(),
                      timeText(best["time_s"].get<double>()), dimText(best["grid"]), dimText(best["block"]));
  }
}

Expected<nlohmann::json> mergeExploreReports(const std::vector<nlohmann::json>& reports) {
  if (reports.empty()) return makeError("merge needs the reports of the shards");
  static const char* kSame[] = {"input", "frontend", "kernel", "gpu", "model", "variant", "space", "space_size"};
  const json& first = reports.front();
  for (size_t i = 0; i < reports.size(); ++i) {
    const json& r = reports[i];
    if (!r.is_object() || !r.contains("shard") || !r.contains("variants")) {
      return makeError("report " + std::to_string(i + 1) + " is not the --json report of `explore --shard i/n`");
    }
    static const char* kKeys[] = {"input", "frontend", "kernel", "gpu", "gpu_full_name", "sms", "clock_ghz", "model",
                                  "variant", "space", "space_size", "predicted", "best"};
    for (const char* key : kKeys) {
      if (!r.contains(key)) return makeError("report " + std::to_string(i + 1) + " lacks '" + key + "' (not a report of this foresight?)");
    }
    const json& sh = r["shard"];
    if (!sh.is_array() || sh.size() != 2 || !sh[0].is_number_integer() || !sh[1].is_number_integer() || !r["variants"].is_array()) {
      return makeError("report " + std::to_string(i + 1) + " has a malformed 'shard' or 'variants'");
    }
    for (const json& v : r["variants"]) {
      if (!v.is_object() || !v.contains("index") || !v.contains("values") || !v.contains("error") ||
          (v["error"].is_null() && !(v.contains("time_s") && v.contains("grid") && v.contains("block")))) {
        return makeError("report " + std::to_string(i + 1) + " has a malformed variant");
      }
    }
    for (const char* key : kSame) {
      if (r.value(key, json()) != first.value(key, json())) {
        return makeError("report " + std::to_string(i + 1) + " is of another search: its '" + key + "' differs from the first's");
      }
    }
  }
  const long long shards = first["shard"][1].get<long long>();
  std::set<long long> seen;
  for (const json& r : reports) {
    if (r["shard"][1].get<long long>() != shards) return makeError("the reports split the space into different shard counts");
    if (!seen.insert(r["shard"][0].get<long long>()).second) {
      return makeError("shard " + std::to_string(r["shard"][0].get<long long>()) + " is given twice");
    }
  }
  for (long long s = 0; s < shards; ++s) {
    if (!seen.count(s)) return makeError("shard " + std::to_string(s) + " of " + std::to_string(shards) + " is missing");
  }
  json merged = first;
  merged.erase("shard");
  json variants = json::array();
  long long predicted = 0;
  for (const json& r : reports) {
    for (const json& v : r["variants"]) {
      variants.push_back(v);
      predicted += v["error"].is_null() ? 1 : 0;
    }
  }
  if (static_cast<long long>(variants.size()) != first["space_size"].get<long long>()) {
    return makeError("the shards hold " + std::to_string(variants.size()) + " variants, the space " +
                     std::to_string(first["space_size"].get<long long>()));
  }
  if (predicted == 0) return makeError("no variant of any shard could be predicted");
  rank(variants);
  merged["variants"] = variants;
  merged["predicted"] = predicted;
  merged["best"] = variants[0];
  return merged;
}

void ExploreView::printText(std::ostream& os) const { printExploreText(toJson(), top_, os); }

nlohmann::json ExploreView::toJson() const {
  const ExploredVariant* b = best();
  json j;
  j["input"] = input_;
  j["frontend"] = result_.frontend;
  j["kernel"] = result_.kernel;
  j["gpu"] = gpu_->name;
  j["gpu_full_name"] = gpu_->fullName;
  j["sms"] = gpu_->smCount.value;
  j["clock_ghz"] = gpu_->clockGhz.value;
  j["model"] = result_.model;
  j["variant"] = result_.variant;
  json space = json::array();
  for (const SpaceDimension& d : space_.dimensions) space.push_back({{"name", d.name}, {"values", d.values}, {"text", d.text}});
  j["space"] = space;
  j["space_size"] = result_.spaceSize;
  if (result_.shards > 1) j["shard"] = {result_.shard, result_.shards};
  j["predicted"] = result_.predicted;
  json variants = json::array();
  int rank = 0;
  for (const ExploredVariant& v : result_.variants) variants.push_back(exploredVariantJson(v, v.prediction ? ++rank : 0));
  j["variants"] = variants;
  j["best"] = b ? exploredVariantJson(*b, 1) : json(nullptr);
  return j;
}

}  // namespace foresight
