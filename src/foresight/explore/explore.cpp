// SPDX-License-Identifier: Apache-2.0
/// \file
/// Exhaustive model-driven search over a space of macros and launch expressions (explore.h).
#include "foresight/explore/explore.h"

#include <algorithm>
#include <mutex>

#include "foresight/frontend/input.h"
#include "foresight/workload/workload.h"
#include "foresight/model/default_model.h"
#include "foresight/model/predict.h"
#include "foresight/support/expression.h"
#include "foresight/support/parallel.h"
#include "foresight/support/strings.h"

namespace foresight {

namespace {

/// A Dim3 from 1 to 3 expressions; `what` names it in errors ("grid").
Expected<Dim3> evalDim(const std::vector<std::string>& exprs, const std::map<std::string, long long>& vars,
                       const char* what) {
  if (exprs.empty() || exprs.size() > 3) return makeError(std::string("the ") + what + " takes 1 to 3 expressions");
  long long v[3] = {1, 1, 1};
  for (size_t i = 0; i < exprs.size(); ++i) {
    Expected<long long> e = evalExpression(exprs[i], vars);
    if (!e) return makeError(std::string(what) + ": " + e.error().message);
    v[i] = *e;
  }
  return Dim3{v[0], v[1], v[2]};
}

/// The variant's launch from the expressions (nullopt: the input's launch is used).
Expected<std::optional<Launch>> evalLaunch(const LaunchExpressions& le, const std::map<std::string, long long>& vars) {
  if (le.grid.empty() != le.block.empty()) return makeError("explore needs both the grid and the block expressions, or neither");
  if (le.grid.empty() && !le.data.empty()) return makeError("--data needs the grid and block expressions (the launch whose arrays it fills)");
  Launch launch;
  launch.macros = vars;
  for (const auto& [name, text] : le.args) {
    if (std::optional<long long> i = toInteger(trim(text))) {
      launch.args[name] = *i;
    } else if (std::optional<double> r = toReal(trim(text))) {
      launch.args[name] = ArgValue::fromReal(*r);
    } else {
      Expected<long long> e = evalExpression(text, vars);
      if (!e) return makeError("--arg " + name + ": " + e.error().message);
      launch.args[name] = *e;
    }
  }
  for (const auto& [name, text] : le.arrays) {
    Expected<long long> e = evalExpression(text, vars);
    if (!e) return makeError("--array " + name + ": " + e.error().message);
    if (*e <= 0) return makeError("--array " + name + ": " + std::to_string(*e) + " bytes: the size must be positive");
    launch.arrayBytes[name] = *e;
  }
  for (const auto& [name, spec] : le.data) {
    if (Expected<void> set = setArrayData(launch, name, spec, vars, "--data " + name); !set) return std::move(set).takeError();
  }
  if (!le.dynamicShared.empty()) {
    Expected<long long> e = evalExpression(le.dynamicShared, vars);
    if (!e) return makeError("dynamic shared memory: " + e.error().message);
    launch.dynamicSharedBytes = *e;
  }
  if (le.grid.empty()) {
    if (!le.args.empty() || !le.arrays.empty() || !le.dynamicShared.empty()) return std::optional<Launch>(std::move(launch));  // dims from the input
    return std::optional<Launch>();
  }
  Expected<Dim3> grid = evalDim(le.grid, vars, "grid");
  if (!grid) return std::move(grid).takeError();
  Expected<Dim3> block = evalDim(le.block, vars, "block");
  if (!block) return std::move(block).takeError();
  launch.grid = *grid;
  launch.block = *block;
  if (Expected<void> ok = checkLaunchLimits(launch); !ok) return std::move(ok).takeError();
  return std::optional<Launch>(std::move(launch));
}

/// Builds, launches and predicts one variant; failures go into `out.error`.
void runVariant(const ExploreOptions& o, const std::map<std::string, long long>& fixed, ExploredVariant& out) {
  std::map<std::string, long long> vars = fixed;
  for (const auto& [name, value] : out.values) vars[name] = value;
  Expected<std::optional<Launch>> launch = evalLaunch(o.launch, vars);
  if (!launch) {
    out.error = launch.error().message;
    return;
  }
  InputOptions io = o.inputOptions;
  io.progress = {};  // one progress line for the whole search, not one per variant
  if (o.input.ends_with(".cu")) {
    // The variant's values as -D macros, replacing fixed macros of the same name.
    std::erase_if(io.macros, [&](const auto& m) { return out.values.count(m.first) > 0; });
    for (const auto& [name, value] : out.values) io.macros.emplace_back(name, std::to_string(value));
  } else {
    io.macros.clear();  // compiled inputs: the macros are variables of the launch expressions only
  }
  const bool dims = !o.launch.grid.empty();  // else the input's grid and block
  // The variant is read as every command reads an input (loadWorkload(), workloadRun()): the
  // frontends see the evaluated launch, and its dimensions override the input's own.
  WorkloadOptions wo;
  if (dims) {
    io.launch = **launch;
    wo.launch.grid = (*launch)->grid;
    wo.launch.block = (*launch)->block;
  }
  wo.input = std::move(io);
  Expected<Workload> workload = loadWorkload(o.input, wo);
  if (!workload) {
    out.error = workload.error().format();
    return;
  }
  Expected<KernelRun> run = workloadRun(*workload, wo.input.kernel);
  if (!run) {
    out.error = run.error().format();
    return;
  }
  const KernelInput& kernel = workload->kernels[run->kernel];
  out.kernel = kernel.ir.name;
  out.frontend = workload->frontend;
  Launch l = run->launch;
  if (dims) {
    l = **launch;
  } else if (launch->has_value()) {
    for (const auto& [name, value] : (*launch)->args) l.args[name] = value;
    if (!o.launch.dynamicShared.empty()) l.dynamicSharedBytes = (*launch)->dynamicSharedBytes;
  }
  l.l2Start = o.launch.l2Start;
  out.launch = l;
  Expected<Prediction> p = predict(kernel, l, *o.inputOptions.gpu, o.model);
  if (!p) {
    out.error = p.error().format();
    return;
  }
  for (const std::string& note : run->notes) p->warnings.push_back(note);
  out.prediction = std::move(*p);
}

}  // namespace

std::string defineLine(const std::map<std::string, long long>& values) {
  std::string s;
  for (const auto& [name, value] : values) {
    if (!s.empty()) s += ' ';
    s += "-D " + name + "=" + std::to_string(value);
  }
  return s;
}

Expected<ExploreResult> explore(const ExploreOptions& o) {
  if (!o.inputOptions.gpu) return makeError("explore needs a GPU");
  ExploreResult result;
  result.spaceSize = o.space.size();
  result.shard = o.shard;
  result.shards = o.shards;
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards) {
    return makeError("shard " + std::to_string(o.shard) + "/" + std::to_string(o.shards) +
                     ": the shard index runs from 0 to the shard count - 1");
  }
  if (result.spaceSize == 0) return makeError("the search space is empty");
  for (const SpaceDimension& d : o.space.dimensions) {
    for (const auto& [name, value] : o.inputOptions.macros) {
      if (name == d.name) return makeError("'" + d.name + "' is both a -D macro and a --space parameter");
    }
  }
  const long long mine = (result.spaceSize - o.shard + o.shards - 1) / o.shards;  // indices shard, shard + n, ...
  if (mine > o.maxVariants) {
    return makeError("the space has " + std::to_string(result.spaceSize) + " variants" +
                     (o.shards > 1 ? " (" + std::to_string(mine) + " in this shard)" : std::string()) +
                     ", more than --max-variants " + std::to_string(o.maxVariants) +
                     " allows: narrow it, raise the limit or split it with --shard");
  }
  // Integer fixed macros are variables of the launch expressions too.
  std::map<std::string, long long> fixed;
  for (const auto& [name, value] : o.inputOptions.macros) {
    if (std::optional<long long> v = toInteger(trim(value))) fixed[name] = *v;
  }
  std::vector<ExploredVariant> variants(static_cast<size_t>(std::max(0LL, mine)));
  for (size_t k = 0; k < variants.size(); ++k) {
    variants[k].index = o.shard + static_cast<long long>(k) * o.shards;
    variants[k].values = o.space.point(variants[k].index);
  }
  std::mutex tell;
  long long done = 0;
  parallelFor(
      variants.size(),
      [&](size_t i) {
        runVariant(o, fixed, variants[i]);
        if (o.onVariant) {
          std::lock_guard<std::mutex> lock(tell);
          o.onVariant(variants[i], ++done, static_cast<long long>(variants.size()));
        }
      },
      o.threads);
  for (const ExploredVariant& v : variants) {
    result.predicted += v.prediction ? 1 : 0;
    if (result.kernel.empty() && !v.kernel.empty()) {
      result.kernel = v.kernel;
      result.frontend = v.frontend;
    }
    if (result.model.empty() && v.prediction) {
      result.model = v.prediction->model;
      result.variant = v.prediction->variant;
    }
  }
  if (result.model.empty()) {
    // No prediction in this shard: the model's name as predict() resolves it.
    const std::string name = modelName(o.model.model == ModelKind::Auto ? resolveDefaultModel(o.model, InputKind::Cuda, o.inputOptions.gpu) : o.model);
    const size_t slash = name.find('/');
    result.model = name.substr(0, slash);
    result.variant = slash == std::string::npos ? "" : name.substr(slash + 1);
  }
  if (result.predicted == 0 && o.shards == 1) {
    return makeError("no variant could be predicted; the first: " + variants.front().error);
  }
  std::stable_sort(variants.begin(), variants.end(), [](const ExploredVariant& a, const ExploredVariant& b) {
    if (a.prediction.has_value() != b.prediction.has_value()) return a.prediction.has_value();
    if (!a.prediction) return false;
    return a.prediction->seconds < b.prediction->seconds;
  });
  result.variants = std::move(variants);
  return result;
}

}  // namespace foresight
