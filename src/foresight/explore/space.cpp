// SPDX-License-Identifier: Apache-2.0
/// \file
/// Parsing and enumeration of explore's search spaces (see space.h).
#include "foresight/explore/space.h"

#include <algorithm>
#include <cctype>
#include <climits>

#include "foresight/support/strings.h"

namespace foresight {

namespace {

constexpr size_t kMaxValues = 65536;

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

Error spaceError(std::string_view item, const std::string& why) {
  return makeError("--space '" + std::string(item) + "': " + why);
}

/// Values of "LO..HI[:STEP|:pow2]".
Expected<std::vector<long long>> rangeValues(std::string_view item, std::string_view spec) {
  const size_t dots = spec.find("..");
  std::string_view hiPart = spec.substr(dots + 2);
  std::string_view stepPart;
  if (const size_t colon = hiPart.find(':'); colon != std::string_view::npos) {
    stepPart = hiPart.substr(colon + 1);
    hiPart = hiPart.substr(0, colon);
  }
  const std::optional<long long> lo = toInteger(trim(spec.substr(0, dots)));
  const std::optional<long long> hi = toInteger(trim(hiPart));
  if (!lo || !hi) return spaceError(item, "a range is LO..HI with integer bounds");
  if (*lo > *hi) return spaceError(item, "the range is empty (LO > HI)");
  std::vector<long long> values;
  const std::string step = trim(stepPart);
  if (step == "pow2") {
    if (*lo < 1) return spaceError(item, "a pow2 range starts at 1 or above");
    for (long long v = *lo; v <= *hi; v *= 2) {
      values.push_back(v);
      if (v > LLONG_MAX / 2) break;
    }
    return values;
  }
  long long by = 1;
  if (!stepPart.empty()) {
    const std::optional<long long> s = toInteger(step);
    if (!s || *s < 1) return spaceError(item, "the step after ':' is a positive integer or 'pow2'");
    by = *s;
  }
  // Count first so that a huge range is refused without materializing it.
  const unsigned long long span = static_cast<unsigned long long>(*hi) - static_cast<unsigned long long>(*lo);
  if (span / static_cast<unsigned long long>(by) + 1 > kMaxValues) {
    return spaceError(item, "more than " + std::to_string(kMaxValues) + " values");
  }
  for (long long v = *lo;; v += by) {
    values.push_back(v);
    if (*hi - v < by) break;
  }
  return values;
}

}  // namespace

long long SearchSpace::size() const {
  long long n = 1;
  for (const SpaceDimension& d : dimensions) {
    const auto k = static_cast<long long>(d.values.size());
    if (k == 0) return 0;
    if (n > LLONG_MAX / k) return LLONG_MAX;
    n *= k;
  }
  return n;
}

std::map<std::string, long long> SearchSpace::point(long long index) const {
  std::map<std::string, long long> out;
  for (size_t i = dimensions.size(); i-- > 0;) {
    const auto k = static_cast<long long>(dimensions[i].values.size());
    out[dimensions[i].name] = dimensions[i].values[static_cast<size_t>(index % k)];
    index /= k;
  }
  return out;
}

std::string SearchSpace::describe() const {
  std::string s;
  for (const SpaceDimension& d : dimensions) {
    if (!s.empty()) s += ", ";
    s += d.text + " (" + std::to_string(d.values.size()) + (d.values.size() == 1 ? " value)" : " values)");
  }
  return s;
}

Expected<void> parseSpace(std::string_view text, SearchSpace& space) {
  // Split at commas; an item without '=' continues the value list of the item before it.
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item = trim(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (item.empty()) return makeError("--space '" + std::string(text) + "': an empty item (two commas, or a comma at an end)");
    if (item.find('=') == std::string::npos) {
      if (items.empty()) return spaceError(item, "expected NAME=VALUES");
      if (items.back().find("..") != std::string::npos) {
        return spaceError(items.back() + "," + item, "a range and a list cannot be mixed in one parameter");
      }
      items.back() += "," + item;
    } else {
      items.push_back(item);
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    const std::string name = trim(std::string_view(item).substr(0, eq));
    const std::string spec = trim(std::string_view(item).substr(eq + 1));
    if (!isIdentifier(name)) return spaceError(item, "'" + name + "' is not a macro name");
    for (const SpaceDimension& d : space.dimensions) {
      if (d.name == name) return spaceError(item, "'" + name + "' is given twice");
    }
    SpaceDimension dim;
    dim.name = name;
    dim.text = item;
    if (spec.find("..") != std::string::npos) {
      Expected<std::vector<long long>> v = rangeValues(item, spec);
      if (!v) return std::move(v).takeError();
      dim.values = std::move(*v);
    } else {
      size_t s = 0;
      while (true) {
        const size_t comma = spec.find(',', s);
        const std::string value = trim(std::string_view(spec).substr(s, comma == std::string::npos ? std::string::npos : comma - s));
        const std::optional<long long> v = toInteger(value);
        if (!v) return spaceError(item, "'" + value + "' is not an integer");
        if (std::find(dim.values.begin(), dim.values.end(), *v) == dim.values.end()) dim.values.push_back(*v);
        if (comma == std::string::npos) break;
        s = comma + 1;
      }
      if (dim.values.size() > kMaxValues) return spaceError(item, "more than " + std::to_string(kMaxValues) + " values");
    }
    space.dimensions.push_back(std::move(dim));
  }
  return {};
}

}  // namespace foresight
