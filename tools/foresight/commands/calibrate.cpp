// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight calibrate [--out FILE]`: on a machine with a CUDA GPU, builds the microbenchmarks
/// of calibrate/ with nvcc, runs them, and writes a GPU description whose measured fields carry
/// `measured:<date>` (docs/validation.md). Without nvcc or a GPU it fails with one message.
#include <sys/wait.h>
#include <CLI/CLI.hpp>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "../command.h"
#include "../common_options.h"
#include "foresight/calibrate/calibration.h"
#include "foresight/gpu/gpu_loader.h"
#include "foresight/gpu/gpu_writer.h"
#include "foresight/gpu/presets.h"

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
};

/// Runs a shell command; returns its exit status and stdout.
std::pair<int, std::string> runCommand(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return {-1, output};
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

std::string findNvcc(const std::string& given) {
  if (!given.empty()) return given;
  if (runCommand("command -v nvcc >/dev/null 2>&1").first == 0) return "nvcc";
  if (fs::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return "";
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

Expected<std::string> runSuite(const CalibrateOptions& o) {
  const std::string nvcc = findNvcc(o.nvcc);
  if (nvcc.empty()) {
    return makeError("calibrate needs nvcc (CUDA toolkit) and a CUDA GPU; nvcc was not found");
  }
  if (runCommand("nvidia-smi -L >/dev/null 2>&1").first != 0) {
    return makeError(
        "no CUDA GPU on this machine (nvidia-smi -L failed): run `foresight calibrate` where a GPU "
        "is, see docs/validation.md");
  }
  const fs::path source = fs::path(o.sourceDir) / "microbench.cu";
  if (!fs::exists(source))
    return makeError("microbenchmark source '" + source.string() + "' not found (--source)");
  const fs::path dir =
      fs::temp_directory_path() / ("foresight-calibrate-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path exe = dir / "microbench";
  const std::string compile =
      nvcc + " -O3 -std=c++17 -arch=native -o " + exe.string() + " " + source.string() + " 2>&1";
  std::cerr << "foresight: " << compile << "\n";
  auto [cstatus, cout] = runCommand(compile);
  if (cstatus != 0) return makeError("building the microbenchmarks failed:\n" + cout);
  std::cerr << "foresight: running the microbenchmarks (about a minute)\n";
  auto [rstatus, rout] = runCommand(exe.string() + " 2>&1");
  fs::remove_all(dir);
  if (rstatus != 0)
    return makeError("the microbenchmarks failed (exit " + std::to_string(rstatus) + "):\n" + rout);
  return rout;
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
  return [o] { return runCalibrate(*o); };
}

}  // namespace foresight::cli
