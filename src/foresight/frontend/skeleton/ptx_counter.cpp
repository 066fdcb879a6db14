// SPDX-License-Identifier: Apache-2.0
/// \file
/// Counting PTX instructions between GROPHECY markers.
#include "foresight/frontend/skeleton/ptx_counter.h"
#include "foresight/support/strings.h"

#include <sstream>

namespace foresight::skeleton {

namespace {

bool isInstruction(const std::string& line) {
  if (line.empty()) return false;
  if (line[0] == '.' || line[0] == '{' || line[0] == '}' || line[0] == ')' || line[0] == '(')
    return false;
  if (line.rfind("//", 0) == 0) return false;
  if (line.back() == ':' ||
      (line.find(':') != std::string::npos && line.find(' ') == std::string::npos))
    return false;
  return true;
}

}  // namespace

Expected<PtxCount> countPtxBlocks(std::string_view ptx, const std::string& sourceName) {
  PtxCount out;
  std::istringstream in{std::string(ptx)};
  std::string raw;
  int lineNo = 0;
  int current = -1;  // index into out.blocks
  bool counting = false;
  std::string openId;
  int openLine = 0;
  while (std::getline(in, raw)) {
    ++lineNo;
    const std::string line = trim(raw);
    const size_t mark = line.find("GROPHECY_BB ");
    if (mark != std::string::npos && line.rfind("//", 0) == 0) {
      std::istringstream words(line.substr(mark + 12));
      std::string id, what;
      words >> id >> what;
      if (what == "BEGIN") {
        if (counting) {
          return makeError("marker '" + id + "' begins inside block '" + openId +
                               "' (opened at line " + std::to_string(openLine) +
                               "); blocks must not nest",
                           sourceName, lineNo);
        }
        counting = true;
        openId = id;
        openLine = lineNo;
        current = -1;
        for (size_t i = 0; i < out.blocks.size(); ++i) {
          if (out.blocks[i].id == id) current = static_cast<int>(i);
        }
        if (current < 0) {
          out.blocks.push_back({id, 0, 0, lineNo});
          current = static_cast<int>(out.blocks.size()) - 1;
        }
        ++out.blocks[current].occurrences;
        if (out.blocks[current].occurrences > 1) current = -2;  // count the first occurrence only
      } else if (what == "END") {
        if (!counting || id != openId) {
          return makeError("marker '" + id + "' ends a block that is not open", sourceName, lineNo);
        }
        counting = false;
      }
      continue;
    }
    if (!isInstruction(line)) continue;
    if (!counting) {
      ++out.outside;
    } else if (current >= 0) {
      ++out.blocks[current].instructions;
    }
  }
  if (counting) {
    return makeError("block '" + openId + "' begins but never ends", sourceName, openLine);
  }
  return out;
}

std::string ptxMarkerPrelude() {
  return "// Added by foresight count-ptx (grophecy.md §2.4).\n"
         "#define GROPHECY_KERNEL extern \"C\" __global__\n"
         "#define GROPHECY_BEGIN(id) asm volatile(\"// GROPHECY_BB \" #id \" BEGIN\" ::: "
         "\"memory\");\n"
         "#define GROPHECY_END(id) asm volatile(\"// GROPHECY_BB \" #id \" END\" ::: "
         "\"memory\");\n";
}

}  // namespace foresight::skeleton
