// SPDX-License-Identifier: Apache-2.0
/// \file
/// Shared-memory bank-conflict counting: per-phase wavefronts for configurable banks, and
/// CGPredict's segment-based X degree.
#include "foresight/memory/bank_conflicts.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <utility>
#include <vector>

#include "foresight/memory/coalescing.h"

namespace foresight {
namespace {

// A (bank, key) pair: two accesses to one bank conflict when their keys differ.
using BankKey = std::pair<long long, long long>;

// Max over banks of the number of distinct keys in that bank (0 for no pairs).
int maxDistinctPerBank(std::vector<BankKey>& pairs) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  int best = 0;
  for (std::size_t i = 0; i < pairs.size();) {
    std::size_t j = i;
    while (j < pairs.size() && pairs[j].first == pairs[i].first) ++j;
    best = std::max(best, static_cast<int>(j - i));
    i = j;
  }
  return best;
}

bool isPowerOfTwo(int value) { return value > 0 && (value & (value - 1)) == 0; }

}  // namespace

Expected<BankConflicts> countBankConflicts(std::span<const long long> addresses,
                                           int accessBytes, const BankOptions& options) {
  if (auto ok = checkWarpAccess(addresses, accessBytes); !ok) return std::move(ok).takeError();
  if (options.numBanks <= 0) return makeError("number of banks must be positive");
  if (!isPowerOfTwo(options.bankWidthBytes))
    return makeError("bank width must be a positive power of two");
  if (options.lanesPerRequest <= 0) return makeError("lanes per request must be positive");

  // A phase holds as many lanes as one pass of all banks can serve at this width, but never
  // fewer than half the lanes issued together, capped by those lanes (half-warps on CC 1.x).
  // The half minimum is measured, not documented: on an H200 a 128-bit load whose 32 lanes read
  // one address takes 2.04 wavefronts (matmul_coarsened/ry1, no two words in one bank;
  // l1tex__data_pipe_lsu_wavefronts_mem_shared, validation/measurements/raw/2026-11-26-h200/
  // counters-1.csv), where quarter-warp phases would take 4. Conflict-free and conflicting
  // accesses count the same either way; only broadcasts across quarter-warps differ.
  const long long bankWidth = options.bankWidthBytes;
  const long long bytesPerPass = static_cast<long long>(options.numBanks) * bankWidth;
  const long long fitLanes = std::max<long long>(options.lanesPerRequest / 2,
                                                 bytesPerPass / std::max<long long>(accessBytes, bankWidth));
  const auto lanesPerPhase = static_cast<std::size_t>(
      std::max<long long>(1, std::min<long long>(options.lanesPerRequest, fitLanes)));

  BankConflicts out;
  std::vector<BankKey> pairs;
  for (std::size_t first = 0; first < addresses.size(); first += lanesPerPhase) {
    ++out.phases;
    pairs.clear();
    const std::size_t last = std::min(addresses.size(), first + lanesPerPhase);
    // Words within one row of the banks (coalesced and broadcast requests, the common case):
    // no bank holds two of them, one pass.
    long long lo = LLONG_MAX, hi = LLONG_MIN;
    for (std::size_t lane = first; lane < last; ++lane) {
      const long long a = addresses[lane];
      if (a < 0) continue;
      lo = std::min(lo, a / bankWidth);
      hi = std::max(hi, (a + accessBytes - 1) / bankWidth);
    }
    if (lo > hi) continue;  // no active lane: no pass
    if (hi - lo < options.numBanks) {
      out.wavefronts += 1;
      out.conflictFree += 1;
      out.degree = std::max(out.degree, 1);
      continue;
    }
    for (std::size_t lane = first; lane < last; ++lane) {
      const long long a = addresses[lane];
      if (a < 0) continue;
      // Every bank word the access touches; the key is the word itself.
      for (long long w = a / bankWidth; w <= (a + accessBytes - 1) / bankWidth; ++w)
        pairs.emplace_back(w % options.numBanks, w);
    }
    // The phase needs one pass per distinct word of its busiest bank (0 if no lane is active);
    // without conflicts, one pass per numBanks distinct words.
    const int degree = maxDistinctPerBank(pairs);
    out.wavefronts += degree;
    out.conflictFree += static_cast<int>((pairs.size() + options.numBanks - 1) / options.numBanks);
    out.degree = std::max(out.degree, degree);
  }
  return out;
}

Expected<int> cgpredictConflictDegree(std::span<const long long> addresses, int accessBytes,
                                      const SegmentConflictOptions& options) {
  if (auto ok = checkWarpAccess(addresses, accessBytes); !ok) return std::move(ok).takeError();
  if (options.numBanks <= 0 || options.wordBytes <= 0 || options.segmentBytes <= 0)
    return makeError("banks, word size and segment size must be positive");
  // Whole warp, no phases: bank = word mod banks, key = the segment holding the word, so words
  // of one bank conflict only when they lie in different segments.
  std::vector<BankKey> pairs;
  for (long long a : addresses) {
    if (a < 0) continue;
    for (long long w = a / options.wordBytes; w <= (a + accessBytes - 1) / options.wordBytes;
         ++w)
      pairs.emplace_back(w % options.numBanks, w * options.wordBytes / options.segmentBytes);
  }
  return maxDistinctPerBank(pairs);
}

}  // namespace foresight
