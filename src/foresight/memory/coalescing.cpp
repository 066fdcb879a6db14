// SPDX-License-Identifier: Apache-2.0
/// \file
/// Coalescing rules over per-lane addresses: sm_70+ sectors, CC 1.0/1.1 and CC 1.2/1.3
/// transactions, CGPredict access classes.
#include "foresight/memory/coalescing.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

namespace foresight {
namespace {

constexpr int kHalfWarpLanes = 16;        // CC 1.x serves global memory per half-warp
constexpr long long kCc1xLaneBytes = 32;  // size of the per-thread transaction on CC 1.x
constexpr long long kMaxSegmentBytes = 128;

bool isActive(long long address) { return address >= 0; }

// Number of distinct blocks of `blockBytes` touched by the bytes of all active accesses.
int countDistinctBlocks(std::span<const long long> addresses, int accessBytes,
                        long long blockBytes) {
  // A warp touches at most a few blocks per lane: sort a small stack buffer when it fits (the
  // frontends call this for every executed memory instruction).
  long long small[256];
  std::vector<long long> large;
  std::size_t count = 0;
  // Blocks met in non-decreasing order (coalesced and broadcast accesses): counted as they come.
  bool ordered = true;
  long long last = 0;
  int distinct = 0;
  for (long long a : addresses) {
    if (!isActive(a)) continue;
    for (long long b = a / blockBytes; b <= (a + accessBytes - 1) / blockBytes; ++b) {
      if (count == 0 || b > last) ++distinct;
      ordered = ordered && (count == 0 || b >= last);
      last = b;
      if (count < std::size(small)) {
        small[count] = b;
      } else {
        if (large.empty()) large.assign(small, small + count);
        large.push_back(b);
      }
      ++count;
    }
  }
  if (ordered) return distinct;
  long long* first = large.empty() ? small : large.data();
  std::sort(first, first + count);
  return static_cast<int>(std::unique(first, first + count) - first);
}

Expected<void> checkNaturalAlignment(std::span<const long long> addresses, int accessBytes) {
  for (std::size_t lane = 0; lane < addresses.size(); ++lane) {
    if (isActive(addresses[lane]) && addresses[lane] % accessBytes != 0)
      return makeError("lane " + std::to_string(lane) + " address " +
                       std::to_string(addresses[lane]) + " is not aligned to its " +
                       std::to_string(accessBytes) + "-byte access (required on CC 1.x)");
  }
  return {};
}

// CC 1.0/1.1: does this half-warp (lanes of `half`) meet the sequential, aligned rule?
bool isCoalescedCc10(std::span<const long long> half, int accessBytes) {
  if (accessBytes < 4) return false;  // only 4-, 8- and 16-byte words coalesce
  const long long alignment = accessBytes == 4 ? 64 : 128;
  long long base = -1;  // address lane 0 would access; the same for every active lane
  for (std::size_t k = 0; k < half.size(); ++k) {
    if (!isActive(half[k])) continue;
    const long long laneBase = half[k] - static_cast<long long>(k) * accessBytes;
    if (base < 0) base = laneBase;
    if (laneBase != base || laneBase < 0 || laneBase % alignment != 0) return false;
  }
  return true;
}

// Size of the CC 1.2/1.3 transaction for `segment` of `size` bytes whose used bytes lie in
// [lo, hi]: halve while only one half is used (128 → 64 → 32).
long long shrinkSegment(long long segment, long long size, long long lo, long long hi) {
  while (size > 32) {
    const long long half = size / 2;
    if (hi < segment + half) {
      size = half;  // only the lower half is used
    } else if (lo >= segment + half) {
      segment += half;  // only the upper half is used
      size = half;
    } else {
      break;
    }
  }
  return size;
}

}  // namespace

Expected<void> checkWarpAccess(std::span<const long long> addresses, int accessBytes) {
  if (addresses.empty()) return makeError("warp request has no lanes");
  if (accessBytes != 1 && accessBytes != 2 && accessBytes != 4 && accessBytes != 8 &&
      accessBytes != 16)
    return makeError("access width " + std::to_string(accessBytes) +
                     " B is not one of 1, 2, 4, 8, 16");
  for (long long a : addresses) {
    if (a > LLONG_MAX - accessBytes)
      return makeError("address " + std::to_string(a) + " is out of range");
  }
  return {};
}

void touchedSectors(const std::vector<long long>& lanes, int width, long long sector, std::vector<long long>& out) {
  out.clear();
  bool ascending = true;
  // Addresses are not negative here, so a power-of-two sector divides by a shift (the engine
  // calls this for every lane of every sampled access).
  const int shift = sector > 0 && (sector & (sector - 1)) == 0 ? std::countr_zero(static_cast<unsigned long long>(sector)) : -1;
  const long long last = std::max(1, width) - 1;
  for (long long a : lanes) {
    if (a < 0) continue;
    const long long lo = shift >= 0 ? a >> shift : a / sector, hi = shift >= 0 ? (a + last) >> shift : (a + last) / sector;
    for (long long s = lo; s <= hi; ++s) {
      if (!out.empty() && out.back() == s) continue;  // coalesced lanes: the same sector again
      ascending = ascending && (out.empty() || out.back() < s);
      out.push_back(s);
    }
  }
  if (ascending) return;
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

int partialSectors(const std::vector<long long>& lanes, int width, long long sector) {
  if (sector <= 0) return 0;
  // Bytes per sector: each lane's bytes split at sector boundaries, collected as (sector, bytes)
  // runs (lanes in address order make one run per sector; others are sorted first).
  thread_local std::vector<std::pair<long long, long long>> parts;  // no allocation per request
  parts.clear();
  const long long w = std::max(1, width);
  bool ascending = true;
  for (long long a : lanes) {
    if (a < 0) continue;
    for (long long lo = a; lo < a + w;) {
      const long long s = lo / sector, end = std::min(a + w, (s + 1) * sector);
      ascending = ascending && (parts.empty() || parts.back().first <= s);
      parts.emplace_back(s, end - lo);
      lo = end;
    }
  }
  if (!ascending) std::sort(parts.begin(), parts.end());
  int partial = 0;
  for (size_t i = 0; i < parts.size();) {
    long long bytes = 0;
    size_t j = i;
    for (; j < parts.size() && parts[j].first == parts[i].first; ++j) bytes += parts[j].second;
    partial += bytes < sector ? 1 : 0;
    i = j;
  }
  return partial;
}

Expected<SectorCount> countSectors(std::span<const long long> addresses, int accessBytes,
                                   const SectorOptions& options) {
  if (auto ok = checkWarpAccess(addresses, accessBytes); !ok) return std::move(ok).takeError();
  if (options.sectorBytes <= 0 || options.lineBytes <= 0)
    return makeError("sector and line sizes must be positive");
  // Sectors and lines are counted over the whole warp (sm_70+ coalesces per warp, not per
  // half-warp); the minimum packs the active lanes' bytes into aligned sectors.
  const auto active = std::count_if(addresses.begin(), addresses.end(), isActive);
  SectorCount out;
  out.sectors = countDistinctBlocks(addresses, accessBytes, options.sectorBytes);
  out.lines = countDistinctBlocks(addresses, accessBytes, options.lineBytes);
  const long long usefulBytes = static_cast<long long>(active) * accessBytes;
  out.minSectors =
      static_cast<int>((usefulBytes + options.sectorBytes - 1) / options.sectorBytes);
  out.coalesced = out.sectors <= out.minSectors;
  return out;
}

L1Wavefronts l1LoadWavefronts(long long lines, int bankWavefronts, const L1TagStage& tags) {
  const auto n = static_cast<double>(lines);
  if (!tags.known() || bankWavefronts < 0) return {n, n};
  const auto bank = static_cast<double>(bankWavefronts);
  return {std::max(bank, std::max(1.0, tags.extraWavefronts + n / tags.linesPerWavefront)), std::max(bank, n)};
}

Expected<SegmentTransactions> countTransactionsCc10(std::span<const long long> addresses,
                                                    int accessBytes) {
  if (auto ok = checkWarpAccess(addresses, accessBytes); !ok) return std::move(ok).takeError();
  if (auto ok = checkNaturalAlignment(addresses, accessBytes); !ok)
    return std::move(ok).takeError();
  // Each half-warp is judged on its own; a half-warp without active lanes issues nothing.
  SegmentTransactions out;
  out.coalesced = true;
  for (std::size_t first = 0; first < addresses.size(); first += kHalfWarpLanes) {
    const auto half = addresses.subspan(
        first, std::min<std::size_t>(kHalfWarpLanes, addresses.size() - first));
    const auto active = static_cast<int>(std::count_if(half.begin(), half.end(), isActive));
    if (active == 0) continue;
    if (isCoalescedCc10(half, accessBytes)) {
      // One 64-B (4-B words), one 128-B (8-B words) or two 128-B (16-B words) transactions.
      const int count = accessBytes == 16 ? 2 : 1;
      out.transactions += count;
      out.bytes += count * (accessBytes == 4 ? 64LL : 128LL);
    } else {
      // One 32-B transaction per active thread (the guide's "16 separate 32-byte transactions"
      // for a full half-warp; inactive threads issue none).
      out.transactions += active;
      out.bytes += active * kCc1xLaneBytes;
      out.coalesced = false;
    }
  }
  return out;
}

Expected<SegmentTransactions> countTransactionsCc12(std::span<const long long> addresses,
                                                    int accessBytes) {
  if (auto ok = checkWarpAccess(addresses, accessBytes); !ok) return std::move(ok).takeError();
  if (auto ok = checkNaturalAlignment(addresses, accessBytes); !ok)
    return std::move(ok).takeError();
  // Segment size by word size (guide G.3.2.2): 32 B for 1-B, 64 B for 2-B, else 128 B.
  const long long segmentBytes = accessBytes == 1 ? 32 : accessBytes == 2 ? 64 : 128;
  SegmentTransactions out;
  int minTransactions = 0;
  for (std::size_t first = 0; first < addresses.size(); first += kHalfWarpLanes) {
    const auto half = addresses.subspan(
        first, std::min<std::size_t>(kHalfWarpLanes, addresses.size() - first));
    std::vector<bool> served(half.size(), false);
    long long activeBytes = 0;
    for (std::size_t lead = 0; lead < half.size(); ++lead) {
      if (!isActive(half[lead]) || served[lead]) continue;
      // `lead` is the lowest-numbered active lane not served yet.
      const long long segment = half[lead] / segmentBytes * segmentBytes;
      long long lo = half[lead];
      long long hi = half[lead] + accessBytes - 1;
      for (std::size_t k = lead; k < half.size(); ++k) {
        if (!isActive(half[k]) || served[k] || half[k] / segmentBytes * segmentBytes != segment)
          continue;
        served[k] = true;
        activeBytes += accessBytes;
        lo = std::min(lo, half[k]);
        hi = std::max(hi, half[k] + accessBytes - 1);
      }
      // [lo, hi] is the byte range the served lanes use; it decides the shrinking.
      out.transactions += 1;
      out.bytes += shrinkSegment(segment, segmentBytes, lo, hi);
    }
    // Aligned unit stride: the active lanes' bytes packed into 128-B segments (at least one).
    if (activeBytes > 0)
      minTransactions += static_cast<int>((activeBytes + kMaxSegmentBytes - 1) / kMaxSegmentBytes);
  }
  out.coalesced = out.transactions <= minTransactions;
  return out;
}

const char* accessClassName(AccessClass pattern) {
  switch (pattern) {
    case AccessClass::Constant: return "constant";
    case AccessClass::Coalesced: return "coalesced";
    case AccessClass::Uncoalesced: return "uncoalesced";
  }
  return "unknown";
}

Expected<AccessClass> classifyAccessClass(std::span<const long long> addresses,
                                              int accessBytes) {
  if (auto ok = checkWarpAccess(addresses, accessBytes); !ok) return std::move(ok).takeError();
  // Max |stride| between each active lane and the previous active lane (cgpredict.md §4.2).
  long long maxStride = 0;
  long long previous = -1;
  for (long long a : addresses) {
    if (!isActive(a)) continue;
    if (previous >= 0) maxStride = std::max(maxStride, a > previous ? a - previous : previous - a);
    previous = a;
  }
  if (maxStride == 0) return AccessClass::Constant;
  if (maxStride <= accessBytes) return AccessClass::Coalesced;
  return AccessClass::Uncoalesced;
}

int paperTransactions(AccessClass pattern, const PaperTransactions& table) {
  switch (pattern) {
    case AccessClass::Constant: return table.constant;
    case AccessClass::Coalesced: return table.coalesced;
    case AccessClass::Uncoalesced: return table.uncoalesced;
  }
  return table.uncoalesced;
}

Expected<int> generalModeTransactions(std::span<const long long> addresses, int accessBytes,
                                      long long lineBytes) {
  if (auto ok = checkWarpAccess(addresses, accessBytes); !ok) return std::move(ok).takeError();
  if (lineBytes <= 0) return makeError("line size must be positive");
  return countDistinctBlocks(addresses, accessBytes, lineBytes);
}

}  // namespace foresight
