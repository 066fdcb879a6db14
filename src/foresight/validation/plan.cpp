// SPDX-License-Identifier: Apache-2.0
/// \file
/// Plan writer. Numbers are written exactly: integers in decimal, floats with round-trip digits.
#include "foresight/validation/plan.h"

#include <fmt/format.h>

namespace foresight {

namespace {

const char* roleName(BufferRole r) {
  return r == BufferRole::Output ? "output" : r == BufferRole::InOut ? "inout" : "input";
}

}  // namespace

std::string writePlan(const std::vector<ResolvedExperiment>& experiments) {
  std::string out = "foresight-plan 1\n";
  for (const ResolvedExperiment& e : experiments) {
    out += fmt::format("experiment {} {}\n", e.experiment, e.variant);
    out += fmt::format("source {}\n", e.source);
    out += fmt::format("rotate {}\n", e.rotate ? 1 : 0);
    out += fmt::format("reinit {}\n", e.reinit ? 1 : 0);
    out += fmt::format("flush {}\n", e.flush ? 1 : 0);
    for (const auto& [k, v] : e.defines) out += fmt::format("define {} {}\n", k, v);
    for (const ResolvedBuffer& b : e.buffers) {
      out += fmt::format("buffer {} {} {} {} {}", b.name, elemTypeName(b.type), b.count,
                         roleName(b.role), b.initKind);
      if (b.initKind == "constant") out += fmt::format(" {}", b.initValue);
      for (long long p : b.initParams) out += fmt::format(" {}", p);
      out += "\n";
    }
    for (const ResolvedScalar& s : e.scalars) {
      if (s.type == ElemType::F32 || s.type == ElemType::F64) {
        out += fmt::format("scalar {} {} {}\n", s.name, elemTypeName(s.type), s.floatValue);
      } else {
        out += fmt::format("scalar {} {} {}\n", s.name, elemTypeName(s.type), s.intValue);
      }
    }
    for (const ResolvedLaunch& l : e.launches) {
      const Launch& x = l.launch;
      out += fmt::format("launch {} {} {} {} {} {} {} {} {}", l.kernel, x.grid.x, x.grid.y,
                         x.grid.z, x.block.x, x.block.y, x.block.z, x.dynamicSharedBytes, l.repeat);
      for (const std::string& a : l.args) out += " " + a;
      out += "\n";
      if (x.carveoutPercent) out += fmt::format("carveout {}\n", *x.carveoutPercent);  // of the launch above
    }
    if (e.check) {
      out += fmt::format("check {} {} {} inputs", e.check->reference, e.check->output,
                         e.check->tolerance);
      for (const std::string& i : e.check->inputs) out += " " + i;
      out += " params";
      for (long long p : e.check->params) out += fmt::format(" {}", p);
      out += "\n";
    }
    out += "end\n";
  }
  return out;
}

}  // namespace foresight
