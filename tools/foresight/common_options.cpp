// SPDX-License-Identifier: Apache-2.0
/// \file
/// Common option registration and conversion.
#include "common_options.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <nlohmann/json.hpp>

#include "command.h"
#include "progress_line.h"
#include "foresight/report/html_report.h"
#include "foresight/advise/cloop_advice.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/default_model.h"
#include "foresight/support/strings.h"
#include "foresight/workload/run_workload.h"
#include "foresight/report/view.h"

namespace foresight::cli {

Expected<Dim3> parseDim3(const std::string& text, const char* what) {
  Dim3 d;
  long long* parts[] = {&d.x, &d.y, &d.z};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    try {
      size_t used = 0;
      const long long v = std::stoll(part, &used);
      if (used != part.size() || v <= 0) throw std::invalid_argument(part);
      *parts[i] = v;
    } catch (const std::exception&) {
      return makeError(std::string("--") + what + " '" + text + "' must be X[,Y[,Z]] with positive integers");
    }
    if (comma == std::string::npos) return d;
    start = comma + 1;
  }
  return makeError(std::string("--") + what + " '" + text + "' has more than three extents");
}

namespace {


std::optional<long long> parseInteger(const std::string& text) {
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used, 0);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

/// An --arg value: an integer (decimal, 0x hex, 0 octal), true / false, or a finite real
/// number (1.5, 2e-3, -0.25f).
Expected<ArgValue> parseArgValue(const std::string& text) {
  if (std::optional<long long> v = parseInteger(text)) return ArgValue(*v);
  if (text == "true") return ArgValue(1);
  if (text == "false") return ArgValue(0);
  std::string real = text;
  if (!real.empty() && (real.back() == 'f' || real.back() == 'F') && real.find_first_of("xX") == std::string::npos) real.pop_back();
  try {
    size_t used = 0;
    const double d = std::stod(real, &used);
    if (used == real.size() && std::isfinite(d)) return ArgValue::fromReal(d);
  } catch (const std::exception&) {
  }
  return makeError("the value must be an integer, a finite real number, true or false");
}

/// "FILE:LINE=VALUE" → SourceHint.
Expected<SourceHint> parseHint(const std::string& text, const char* what) {
  const size_t eq = text.rfind('=');
  const size_t colon = text.rfind(':', eq);
  SourceHint h;
  if (eq == std::string::npos || colon == std::string::npos || colon == 0) {
    return makeError(std::string(what) + " '" + text + "' must be FILE:LINE=VALUE");
  }
  h.file = text.substr(0, colon);
  try {
    size_t used = 0;
    const std::string line = text.substr(colon + 1, eq - colon - 1);
    h.line = std::stoi(line, &used);
    if (used != line.size() || h.line <= 0) throw std::invalid_argument(line);
    const std::string value = text.substr(eq + 1);
    h.value = std::stod(value, &used);
    if (used != value.size()) throw std::invalid_argument(value);
  } catch (const std::exception&) {
    return makeError(std::string(what) + " '" + text + "' must be FILE:LINE=VALUE with a positive line and a number");
  }
  return h;
}

}  // namespace

/// "NAME=VALUE" → (NAME, VALUE); VALUE may be empty when `valueOptional`.
Expected<std::pair<std::string, std::string>> splitAssignment(const std::string& text, const char* what,
                                                              bool valueOptional) {
  const size_t eq = text.find('=');
  if (eq == 0 || (eq == std::string::npos && !valueOptional) || (eq != std::string::npos && eq + 1 == text.size())) {
    return makeError(std::string(what) + " '" + text + "' must be NAME=VALUE");
  }
  if (eq == std::string::npos) return std::make_pair(text, std::string());
  return std::make_pair(text.substr(0, eq), text.substr(eq + 1));
}

namespace {

/// InputOptions with the launch overrides already parsed.
Expected<InputOptions> toInputOptions(const CommonOptions& o, const Gpu* gpu, const LaunchOverrides& overrides) {
  InputOptions in;
  in.gpu = gpu;
  in.kernel = o.kernel;
  in.cloopAdvisor = cloop::adviseKernel;  // C loops: CGPredict's advice in the notes
  Launch launch;
  for (const std::string& d : o.defines) {
    Expected<std::pair<std::string, std::string>> kv = splitAssignment(d, "-D", true);
    if (!kv) return std::move(kv).takeError();
    in.macros.push_back(*kv);
    if (std::optional<long long> v = parseInteger(kv->second)) launch.macros[kv->first] = *v;
  }
  for (const std::string& a : o.args) {
    Expected<std::pair<std::string, std::string>> kv = splitAssignment(a, "--arg", false);
    if (!kv) return std::move(kv).takeError();
    Expected<ArgValue> v = parseArgValue(kv->second);
    if (!v) return makeError("--arg '" + a + "': " + v.error().message);
    launch.args[kv->first] = *v;
  }
  for (const std::string& a : o.arrays) {
    Expected<std::pair<std::string, std::string>> kv = splitAssignment(a, "--array", false);
    if (!kv) return std::move(kv).takeError();
    const std::optional<long long> bytes = parseInteger(kv->second);
    if (!bytes || *bytes <= 0) return makeError("--array '" + a + "': the size must be a positive number of bytes");
    launch.arrayBytes[kv->first] = *bytes;
  }
  // A kernel's parameters: only a CUDA kernel has them, and only a launch given here sets them
  // (a value that would be dropped is an error, not a silent no-op).
  struct ParameterOption {
    const std::vector<std::string>* values;
    const char* name;
    const char* purpose;  ///< what it does to the launch
  };
  const ParameterOption parameterOptions[] = {{&o.args, "--arg", "whose scalar arguments it sets"},
                                              {&o.arrays, "--array", "whose arrays it sizes"},
                                              {&o.data, "--data", "whose arrays it fills"}};
  for (const ParameterOption& p : parameterOptions) {
    if (p.values->empty()) continue;
    if (inputKindOf(o.input) != InputKind::Cuda) {
      return makeError(std::string(p.name) + " sets a CUDA kernel's parameter; " + inputKindName(inputKindOf(o.input)) +
                           " inputs have none (their sizes are -D macros or part of the file)",
                       o.input, 0);
    }
    if (!(overrides.grid && overrides.block)) {
      return makeError(std::string(p.name) + " needs --grid and --block (the launch " + p.purpose + ")", o.input, 0);
    }
  }
  for (const std::string& d : o.data) {
    Expected<std::pair<std::string, std::string>> kv = splitAssignment(d, "--data", false);
    if (!kv) return std::move(kv).takeError();
    if (Expected<void> set = setArrayData(launch, kv->first, kv->second, launch.macros, "--data " + kv->first); !set) {
      return std::move(set).takeError();
    }
  }
  for (const std::string& t : o.trips) {
    Expected<SourceHint> h = parseHint(t, "--trip");
    if (!h) return std::move(h).takeError();
    in.trips.push_back(*h);
  }
  for (const std::string& b : o.branches) {
    Expected<SourceHint> h = parseHint(b, "--branch");
    if (!h) return std::move(h).takeError();
    in.branches.push_back(*h);
  }
  in.includeDirs = o.includeDirs;
  for (const std::string& d : o.includeDirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(d, ec)) return makeError("-I '" + d + "': no such directory");
  }
  in.nvccFlags = o.nvccFlags;
  if (o.maxRegisters > 0) in.nvccFlags.push_back("-maxrregcount=" + std::to_string(o.maxRegisters));
  in.toolTimeoutSeconds = o.toolTimeout;
  in.progress = progressReporter();
  if (overrides.grid && overrides.block) {
    launch.grid = *overrides.grid;
    launch.block = *overrides.block;
    if (overrides.dynamicSharedBytes) launch.dynamicSharedBytes = *overrides.dynamicSharedBytes;
    if (overrides.carveoutPercent) launch.carveoutPercent = *overrides.carveoutPercent;
    if (overrides.l2Start) launch.l2Start = *overrides.l2Start;
    if (overrides.timing) launch.timing = *overrides.timing;
    in.launch = launch;
  }
  return in;
}

}  // namespace

Expected<InputOptions> toInputOptions(const CommonOptions& o, const Gpu& gpu) {
  Expected<LaunchOverrides> launch = toLaunchOverrides(o);
  if (!launch) return std::move(launch).takeError();
  return toInputOptions(o, &gpu, *launch);
}

Expected<std::pair<long long, long long>> parseShard(const std::string& text) {
  const size_t slash = text.find('/');
  const std::optional<long long> i = slash == std::string::npos ? std::nullopt : toInteger(text.substr(0, slash));
  const std::optional<long long> n = slash == std::string::npos ? std::nullopt : toInteger(text.substr(slash + 1));
  if (!i || !n || *n < 1 || *i < 0 || *i >= *n) {
    return makeError("--shard '" + text + "': expected I/N with 0 <= I < N (e.g. 0/4 ... 3/4)");
  }
  return std::pair<long long, long long>{*i, *n};
}

std::vector<std::string> splitGpuList(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Expected<std::deque<Gpu>> resolveGpus(const CommonOptions& o) {
  const std::vector<std::string> names = splitGpuList(o.gpu);
  if (names.empty()) return makeError("--gpu needs at least one GPU name or file");
  std::deque<Gpu> gpus;
  for (const std::string& name : names) {
    Expected<Gpu> gpu = resolveGpu(name);
    if (!gpu) return std::move(gpu).takeError();
    gpus.push_back(std::move(*gpu));
  }
  return gpus;
}

Expected<Gpu> resolveOneGpu(const CommonOptions& o, const std::string& command) {
  const std::vector<std::string> names = splitGpuList(o.gpu);
  if (names.size() > 1) {
    return makeError(command + " takes one GPU; --gpu '" + o.gpu + "' names " + std::to_string(names.size()) +
                     " (run it once per GPU)");
  }
  return resolveGpu(names.empty() ? o.gpu : names.front());
}

void addCommonOptions(CLI::App& sub, CommonOptions& o) {
  sub.add_option("input", o.input, "Input file (.toml workload summary; .sk skeleton; .cu, .ptx, .cubin, .sass)")->required();
  sub.add_option("--gpu", o.gpu, "GPU preset name or description file (.toml)")->capture_default_str();
  sub.add_option("--model", o.model, "Model")
      ->check(CLI::IsMember({"auto", "mwp-cwp", "emulate"}))
      ->capture_default_str();
  sub.add_option("--variant", o.variant,
                 "Model variant: MWP-CWP auto|hong-kim|grophecy|cgpredict|modern (auto: the default model's, "
                 "docs/models.md#default-model); emulate modern|saake")
      ->check(CLI::IsMember({"auto", "hong-kim", "grophecy", "cgpredict", "modern", "saake"}))
      ->capture_default_str();
  sub.add_option("--policy", o.policy, "Emulate: warp scheduling policy")
      ->check(CLI::IsMember({"gto", "rr"}))
      ->capture_default_str();
  // CLI::Range lets NaN through (every comparison with it is false); "nan" would then silently
  // mean "no measured rate".
  const CLI::Validator rate(
      [](std::string& s) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(s, v) || !(v >= 0.0 && v <= 1.0))
          return "Value " + s + " not in range 0 to 1";
        return {};
      },
      "FLOAT in [0 - 1]");
  sub.add_option("--l1-hit-rate", o.l1HitRate, "Emulate: measured L1 hit rate overriding the prediction (0..1)")
      ->check(rate);
  sub.add_option("--l2-hit-rate", o.l2HitRate, "Emulate: measured L2 hit rate overriding the prediction (0..1)")
      ->check(rate);
  sub.add_option("--kernel", o.kernel, "Kernel to predict when the input has several");
  sub.add_option("--grid", o.grid, "Grid in blocks, X[,Y[,Z]] (overrides the input's)");
  sub.add_option("--block", o.block, "Block in threads, X[,Y[,Z]] (overrides the input's)");
  sub.add_flag("--quantize-waves", o.quantizeWaves, "Round Hong & Kim's waves (Rep) up to whole waves; cgpredict always does");
  sub.add_option("--smem-rule", o.smemRule, "cgpredict shared-memory rule (docs/models.md)")
      ->check(CLI::IsMember({"paper_fitted", "paper_literal"}))
      ->capture_default_str();
  sub.add_flag("--json", o.json, "Print one JSON object on stdout");
  sub.add_option("-D", o.defines, "Macro for CUDA compilation or a skeleton, NAME[=VALUE] (repeatable)");
  sub.add_option("--hints", o.hints, "Skeleton hints file: layout domains, a pinned layout, Table 3 costs");
  sub.add_option("--max-variants", o.maxVariants, "Skeleton layouts, or kernel variants (explore), a search may evaluate; refused above it (default: 1000000 layouts, 10000 variants)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub.add_option("--arg", o.args, "Scalar kernel argument, NAME=VALUE (repeatable)");
  sub.add_option("--array", o.arrays,
                 "Bytes of the array a pointer argument points to, NAME=BYTES (repeatable): sizes what its data-dependent "
                 "accesses spread over");
  sub.add_option("--data", o.data,
                 "Contents of the array a pointer argument points to, NAME=TYPE:PATTERN[:PARAM...] (a validation init "
                 "pattern, e.g. cols=i32:torus_cols:2048:2048*2048) or NAME=TYPE:file:PATH (repeatable): loads from it "
                 "read these values, so indices loaded from it give exact addresses and branches");
  sub.add_option("--trip", o.trips, "Trip count of a data-dependent loop, FILE:LINE=N (repeatable)");
  sub.add_option("--branch", o.branches, "Taken probability of a data-dependent branch, FILE:LINE=P (repeatable)");
  sub.add_option("--dynamic-shared", o.dynamicShared, "Dynamic shared memory per block, bytes (the launch's third <<<>>> argument)")
      ->check(CLI::Range(0LL, 1LL << 40));
  sub.add_option("--carveout", o.carveout,
                 "Shared-memory carveout, percent of the GPU's largest (cudaFuncAttributePreferredSharedMemoryCarveout; "
                 "rounded up to a carveout the GPU lists)")
      ->check(CLI::Range(0, 100));
  sub.add_option("--l2", o.l2,
                 "What the L2 holds of the launch's data at the start: cold (nothing; the default, as Nsight Compute and "
                 "a first launch see it) or warm (left there by the same launch just before, as back-to-back launches "
                 "over the same buffers see it)")
      ->check(CLI::IsMember({"cold", "warm"}));
  sub.add_option("-I", o.includeDirs, "Include directory for CUDA compilation (repeatable)");
  sub.add_option("--nvcc-flag", o.nvccFlags, "Further nvcc flag for CUDA compilation, e.g. --nvcc-flag=-use_fast_math (repeatable)")
      ->allow_extra_args(false);
  sub.add_option("--maxrregcount", o.maxRegisters, "Registers per thread at most (nvcc -maxrregcount)")->check(CLI::Range(1, 255));
  addToolTimeoutOption(sub, o.toolTimeout,
                       "Wall-clock limit of each nvcc, ptxas or nvdisasm run, seconds (default: nvcc 300, "
                       "ptxas 120, nvdisasm 60)");
}

void addToolTimeoutOption(CLI::App& sub, double& seconds, const std::string& help) {
  // CLI::PositiveNumber would let NaN through (see the hit rates above).
  const CLI::Validator positive(
      [](std::string& s) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(s, v) || !(v > 0 && v <= 1e6)) return "Value " + s + " is not a number of seconds in (0, 1e6]";
        return {};
      },
      "SECONDS");
  sub.add_option("--tool-timeout", seconds, help)->check(positive);
}

Expected<ModelOptions> toModelOptions(const CommonOptions& o, const Gpu* gpu) {
  return resolveModelNames(toModelNames(o), inputKindOf(o.input), gpu);
}

ModelNames toModelNames(const CommonOptions& o) {
  return {o.model, o.variant, o.policy, o.l1HitRate, o.l2HitRate, o.quantizeWaves, o.smemRule};
}

Expected<LaunchOverrides> toLaunchOverrides(const CommonOptions& o) {
  LaunchOverrides out;
  if (!o.grid.empty()) {
    Expected<Dim3> grid = parseDim3(o.grid, "grid");
    if (!grid) return std::move(grid).takeError();
    // CUDA's grid limits (compute capability 3.0 and later): no GPU could launch more.
    if (grid->x > 2147483647LL || grid->y > 65535 || grid->z > 65535) {
      return makeError("--grid '" + o.grid + "' exceeds CUDA's grid limits (x up to 2147483647, y and z up to 65535)");
    }
    out.grid = *grid;
  }
  if (!o.block.empty()) {
    Expected<Dim3> block = parseDim3(o.block, "block");
    if (!block) return std::move(block).takeError();
    if (block->x > 1024 || block->y > 1024 || block->z > 64) {
      return makeError("--block '" + o.block + "' exceeds CUDA's block limits (x and y up to 1024, z up to 64)");
    }
    out.block = *block;
  }
  if (o.dynamicShared >= 0) out.dynamicSharedBytes = o.dynamicShared;
  if (o.carveout >= 0) out.carveoutPercent = o.carveout;
  if (!o.l2.empty()) {
    Expected<L2Start> start = parseL2Start(o.l2, "--l2");
    if (!start) return std::move(start).takeError();
    out.l2Start = *start;
  }
  if (!o.timing.empty()) {
    Expected<LaunchTiming> timing = parseLaunchTiming(o.timing, "--timing");
    if (!timing) return std::move(timing).takeError();
    out.timing = *timing;
  }
  return out;
}

Expected<WorkloadOptions> toWorkloadOptions(const CommonOptions& o, const Gpu* gpu) {
  WorkloadOptions wo;
  Expected<LaunchOverrides> launch = toLaunchOverrides(o);
  if (!launch) return std::move(launch).takeError();
  Expected<InputOptions> input = toInputOptions(o, gpu, *launch);
  if (!input) return std::move(input).takeError();
  wo.input = std::move(*input);
  wo.launch = std::move(*launch);
  wo.layoutHints = o.hints;
  wo.maxLayouts = o.maxVariants;
  return wo;
}

Expected<WorkloadPrediction> predictOnGpus(const CommonOptions& o, std::deque<Gpu>& gpus) {
  if (Expected<ModelOptions> m = toModelOptions(o); !m) return std::move(m).takeError();  // before any GPU is read
  Expected<std::deque<Gpu>> resolved = resolveGpus(o);
  if (!resolved) return std::move(resolved).takeError();
  gpus = std::move(*resolved);
  PredictOptions po;
  for (const Gpu& gpu : gpus) po.gpus.push_back(&gpu);
  Expected<WorkloadOptions> wo = toWorkloadOptions(o);
  if (!wo) return std::move(wo).takeError();
  po.workload = std::move(*wo);
  po.model = toModelNames(o);
  return predictWorkload(o.input, po);
}

Expected<LoadedKernel> loadKernel(const CommonOptions& o, const Gpu& gpu) {
  Expected<WorkloadOptions> wo = toWorkloadOptions(o, &gpu);
  if (!wo) return std::move(wo).takeError();
  if (hasOwnVariantSpace(o.input)) {
    // The layout search ranks with the model the options name.
    Expected<ModelOptions> model = toModelOptions(o, &gpu);
    if (!model) return std::move(model).takeError();
    wo->searchModel = *model;
  }
  Expected<Workload> input = loadWorkload(o.input, *wo);
  if (!input) return std::move(input).takeError();
  Expected<KernelRun> run = workloadRun(*input, o.kernel);
  if (!run) return std::move(run).takeError();
  LoadedKernel out;
  out.index = run->kernel;
  out.launch = std::move(run->launch);
  out.input = std::move(*input);
  return out;
}

PrintOptions printOptions(const CommonOptions& o) { return {o.json, o.summary, o.html, o.input}; }

int printView(const View& view, const PrintOptions& p) {
  if (p.summary && p.json) return reportError(makeError("choose one of --json and --summary"));
  std::string lines;
  if (p.summary) {
    lines = view.summary();
    if (lines.empty()) return reportError(makeError("this report has no summary line; drop --summary"));
  }
  if (!p.html.empty()) {
    if (Expected<void> ok = writeHtmlReport(view, p.title.empty() ? view.name() : p.title, p.html); !ok) {
      return reportError(ok.error());
    }
  }
  if (p.summary) {
    std::cout << lines;
  } else if (p.json) {
    std::cout << view.toJson().dump(2) << "\n";
  } else {
    view.printText(std::cout);
  }
  return kExitOk;
}

void addSummaryOption(CLI::App& sub, bool& summary) {
  sub.add_flag("--summary", summary,
               "Print one line per predicted launch: kernel, GPU, time, bound, model (explain: and the top fix)");
}

void addHtmlOption(CLI::App& sub, std::string& path) {
  sub.add_option("--html", path,
                 "Also write the report as one self-contained HTML page with charts (works offline, from file://)");
}

int reportError(const Error& error) {
  std::cerr << "foresight: " << error.format() << "\n";
  return kExitError;
}

}  // namespace foresight::cli
