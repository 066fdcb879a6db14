// SPDX-License-Identifier: Apache-2.0
/// \file
/// Measurements: the JSON lines the GPU runner appends to validation/measurements/<gpu>.jsonl,
/// one line per experiment variant and run, with provenance (device, driver, SM clock, date) and
/// the raw samples. `<gpu>` is the preset the measurements are predicted with. Line format:
/// docs/validation.md.
#pragma once

#include <string>
#include <vector>

#include "foresight/support/error.h"

namespace foresight {

/// One run of one experiment variant on one GPU.
struct Measurement {
  std::string experiment;
  std::string variant;
  std::string device;             ///< GPU name as the driver reports it
  std::string driver;             ///< driver version
  double smClockMhz = 0;          ///< SM clock read during the run (0 = unknown)
  std::string date;               ///< ISO 8601, UTC
  std::string check;              ///< "passed", "failed" or "none"
  std::string source;             ///< where a published time comes from ("owner/repo"); empty
                                  ///< for the runner's own measurements
  std::vector<double> samplesMs;  ///< one per timed repetition, milliseconds
  double medianSeconds = 0;       ///< median of samplesMs, in seconds
  int line = 0;                   ///< line in the file
};

/// All measurements of one `<gpu>.jsonl` file.
struct MeasurementFile {
  std::string path;
  std::string gpu;  ///< the file's stem: the GPU preset (or description) to predict with
  std::vector<Measurement> measurements;
};

/// Parses one JSON line. Required: experiment, variant, gpu, date, samples_ms (non-empty,
/// positive); optional: driver, sm_clock_mhz, check, source (the publication a time was copied
/// from; validate groups its summary by it). Unknown keys are allowed (the runner may
/// add provenance) but a wrong type is an Error.
[[nodiscard]] Expected<Measurement> parseMeasurementLine(const std::string& line,
                                                         const std::string& file, int lineNumber);

/// Reads every `*.jsonl` file of `dir` (not recursive), sorted by name; blank lines are skipped.
/// A missing directory gives an empty list, not an Error.
[[nodiscard]] Expected<std::vector<MeasurementFile>> loadMeasurements(const std::string& dir);

}  // namespace foresight
