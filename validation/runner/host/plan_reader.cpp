// SPDX-License-Identifier: Apache-2.0
// Run plan parser: one record per line, whitespace-separated tokens.
#include "plan_reader.h"

#include <cstdlib>
#include <sstream>

namespace runner {

int typeBytes(const std::string& type) {
  if (type == "f32" || type == "i32" || type == "u32") return 4;
  if (type == "f64" || type == "i64") return 8;
  return 0;
}

long long PlanExperiment::totalBytes() const {
  long long total = 0;
  for (const PlanBuffer& b : buffers) total += b.count * typeBytes(b.type);
  return total;
}

const PlanBuffer* PlanExperiment::buffer(const std::string& n) const {
  for (const PlanBuffer& b : buffers)
    if (b.name == n) return &b;
  return nullptr;
}

const PlanScalar* PlanExperiment::scalar(const std::string& n) const {
  for (const PlanScalar& s : scalars)
    if (s.name == n) return &s;
  return nullptr;
}

namespace {

bool toInt(const std::string& s, long long& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtoll(s.c_str(), &end, 10);
  return *end == '\0';
}

bool toDouble(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return *end == '\0';
}

}  // namespace

bool parsePlan(const std::string& text, std::vector<PlanExperiment>& out, std::string& error) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  bool open = false, sawHeader = false;
  PlanExperiment e;
  auto fail = [&](const std::string& message) {
    error = "line " + std::to_string(n) + ": " + message;
    return false;
  };
  while (std::getline(in, line)) {
    ++n;
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string t; words >> t;) w.push_back(t);
    if (w.empty() || w[0][0] == '#') continue;
    const std::string& key = w[0];
    if (!sawHeader) {
      if (key != "foresight-plan" || w.size() != 2 || w[1] != "1")
        return fail("not a foresight-plan 1 file");
      sawHeader = true;
      continue;
    }
    if (key == "experiment") {
      if (open) return fail("'experiment' before 'end'");
      if (w.size() != 3) return fail("'experiment NAME VARIANT'");
      e = PlanExperiment{};
      e.name = w[1];
      e.variant = w[2];
      open = true;
      continue;
    }
    if (!open) return fail("'" + key + "' outside an experiment");
    long long iv = 0;
    if (key == "source" && w.size() == 2) {
      e.source = w[1];
    } else if ((key == "rotate" || key == "reinit" || key == "flush") && w.size() == 2 &&
               (w[1] == "0" || w[1] == "1")) {
      (key == "rotate" ? e.rotate : key == "reinit" ? e.reinit : e.flush) = w[1] == "1";
    } else if (key == "define" && w.size() == 3 && toInt(w[2], iv)) {
      e.defines.emplace_back(w[1], iv);
    } else if (key == "buffer" && w.size() >= 6) {
      PlanBuffer b;
      b.name = w[1];
      b.type = w[2];
      b.role = w[4];
      b.init = w[5];
      if (!typeBytes(b.type)) return fail("unknown type '" + b.type + "'");
      // At most 2^40 elements: more than any GPU holds, and totalBytes() cannot overflow.
      if (!toInt(w[3], b.count) || b.count <= 0 || b.count > (1LL << 40)) return fail("bad buffer count '" + w[3] + "'");
      if (b.role != "input" && b.role != "output" && b.role != "inout")
        return fail("bad role '" + b.role + "'");
      for (size_t i = 6; i < w.size(); ++i) {
        if (b.init == "constant") {
          if (!toDouble(w[i], b.value)) return fail("bad constant '" + w[i] + "'");
        } else {
          long long p = 0;
          if (!toInt(w[i], p)) return fail("bad pattern parameter '" + w[i] + "'");
          b.params.push_back(p);
        }
      }
      e.buffers.push_back(b);
    } else if (key == "scalar" && w.size() == 4) {
      PlanScalar s;
      s.name = w[1];
      s.type = w[2];
      if (!typeBytes(s.type)) return fail("unknown type '" + s.type + "'");
      const bool isFloat = s.type == "f32" || s.type == "f64";
      if (isFloat ? !toDouble(w[3], s.floatValue) : !toInt(w[3], s.intValue))
        return fail("bad scalar value '" + w[3] + "'");
      e.scalars.push_back(s);
    } else if (key == "launch" && w.size() >= 10) {
      PlanLaunch l;
      l.kernel = w[1];
      long long* fields[] = {&l.grid[0],  &l.grid[1],  &l.grid[2],     &l.block[0],
                             &l.block[1], &l.block[2], &l.sharedBytes, &l.repeat};
      for (int i = 0; i < 8; ++i) {
        if (!toInt(w[2 + i], *fields[i]) || *fields[i] < 0)
          return fail("bad launch number '" + w[2 + i] + "'");
      }
      for (size_t i = 10; i < w.size(); ++i) l.args.push_back(w[i]);
      e.launches.push_back(l);
    } else if (key == "carveout" && w.size() == 2) {
      long long pct = 0;
      if (e.launches.empty()) return fail("'carveout' must follow the launch it applies to");
      if (!toInt(w[1], pct) || pct < 0 || pct > 100) return fail("bad carveout '" + w[1] + "' (a percentage in 0..100)");
      e.launches.back().carveout = static_cast<int>(pct);
    } else if (key == "check" && w.size() >= 5) {
      PlanCheck c;
      c.reference = w[1];
      c.output = w[2];
      if (!toDouble(w[3], c.tolerance)) return fail("bad tolerance '" + w[3] + "'");
      if (w[4] != "inputs") return fail("'check REF OUTPUT TOL inputs ... params ...'");
      size_t i = 5;
      for (; i < w.size() && w[i] != "params"; ++i) c.inputs.push_back(w[i]);
      if (i == w.size()) return fail("'check' needs 'params'");
      for (++i; i < w.size(); ++i) {
        long long p = 0;
        if (!toInt(w[i], p)) return fail("bad check parameter '" + w[i] + "'");
        c.params.push_back(p);
      }
      e.hasCheck = true;
      e.check = c;
    } else if (key == "end" && w.size() == 1) {
      if (e.source.empty() || e.launches.empty())
        return fail("experiment without source or launch");
      for (const PlanLaunch& l : e.launches) {
        for (const std::string& a : l.args) {
          if (!e.buffer(a) && !e.scalar(a))
            return fail("launch argument '" + a + "' is neither a buffer nor a scalar");
        }
      }
      if (e.hasCheck && !e.buffer(e.check.output))
        return fail("check output '" + e.check.output + "' is not a buffer");
      out.push_back(e);
      open = false;
    } else {
      return fail("malformed '" + key + "' line");
    }
  }
  if (!sawHeader) return fail("empty plan");
  if (open) return fail("missing 'end'");
  return true;
}

}  // namespace runner
