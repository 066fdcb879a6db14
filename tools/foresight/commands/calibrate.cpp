// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight calibrate [--out FILE]`: on a machine with a CUDA GPU, builds the microbenchmarks
/// of calibrate/ with nvcc, runs them, and writes a GPU description whose measured fields carry
/// `measured:<date>` (docs/validation.md). Without nvcc or a GPU it fails with one message.
#include <CLI/CLI.hpp>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "foresight/calibrate/calibration.h"
#include "foresight/frontend/cuda/system_toolchain.h"
#include "foresight/gpu/gpu_loader.h"
#include "foresight/gpu/gpu_writer.h"
#include "foresight/gpu/presets.h"
#include "foresight/support/process.h"

namespace foresight::cli {

namespace {

namespace fs = std::filesystem;

struct CalibrateOptions {
  std::string out;
  std::string base;
  std::string name;
  std::string sourceDir = "calibrate";
  std::string nvcc;
  std::string fromOutput;  ///< parse a saved microbenchmark output instead of running
  std::string date;        ///< provenance date; default today (UTC)
  double toolTimeout = 0;  ///< --tool-timeout: limit of the nvcc run and of the benchmark run
};

/// The microbenchmarks take about a minute on the GPUs measured so far.
constexpr double kMicrobenchTimeoutSeconds = 900;
constexpr double kNvidiaSmiTimeoutSeconds = 30;

std::string findNvcc(const std::string& given) {
  if (!given.empty()) return given;
  if (!findExecutable("nvcc").empty()) return "nvcc";
  if (fs::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return "";
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

/// Runs one program with a time limit; its stdout, or an Error that starts with `what` and
/// carries the program's output.
Expected<std::string> runStep(const std::string& what, ProcessRequest request) {
  Expected<ProcessResult> run = runProcess(request);
  if (!run) return makeError(what + ": " + run.error().message);
  if (run->succeeded()) return std::move(run->out);
  std::string message = what + ": " + describeFailure(request, *run);
  if (run->timedOut) message += std::string("; ") + kToolTimeoutHint;
  const std::string output = run->err + run->out;
  if (!output.empty()) message += ":\n" + output;
  while (!message.empty() && message.back() == '\n') message.pop_back();
  return makeError(message);
}

Expected<std::string> runSuite(const CalibrateOptions& o) {
  const std::string nvcc = findNvcc(o.nvcc);
  if (nvcc.empty()) {
    return makeError("calibrate needs nvcc (CUDA toolkit) and a CUDA GPU; nvcc was not found");
  }
  ProcessRequest smi;
  smi.argv = {"nvidia-smi", "-L"};
  smi.timeoutSeconds = kNvidiaSmiTimeoutSeconds;
  Expected<ProcessResult> gpus = runProcess(smi);
  if (!gpus || !gpus->succeeded()) {
    return makeError(
        "no CUDA GPU on this machine (nvidia-smi -L failed): run `foresight calibrate` where a GPU "
        "is, see docs/validation.md");
  }
  const fs::path source = fs::path(o.sourceDir) / "microbench.cu";
  if (!fs::exists(source))
    return makeError("microbenchmark source '" + source.string() + "' not found (--source)");
  Expected<TempDir> dir = TempDir::create("foresight-calibrate");
  if (!dir) return std::move(dir).takeError();
  const std::string exe = dir->file("microbench");
  ProcessRequest compile;
  compile.argv = {nvcc, "-O3", "-std=c++17", "-arch=native", "-o", exe, source.string()};
  compile.name = "nvcc";
  compile.timeoutSeconds = o.toolTimeout > 0 ? o.toolTimeout : cuda::kNvccTimeoutSeconds;
  std::string line;
  for (const std::string& a : compile.argv) line += (line.empty() ? "" : " ") + a;
  std::cerr << "foresight: " << line << "\n";
  Expected<std::string> built = runStep("building the microbenchmarks failed", compile);
  if (!built) return std::move(built).takeError();
  std::cerr << "foresight: running the microbenchmarks (about a minute)\n";
  ProcessRequest bench;
  bench.argv = {exe};
  bench.name = "the microbenchmarks";
  bench.timeoutSeconds = o.toolTimeout > 0 ? o.toolTimeout : kMicrobenchTimeoutSeconds;
  return runStep("the microbenchmarks failed", bench);
}

int runCalibrate(const CalibrateOptions& o) {
  std::string text;
  std::string sourceName = "microbenchmark output";
  if (!o.fromOutput.empty()) {
    std::ifstream in(o.fromOutput);
    if (!in) return reportError(makeError("cannot read '" + o.fromOutput + "'"));
    text.assign(std::istreambuf_iterator<char>(in), {});
    sourceName = o.fromOutput;
  } else {
    Expected<std::string> out = runSuite(o);
    if (!out) return reportError(out.error());
    text = *out;
  }
  Expected<CalibrationResults> results = parseCalibrationOutput(text, sourceName);
  if (!results) return reportError(results.error());
  const std::string baseName = o.base.empty() ? basePresetFor(results->computeCapability) : o.base;
  if (baseName.empty()) {
    return reportError(makeError("no base description for compute capability " +
                                 results->computeCapability + "; pass --base NAME|FILE"));
  }
  Expected<Gpu> base = resolveGpu(baseName);
  if (!base) return reportError(base.error());
  const std::string date = o.date.empty() ? today() : o.date;
  if (!parseProvenance("measured:" + date)) {
    return reportError(makeError("--date '" + date + "' is not a YYYY-MM-DD date"));
  }
  Expected<Gpu> gpu =
      applyCalibration(*base, *results, date, o.name.empty() ? base->name + "-measured" : o.name);
  if (!gpu) return reportError(gpu.error());
  const std::string toml = writeGpuToml(
      *gpu, "Measured by `foresight calibrate` on " + date + ": " + results->deviceName +
                ", compute capability " + results->computeCapability +
                ".\nFields no microbenchmark measures are kept from '" + base->name +
                "' with their provenance.");
  // Never write a description the loader would reject.
  Expected<Gpu> check = loadGpuFromString(toml, o.out.empty() ? "<stdout>" : o.out);
  if (!check) return reportError(check.error());
  if (o.out.empty()) {
    std::cout << toml;
  } else {
    std::ofstream out(o.out);
    if (!out) return reportError(makeError("cannot write '" + o.out + "'"));
    out << toml;
    std::cerr << "foresight: wrote " << o.out << "\n";
  }
  return kExitOk;
}

}  // namespace

std::function<int()> setupCalibrate(CLI::App& sub) {
  auto o = std::make_shared<CalibrateOptions>();
  sub.add_option("--out", o->out, "Write the GPU description here (default: stdout)");
  sub.add_option("--base", o->base,
                 "Description to start from (default: the preset of the measured CC)");
  sub.add_option("--name", o->name, "Name of the written description (default: <base>-measured)");
  sub.add_option("--source", o->sourceDir, "Directory of the microbenchmarks")
      ->capture_default_str();
  sub.add_option("--nvcc", o->nvcc,
                 "nvcc to build them with (default: from PATH or /usr/local/cuda)");
  sub.add_option("--from-output", o->fromOutput,
                 "Map a saved microbenchmark output instead of running");
  sub.add_option("--date", o->date, "Provenance date YYYY-MM-DD (default: today, UTC)");
  addToolTimeoutOption(sub, o->toolTimeout,
                       "Wall-clock limit of the nvcc run and of the microbenchmark run, seconds "
                       "(default: 300 and 900)");
  return [o] { return runCalibrate(*o); };
}

}  // namespace foresight::cli
