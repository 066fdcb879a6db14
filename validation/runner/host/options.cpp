// SPDX-License-Identifier: Apache-2.0
// Runner command line.
#include "options.h"

#include <cstdlib>

namespace runner {

std::string usage() {
  return "usage: runner --plan FILE --gpu NAME [--out FILE] [--experiment NAME]... [--samples "
         "N>=10]\n"
         "              [--warmup N] [--device N] [--nvcc PATH] [--cubin-dir DIR] [--dry-run]\n"
         "Runs the experiments of a plan (foresight validate --emit-plan FILE) on a CUDA GPU and "
         "appends\n"
         "one JSON line per experiment variant to --out (default "
         "validation/measurements/<gpu>.jsonl).\n"
         "--cubin-dir DIR takes <experiment>.<variant>.sm_XY.cubin from DIR where present (built ahead by\n"
         "validation/runner/precompile.sh) instead of compiling it.\n";
}

bool parseOptions(int argc, const char* const* argv, Options& o, std::string& error) {
  auto intArg = [&](const std::string& flag, const char* text, int& out) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < 0 || v > 1000000) {
      error = flag + " needs a non-negative integer, got '" + text + "'";
      return false;
    }
    out = static_cast<int>(v);
    return true;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      o.help = true;
      continue;
    }
    if (a == "--dry-run") {
      o.dryRun = true;
      continue;
    }
    if (i + 1 >= argc) {
      error = "'" + a + "' needs a value or is unknown";
      return false;
    }
    const char* v = argv[++i];
    if (a == "--plan")
      o.plan = v;
    else if (a == "--gpu")
      o.gpuKey = v;
    else if (a == "--out")
      o.out = v;
    else if (a == "--nvcc")
      o.nvcc = v;
    else if (a == "--cubin-dir")
      o.cubinDir = v;
    else if (a == "--experiment")
      o.experiments.push_back(v);
    else if (a == "--device") {
      if (!intArg(a, v, o.device)) return false;
    } else if (a == "--samples") {
      if (!intArg(a, v, o.samples)) return false;
    } else if (a == "--warmup") {
      if (!intArg(a, v, o.warmup)) return false;
    } else {
      error = "unknown option '" + a + "'";
      return false;
    }
  }
  if (o.help) return true;
  if (o.plan.empty()) return error = "--plan is required", false;
  if (o.gpuKey.empty())
    return error = "--gpu is required (the preset the measurements belong to, e.g. h100)", false;
  if (o.samples < 10) return error = "--samples must be at least 10", false;
  if (o.out.empty()) o.out = "validation/measurements/" + o.gpuKey + ".jsonl";
  return true;
}

}  // namespace runner
