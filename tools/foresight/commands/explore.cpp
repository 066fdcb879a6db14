// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight explore FILE.sk`: every GPU code layout of a skeleton, ranked by projected time
/// (text, --json or --csv); `--gpu a,b,c` ranks on each GPU.
/// `foresight explore FILE.cu --space "TX=32..1024:pow2" --grid "cdiv(N, TX)" --block TX`: every
/// variant of a parameter space (macros and launch expressions) predicted and ranked (text,
/// --json, or --jsonl as each variant is done); the best as a -D line and, with
/// --opentuner-seed, as an OpenTuner seed configuration.
#include <CLI/CLI.hpp>
#include <deque>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "../command.h"
#include "../common_options.h"
#include "../progress_line.h"
#include "foresight/explore/explore.h"
#include "foresight/report/explore_view.h"
#include "foresight/report/workload_views.h"
#include "foresight/support/expression.h"
#include "foresight/workload/run_workload.h"

namespace foresight::cli {

namespace {

/// Options only explore has.
struct ExploreCliOptions {
  long long top = 20;
  bool csv = false;
  std::vector<std::string> space;  ///< --space texts, joined
  bool jsonl = false;
  std::string seedFile;            ///< --opentuner-seed FILE
  unsigned threads = 0;
  std::string shard;               ///< --shard I/N
  bool maxVariantsGiven = false;  ///< --max-variants typed (kernels default to 10000)
};

/// The input's own variant space (a skeleton's layouts), ranked on each --gpu.
int runLayoutExplore(const CommonOptions& o, const ExploreCliOptions& e) {
  if (e.csv && o.json) return reportError(makeError("choose one of --json and --csv"));
  std::deque<Gpu> gpus;
  Expected<WorkloadPrediction> result = predictOnGpus(o, gpus);
  if (!result) return reportError(result.error());
  const WorkloadLayoutsView view(std::move(*result), e.top);
  if (e.csv) {
    view.printCsv(std::cout);
    return kExitOk;
  }
  return printView(view, printOptions(o));
}

int runKernelExplore(const CommonOptions& o, const ExploreCliOptions& e) {
  if (e.space.empty()) {
    return reportError(makeError("explore '" + o.input +
                                 "' needs --space NAME=VALUES (a skeleton's layouts are its own space; other inputs "
                                 "explore the macros and launch expressions --space names)"));
  }
  if (e.csv) return reportError(makeError("--csv is for skeleton layout rankings; use --json or --jsonl"));
  if (e.jsonl && o.json) return reportError(makeError("choose one of --json and --jsonl"));
  Expected<Gpu> gpu = resolveOneGpu(o, "explore");
  if (!gpu) return reportError(gpu.error());
  ExploreOptions x;
  x.input = o.input;
  for (const std::string& s : e.space) {
    if (Expected<void> ok = parseSpace(s, x.space); !ok) return reportError(ok.error());
  }
  // The launch: expressions; toInputOptions() must not parse them as integers.
  CommonOptions fixed = o;
  fixed.grid.clear();
  fixed.block.clear();
  fixed.args.clear();
  fixed.arrays.clear();
  fixed.data.clear();
  Expected<InputOptions> in = toInputOptions(fixed, *gpu);
  if (!in) return reportError(in.error());
  x.inputOptions = std::move(*in);
  x.launch.grid = splitExpressionList(o.grid);
  x.launch.block = splitExpressionList(o.block);
  if (o.dynamicShared >= 0) x.launch.dynamicShared = std::to_string(o.dynamicShared);
  if (!o.l2.empty()) {
    Expected<L2Start> start = parseL2Start(o.l2, "--l2");
    if (!start) return reportError(start.error());
    x.launch.l2Start = *start;
  }
  for (const std::string& a : o.args) {
    Expected<std::pair<std::string, std::string>> kv = splitAssignment(a, "--arg", false);
    if (!kv) return reportError(kv.error());
    x.launch.args.push_back(std::move(*kv));
  }
  for (const std::string& a : o.arrays) {
    Expected<std::pair<std::string, std::string>> kv = splitAssignment(a, "--array", false);
    if (!kv) return reportError(kv.error());
    x.launch.arrays.push_back(std::move(*kv));
  }
  for (const std::string& d : o.data) {
    Expected<std::pair<std::string, std::string>> kv = splitAssignment(d, "--data", false);
    if (!kv) return reportError(kv.error());
    x.launch.data.push_back(std::move(*kv));
  }
  Expected<ModelOptions> model = toModelOptions(o, &*gpu);
  if (!model) return reportError(model.error());
  x.model = *model;
  x.maxVariants = e.maxVariantsGiven ? o.maxVariants : 10000;
  x.threads = e.threads;
  if (!e.shard.empty()) {
    Expected<std::pair<long long, long long>> sh = parseShard(e.shard);
    if (!sh) return reportError(sh.error());
    x.shard = sh->first;
    x.shards = sh->second;
  }
  const bool progress = progressWanted();
  x.onVariant = [&](const ExploredVariant& v, long long done, long long total) {
    if (e.jsonl) std::cout << exploredVariantJson(v, 0).dump() << std::endl;
    if (progress) reportProgress({"explore: predicting variants", done, total, done == total});
  };
  Expected<ExploreResult> result = explore(x);
  if (!result) {
    Error err = std::move(result).takeError();
    if (err.file.empty()) err.file = o.input;
    return reportError(err);
  }
  const ExploreView view(o.input, &*gpu, x.space, std::move(*result), e.top);
  if (!e.seedFile.empty() && view.best()) {
    std::ofstream seed(e.seedFile);
    nlohmann::json config(view.best()->values);
    if (!(seed << config.dump(2) << "\n")) return reportError(makeError("--opentuner-seed '" + e.seedFile + "': cannot write the file"));
  }
  if (e.jsonl) {
    nlohmann::json last;
    last["best"] = view.best() ? exploredVariantJson(*view.best(), 1) : nlohmann::json(nullptr);
    std::cout << last.dump() << "\n";
    return kExitOk;
  }
  return printView(view, printOptions(o));
}

}  // namespace

std::function<int()> setupExplore(CLI::App& sub) {
  auto options = std::make_shared<CommonOptions>();
  auto e = std::make_shared<ExploreCliOptions>();
  addCommonOptions(sub, *options);
  addHtmlOption(sub, options->html);
  sub.add_option("--top", e->top, "Layouts (skeletons) or ranked variants (kernels) shown per GPU (0 = all)")
      ->check(CLI::Validator([](std::string& s) -> std::string { return s.rfind('-', 0) == 0 ? "must be 0 (all) or a positive count" : ""; },
                             "N >= 0"))
      ->capture_default_str();
  sub.add_flag("--csv", e->csv, "Skeletons: print the ranking as CSV on stdout");
  sub.add_option("--space", e->space,
                 "Kernels: parameters to search, NAME=LO..HI[:STEP|:pow2] or NAME=V1,V2,... (comma-separated, repeatable); "
                 "each is a -D macro and a variable of --grid/--block/--arg expressions");
  sub.add_flag("--jsonl", e->jsonl, "Kernels: one JSON line per variant as it is done, then one with the best");
  sub.add_option("--opentuner-seed", e->seedFile, "Kernels: write the best variant's values as an OpenTuner seed configuration (JSON)");
  sub.add_option("--jobs", e->threads, "Kernels: variants built and predicted at once (default: every core)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--shard", e->shard,
                 "Kernels: only the variants whose index i has i % N == I (I/N, 0 <= I < N); merge the --json reports "
                 "with `foresight merge`");
  CLI::Option* maxVariants = sub.get_option("--max-variants");
  return [options, e, maxVariants] {
    e->maxVariantsGiven = maxVariants->count() > 0;
    if (hasOwnVariantSpace(options->input)) {
      if (!e->space.empty() || e->jsonl || !e->seedFile.empty() || !e->shard.empty()) {
        return reportError(makeError("--space, --jsonl, --opentuner-seed and --shard are for kernel inputs; a skeleton's "
                                     "layouts are its own space"));
      }
      return runLayoutExplore(*options, *e);
    }
    return runKernelExplore(*options, *e);
  };
}

}  // namespace foresight::cli
