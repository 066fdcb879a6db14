// SPDX-License-Identifier: Apache-2.0
/// \file
/// Summary files: [kernel], [launch], [workload] with one sub-table per access class. Strict like
/// every TOML input: unknown keys are errors with line numbers and suggestions.
#include "foresight/frontend/summary/summary_frontend.h"

#include <fstream>
#include <sstream>

#include "foresight/support/text_file.h"
#include "foresight/support/toml_reader.h"

namespace foresight {

namespace {

Dim3 toDim3(const std::vector<long long>& v) {
  Dim3 d;
  if (v.size() > 0) d.x = v[0];
  if (v.size() > 1) d.y = v[1];
  if (v.size() > 2) d.z = v[2];
  return d;
}

}  // namespace

Expected<LoadedInput> loadSummaryFromString(std::string_view text, const std::string& sourceName) {
  Expected<toml::table> parsed = parseToml(text, sourceName);
  if (!parsed) return std::move(parsed).takeError();
  const toml::table& root = *parsed;
  Error error;
  TableReader top(root, "", sourceName, &error);
  KernelInput kernel;
  WorkloadSummary summary;
  Launch launch;

  if (const toml::table* t = top.table("kernel")) {
    TableReader r(*t, "kernel", sourceName, &error);
    kernel.ir.name = r.string("name");
    kernel.ir.resources.registers = static_cast<int>(r.optionalWhole("registers_per_thread").value_or(0));
    kernel.ir.resources.staticSharedBytes = r.optionalWhole("shared_bytes_per_block").value_or(0);
    r.finish();
  }
  if (const toml::table* t = top.table("launch")) {
    TableReader r(*t, "launch", sourceName, &error);
    launch.grid = toDim3(r.extents("grid", true));
    launch.block = toDim3(r.extents("block", true));
    launch.dynamicSharedBytes = r.optionalWhole("dynamic_shared_bytes").value_or(0);
    r.finish();
  }
  if (const toml::table* t = top.table("workload")) {
    TableReader r(*t, "workload", sourceName, &error);
    summary.compInsts = r.number("comp_insts");
    summary.synchInsts = r.optionalNumber("synch_insts").value_or(0);
    summary.loadBytesPerWarp = r.optionalNumber("load_bytes_per_warp").value_or(128);
    summary.flopsPerThread = r.optionalNumber("flops_per_thread").value_or(0);
    bool anyClass = false;
    for (int i = 0; i < kNumAccessClasses; ++i) {
      const auto cls = static_cast<AccessClass>(i);
      const toml::table* ct = r.optionalTable(accessClassName(cls));
      if (!ct) continue;
      anyClass = true;
      TableReader c(*ct, std::string("workload.") + accessClassName(cls), sourceName, &error);
      MemoryClassStats& stats = summary.mem(cls);
      stats.insts = c.number("insts");
      stats.transactionsPerInst = c.number("transactions_per_inst");
      stats.dramTransactionsPerInst = c.optionalNumber("dram_transactions_per_inst").value_or(-1);
      c.finish();
      if (!c.failed() && stats.transactionsPerInst < 1) {
        c.failHere(std::string("'workload.") + accessClassName(cls) +
                   ".transactions_per_inst' must be at least 1");
      }
    }
    r.finish();
    if (!r.failed() && !anyClass) {
      r.failHere("[workload] needs at least one of [workload.coalesced], [workload.uncoalesced], "
                 "[workload.constant]");
    }
    if (!r.failed() && summary.synchInsts > summary.compInsts) {
      r.failHere("'workload.synch_insts' counts barriers that are part of comp_insts, so it cannot "
                 "exceed comp_insts");
    }
    if (!r.failed() && summary.totalInsts() <= 0) {
      r.failHere("the workload has no instructions");
    }
  }
  top.finish();
  if (!error.message.empty()) return error;

  LoadedInput input;
  input.path = sourceName;
  input.frontend = "summary";
  kernel.summary = summary;
  input.kernels.push_back(std::move(kernel));
  input.launch = launch;
  return input;
}

Expected<LoadedInput> loadSummaryFile(const std::string& path) {
  Expected<std::string> text = readTextFile(path, "input file");
  if (!text) return std::move(text).takeError();
  return loadSummaryFromString(*text, path);
}

}  // namespace foresight
