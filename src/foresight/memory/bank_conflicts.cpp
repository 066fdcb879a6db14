// SPDX-License-Identifier: Apache-2.0
/// \file
/// Shared-memory bank-conflict counting: per-phase wavefronts for configurable banks, and
/// CGPredict's segment-based X degree.
#include "foresight/memory/bank_conflicts.h"

#include <algorithm>
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

  // A phase holds as many lanes as one pass of all banks can serve at this width, capped by
  // the lanes issued together (half-warps on CC 1.x).
  const long long bankWidth = options.bankWidthBytes;
  const long long bytesPerPass = static_cast<long long>(options.numBanks) * bankWidth;
  const long long fitLanes = bytesPerPass / std::max<long long>(accessBytes, bankWidth);
  const auto lanesPerPhase = static_cast<std::size_t>(
      std::max<long long>(1, std::min<long long>(options.lanesPerRequest, fitLanes)));

  BankConflicts out;
  std::vector<BankKey> pairs;
  for (std::size_t first = 0; first < addresses.size(); first += lanesPerPhase) {
    ++out.phases;
    pairs.clear();
    const std::size_t last = std::min(addresses.size(), first + lanesPerPhase);
    for (std::size_t lane = first; lane < last; ++lane) {
      const long long a = addresses[lane];
      if (a < 0) continue;
      // Every bank word the access touches; the key is the word itself.
      for (long long w = a / bankWidth; w <= (a + accessBytes - 1) / bankWidth; ++w)
        pairs.emplace_back(w % options.numBanks, w);
    }
    // The phase needs one pass per distinct word of its busiest bank (0 if no lane is active).
    const int degree = maxDistinctPerBank(pairs);
    out.wavefronts += degree;
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
