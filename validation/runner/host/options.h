// SPDX-License-Identifier: Apache-2.0
// Runner host logic: the command line of validation/runner (usage: runner --help).
#pragma once

#include <string>
#include <vector>

namespace runner {

struct Options {
  std::string plan;                      // --plan FILE (required)
  std::string gpuKey;                    // --gpu NAME: measurement file stem, a preset (required)
  std::string out;                       // --out FILE (default validation/measurements/<gpu>.jsonl)
  std::string nvcc = "nvcc";             // --nvcc PATH
  std::string cubinDir;                  // --cubin-dir DIR: <experiment>.<variant>.sm_XY.cubin built ahead
  std::vector<std::string> experiments;  // --experiment NAME (repeatable; default all)
  int device = 0;                        // --device N
  int samples = 20;                      // --samples N (>= 10)
  int warmup = 3;                        // --warmup N
  bool dryRun = false;                   // --dry-run: parse and fill on the host, no GPU
  bool help = false;
};

/// Parses argv; false with `error` set on a bad command line.
bool parseOptions(int argc, const char* const* argv, Options& o, std::string& error);

/// The usage text.
std::string usage();

}  // namespace runner
