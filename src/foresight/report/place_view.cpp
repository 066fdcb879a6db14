// SPDX-License-Identifier: Apache-2.0
/// \file
/// Rendering of PlaceView: JSON first, the text from that JSON (so the two never disagree).
#include "foresight/report/place_view.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <ostream>

namespace foresight {

namespace {

using nlohmann::json;

std::string bytesText(long long b) {
  if (b >= (1LL << 30)) return fmt::format("{:.1f} GiB", static_cast<double>(b) / (1LL << 30));
  if (b >= (1LL << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1LL << 20));
  if (b >= (1LL << 10)) return fmt::format("{:.1f} KiB", static_cast<double>(b) / (1LL << 10));
  return fmt::format("{} B", b);
}

json planJson(const Plan& plan, const AccessProfile& profile) {
  json j = json::object();
  for (size_t a = 0; a < plan.size(); ++a) j[profile.arrays[a].name] = placementName(plan[a]);
  return j;
}

json costJson(const PlanCost& c, const AccessProfile& profile) {
  json j;
  j["cost"] = c.cost;
  j["paths"] = json::object();
  for (const auto& [name, t] : c.paths) j["paths"][name] = t;
  j["arrays"] = json::array();
  for (size_t a = 0; a < c.arrays.size(); ++a) {
    const ArrayCost& ac = c.arrays[a];
    json x;
    x["name"] = profile.arrays[a].name;
    x["placement"] = placementName(ac.placement);
    x["path"] = ac.path;
    x["cost"] = ac.cost;
    x["copy_transactions"] = ac.copyTransactions;
    x["levels"] = json::array();
    for (const ArrayCost::Level& l : ac.levels) {
      x["levels"].push_back({{"memory", l.memory}, {"served", l.hitFraction}, {"transactions", l.transactions},
                             {"latency_cycles", l.latency}});
    }
    j["arrays"].push_back(std::move(x));
  }
  return j;
}

}  // namespace

nlohmann::json PlaceView::toJson() const {
  const PlaceResult& r = result_;
  json j = contextJson(context_);
  j["model"] = timingModel_;
  j["memory_spec"] = r.msl.file.empty() ? "derived from " + r.msl.gpu : r.msl.file;
  j["placement_model"] = {{"name", r.model.pathBased ? "porple" : "porple-latency-centric"},
                          {"alpha", r.model.computeIntensive ? "compute-intensive" : "memory-intensive"}};
  j["profile"] = {{"blocks", r.profile.profiledBlocks},
                  {"warps_per_block", r.profile.warpsPerBlock},
                  {"traced_warps", r.profile.tracedWarps},
                  {"full_trace_reason", r.profile.fullTraceReason.empty() ? json(nullptr) : json(r.profile.fullTraceReason)},
                  {"requests", r.profile.requests.size()}};
  j["arrays"] = json::array();
  for (size_t a = 0; a < r.profile.arrays.size(); ++a) {
    const ProfiledArray& pa = r.profile.arrays[a];
    json x;
    x["name"] = pa.name;
    x["bytes"] = pa.bytes;
    x["size"] = pa.sizeGiven ? "given" : pa.sizeKnown ? "profiled" : "unknown";
    x["read"] = pa.read;
    x["written"] = pa.written;
    x["data_dependent"] = pa.dataDependent;
    x["tile_bytes"] = pa.tileable ? json(pa.tileBytes) : json(nullptr);
    x["requests_per_block"] = pa.requests;
    x["traits"] = {{"warp_uniform", pa.traits.warpUniform},
                   {"coalesced", pa.traits.coalesced},
                   {"temporal_reuse", pa.traits.temporalReuse},
                   {"shared_reuse", pa.traits.sharedReuse}};
    x["options"] = json::array();
    x["not_offered"] = json::object();
    for (int p = 0; p < kNumPlacements; ++p) {
      const std::string& why = r.whyNot[a][static_cast<size_t>(p)];
      if (why.empty()) x["options"].push_back(placementName(static_cast<Placement>(p)));
      else x["not_offered"][placementName(static_cast<Placement>(p))] = why;
    }
    j["arrays"].push_back(std::move(x));
  }
  j["search"] = {{"requested", searchMethodName(r.requested)},
                 {"method", searchMethodName(r.search.method)},
                 {"optimal", r.search.optimal},
                 {"evaluations", r.search.evaluations}};
  j["plans"] = json::array();
  for (const ScoredPlan& s : r.plans) {
    json x;
    x["label"] = s.label;
    x["plan"] = planJson(s.plan, r.profile);
    x["model_cost"] = s.modelCost;
    x["time_s"] = s.seconds ? json(*s.seconds) : json(nullptr);
    x["speedup"] = s.seconds && *s.seconds > 0 ? json(r.original.seconds / *s.seconds) : json(nullptr);
    x["timing_note"] = s.timingNote;
    j["plans"].push_back(std::move(x));
  }
  j["chosen"] = costJson(r.chosenCost, r.profile);
  j["original"] = costJson(r.originalCost, r.profile);
  j["warnings"] = r.warnings;
  return j;
}

void PlaceView::printText(std::ostream& os) const {
  const json j = toJson();
  printContextHeader(os, context_, timingModel_ + " (times)");
  const json& pm = j["placement_model"];
  os << fmt::format("placement  {} ({}, {} α), memory spec {}\n", pm["name"].get<std::string>(),
                    pm["name"] == "porple" ? "TC'17: slowest path" : "MICRO'14: sum over arrays",
                    pm["alpha"].get<std::string>(), j["memory_spec"].get<std::string>());
  const json& prof = j["profile"];
  const long long allWarps = prof["blocks"].get<long long>() * prof["warps_per_block"].get<int>();
  const long long traced = prof["traced_warps"].get<long long>();
  std::string trace;  // what Procedure 2 did, when asked for
  if (traced < allWarps) {
    trace = fmt::format(", the first {} traced (Procedure 2: the mean index settled)", traced);
  } else if (!prof["full_trace_reason"].is_null()) {
    trace = ", all traced (Procedure 2: " + prof["full_trace_reason"].get<std::string>() + ")";
  }
  os << fmt::format("\narrays     {} global array{}; profiled {} block{} of {} warps{}, {} warp requests\n",
                    j["arrays"].size(), j["arrays"].size() == 1 ? "" : "s", prof["blocks"].get<long long>(),
                    prof["blocks"].get<long long>() == 1 ? "" : "s", prof["warps_per_block"].get<int>(), trace,
                    prof["requests"].get<size_t>());
  size_t width = 5;
  for (const json& a : j["arrays"]) width = std::max(width, a["name"].get<std::string>().size());
  os << fmt::format("  {:<{}}  {:>10}  {:<6} {:<10}  {}\n", "array", width, "bytes", "access", "options", "traits");
  for (const json& a : j["arrays"]) {
    std::string opts;
    for (const json& o : a["options"]) opts += placementLetter(*parsePlacement(o.get<std::string>()));
    std::string traits;
    auto add = [&](bool on, const char* what) {
      if (on) traits += (traits.empty() ? "" : ", ") + std::string(what);
    };
    add(a["traits"]["warp_uniform"].get<bool>(), "warp-uniform");
    add(!a["traits"]["coalesced"].get<bool>(), "uncoalesced");
    add(a["traits"]["temporal_reuse"].get<bool>(), "reused by a thread");
    add(a["traits"]["shared_reuse"].get<bool>(), "shared by threads");
    add(a["data_dependent"].get<bool>(), "data-dependent");
    const std::string access = a["written"].get<bool>() ? (a["read"].get<bool>() ? "rw" : "w") : "r";
    const std::string size = bytesText(a["bytes"].get<long long>()) + (a["size"] == "unknown" ? "?" : "");
    os << fmt::format("  {:<{}}  {:>10}  {:<6} {:<10}  {}\n", a["name"].get<std::string>(), width, size, access, opts,
                      traits.empty() ? "-" : traits);
  }
  const json& s = j["search"];
  const std::string by = s["requested"] == s["method"] ? "" : ", found by " + s["method"].get<std::string>();
  os << fmt::format("\nplans      {} search{}: {}; {} plan costs evaluated\n", s["requested"].get<std::string>(), by,
                    s["optimal"].get<bool>() ? "optimal under the placement model" : "not proven optimal",
                    s["evaluations"].get<long long>());
  os << fmt::format("  {:<12}", "plan");
  for (const json& a : j["arrays"]) {
    const std::string n = a["name"].get<std::string>();
    os << fmt::format(" {:<{}}", n, std::max<size_t>(n.size(), 1));
  }
  os << fmt::format("  {:>10}  {:>12}  {}\n", "model T", "time", "speedup");
  for (const json& p : j["plans"]) {
    os << fmt::format("  {:<12}", p["label"].get<std::string>());
    for (const json& a : j["arrays"]) {
      const std::string n = a["name"].get<std::string>();
      const char letter = placementLetter(*parsePlacement(p["plan"][n].get<std::string>()));
      os << fmt::format(" {:<{}}", std::string(1, letter), std::max<size_t>(n.size(), 1));
    }
    const std::string time = p["time_s"].is_null() ? "-" : timeText(p["time_s"].get<double>());
    const std::string speed = p["speedup"].is_null() ? "-" : fmt::format("{:.2f}x", p["speedup"].get<double>());
    os << fmt::format("  {:>10.4g}  {:>12}  {}\n", p["model_cost"].get<double>(), time, speed);
  }
  for (const json& p : j["plans"]) {
    if (!p["timing_note"].get<std::string>().empty()) {
      os << fmt::format("  ({}: {})\n", p["label"].get<std::string>(), p["timing_note"].get<std::string>());
    }
  }
  os << "  G global, R read-only path, T texture, S shared (staged per block), C constant, P persisting L2\n";
  os << "\nchosen     per array: memory path, where its accesses are served (share of accesses, latency)\n";
  for (const json& a : j["chosen"]["arrays"]) {
    std::string levels;
    for (const json& l : a["levels"]) {
      levels += fmt::format("{}{} {:.0f}% ({:.0f} clk)", levels.empty() ? "" : ", ", l["memory"].get<std::string>(),
                            100 * l["served"].get<double>(), l["latency_cycles"].get<double>());
    }
    os << fmt::format("  {:<{}}  {:<9} {:<8} {}\n", a["name"].get<std::string>(), width, a["placement"].get<std::string>(),
                      a["path"].get<std::string>(), levels);
  }
  for (const json& w : j["warnings"]) os << "warning: " << w.get<std::string>() << "\n";
}

}  // namespace foresight
