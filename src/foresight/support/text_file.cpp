// SPDX-License-Identifier: Apache-2.0
/// \file
/// readTextFile.
#include "foresight/support/text_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace foresight {

Expected<std::string> readTextFile(const std::string& path, const std::string& what) {
  // An ifstream opens a directory without complaint and then reads nothing, which the loaders
  // would take for an empty file.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return makeError("cannot read " + what + " '" + path + "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError("cannot read " + what + " '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return makeError("cannot read " + what + " '" + path + "'");
  return buffer.str();
}

}  // namespace foresight
