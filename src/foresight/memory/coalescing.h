// SPDX-License-Identifier: Apache-2.0
/// \file
/// Global-memory coalescing of one warp memory request, under the rules of several GPU
/// generations: sectors and lines on sm_70+, the CC 1.0/1.1 half-warp rule and the CC 1.2/1.3
/// segment algorithm (GROPHECY, grophecy.md §5.9), and CGPredict's access-pattern classes
/// (cgpredict.md §4.2).
///
/// A warp request is a span of per-lane byte addresses (one entry per lane, usually 32; a
/// negative entry is an inactive lane) plus the access width in bytes (1, 2, 4, 8 or 16).
/// Example: 32 lanes reading consecutive floats from byte 0 touch bytes 0..127, i.e. 4 sectors
/// of 32 B and 1 line of 128 B (coalesced); 2 transactions of 64 B on CC 1.0 and on CC 1.3;
/// CGPredict class Coalesced (max stride 4 B), 2 transactions in paper mode.
#pragma once

#include <span>
#include <vector>

#include "foresight/ir/access_class.h"
#include "foresight/support/error.h"

namespace foresight {

/// Address value that marks an inactive lane (any negative value does).
inline constexpr long long kInactiveLane = -1;

/// Checks the conventions shared by every warp-request analysis: `addresses` is not empty and
/// `accessBytes` is 1, 2, 4, 8 or 16. Active addresses must leave room for the access (no
/// overflow of `long long`).
[[nodiscard]] Expected<void> checkWarpAccess(std::span<const long long> addresses,
                                             int accessBytes);

// ---- Modern GPUs (sm_70+): sectors and lines -------------------------------------------------

/// Granularities for `countSectors`.
struct SectorOptions {
  long long sectorBytes = 32;  ///< DRAM/L2 sector size; must be > 0.
  long long lineBytes = 128;   ///< cache-line size; must be > 0.
};

/// Sectors and lines touched by one warp request.
struct SectorCount {
  int sectors = 0;     ///< distinct sectors touched; a straddling lane counts every sector.
  int lines = 0;       ///< distinct lines touched.
  int minSectors = 0;  ///< ceil(activeLanes * accessBytes / sectorBytes): aligned unit stride.
  /// sectors <= minSectors: equal for an aligned unit-stride access, fewer when lanes share
  /// data (broadcast). True for a request without active lanes.
  bool coalesced = false;
};

/// Counts the sectors and lines the active lanes touch. Example: 32 lanes × 4 B at stride 8 B
/// from 0 touch bytes 0..251 → 8 sectors, 2 lines, minSectors 4, not coalesced.
[[nodiscard]] Expected<SectorCount> countSectors(std::span<const long long> addresses,
                                                 int accessBytes,
                                                 const SectorOptions& options = {});

/// The distinct sectors (address / sectorBytes) the active lanes (address ≥ 0) of one request
/// touch, ascending, into `out` (reused: no allocation per request on hot paths); a lane of
/// `accessBytes` straddling a boundary touches both sectors.
void touchedSectors(const std::vector<long long>& lanes, int accessBytes, long long sectorBytes,
                    std::vector<long long>& out);

/// Sectors a store request writes only partly: the distinct sectors its active lanes (address
/// ≥ 0, `accessBytes` each, distinct addresses) touch that receive fewer than `sectorBytes`
/// bytes. A partly written sector costs the L2 a read-modify-write (a full one is overwritten).
/// Examples for 32 lanes × 4 B: unit stride from 0 → 0 (4 full sectors); stride 8 B → 8; a
/// column (stride ≥ 32 B) → 32; unit stride from byte 4 → 2 (the first and the last).
[[nodiscard]] int partialSectors(const std::vector<long long>& lanes, int accessBytes, long long sectorBytes);

/// The two stages a global load request passes in an sm_80+ L1 (Ampere and Hopper). The tag
/// stage looks up the request's distinct lines: `extraWavefronts` + lines / `linesPerWavefront`
/// wavefronts, at least one. The data stage reads the banks (the array shared memory uses): the
/// request's bank wavefronts (countBankConflicts(): a 64-bit or 128-bit access by half-warps,
/// one pass per distinct word of the busiest bank). The stages overlap, so the request holds
/// the L1 for the slower of the two. Fitted to te42kyfo/gpu-benches gpu-strides, whose
/// cycles per load are that maximum on an A100 and an H200 (docs/gpu-presets.md): a warp reading
/// floats at a stride of 15 words touches 16 lines and takes 4.6 cycles, not 16.
struct L1TagStage {
  double extraWavefronts = 0;    ///< ≥ 0
  double linesPerWavefront = 0;  ///< lines one tag wavefront resolves; ≤ 0: no tag stage
  [[nodiscard]] bool known() const { return linesPerWavefront > 0; }
};

/// L1 wavefronts of one load request: if its lines hit, and if they miss.
struct L1Wavefronts {
  double hit = 0, miss = 0;
};

/// L1 wavefronts of one load request of `lines` distinct lines and `bankWavefronts` data-stage
/// wavefronts. With a tag stage: hit = max(bankWavefronts, max(1, extra + lines /
/// linesPerWavefront)), as gpu-strides measures L1-resident data; miss = max(bankWavefronts,
/// lines): a missing line is allocated and requested from L2 one at a time (a warp reading a
/// column of 32 rows that miss, `gesummv` on an H200, runs as 32 passes, not 9). Without a tag
/// stage, or with unknown bank wavefronts (< 0): `lines` both. Examples with the presets' A100
/// fit (0.45 + lines / 3.55): floats at unit stride, 128 B from byte 16 (2 lines, 1 bank
/// wavefront) → hit 1.01, miss 2; at a stride of 8 words (8 lines, 8-way conflict) → 8 and 8;
/// at a stride of 31 words (31 lines, no conflict) → hit 9.18, miss 31.
[[nodiscard]] L1Wavefronts l1LoadWavefronts(long long lines, int bankWavefronts, const L1TagStage& tags);

// ---- Compute capability 1.x (GROPHECY footnote 3) --------------------------------------------

/// Memory transactions of one warp request on a CC 1.x device.
struct SegmentTransactions {
  int transactions = 0;  ///< over both half-warps
  long long bytes = 0;   ///< total size of those transactions
  /// CC 1.0/1.1: every half-warp with active lanes met the coalescing rule. CC 1.2/1.3: no more
  /// transactions than an aligned unit-stride access of the active lanes needs (grophecy A9).
  bool coalesced = false;
};

/// CC 1.0/1.1 rule (CUDA guide G.3.2.1), per half-warp of 16 lanes: coalesced iff the width is
/// 4, 8 or 16 B and each active lane k accesses word k of a segment aligned to 64 B (4-B words)
/// or 128 B (8- and 16-B words; 16-B words span two consecutive 128-B segments). Inactive
/// lanes do not break coalescing. A coalesced half-warp costs one 64-B (4 B), one 128-B (8 B)
/// or two 128-B (16 B) transactions; otherwise each active lane costs one 32-B transaction.
/// Errors for an access that is not naturally aligned (CC 1.x requires it).
[[nodiscard]] Expected<SegmentTransactions> countTransactionsCc10(
    std::span<const long long> addresses, int accessBytes);

/// CC 1.2/1.3 segment algorithm (CUDA guide G.3.2.2), per half-warp: take the segment (32 B for
/// 1-B words, 64 B for 2-B, 128 B for 4/8/16-B) holding the lowest unserved active lane's
/// address; serve every active lane in it; shrink 128 → 64 B and then 64 → 32 B while only the
/// lower or the upper half is used; repeat until all lanes are served. Example: 16 lanes × 4 B
/// in bytes 64..127 → one 64-B transaction. Errors for an access that is not naturally aligned.
[[nodiscard]] Expected<SegmentTransactions> countTransactionsCc12(
    std::span<const long long> addresses, int accessBytes);

// ---- CGPredict access-pattern classes (cgpredict.md §4.2) ------------------------------------



/// Classifies one warp request. "Consecutive active lanes" pairs each active lane with the next
/// active lane, skipping inactive ones; the stride is not divided by the lane gap.
[[nodiscard]] Expected<AccessClass> classifyAccessClass(std::span<const long long> addresses,
                                                            int accessBytes);

/// Transactions per warp instruction in CGPredict's paper mode (Table 3: no_const_pw,
/// no_coal_pw, no_uncoal_pw).
struct PaperTransactions {
  int constant = 1;
  int coalesced = 2;
  int uncoalesced = 32;
};

/// The paper-mode transaction count of a class.
[[nodiscard]] int paperTransactions(AccessClass pattern, const PaperTransactions& table = {});

/// CGPredict's "general mode": the number of distinct lines of `lineBytes` (64 B = Jetson TK1
/// L2) the active lanes touch. Errors when `lineBytes` <= 0 or the request is invalid.
[[nodiscard]] Expected<int> generalModeTransactions(std::span<const long long> addresses,
                                                    int accessBytes, long long lineBytes = 64);

}  // namespace foresight
