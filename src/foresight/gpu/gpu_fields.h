// SPDX-License-Identifier: Apache-2.0
/// \file
/// The keys of the GPU description (docs/gpu-format.md), listed once: for each section the keys
/// in the order the writer prints them, each with how it is read into the section's struct, the
/// check that applies once the section is read, and how it is written back. The loader
/// (gpu_loader.cpp), the writer (gpu_writer.cpp) and the documentation test
/// (tests/gpu/gpu_fields_test.cpp: every key documented, every documented key known) go through
/// these tables, so a new key is one row here (plus its member in gpu.h and its line in the docs).
/// Checks between keys (a serialization that needs `line`, carveouts ending at `shared_per_sm`)
/// stay in the loader.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "foresight/gpu/gpu.h"

namespace foresight {

class TableReader;  // support/toml_reader.h

/// One key of a section whose struct is S.
template <class S>
struct GpuField {
  const char* key = "";
  /// Reads the key from the section's table into `section` (a missing required key is reported by
  /// the reader when the section finishes).
  void (*read)(TableReader& reader, const char* key, S& section) = nullptr;
  /// Numeric keys: the value (NaN when an optional key is absent), for `mustBePositive`.
  double (*number)(const S& section) = nullptr;
  /// The value must be > 0 (the reader already refuses negative numbers).
  bool mustBePositive = false;
  /// The value as TOML text, or nullopt for an optional key that is absent.
  std::optional<std::string> (*write)(const S& section, const Gpu& gpu) = nullptr;
};

/// `[gpu]`: name, full_name, architecture, compute_capability.
[[nodiscard]] const std::vector<GpuField<Gpu>>& gpuSectionFields();
/// `[sm]`: count, clock, warp_size, schedulers, issue_width, launch_overhead, block_overhead,
/// block_dispatch.
[[nodiscard]] const std::vector<GpuField<Gpu>>& smFields();
/// `[limits]`.
[[nodiscard]] const std::vector<GpuField<GpuLimits>>& limitFields();
/// `[pipelines.<class>]`: latency, gap.
[[nodiscard]] const std::vector<GpuField<Pipeline>>& pipelineFields();
/// `[memory.<name>]`.
[[nodiscard]] const std::vector<GpuField<MemoryLevel>>& memoryLevelFields();
/// `[mwp_cwp]`.
[[nodiscard]] const std::vector<GpuField<MwpCwpParams>>& mwpCwpFields();
/// `[sgemm_mix]`.
[[nodiscard]] const std::vector<GpuField<SgemmMix>>& sgemmMixFields();
/// `[register_banks]`.
[[nodiscard]] const std::vector<GpuField<RegisterBanks>>& registerBankFields();
/// `[barrier]`.
[[nodiscard]] const std::vector<GpuField<BarrierUnit>>& barrierFields();

/// Every key as `section.key`, sections as the docs head them (`pipelines.<class>`,
/// `memory.<name>`): what the documentation test compares with docs/gpu-format.md.
[[nodiscard]] std::vector<std::string> gpuDescriptionKeys();

/// Reads every key of `fields` into `section`, finishes the table (unknown and missing keys), then
/// checks the positive ones; the first error is kept by the reader.
template <class S>
void readGpuFields(TableReader& reader, const std::vector<GpuField<S>>& fields, S& section);

/// Appends `key = value` lines for every key of `fields` that is present.
template <class S>
void writeGpuFields(std::string& out, const std::vector<GpuField<S>>& fields, const S& section, const Gpu& gpu);

/// The TOML text of a string (quotes and escapes).
[[nodiscard]] std::string tomlQuoted(const std::string& s);

}  // namespace foresight
