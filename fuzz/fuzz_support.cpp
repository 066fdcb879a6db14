// SPDX-License-Identifier: Apache-2.0
#include "fuzz_support.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace foresight::fuzz {

std::string sourceFile(const std::string& relativePath) {
  std::ifstream in(std::string(FORESIGHT_SOURCE_DIR) + "/" + relativePath, std::ios::binary);
  if (!in) std::abort();  // a missing fixture is a broken build, not a finding
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace foresight::fuzz
