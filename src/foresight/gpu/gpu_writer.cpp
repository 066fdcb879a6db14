// SPDX-License-Identifier: Apache-2.0
/// \file
/// TOML writer for Gpu: each section's keys through its table (gpu_fields.h), which writes each
/// number in the unit the Param remembers (exactly: see paramText in gpu_fields.cpp).
#include "foresight/gpu/gpu_writer.h"

#include <sstream>

#include "foresight/gpu/gpu_fields.h"

namespace foresight {

namespace {

/// `[name]` and the section's keys (those present), after a blank line unless first.
template <class S>
void section(std::string& out, const std::string& name, const std::vector<GpuField<S>>& fields, const S& s,
             const Gpu& gpu) {
  if (!out.empty()) out += "\n";
  out += "[" + name + "]\n";
  writeGpuFields(out, fields, s, gpu);
}

}  // namespace

std::string writeGpuToml(const Gpu& gpu, const std::string& headerComment) {
  std::string header;
  if (!headerComment.empty()) {
    std::istringstream lines(headerComment);
    std::string line;
    while (std::getline(lines, line)) header += "# " + line + "\n";
    header += "\n";
  }
  std::string out;
  section(out, "gpu", gpuSectionFields(), gpu, gpu);
  section(out, "sm", smFields(), gpu, gpu);
  section(out, "limits", limitFields(), gpu.limits, gpu);
  for (int i = 0; i < kNumInstrClasses; ++i) {
    if (const auto& p = gpu.pipelines[i]) {
      section(out, std::string("pipelines.") + instrClassName(static_cast<InstrClass>(i)), pipelineFields(), *p, gpu);
    }
  }
  for (const MemoryLevel& m : gpu.memory) section(out, "memory." + m.name, memoryLevelFields(), m, gpu);
  section(out, "mwp_cwp", mwpCwpFields(), gpu.mwpCwp, gpu);
  if (gpu.sgemmMix) section(out, "sgemm_mix", sgemmMixFields(), *gpu.sgemmMix, gpu);
  if (gpu.barrier) section(out, "barrier", barrierFields(), *gpu.barrier, gpu);
  if (gpu.registerBanks) section(out, "register_banks", registerBankFields(), *gpu.registerBanks, gpu);
  return header + out;
}

}  // namespace foresight
