// SPDX-License-Identifier: Apache-2.0
// Runner host logic: the arithmetic and formatting around timing — median, how many rotating
// buffer copies to allocate, parsing nvidia-smi's answer, and the JSON line appended to
// validation/measurements/<gpu>.jsonl (format: docs/validation.md).
#pragma once

#include <string>
#include <vector>

namespace runner {

/// Median of the samples (mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> samples);

/// Copies of the working set to rotate through so that consecutive samples never find their
/// data in L2: enough copies to cover `factor` x L2 (at least 1), capped by `maxCopies` and by
/// what fits in half the free device memory. 1 when the working set alone already covers it.
long long rotationCopies(long long workingSetBytes, long long l2Bytes, long long freeBytes,
                         int factor = 2, long long maxCopies = 64);

/// "1980, 580.65.06" (nvidia-smi --query-gpu=clocks.sm,driver_version
/// --format=csv,noheader,nounits) → clock 1980 and driver "580.65.06"; false when the line does not
/// have that shape.
bool parseSmiLine(const std::string& line, double& clockMhz, std::string& driver);

/// One measurement record.
struct MeasurementRecord {
  std::string experiment, variant, gpu, cc, driver, date, check, plan;
  double smClockMhz = 0;
  double checkError = -1;  // < 0: not checked
  int warmup = 0;
  long long rotateCopies = 1;
  bool flush = false, reinit = false;
  std::vector<double> samplesMs;
};

/// JSON string literal with escapes.
std::string jsonString(const std::string& s);

/// The record as one JSON object on one line (no trailing newline). Numbers use up to 9
/// significant digits.
std::string formatJsonLine(const MeasurementRecord& r);

/// The current UTC time as "YYYY-MM-DDTHH:MM:SSZ".
std::string utcNow();

}  // namespace runner
