// SPDX-License-Identifier: Apache-2.0
/// \file
/// Paths and helpers shared by the CUDA frontend tests: the fixture folder (sources with their
/// PTX, cubin, nvdisasm SASS and ptxas -v log per architecture, from
/// scripts/update_cuda_fixtures.sh) and a fixture-backed analysis call.
#pragma once

#include <string>

#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/frontend/cuda/fixture_toolchain.h"
#include "foresight/support/text_file.h"

namespace foresight::cuda::testing {

/// tests/frontend/cuda/fixtures
inline std::string fixtureDir() { return std::string(FORESIGHT_SOURCE_DIR) + "/tests/frontend/cuda/fixtures"; }

/// fixtures/NAME
inline std::string fixture(const std::string& name) { return fixtureDir() + "/" + name; }

/// Whole file contents ("" when unreadable, which the callers' parsers then reject).
inline std::string slurp(const std::string& path) {
  Expected<std::string> text = readTextFile(path);
  return text ? *text : std::string();
}

/// A launch from grid, block and named scalar arguments.
inline Launch launch(Dim3 grid, Dim3 block, std::map<std::string, ArgValue> args = {}) {
  Launch l;
  l.grid = grid;
  l.block = block;
  l.args = std::move(args);
  return l;
}

/// Analyses fixtures/SOURCE (a .cu served by the fixture toolchain) for `arch`. The KernelIR
/// keeps the PTX stream unless `sassStream` (the SASS summary is computed either way).
inline Expected<CudaProgram> analyse(const std::string& source, const std::string& kernel, const Launch& l,
                                     const std::string& arch = "sm_90", std::vector<TripHint> trips = {},
                                     bool sassStream = false, std::vector<BranchHint> branches = {}) {
  auto tc = createFixtureToolchain({fixtureDir(), true});
  CudaOptions o;
  o.arch = arch;
  o.launch = l;
  o.kernel = kernel;
  o.trips = std::move(trips);
  o.branches = std::move(branches);
  o.sassStream = sassStream;
  return loadCuda(fixture(source), o, *tc);
}

}  // namespace foresight::cuda::testing
