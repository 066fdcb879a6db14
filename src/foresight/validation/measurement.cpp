// SPDX-License-Identifier: Apache-2.0
/// \file
/// JSON-lines measurement reader.
#include "foresight/validation/measurement.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "foresight/validation/accuracy.h"

namespace foresight {

namespace fs = std::filesystem;

Expected<Measurement> parseMeasurementLine(const std::string& text, const std::string& file,
                                           int lineNumber) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e99999999
    return makeError(std::string("not a JSON object: ") + e.what(), file, lineNumber);
  }
  if (!j.is_object())
    return makeError("a measurement line must be a JSON object", file, lineNumber);
  Measurement m;
  m.line = lineNumber;
  auto str = [&](const char* key, bool required, std::string& out) -> bool {
    const auto it = j.find(key);
    if (it == j.end()) return !required;
    if (!it->is_string()) return false;
    out = it->get<std::string>();
    return true;
  };
  for (auto [key, required, out] :
       {std::tuple{"experiment", true, &m.experiment}, std::tuple{"variant", true, &m.variant},
        std::tuple{"gpu", true, &m.device}, std::tuple{"date", true, &m.date},
        std::tuple{"driver", false, &m.driver}, std::tuple{"check", false, &m.check},
        std::tuple{"source", false, &m.source}}) {
    if (!str(key, required, *out)) {
      return makeError(
          std::string("'") + key + "' must be " + (required ? "present and " : "") + "a string",
          file, lineNumber);
    }
  }
  if (m.check.empty()) m.check = "none";
  if (const auto it = j.find("sm_clock_mhz"); it != j.end()) {
    if (!it->is_number()) return makeError("'sm_clock_mhz' must be a number", file, lineNumber);
    m.smClockMhz = it->get<double>();
  }
  const auto samples = j.find("samples_ms");
  if (samples == j.end() || !samples->is_array() || samples->empty()) {
    return makeError("'samples_ms' must be a non-empty array of times in milliseconds", file,
                     lineNumber);
  }
  for (const auto& s : *samples) {
    if (!s.is_number() || s.get<double>() <= 0) {
      return makeError("'samples_ms' must hold positive numbers", file, lineNumber);
    }
    m.samplesMs.push_back(s.get<double>());
  }
  m.medianSeconds = *median(m.samplesMs) * 1e-3;
  return m;
}

Expected<std::vector<MeasurementFile>> loadMeasurements(const std::string& dir) {
  std::vector<MeasurementFile> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".jsonl")
      paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  for (const fs::path& p : paths) {
    MeasurementFile f{p.string(), p.stem().string(), {}};
    std::ifstream in(p);
    if (!in) return makeError("cannot read measurements '" + p.string() + "'");
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      Expected<Measurement> m = parseMeasurementLine(line, f.path, n);
      if (!m) return std::move(m).takeError();
      f.measurements.push_back(std::move(*m));
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace foresight
