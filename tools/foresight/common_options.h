// SPDX-License-Identifier: Apache-2.0
/// \file
/// Options shared by the commands that predict (predict, and later explain, explore, place):
/// their CLI11 registration, and their conversion into library types.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "foresight/frontend/input.h"
#include "foresight/frontend/input_options.h"
#include "foresight/gpu/gpu.h"
#include "foresight/ir/launch.h"
#include "foresight/model/default_model.h"
#include "foresight/model/model_options.h"
#include "foresight/support/error.h"
#include "foresight/workload/run_workload.h"

namespace foresight {
class View;
}

namespace CLI {
class App;
}

namespace foresight::cli {

/// The common options as typed on the command line.
struct CommonOptions {
  std::string input;
  std::string gpu = "h100";
  std::string model = "auto";
  std::string variant = "auto";  ///< auto: cgpredict for .c inputs, grophecy otherwise
  std::string kernel;
  std::string grid;   ///< "X[,Y[,Z]]", empty = from the input
  std::string block;  ///< "X[,Y[,Z]]", empty = from the input
  bool quantizeWaves = false;
  std::string policy = "gto";  ///< emulate: gto | rr
  double l1HitRate = -1;       ///< emulate: measured override; < 0 = predict
  double l2HitRate = -1;
  std::string smemRule = "paper_fitted";  ///< cgpredict shared-memory rule
  bool json = false;
  bool summary = false;  ///< --summary (predict, explain): one line per launch
  std::string html;      ///< --html FILE (predict, explain, explore, place, bound): the report's page
  std::vector<std::string> defines;   ///< -D NAME[=VALUE] (CUDA inputs)
  std::vector<std::string> args;      ///< --arg NAME=VALUE: scalar kernel arguments
  std::vector<std::string> trips;     ///< --trip FILE:LINE=N: loop trip counts
  std::vector<std::string> branches;  ///< --branch FILE:LINE=P: branch-taken probabilities
  std::vector<std::string> arrays;     ///< --array NAME=BYTES
  std::vector<std::string> data;       ///< --data NAME=TYPE:PATTERN[:PARAM...] | NAME=TYPE:file:PATH
  long long dynamicShared = -1;       ///< --dynamic-shared BYTES; < 0 = the input's (else 0)
  int carveout = -1;                  ///< --carveout PERCENT; < 0 = the driver's choice
  std::string l2;                     ///< --l2 cold|warm; empty = cold
  std::string timing;                 ///< --timing stream|alone (predict); empty = stream
  long long maxVariants = 1'000'000;  ///< --max-variants: layouts a skeleton search may evaluate
  std::vector<std::string> includeDirs;  ///< -I DIR (CUDA compilation)
  std::vector<std::string> nvccFlags;    ///< --nvcc-flag FLAG (CUDA compilation)
  int maxRegisters = 0;                  ///< --maxrregcount N (CUDA compilation); 0 = none
  double toolTimeout = 0;  ///< --tool-timeout SECONDS (nvcc, ptxas, nvdisasm runs); 0 = defaults
  std::string hints;  ///< --hints FILE: skeleton layout hints (domains, a pinned layout, Table 3)
};

/// "h100,a100" → {"h100", "a100"} (empty items dropped).
[[nodiscard]] std::vector<std::string> splitGpuList(const std::string& list);

/// Every GPU --gpu names (presets or files), in order; a deque, so that results can point at them.
[[nodiscard]] Expected<std::deque<Gpu>> resolveGpus(const CommonOptions& options);

/// The one GPU of a command that takes one (`explain`, `ir`): an Error when --gpu names
/// several, naming the command.
[[nodiscard]] Expected<Gpu> resolveOneGpu(const CommonOptions& options, const std::string& command);

/// Registers the common options on a subcommand.
void addCommonOptions(CLI::App& sub, CommonOptions& options);

/// Registers `--tool-timeout SECONDS` (a positive number) on a subcommand, into `seconds`:
/// the wall-clock limit of each run of an external tool; `help` names the tools and defaults.
void addToolTimeoutOption(CLI::App& sub, double& seconds, const std::string& help);

/// ModelOptions from the typed names; an Error for an unknown model or variant.
/// `gpu`, when known, lets `auto` pick the default model for that GPU (default_model.h).
[[nodiscard]] Expected<ModelOptions> toModelOptions(const CommonOptions& options, const Gpu* gpu = nullptr);

/// The model names as typed (`--model`, `--variant` and the emulate options).
[[nodiscard]] ModelNames toModelNames(const CommonOptions& options);

/// --grid, --block, --dynamic-shared, --carveout and --l2; an Error for malformed extents or ones
/// beyond CUDA's limits, naming the option.
[[nodiscard]] Expected<LaunchOverrides> toLaunchOverrides(const CommonOptions& options);

/// What loadWorkload() and the library's commands take from the command line: toInputOptions()
/// (for `gpu`, which may be null when the library sets it per GPU), the launch overrides, the
/// hints file and --max-variants.
[[nodiscard]] Expected<WorkloadOptions> toWorkloadOptions(const CommonOptions& options, const Gpu* gpu = nullptr);

/// predictWorkload() for the command line: every --gpu (into `gpus`, which the result points at),
/// the workload options and the model names; the first step's Error otherwise.
[[nodiscard]] Expected<WorkloadPrediction> predictOnGpus(const CommonOptions& options, std::deque<Gpu>& gpus);

/// One kernel of an input loaded for one GPU, with its launch: what predict, explain, bound and
/// place run on.
struct LoadedKernel {
  LoadedInput input;
  size_t index = 0;  ///< the selected kernel in input.kernels
  Launch launch;
  [[nodiscard]] const KernelInput& kernel() const { return input.kernels[index]; }
};

/// Loads the workload for `gpu` (toWorkloadOptions, loadWorkload), selects --kernel and its
/// launch (workloadRuns); the first step's Error otherwise.
[[nodiscard]] Expected<LoadedKernel> loadKernel(const CommonOptions& options, const Gpu& gpu);

/// InputOptions for loadInput(): the GPU, the launch when --grid and --block are both given
/// (with --arg values and integer -D macros), -D macros, --trip and --branch hints. An Error
/// for a malformed NAME=VALUE or FILE:LINE=VALUE.
[[nodiscard]] Expected<InputOptions> toInputOptions(const CommonOptions& options, const Gpu& gpu);

/// "NAME=VALUE" (`-D`, `--arg`) → (NAME, VALUE); VALUE may be empty when `valueOptional`. An
/// Error names the option (`what`) and the text otherwise.
/// `--grid`/`--block` text "X[,Y[,Z]]" (positive integers; missing extents are 1).
[[nodiscard]] Expected<Dim3> parseDim3(const std::string& text, const char* what);

[[nodiscard]] Expected<std::pair<std::string, std::string>> splitAssignment(const std::string& text, const char* what,
                                                                            bool valueOptional);

/// "I/N" (`--shard`): 0 <= I < N; an Error otherwise.
[[nodiscard]] Expected<std::pair<long long, long long>> parseShard(const std::string& text);

/// Prints "foresight: <error>" on stderr and returns kExitError.
int reportError(const Error& error);

/// Prints a view on stdout, as one JSON object or as text; returns kExitOk.
/// How a command prints its report: the text, or --json, or --summary; and with --html the page
/// besides (report/html_report.h).
struct PrintOptions {
  bool json = false;
  bool summary = false;
  std::string html;   ///< the page's path; empty = none
  std::string title;  ///< the page's title (the input's path)
};
/// The print options of a command with the common options.
[[nodiscard]] PrintOptions printOptions(const CommonOptions& o);
/// Prints the view as `p` says (--summary with --json is refused; a view without summary lines
/// refuses --summary) and writes the --html page; the page is written before anything is printed,
/// so a page that cannot be written leaves stdout empty.
int printView(const View& view, const PrintOptions& p);
/// Adds --summary to a command whose report has summary lines.
void addSummaryOption(CLI::App& sub, bool& summary);
/// Adds --html FILE.
void addHtmlOption(CLI::App& sub, std::string& path);

}  // namespace foresight::cli
