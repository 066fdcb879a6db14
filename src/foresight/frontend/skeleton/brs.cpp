// SPDX-License-Identifier: Apache-2.0
/// \file
/// Bounded-regular-section arithmetic.
#include "foresight/frontend/skeleton/brs.h"

#include <algorithm>
#include <numeric>

namespace foresight::skeleton {

long long sectionSize(const Section& s) {
  long long n = 1;
  for (const Range& r : s) n *= r.size();
  return n;
}

Range affineImage(const Range& r, long long a, long long c) {
  if (a == 0 || r.size() <= 1) {
    const long long v = a * r.lo + c;
    return {v, v + 1, 1};
  }
  const long long first = a * r.lo + c;
  const long long last = a * r.last() + c;
  const long long stride = (a < 0 ? -a : a) * r.stride;
  return a > 0 ? Range{first, last + 1, stride} : Range{last, first + 1, stride};
}

Range rangeSum(const Range& a, const Range& b) {
  if (a.size() <= 1) return {a.lo + b.lo, a.lo + b.last() + 1, b.stride};
  if (b.size() <= 1) return {a.lo + b.lo, a.last() + b.lo + 1, a.stride};
  const long long stride = std::gcd(a.stride, b.stride);
  return {a.lo + b.lo, a.last() + b.last() + 1, stride};
}

std::optional<Range> intersectRanges(const Range& a, const Range& b) {
  if (a.size() == 0 || b.size() == 0) return std::nullopt;
  const long long lo = std::max(a.lo, b.lo);
  const long long hi = std::min(a.last(), b.last()) + 1;
  if (lo >= hi) return std::nullopt;
  // First x >= lo with x ≡ a.lo (mod a.stride) and x ≡ b.lo (mod b.stride): step through a's
  // elements; a solution, if any, appears within lcm/a.stride = b.stride/gcd steps.
  long long x = a.lo + ((lo - a.lo + a.stride - 1) / a.stride) * a.stride;
  const long long steps = b.stride / std::gcd(a.stride, b.stride);
  for (long long i = 0; i < steps && x < hi; ++i, x += a.stride) {
    if (((x - b.lo) % b.stride + b.stride) % b.stride == 0) {
      return Range{x, hi, std::lcm(a.stride, b.stride)};
    }
  }
  return std::nullopt;
}

std::optional<Section> intersect(const Section& a, const Section& b) {
  if (a.size() != b.size()) return std::nullopt;
  Section out;
  out.reserve(a.size());
  for (size_t d = 0; d < a.size(); ++d) {
    std::optional<Range> r = intersectRanges(a[d], b[d]);
    if (!r) return std::nullopt;
    out.push_back(*r);
  }
  return out;
}

Section unite(const Section& a, const Section& b) {
  Section out(a.size());
  for (size_t d = 0; d < a.size(); ++d) {
    const Range& x = a[d];
    const Range& y = b[d];
    const long long lo = std::min(x.lo, y.lo);
    const long long last = std::max(x.last(), y.last());
    long long stride = std::gcd(x.size() > 1 ? x.stride : 0, y.size() > 1 ? y.stride : 0);
    stride = std::gcd(stride, x.lo > y.lo ? x.lo - y.lo : y.lo - x.lo);
    if (stride == 0) stride = 1;
    out[d] = {lo, last + 1, stride};
  }
  return out;
}

std::vector<Section> mergeFootprint(std::vector<Section> sections) {
  bool merged = true;
  while (merged) {
    merged = false;
    for (size_t i = 0; i < sections.size() && !merged; ++i) {
      for (size_t j = i + 1; j < sections.size() && !merged; ++j) {
        if (sections[i].size() == sections[j].size() && intersect(sections[i], sections[j])) {
          sections[i] = unite(sections[i], sections[j]);
          sections.erase(sections.begin() + static_cast<long>(j));
          merged = true;
        }
      }
    }
  }
  return sections;
}

long long footprintSize(const std::vector<Section>& footprint) {
  long long n = 0;
  for (const Section& s : footprint) n += sectionSize(s);
  return n;
}

}  // namespace foresight::skeleton
