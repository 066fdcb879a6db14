// SPDX-License-Identifier: Apache-2.0
/// \file
/// readTextFile.
#include "foresight/support/text_file.h"

#include <fstream>
#include <sstream>

namespace foresight {

Expected<std::string> readTextFile(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError("cannot read " + what + " '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace foresight
