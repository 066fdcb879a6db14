// SPDX-License-Identifier: Apache-2.0
/// \file
/// readTextFile.
#include "foresight/support/text_file.h"

#include <filesystem>
#include <fstream>

namespace foresight {

Expected<std::string> readTextFile(const std::string& path, const std::string& what, std::size_t maxBytes) {
  namespace fs = std::filesystem;
  // An ifstream opens a directory without complaint and then reads nothing, which the loaders
  // would take for an empty file; a device such as /dev/zero never ends.
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) return makeError("cannot read " + what + " '" + path + "': it is a directory");
  if (fs::is_character_file(status) || fs::is_block_file(status) || fs::is_socket(status)) {
    return makeError("cannot read " + what + " '" + path + "': it is a device, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError("cannot read " + what + " '" + path + "'");
  const std::string limit = std::to_string(maxBytes >> 20) + " MiB";
  if (fs::is_regular_file(status)) {
    const std::uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > maxBytes) return makeError(what + " '" + path + "' is larger than the " + limit + " limit");
  }
  // Read in chunks, so that a pipe that outgrows the limit stops there.
  std::string out;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    out.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (out.size() > maxBytes) return makeError(what + " '" + path + "' is larger than the " + limit + " limit");
  }
  if (in.bad()) return makeError("cannot read " + what + " '" + path + "'");
  return out;
}

}  // namespace foresight
