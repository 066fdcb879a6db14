// SPDX-License-Identifier: Apache-2.0
/// \file
/// Formatting of Error values.
#include "foresight/support/error.h"

namespace foresight {

std::string Error::format() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) {
      out += ':' + std::to_string(line);
      if (column > 0) out += ':' + std::to_string(column);
    }
    out += ": ";
  }
  out += "error: ";
  out += message;
  return out;
}

Error makeError(std::string message) { return Error{std::move(message), {}, 0, 0}; }

Error makeError(std::string message, std::string file, int line, int column) {
  return Error{std::move(message), std::move(file), line, column};
}

}  // namespace foresight
