// SPDX-License-Identifier: Apache-2.0
// Timing arithmetic and measurement formatting.
#include "measure.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace runner {

double median(std::vector<double> s) {
  if (s.empty()) return 0;
  std::sort(s.begin(), s.end());
  const size_t n = s.size();
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

long long rotationCopies(long long workingSet, long long l2Bytes, long long freeBytes, int factor,
                         long long maxCopies) {
  if (workingSet <= 0) return 1;
  const long long target = static_cast<long long>(factor) * l2Bytes;
  long long copies = (target + workingSet - 1) / workingSet;  // ceil(target / workingSet)
  if (copies < 1) copies = 1;
  copies = std::min(copies, maxCopies);
  const long long fit = (freeBytes / 2) / workingSet;
  copies = std::min(copies, std::max(1LL, fit));
  return copies;
}

bool parseSmiLine(const std::string& line, double& clockMhz, std::string& driver) {
  const size_t comma = line.find(',');
  if (comma == std::string::npos) return false;
  const std::string clock = line.substr(0, comma);
  char* end = nullptr;
  clockMhz = std::strtod(clock.c_str(), &end);
  if (end == clock.c_str()) return false;
  while (*end == ' ') ++end;
  if (*end != '\0') return false;
  size_t b = comma + 1;
  while (b < line.size() && line[b] == ' ') ++b;
  size_t e = line.size();
  while (e > b && (line[e - 1] == ' ' || line[e - 1] == '\n' || line[e - 1] == '\r')) --e;
  driver = line.substr(b, e - b);
  return !driver.empty();
}

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"')
      out += "\\\"";
    else if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

std::string formatJsonLine(const MeasurementRecord& r) {
  std::string samples;
  for (double s : r.samplesMs) samples += (samples.empty() ? "" : ",") + num(s);
  std::string out = "{";
  out += "\"experiment\":" + jsonString(r.experiment);
  out += ",\"variant\":" + jsonString(r.variant);
  out += ",\"gpu\":" + jsonString(r.gpu);
  out += ",\"cc\":" + jsonString(r.cc);
  out += ",\"driver\":" + jsonString(r.driver);
  out += ",\"sm_clock_mhz\":" + num(r.smClockMhz);
  out += ",\"date\":" + jsonString(r.date);
  out += ",\"warmup\":" + std::to_string(r.warmup);
  out += ",\"rotate_copies\":" + std::to_string(r.rotateCopies);
  out += std::string(",\"flush\":") + (r.flush ? "true" : "false");
  out += std::string(",\"reinit\":") + (r.reinit ? "true" : "false");
  out += ",\"check\":" + jsonString(r.check);
  if (r.checkError >= 0) out += ",\"check_error\":" + num(r.checkError);
  out += ",\"median_ms\":" + num(median(r.samplesMs));
  out += ",\"samples_ms\":[" + samples + "]";
  out += ",\"plan\":" + jsonString(r.plan);
  out += ",\"runner\":\"foresight-runner 1\"}";
  return out;
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buf;
}

}  // namespace runner
