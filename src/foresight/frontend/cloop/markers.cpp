// SPDX-License-Identifier: Apache-2.0
/// \file
/// Parsing of `#pragma cgpredict` lines and integer `#define`s (docs/input-cloop.md).
#include "foresight/frontend/cloop/markers.h"
#include "foresight/support/strings.h"

#include <cctype>
#include <sstream>

namespace foresight::cloop {

namespace {

bool parseInt(const std::string& s, long long* out) {
  const std::string t = trim(s);
  if (t.empty()) return false;
  size_t used = 0;
  try {
    *out = std::stoll(t, &used, 0);
  } catch (const std::exception&) {
    return false;
  }
  return used == t.size();
}

std::vector<std::string> splitArgs(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(trim(item));
  return out;
}

/// Clauses `word(args)` of a pragma body; false on a malformed clause.
bool clauses(const std::string& body, std::vector<std::pair<std::string, std::string>>* out,
             std::string* bad) {
  size_t i = 0;
  while (i < body.size()) {
    while (i < body.size() && std::isspace(static_cast<unsigned char>(body[i]))) ++i;
    if (i >= body.size()) break;
    size_t j = i;
    while (j < body.size() && (std::isalnum(static_cast<unsigned char>(body[j])) || body[j] == '_')) ++j;
    std::string word = body.substr(i, j - i);
    if (word.empty()) {
      *bad = body.substr(i);
      return false;
    }
    while (j < body.size() && body[j] == ' ') ++j;
    std::string args;
    if (j < body.size() && body[j] == '(') {
      const size_t close = body.find(')', j);
      if (close == std::string::npos) {
        *bad = word + "(...";
        return false;
      }
      args = body.substr(j + 1, close - j - 1);
      j = close + 1;
    }
    out->push_back({word, args});
    i = j;
  }
  return true;
}

}  // namespace

Expected<SourceMarkers> parseMarkers(const std::string& path, const std::string& text) {
  SourceMarkers m;
  std::vector<std::string> lines;
  {
    std::stringstream ss(text);
    std::string l;
    while (std::getline(ss, l)) lines.push_back(l);
  }
  for (size_t n = 0; n < lines.size(); ++n) {
    const int lineNo = static_cast<int>(n) + 1;
    std::string t = trim(lines[n]);
    if (t.rfind('#', 0) != 0) continue;
    t = trim(t.substr(1));
    if (t.rfind("define", 0) == 0) {
      std::stringstream ss(t.substr(6));
      std::string name, value;
      ss >> name >> value;
      long long v = 0;
      if (!name.empty() && name.find('(') == std::string::npos && parseInt(value, &v)) m.defines[name] = v;
      continue;
    }
    if (t.rfind("pragma", 0) != 0) continue;
    t = trim(t.substr(6));
    if (t.rfind("cgpredict", 0) != 0) continue;
    std::vector<std::pair<std::string, std::string>> cl;
    std::string bad;
    if (!clauses(trim(t.substr(9)), &cl, &bad)) {
      return makeError("malformed '#pragma cgpredict' clause '" + bad + "'", path, lineNo);
    }
    if (cl.empty()) return makeError("'#pragma cgpredict' needs 'kernel' or 'trace(...)'", path, lineNo);
    if (cl[0].first == "trace") {
      if (!m.traceSizes.empty()) return makeError("a second '#pragma cgpredict trace'", path, lineNo);
      for (const std::string& a : splitArgs(cl[0].second)) {
        const size_t eq = a.find('=');
        long long v = 0;
        if (eq == std::string::npos || !parseInt(a.substr(eq + 1), &v) || v <= 0) {
          return makeError("trace(...) takes NAME=SIZE pairs with positive sizes, not '" + a + "'", path, lineNo);
        }
        m.traceSizes.push_back({trim(a.substr(0, eq)), v});
      }
      if (m.traceSizes.empty()) return makeError("trace() names no size macro", path, lineNo);
      m.traceLine = lineNo;
      continue;
    }
    if (cl[0].first == "limits") {
      for (const std::string& a : splitArgs(cl[0].second)) {
        const size_t eq = a.find('=');
        long long v = 0;
        const std::string key = eq == std::string::npos ? a : trim(a.substr(0, eq));
        if (eq == std::string::npos || !parseInt(a.substr(eq + 1), &v) || v <= 0 || (key != "cpu" && key != "memory")) {
          return makeError("limits(...) takes cpu=SECONDS and memory=MIB with positive integers, not '" + a + "'", path, lineNo);
        }
        if (key == "cpu") m.cpuSeconds = static_cast<double>(v);
        else m.memoryMiB = v;
      }
      continue;
    }
    if (cl[0].first != "kernel") {
      return makeError("unknown '#pragma cgpredict " + cl[0].first + "' (expected 'kernel', 'trace' or 'limits')", path, lineNo);
    }
    KernelMarker k;
    k.pragmaLine = lineNo;
    for (size_t c = 1; c < cl.size(); ++c) {
      const auto& [word, args] = cl[c];
      const std::vector<std::string> a = splitArgs(args);
      long long v = 0;
      if (word == "name" && a.size() == 1 && !a[0].empty()) {
        k.name = a[0];
      } else if (word == "grid" && a.size() == 1 && parseInt(a[0], &v) && (v == 1 || v == 2)) {
        k.gridDims = static_cast<int>(v);
      } else if (word == "block" && (a.size() == 1 || a.size() == 2)) {
        long long y = 1;
        if (!parseInt(a[0], &v) || v <= 0 || (a.size() == 2 && (!parseInt(a[1], &y) || y <= 0))) {
          return makeError("block(...) takes one or two positive integers", path, lineNo);
        }
        k.blockX = v;
        k.blockY = y;
      } else if (word == "shared" && !a.empty()) {
        k.shared = a;
      } else {
        return makeError("bad clause '" + word + "(" + args +
                             ")' in '#pragma cgpredict kernel' (expected name(X), grid(1|2), "
                             "block(X[,Y]), shared(A,...))",
                         path, lineNo);
      }
    }
    // The marked loop: the next line that starts with `for`.
    for (size_t f = n + 1; f < lines.size(); ++f) {
      const std::string s = trim(lines[f]);
      if (s.empty() || s.rfind("//", 0) == 0 || s.rfind('#', 0) == 0) continue;
      if (s.rfind("for", 0) == 0 && s.size() > 3 && (s[3] == ' ' || s[3] == '(')) {
        k.loopLine = static_cast<int>(f) + 1;
      }
      break;
    }
    if (k.loopLine == 0) {
      return makeError("'#pragma cgpredict kernel' must be followed by a 'for' loop", path, lineNo);
    }
    m.kernels.push_back(k);
  }
  if (m.kernels.empty()) {
    return makeError("no loop nest is marked: put '#pragma cgpredict kernel' on the line before "
                     "the 'for' loop to port (docs/input-cloop.md)",
                     path, 0);
  }
  if (m.traceSizes.empty()) {
    return makeError("no traced problem size: add '#pragma cgpredict trace(N=128)' naming the size "
                     "macros and the small values to trace at (docs/input-cloop.md)",
                     path, 0);
  }
  return m;
}

}  // namespace foresight::cloop
