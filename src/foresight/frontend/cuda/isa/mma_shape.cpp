// SPDX-License-Identifier: Apache-2.0
/// \file
/// Shapes of matrix instructions.
#include "foresight/frontend/cuda/isa/mma_shape.h"

#include <charconv>
#include <string>
#include <vector>

namespace foresight::cuda {

namespace {

std::vector<std::string_view> splitDots(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t dot = s.find('.', start);
    parts.push_back(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

bool parseInt(std::string_view s, long long& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && out > 0;
}

/// Work per FMA of the instruction's input types (the first type named after the shape that
/// is an input type; FP16 when none is named).
double inputWork(const std::vector<std::string_view>& parts, size_t from) {
  for (size_t i = from; i < parts.size(); ++i) {
    const double w = tensorInputWork(parts[i]);
    if (w > 0 && w != 1) return w;
  }
  return 1;
}

bool integerInputs(const std::vector<std::string_view>& parts) {
  for (std::string_view p : parts) {
    std::string s(p);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s == "s8" || s == "u8" || s == "s4" || s == "u4" || s == "b1") return true;
  }
  return false;
}

MmaShape tensorShape(long long fmas, double work, bool integer) {
  MmaShape s;
  s.fmasPerWarp = fmas;
  s.cls = InstrClass::Tensor;
  s.pipeWork = static_cast<double>(fmas) * work / kTensorGapFmas;
  if (integer) s.fmasPerWarp = -fmas;  // marks "no flops"; see flopsPerLane()
  return s;
}

MmaShape fp64Shape(long long fmas) {
  MmaShape s;
  s.fmasPerWarp = fmas;
  s.cls = InstrClass::Fp64;
  s.pipeWork = static_cast<double>(fmas) / 32.0 / kDmmaPerFp64Fma;
  return s;
}

/// "16816" → 16, 8, 16; "1688" → 16, 8, 8; "16832" → 16, 8, 32; "884" → 8, 8, 4.
bool sassDigitsShape(std::string_view d, long long& m, long long& n, long long& k) {
  if (d == "16816") return m = 16, n = 8, k = 16, true;
  if (d == "1688") return m = 16, n = 8, k = 8, true;
  if (d == "16832") return m = 16, n = 8, k = 32, true;
  if (d == "16864") return m = 16, n = 8, k = 64, true;
  if (d == "884") return m = 8, n = 8, k = 4, true;
  return false;
}

/// "64x128x16" → 64, 128, 16.
bool crossShape(std::string_view d, long long& m, long long& n, long long& k) {
  const size_t x1 = d.find('x');
  const size_t x2 = x1 == std::string_view::npos ? x1 : d.find('x', x1 + 1);
  if (x2 == std::string_view::npos) return false;
  return parseInt(d.substr(0, x1), m) && parseInt(d.substr(x1 + 1, x2 - x1 - 1), n) && parseInt(d.substr(x2 + 1), k);
}

/// "m16n8k16" → 16, 8, 16.
bool ptxShape(std::string_view d, long long& m, long long& n, long long& k) {
  if (d.size() < 6 || d[0] != 'm') return false;
  const size_t pn = d.find('n'), pk = d.find('k');
  if (pn == std::string_view::npos || pk == std::string_view::npos || pk < pn) return false;
  return parseInt(d.substr(1, pn - 1), m) && parseInt(d.substr(pn + 1, pk - pn - 1), n) && parseInt(d.substr(pk + 1), k);
}

}  // namespace

double MmaShape::flopsPerLane() const {
  return fmasPerWarp > 0 ? 2.0 * static_cast<double>(fmasPerWarp) / 32.0 : 0.0;
}

std::optional<MmaShape> sassMmaShape(std::string_view opcode) {
  const std::vector<std::string_view> parts = splitDots(opcode);
  if (parts.size() < 2) return std::nullopt;
  const std::string_view op = parts[0];
  long long m = 0, n = 0, k = 0;
  if (op == "HMMA" || op == "IMMA") {
    // Volta's HMMA.884 is issued in STEP parts whose split we have not verified.
    if (!sassDigitsShape(parts[1], m, n, k) || parts[1] == "884") return std::nullopt;
    return tensorShape(m * n * k, inputWork(parts, 2), op == "IMMA");
  }
  if (op == "DMMA") {
    if (!sassDigitsShape(parts[1], m, n, k)) return std::nullopt;
    return fp64Shape(m * n * k);
  }
  if (op == "HGMMA" || op == "IGMMA" || op == "QGMMA" || op == "BGMMA") {
    if (!crossShape(parts[1], m, n, k)) return std::nullopt;
    // A warpgroup instruction: each of its 4 warps issues it and does a quarter.
    double work = inputWork(parts, 2);
    if (op == "QGMMA" && work == 1) work = 0.5;  // FP8 inputs
    if (op == "IGMMA" && work == 1) work = 0.5;  // INT8 inputs
    return tensorShape(m * n * k / 4, work, op == "IGMMA" || op == "BGMMA");
  }
  return std::nullopt;
}

std::optional<MmaShape> ptxMmaShape(std::string_view opcode) {
  const std::vector<std::string_view> parts = splitDots(opcode);
  if (parts.empty()) return std::nullopt;
  const bool mma = parts[0] == "mma", wmma = parts.size() > 1 && parts[0] == "wmma" && parts[1] == "mma",
             wgmma = parts.size() > 1 && parts[0] == "wgmma" && parts[1] == "mma_async";
  if (!mma && !wmma && !wgmma) return std::nullopt;
  long long m = 0, n = 0, k = 0;
  size_t at = parts.size();
  for (size_t i = 1; i < parts.size(); ++i) {
    if (ptxShape(parts[i], m, n, k)) {
      at = i;
      break;
    }
  }
  if (at == parts.size()) return std::nullopt;
  const long long fmas = wgmma ? m * n * k / 4 : m * n * k;
  // The type names after the shape: d, a, b, c for mma; d, a, b for wgmma. All f64 → DMMA.
  // (Layouts such as .row.col sit between the shape and the types.)
  bool f64 = false, otherType = false;
  for (size_t i = at + 1; i < parts.size(); ++i) {
    if (parts[i] == "f64") {
      f64 = true;
    } else if (parts[i] != "row" && parts[i] != "col" && parts[i] != "f32" && parts[i] != "s32") {
      otherType = true;
    }
  }
  if (f64 && !otherType) return fp64Shape(fmas);
  return tensorShape(fmas, inputWork(parts, at + 1), integerInputs(parts));
}

}  // namespace foresight::cuda
