// SPDX-License-Identifier: Apache-2.0
/// \file
/// Stand-in for instrument.cpp when Foresight is built without LLVM 14.
#include "foresight/frontend/cloop/program.h"

namespace foresight::cloop {

bool cloopAvailable() { return false; }

Expected<InstrumentedProgram> buildInstrumented(const std::string& path, const SourceMarkers&,
                                                const std::vector<std::pair<std::string, std::string>>&,
                                                const std::string&, double) {
  return makeError("this Foresight was built without the C loop frontend: install LLVM 14 and "
                   "clang 14 (scripts/setup.sh installs llvm-14-dev and clang-14) and reconfigure "
                   "with -DFORESIGHT_WITH_LLVM=ON",
                   path, 0);
}

}  // namespace foresight::cloop
