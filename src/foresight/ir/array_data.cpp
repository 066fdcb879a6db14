// SPDX-License-Identifier: Apache-2.0
/// \file
/// Array contents from a pattern or a file, and the `--data` syntax (array_data.h).
#include "foresight/ir/array_data.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>

#include "foresight/support/expression.h"

namespace foresight {

Expected<ArrayData> ArrayData::fromPattern(ElemType type, InitPattern pattern, std::uint64_t seed, long long count) {
  if (count < 0) return makeError("a negative element count");
  if (count == 0 && pattern.kind == "chase") {
    return makeError("'chase' wraps at the array's end: give the array's size (--array NAME=BYTES)");
  }
  // Without a size, the patterns that do not wrap are checked as if unbounded.
  const long long checked = count > 0 ? count : std::numeric_limits<long long>::max() / 16;
  if (std::string why = checkInitPattern(pattern, checked); !why.empty()) return makeError(why);
  ArrayData d;
  d.type_ = type;
  d.count_ = count;
  d.description_ = std::string(elemTypeName(type)) + " " + pattern.kind;
  for (long long p : pattern.params) d.description_ += ":" + std::to_string(p);
  if (pattern.kind == "constant") {
    char value[32];
    std::snprintf(value, sizeof value, ":%g", pattern.value);
    d.description_ += value;
  }
  d.elements_.emplace(std::move(pattern), type, seed, count);
  return d;
}

Expected<ArrayData> ArrayData::fromFile(ElemType type, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError("cannot read '" + path + "'");
  auto bytes = std::make_shared<std::vector<unsigned char>>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) return makeError("cannot read '" + path + "'");
  const int width = elemTypeBytes(type);
  if (bytes->empty() || bytes->size() % static_cast<size_t>(width) != 0) {
    return makeError("'" + path + "' holds " + std::to_string(bytes->size()) + " bytes: not a whole number of " +
                     elemTypeName(type) + " elements");
  }
  ArrayData d;
  d.type_ = type;
  d.count_ = static_cast<long long>(bytes->size()) / width;
  d.description_ = std::string(elemTypeName(type)) + " file " + path;
  d.bytes_ = std::move(bytes);
  return d;
}

std::optional<std::uint64_t> ArrayData::read(long long offset, int bytes) const {
  if (offset < 0 || bytes < 1 || bytes > 8) return std::nullopt;
  const int width = elemTypeBytes(type_);
  if (count_ > 0 && offset + bytes > count_ * width) return std::nullopt;
  if (bytes_) {
    std::uint64_t v = 0;
    for (int b = 0; b < bytes; ++b) v |= static_cast<std::uint64_t>((*bytes_)[static_cast<size_t>(offset + b)]) << (8 * b);
    return v;
  }
  // Byte k of the read is byte (offset + k) % width of element (offset + k) / width.
  std::uint64_t v = 0;
  long long element = -1;
  std::uint64_t bits = 0;
  for (int b = 0; b < bytes; ++b) {
    const long long at = offset + b;
    if (at / width != element) {
      element = at / width;
      bits = elements_->bits(element);
    }
    v |= ((bits >> (8 * (at % width))) & 0xff) << (8 * b);
  }
  return v;
}

Expected<ArrayData> parseArrayData(const std::string& spec, std::optional<long long> bytes,
                                   const std::map<std::string, long long>& vars, const std::string& what) {
  auto fail = [&](const std::string& why) {
    return makeError(what + " '" + spec + "': " + why);
  };
  const size_t colon = spec.find(':');
  const std::optional<ElemType> type = parseElemType(spec.substr(0, colon));
  if (colon == std::string::npos || !type) {
    return fail("expected TYPE:PATTERN[:PARAM...] or TYPE:file:PATH, TYPE one of f32, f64, i32, u32, i64");
  }
  const std::string rest = spec.substr(colon + 1);
  if (rest.rfind("file:", 0) == 0) {
    Expected<ArrayData> d = ArrayData::fromFile(*type, rest.substr(5));
    if (!d) return fail(d.error().message);
    if (bytes && *bytes != d->count() * elemTypeBytes(*type)) {
      return fail("the file holds " + std::to_string(d->count() * elemTypeBytes(*type)) + " bytes, --array says " +
                  std::to_string(*bytes));
    }
    return d;
  }
  InitPattern pattern;
  size_t at = 0;
  for (bool first = true;; first = false) {
    const size_t next = rest.find(':', at);
    const std::string part = rest.substr(at, next == std::string::npos ? std::string::npos : next - at);
    if (first) {
      pattern.kind = part;
    } else if (pattern.kind == "constant") {
      char* end = nullptr;
      pattern.value = std::strtod(part.c_str(), &end);
      if (part.empty() || *end != '\0') return fail("constant needs a number, got '" + part + "'");
    } else {
      Expected<long long> v = evalExpression(part, vars);
      if (!v) return fail(v.error().message);
      pattern.params.push_back(*v);
    }
    if (next == std::string::npos) break;
    at = next + 1;
  }
  if (pattern.kind == "constant" && rest.find(':') == std::string::npos) return fail("constant needs a value (constant:V)");
  const long long count = bytes ? *bytes / elemTypeBytes(*type) : 0;
  Expected<ArrayData> d = ArrayData::fromPattern(*type, std::move(pattern), patternSeed("", "", what), count);
  if (!d) return fail(d.error().message);
  return d;
}

}  // namespace foresight
