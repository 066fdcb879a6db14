// SPDX-License-Identifier: Apache-2.0
/// \file
/// Shared-memory bank conflicts of one warp request: wavefronts (serialized passes) and conflict
/// degree for configurable banks (sm_70+, Kepler 8-byte mode, CC 1.x half-warps), and CGPredict's
/// Kepler X degree (cgpredict.md §4.5).
///
/// Model: a bank word is `bankWidthBytes` wide; bank word w sits in bank w mod numBanks. A
/// lane's access covers every bank word its bytes touch (a wide access occupies consecutive
/// banks). Lanes reading the same bank word are served together (broadcast/multicast, as on
/// CC >= 2.0). A pass serves one word per bank, so a phase needs as many wavefronts as the most
/// distinct words any one bank holds. Example (32 banks × 4 B): lanes at stride 2 words → banks
/// 0,2,..,30 each hold 2 words → 2-way conflict, 2 wavefronts; stride 32 words → 32 wavefronts.
#pragma once

#include <span>

#include "foresight/support/error.h"

namespace foresight {

/// Bank organisation and request splitting.
struct BankOptions {
  int numBanks = 32;        ///< 32 on CC >= 2.0, 16 on CC 1.x; must be > 0.
  int bankWidthBytes = 4;   ///< 4, or 8 for Kepler's 8-byte mode; a power of two.
  int lanesPerRequest = 32; ///< lanes issued together: 32, or 16 on CC 1.x (half-warps).
};

/// Cost of one shared-memory warp request.
struct BankConflicts {
  int wavefronts = 0;  ///< serialized passes, summed over phases; 0 when no lane is active
  int degree = 0;      ///< max over phases and banks of the distinct words in one bank
  int phases = 0;      ///< lane groups the request is split into (see countBankConflicts)
  int conflictFree = 0;  ///< wavefronts without bank conflicts: per phase, ceil(distinct words / banks)
};

/// Wavefronts and conflict degree of one request. The lanes are split into consecutive phases
/// of min(lanesPerRequest, max(lanesPerRequest / 2, numBanks * bankWidthBytes / max(accessBytes,
/// bankWidthBytes))) lanes: with 32 × 4-B banks, 64-bit and 128-bit accesses go by half-warps (2 phases; 128-bit
/// by half-warps as measured on an H200, not quarter-warps: a broadcast takes 2 wavefronts);
/// in Kepler's 8-byte mode 64-bit accesses take one phase. Each phase costs its own degree (max over banks of distinct bank words, 0 when the
/// phase has no active lane); the wavefronts are the sum. Errors for an invalid request or
/// options.
[[nodiscard]] Expected<BankConflicts> countBankConflicts(std::span<const long long> addresses,
                                                         int accessBytes,
                                                         const BankOptions& options = {});

/// CGPredict's Kepler model: 4-byte words in `numBanks` banks (bank = word mod numBanks), each
/// bank 8 bytes wide, so that words i and i+numBanks of one 2*numBanks-word (256-B) segment
/// share one bank row.
struct SegmentConflictOptions {
  int numBanks = 32;        ///< must be > 0
  int wordBytes = 4;        ///< addressing granularity of the banks; must be > 0
  int segmentBytes = 256;   ///< bytes served together by one pass of all banks; must be > 0
};

/// CGPredict's conflict degree X of a whole warp request: the max over banks of the number of
/// distinct `segmentBytes` segments the touched words of that bank lie in (the same word or
/// the same segment counts once). Words [0] and [32] → X = 1; [59] and [91] → X = 2; a column
/// walk at stride 32 words → 32 lanes in bank 0 over 16 segments → X = 16. Errors for an
/// invalid request or options.
[[nodiscard]] Expected<int> cgpredictConflictDegree(std::span<const long long> addresses,
                                                    int accessBytes,
                                                    const SegmentConflictOptions& options = {});

}  // namespace foresight
