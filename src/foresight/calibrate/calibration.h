// SPDX-License-Identifier: Apache-2.0
/// \file
/// Calibration: the host side of `foresight calibrate`. The CUDA microbenchmarks in calibrate/
/// print one `key value` line per result (format: docs/validation.md, "Calibration"); this file
/// parses those lines and maps them onto the fields of a GPU description, each with provenance
/// `measured:<date>`. Fields no microbenchmark measures (allocation granularities, MWP-CWP issue
/// cycles, ...) are kept from a base description. Pure functions: tested on synthetic outputs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "foresight/gpu/gpu.h"
#include "foresight/support/error.h"

namespace foresight {

/// Parsed microbenchmark output: numbers by key, plus the device strings.
struct CalibrationResults {
  std::string deviceName;         ///< key "device"
  std::string computeCapability;  ///< key "cc", "9.0"
  std::map<std::string, double> values;
};

/// Keys every complete calibration run prints (numbers), in the order of the suite.
[[nodiscard]] const std::vector<std::string>& requiredCalibrationKeys();

/// Parses `key value` lines; '#' starts a comment line; "device" and "cc" take the rest of the
/// line as a string. A malformed or repeated line, or a missing required key, is an Error with
/// the line number (`source` names the output in messages).
[[nodiscard]] Expected<CalibrationResults> parseCalibrationOutput(const std::string& text,
                                                                  const std::string& source);

/// The preset to start from for a compute capability ("9.0" → "h100", "8.0" → "a100", "7.0" →
/// "v100"); empty when none fits.
[[nodiscard]] std::string basePresetFor(const std::string& computeCapability);

/// `base` with every measured field replaced (value in the field's unit, provenance
/// measured:<date>), name set to `name` and full_name to the device name. The mapping (issue
/// rates → gaps per scheduler, per-SM request cycles → departure delays, ...) is documented in
/// docs/validation.md. `date` is YYYY-MM-DD. An Error when the results contradict the base
/// (another compute capability) or a value is not positive.
[[nodiscard]] Expected<Gpu> applyCalibration(const Gpu& base, const CalibrationResults& results,
                                             const std::string& date, const std::string& name);

}  // namespace foresight
