// SPDX-License-Identifier: Apache-2.0
/// \file
/// Bounded regular sections (Havlak & Kennedy), as GROPHECY uses them (grophecy.md §5.1):
/// `Range{lo, hi, stride}` with an exclusive upper bound, `Section` = one range per array
/// dimension, and the operations the characterizer needs: size, intersect, union (bounding hull
/// with the gcd stride) and the footprint merge (union overlapping sections until pairwise
/// disjoint). Example: A[i][k] over a 16×8 block tile and k in 0..K gives
/// ⟨X,X+16,1⟩ × ⟨0,K,1⟩; its size is 16·K wherever X lies.
#pragma once

#include <optional>
#include <vector>

namespace foresight::skeleton {

/// ⟨lo, hi, stride⟩: lo, lo+stride, ... below hi (exclusive).
struct Range {
  long long lo = 0;
  long long hi = 1;
  long long stride = 1;
  /// ⌈(hi − lo) / stride⌉, 0 when empty (A2: the ceiling, not the paper's floor).
  [[nodiscard]] long long size() const { return hi > lo ? (hi - lo + stride - 1) / stride : 0; }
  /// The last element (lo when the range has one element).
  [[nodiscard]] long long last() const { return lo + (size() - 1) * stride; }
  bool operator==(const Range&) const = default;
};

/// A section of an array: one range per dimension.
using Section = std::vector<Range>;

/// Number of elements: the product of the ranges' sizes.
[[nodiscard]] long long sectionSize(const Section& s);

/// `a·x + c` for x ranging over `r`: ⟨a·lo+c, a·last+c+1, |a|·stride⟩ (mirrored for a < 0).
[[nodiscard]] Range affineImage(const Range& r, long long a, long long c);

/// Minkowski sum of two ranges {x + y}: bounds add, the stride is the gcd (an over-approximation
/// when neither range has one element).
[[nodiscard]] Range rangeSum(const Range& a, const Range& b);

/// Exact intersection of two ranges, or nullopt when they share no element.
[[nodiscard]] std::optional<Range> intersectRanges(const Range& a, const Range& b);

/// INTERSECT: the elements two sections share, or nullopt when they are disjoint.
[[nodiscard]] std::optional<Section> intersect(const Section& a, const Section& b);

/// UNION: the best-fitting single section covering both — per dimension the bounding hull, with
/// the gcd of both strides and of the distance between the lower bounds.
[[nodiscard]] Section unite(const Section& a, const Section& b);

/// Footprint H: merges overlapping sections (INTERSECT then UNION) until the remaining ones are
/// pairwise disjoint. Sections of different rank are never merged.
[[nodiscard]] std::vector<Section> mergeFootprint(std::vector<Section> sections);

/// Σ size over a merged footprint.
[[nodiscard]] long long footprintSize(const std::vector<Section>& footprint);

}  // namespace foresight::skeleton
