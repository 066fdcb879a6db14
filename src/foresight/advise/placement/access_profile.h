// SPDX-License-Identifier: Apache-2.0
/// \file
/// The access profile PORPLE's placement model works from (seed 002 §5; porple.md §5, §10.1
/// items 2–3): for each global array a kernel touches, its warp requests as the profiled warps
/// issue them — per-lane byte offsets in the array, in a round-robin interleaving of the warps —
/// plus what the searches and the rule-based baseline need to know of it (read or written,
/// analysable, per-block footprint, extent).
///
/// PORPLE replays the kernel on the CPU, first block only, first 10 loop iterations. Foresight
/// has the CUDA frontend's warp streams: it profiles every warp of the first `blocks` blocks,
/// each warp's stream reduced to systematic windows (steady state, not the prefix: issue 11
/// item 2), and reads the last block as well for the arrays' extents (an array indexed by the
/// global thread id looks one block long in the first block alone). PORPLE's active-learning
/// early stop (Procedure 2) can prune the trace to the first warps (ProfileOptions::earlyStop).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "foresight/advise/placement/search.h"
#include "foresight/ir/kernel_ir.h"
#include "foresight/ir/launch.h"
#include "foresight/support/error.h"

namespace foresight {

/// One warp request of the profile.
struct ProfiledRequest {
  int array = 0;  ///< index into AccessProfile::arrays
  int site = 0;   ///< static access site (index into AccessProfile::sites)
  int warp = 0;   ///< profiled warp, 0-based over the profiled blocks
  bool store = false;
  int widthBytes = 4;
  /// Byte offset of each lane's access in its array (negative = inactive). Empty for a
  /// data-dependent request: `unknownLanes` lanes then read addresses nobody can tell.
  std::vector<long long> lanes;
  int unknownLanes = 0;
  double weight = 1;  ///< dynamic executions it stands for (stream sampling)
};

/// One static global access site.
struct ProfiledSite {
  int array = 0;
  bool store = false;
  int widthBytes = 4;
  std::string where;  ///< "file:line" when known, else the opcode
  bool executes = true;  ///< the frontend's own run executes it (not dead for this launch)
};

/// One global array as the profile sees it.
struct ProfiledArray {
  std::string name;
  bool read = false;
  bool written = false;
  bool dataDependent = false;  ///< some access has an address the frontend could not resolve
  int elementBytes = 4;        ///< the widest access width
  /// Bytes: the launch's size when given (--array), else the highest byte the profiled and the
  /// last block's warps touch (`sizeKnown` false when data-dependent accesses may go further).
  long long bytes = 0;
  bool sizeGiven = false;
  bool sizeKnown = true;
  /// Shared staging: the widest byte range one profiled block touches (its tile), and whether
  /// every access to the array is resolved (an affine, per-block map exists).
  long long tileBytes = 0;
  bool tileable = false;
  ArrayTraits traits;
  double requests = 0;  ///< weighted warp requests per profiled block
};

/// Options of profileAccesses().
struct ProfileOptions {
  int blocks = 1;  ///< profiled blocks (PORPLE: the first); capped at the grid
  /// PORPLE's active-learning early stop (Procedure 2, porple.md §5.4; `place --early-stop`)
  /// over the profiled warps: the trace keeps warps in order until the running mean of their
  /// accessed indices is stable. Off by default: PORPLE stops to save profiling time, and here
  /// every warp is run anyway (for the traits, tiles and extents), so a shorter trace only
  /// loses the sharing between the warps it drops.
  bool earlyStop = false;
  /// Instructions kept per warp (systematic windows of the whole stream); 0 = the whole stream.
  long long instructionsPerWarp = 1 << 14;
};

/// The profile of one launch.
struct AccessProfile {
  std::vector<ProfiledArray> arrays;
  std::vector<ProfiledSite> sites;
  std::vector<ProfiledRequest> requests;  ///< in interleaved order (round-robin over the warps)
  long long profiledBlocks = 1;
  int warpsPerBlock = 1;
  /// Warps whose requests are in `requests`: all of the profiled blocks' (profiledBlocks ·
  /// warpsPerBlock), or the first ones where Procedure 2 stopped; the kept requests' weights
  /// then stand for the rest too (× all / kept).
  int tracedWarps = 1;
  /// With earlyStop, why it did not prune ("" when it did, or when it was off): the warps
  /// exchange data through shared memory, there are fewer than 3, or the mean never settled.
  std::string fullTraceReason;
  int threadsPerBlock = 1;
  long long gridBlocks = 1;
  /// Arrays missing from the profile although the kernel accesses them (sites the profiled
  /// warps never executed): "name (file:line)".
  std::vector<std::string> unreached;
};

/// Procedure 2's stability test (porple.md §5.4, with its documented choices: |pre1|): the
/// running mean `cur` moved by less than 0.5 % of `pre1`, or by the same amount as in the step
/// before (within ±0.5 %: a mean drifting linearly).
[[nodiscard]] bool porpleStable(double cur, double pre1, double pre2);

/// How many of the warps, in order, Procedure 2's outer loop profiles, given each warp's proxy
/// (the mean over its threads of each thread's sum of accessed element indices): it stops at
/// the first warp w >= 2 whose running mean over warps 0..w is stable against the two before
/// (the test needs two earlier means: porple.md's start-up quirk); all of them otherwise.
[[nodiscard]] int porpleWarpsProfiled(const std::vector<double>& warpProxy);

/// Profiles the global accesses of one launch of a kernel whose frontend executes warps (CUDA).
/// Errors for a kernel without warp streams or array windows (skeletons, summaries, C loops:
/// placement needs the CUDA frontend), or with no global array access.
[[nodiscard]] Expected<AccessProfile> profileAccesses(const KernelIR& ir, const Launch& launch,
                                                      const ProfileOptions& options = {});

}  // namespace foresight
