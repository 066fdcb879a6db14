// SPDX-License-Identifier: Apache-2.0
/// \file
/// JSON requests (requests.h): the request keys turned into library options, the library called,
/// the report views' JSON returned.
#include "foresight/api/requests.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "foresight/advise/explain.h"
#include "foresight/explore/explore.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/default_model.h"
#include "foresight/report/explain_view.h"
#include "foresight/report/explore_view.h"
#include "foresight/report/gpu_views.h"
#include "foresight/report/workload_views.h"
#include "foresight/support/expression.h"
#include "foresight/support/strings.h"
#include "foresight/workload/run_workload.h"

namespace foresight {

namespace {

using nlohmann::json;

/// Thrown inside this file only, caught by the entry points below and returned as their Error.
struct Failure {
  Error error;
};

[[noreturn]] void fail(const Error& e) { throw Failure{e}; }

template <class T>
T take(Expected<T> e) {  // NOLINT(performance-unnecessary-value-param): consumed
  if (!e) fail(e.error());
  return std::move(*e);
}

/// 1 to 3 integers, from a number or a list.
Dim3 dim3(const json& j, const char* what) {
  std::vector<long long> v;
  if (j.is_number_integer()) {
    v.push_back(j.get<long long>());
  } else if (j.is_array()) {
    for (const json& x : j) {
      if (!x.is_number_integer()) fail(makeError(std::string(what) + ": extents are integers"));
      v.push_back(x.get<long long>());
    }
  }
  if (v.empty() || v.size() > 3) fail(makeError(std::string(what) + " takes 1 to 3 integers"));
  return Dim3{v[0], v.size() > 1 ? v[1] : 1, v.size() > 2 ? v[2] : 1};
}

/// "FILE:LINE" → SourceHint (the value filled in).
SourceHint hint(const std::string& key, double value, const char* what) {
  const size_t colon = key.rfind(':');
  std::optional<long long> line = colon == std::string::npos ? std::nullopt : toInteger(key.substr(colon + 1));
  if (!line || *line < 1 || colon == 0) fail(makeError(std::string(what) + " key '" + key + "': expected FILE:LINE"));
  return {key.substr(0, colon), static_cast<int>(*line), value};
}

/// The object at `key` (an empty object when absent). Keep it in a named variable before
/// iterating: `items()` of a temporary in a range-for outlives it.
json object(const json& j, const char* key) {
  json o = j.value(key, json::object());
  if (!o.is_object()) fail(makeError(std::string(key) + ": a dict"));
  return o;
}

/// What every request shares: the input, its GPU and the model.
struct Request {
  std::string path;
  Gpu gpu;
  InputOptions input;
  ModelNames names;
  json raw;
  /// The model predict and explore use.
  [[nodiscard]] ModelOptions model() const { return take(resolveModelNames(names, inputKindOf(path), &gpu)); }
};

Request parseRequest(const std::string& text) {
  Request r;
  r.raw = json::parse(text);
  const json& j = r.raw;
  r.path = j.value("path", std::string());
  if (r.path.empty()) fail(makeError("no input: pass a file path or source="));
  r.gpu = take(resolveGpu(j.value("gpu", std::string("h100"))));
  r.input.gpu = &r.gpu;
  r.input.kernel = j.value("kernel", std::string());
  const json definesField = object(j, "defines");
  for (const auto& [name, value] : definesField.items()) {
    r.input.macros.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
  }
  r.input.includeDirs = j.value("include_dirs", std::vector<std::string>());
  r.input.nvccFlags = j.value("nvcc_flags", std::vector<std::string>());
  const json tripsField = object(j, "trips");
  for (const auto& [key, value] : tripsField.items()) r.input.trips.push_back(hint(key, value.get<double>(), "trips"));
  const json branchesField = object(j, "branches");
  for (const auto& [key, value] : branchesField.items()) {
    r.input.branches.push_back(hint(key, value.get<double>(), "branches"));
  }
  r.input.toolTimeoutSeconds = j.value("tool_timeout", 0.0);
  r.names.model = j.value("model", std::string("auto"));
  r.names.variant = j.value("variant", std::string("auto"));
  r.names.policy = j.value("policy", std::string("gto"));
  r.names.l1HitRate = j.value("l1_hit_rate", -1.0);
  r.names.l2HitRate = j.value("l2_hit_rate", -1.0);
  return r;
}

/// The request's string field `key` as `parse` (a parseL2Start-like function taking the name and
/// the key for its message) reads it; absent or null: unset. `names` lists the accepted values.
template <typename T>
std::optional<T> namedField(const json& j, const char* key, Expected<T> (*parse)(const std::string&, const std::string&),
                            const char* names) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  if (!j[key].is_string()) fail(makeError(std::string(key) + ": " + names));
  Expected<T> value = parse(j[key].get<std::string>(), key);
  if (!value) fail(value.error());
  return *value;
}

/// The request's `l2` ("cold" or "warm"; absent or null: unset).
std::optional<L2Start> l2Field(const json& j) { return namedField(j, "l2", parseL2Start, "\"cold\" or \"warm\""); }

/// The request's `timing` ("stream" or "alone"; absent or null: unset). predict() acts on it.
std::optional<LaunchTiming> timingField(const json& j) {
  return namedField(j, "timing", parseLaunchTiming, "\"stream\" or \"alone\"");
}

/// The workload options of predict/explain: `grid` and `block` override the input's launch (a
/// skeleton takes a block only); with both, the frontends also see them with the scalar args.
WorkloadOptions workloadOptions(const Request& r) {
  const json& j = r.raw;
  WorkloadOptions wo;
  wo.input = r.input;
  const bool grid = j.contains("grid") && !j["grid"].is_null(), block = j.contains("block") && !j["block"].is_null();
  if (grid) wo.launch.grid = dim3(j["grid"], "grid");
  if (block) wo.launch.block = dim3(j["block"], "block");
  if (j.contains("dynamic_shared") && !j["dynamic_shared"].is_null()) {
    wo.launch.dynamicSharedBytes = j["dynamic_shared"].get<long long>();
  }
  if (j.contains("carveout") && !j["carveout"].is_null()) wo.launch.carveoutPercent = j["carveout"].get<int>();
  wo.launch.l2Start = l2Field(j);
  wo.launch.timing = timingField(j);
  if (!grid || !block) {
    // As on the command line: contents belong to a launch the request gives.
    if (!object(j, "data").empty()) fail(makeError("data needs grid and block (the launch whose arrays it fills)"));
    return wo;
  }
  Launch l;
  l.grid = *wo.launch.grid;
  l.block = *wo.launch.block;
  l.dynamicSharedBytes = wo.launch.dynamicSharedBytes.value_or(0);
  l.carveoutPercent = wo.launch.carveoutPercent;
  if (wo.launch.l2Start) l.l2Start = *wo.launch.l2Start;
  if (wo.launch.timing) l.timing = *wo.launch.timing;
  const json argsField = object(j, "args");
  for (const auto& [name, value] : argsField.items()) {
    if (value.is_number_integer() || value.is_boolean()) {
      l.args[name] = value.is_boolean() ? static_cast<long long>(value.get<bool>()) : value.get<long long>();
    } else if (value.is_number()) {
      l.args[name] = ArgValue::fromReal(value.get<double>());
    } else {
      fail(makeError("args['" + name + "']: a number"));
    }
  }
  const json arraysField = object(j, "arrays");
  for (const auto& [name, value] : arraysField.items()) {
    if (!value.is_number_integer() || value.get<long long>() <= 0) fail(makeError("arrays['" + name + "']: a positive number of bytes"));
    l.arrayBytes[name] = value.get<long long>();
  }
  for (const auto& [name, value] : r.input.macros) {
    if (std::optional<long long> v = toInteger(value)) l.macros[name] = *v;
  }
  const json dataField = object(j, "data");
  for (const auto& [name, value] : dataField.items()) {
    if (!value.is_string()) fail(makeError("data['" + name + "']: a string TYPE:PATTERN[:PARAM...] or TYPE:file:PATH"));
    if (Expected<void> set = setArrayData(l, name, value.get<std::string>(), l.macros, "data['" + name + "']"); !set) fail(set.error());
  }
  wo.input.launch = l;
  return wo;
}

std::string gpusText() {
  std::vector<Gpu> all;
  for (const std::string& name : presetNames()) all.push_back(take(loadPreset(name)));
  return GpuListView(std::move(all)).toJson().dump();
}

std::string predictText(const std::string& text) {
  Request r = parseRequest(text);
  PredictOptions po;
  po.gpus = {&r.gpu};
  po.workload = workloadOptions(r);
  po.model = r.names;
  return WorkloadPredictionView(take(predictWorkload(r.path, po))).toJson().dump();
}

std::string explainText(const std::string& text) {
  Request r = parseRequest(text);
  ExplainWorkloadOptions eo;
  eo.gpu = &r.gpu;
  eo.workload = workloadOptions(r);
  eo.model = r.names;
  eo.lines = r.raw.value("lines", false);
  eo.placement = r.raw.value("placement", false);
  eo.tryDefines = r.raw.value("try_defines", false);
  return ExplainView(take(explainWorkload(r.path, eo))).toJson().dump();
}

/// Launch expressions: a string ("cdiv(N, TX), 4"), a number, or a list of either.
std::vector<std::string> expressions(const json& j) {
  if (j.is_null()) return {};
  if (j.is_string()) return splitExpressionList(j.get<std::string>());
  if (j.is_number_integer()) return {j.dump()};
  std::vector<std::string> out;
  for (const json& x : j) out.push_back(x.is_string() ? x.get<std::string>() : x.dump());
  return out;
}

std::string exploreText(const std::string& text) {
  Request r = parseRequest(text);
  ExploreOptions o;
  o.input = r.path;
  o.inputOptions = r.input;
  o.model = r.model();
  const json space = r.raw.value("space", json());
  if (space.is_string()) {
    if (Expected<void> ok = parseSpace(space.get<std::string>(), o.space); !ok) fail(ok.error());
  } else if (space.is_object()) {
    for (const auto& [name, values] : space.items()) {
      SpaceDimension d;
      d.name = name;
      d.values = values.get<std::vector<long long>>();
      d.text = name + "=" + values.dump();
      o.space.dimensions.push_back(std::move(d));
    }
  } else {
    fail(makeError("explore needs space= (a --space string or a dict of value lists)"));
  }
  o.launch.grid = expressions(r.raw.value("grid", json()));
  o.launch.block = expressions(r.raw.value("block", json()));
  const json argsField = object(r.raw, "args");
  for (const auto& [name, value] : argsField.items()) {
    o.launch.args.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
  }
  const json arraysField = object(r.raw, "arrays");  // items() must not outlive its json
  for (const auto& [name, value] : arraysField.items()) {
    o.launch.arrays.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
  }
  const json dataField = object(r.raw, "data");
  for (const auto& [name, value] : dataField.items()) {
    if (!value.is_string()) fail(makeError("data['" + name + "']: a string TYPE:PATTERN[:PARAM...] or TYPE:file:PATH"));
    o.launch.data.emplace_back(name, value.get<std::string>());
  }
  if (r.raw.contains("dynamic_shared")) o.launch.dynamicShared = r.raw["dynamic_shared"].dump();
  o.launch.l2Start = l2Field(r.raw).value_or(L2Start::Cold);
  o.maxVariants = r.raw.value("max_variants", 10000LL);
  o.threads = r.raw.value("jobs", 0U);
  if (r.raw.contains("shard")) {
    const json& sh = r.raw["shard"];
    if (!sh.is_array() || sh.size() != 2) fail(makeError("shard: [I, N] with 0 <= I < N"));
    o.shard = sh[0].get<long long>();
    o.shards = sh[1].get<long long>();
  }
  ExploreResult result = take(explore(o));
  return ExploreView(r.path, &r.gpu, o.space, std::move(result), 0).toJson().dump();
}

/// Runs one request handler, turning its failures (and malformed JSON) into an Error.
template <class F>
Expected<std::string> guarded(F&& handler) {
  try {
    return handler();
  } catch (const Failure& f) {
    return f.error;
  } catch (const json::exception& e) {
    return makeError(std::string("request: ") + e.what());
  }
}

}  // namespace

Expected<std::string> gpusRequest() {
  return guarded([] { return gpusText(); });
}
Expected<std::string> predictRequest(const std::string& request) {
  return guarded([&] { return predictText(request); });
}
Expected<std::string> explainRequest(const std::string& request) {
  return guarded([&] { return explainText(request); });
}
Expected<std::string> exploreRequest(const std::string& request) {
  return guarded([&] { return exploreText(request); });
}

}  // namespace foresight
