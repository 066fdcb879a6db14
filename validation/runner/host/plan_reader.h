// SPDX-License-Identifier: Apache-2.0
// Runner host logic: reading the run plan written by `foresight validate --emit-plan`
// (src/foresight/validation/plan.h). Plain C++17, no dependencies: compiled into the runner by
// nvcc and into the unit tests by the project's compiler.
#pragma once

#include <string>
#include <vector>

namespace runner {

struct PlanBuffer {
  std::string name;
  std::string type;  // f32 f64 i32 u32 i64
  long long count = 0;
  std::string role;  // input output inout
  std::string init;  // pattern kind
  std::vector<long long> params;
  double value = 0;  // constant:V
};

struct PlanScalar {
  std::string name;
  std::string type;
  long long intValue = 0;
  double floatValue = 0;
};

struct PlanLaunch {
  std::string kernel;
  long long grid[3] = {1, 1, 1};
  long long block[3] = {1, 1, 1};
  long long sharedBytes = 0;
  long long repeat = 1;
  int carveout = -1;  ///< preferred shared-memory carveout in percent; -1 = the driver's choice
  std::vector<std::string> args;
};

struct PlanCheck {
  std::string reference;
  std::string output;
  double tolerance = 0;
  std::vector<std::string> inputs;
  std::vector<long long> params;
};

struct PlanExperiment {
  std::string name;
  std::string variant;
  std::string source;
  bool rotate = true;
  bool reinit = false;
  bool flush = false;
  std::vector<std::pair<std::string, long long>> defines;
  std::vector<PlanBuffer> buffers;
  std::vector<PlanScalar> scalars;
  std::vector<PlanLaunch> launches;
  bool hasCheck = false;
  PlanCheck check;

  long long totalBytes() const;
  const PlanBuffer* buffer(const std::string& name) const;
  const PlanScalar* scalar(const std::string& name) const;
};

/// Bytes per element of a plan type; 0 for an unknown type.
int typeBytes(const std::string& type);

/// Parses plan text. On failure returns false and sets `error` to "line N: message".
bool parsePlan(const std::string& text, std::vector<PlanExperiment>& out, std::string& error);

}  // namespace runner
