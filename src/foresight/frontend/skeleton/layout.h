// SPDX-License-Identifier: Apache-2.0
/// \file
/// `Layout`: one GPU code layout of a skeleton (grophecy.md §4.1) — thread-block shape B,
/// folding F, staging sizes S, traversal order O, cached arrays C (their shared-memory sections
/// follow from Eq. 5) and unrolling L — and `LayoutStats`, the Table 1 / Table 2 values the
/// characterizer derives for it on one GPU.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "foresight/frontend/skeleton/skeleton.h"
#include "foresight/ir/launch.h"
#include "foresight/ir/workload_summary.h"

namespace foresight::skeleton {

/// One code layout. Per-dimension vectors are indexed like the parallel_for (outermost first);
/// `stage` has one entry per `stream` loop, in the order the loops appear in the skeleton.
struct Layout {
  std::vector<int> block;        ///< B: threads per block along each parallel dimension
  std::vector<int> fold;         ///< F: tasks per thread along each dimension (cyclic, A4)
  std::vector<long long> stage;  ///< S: staging size per stream loop; 0 = not staged
  /// O: order[j] = index (into `stage`) of the j-th stream loop traversed. A permutation that
  /// only reorders loops inside one perfect stream nest (`streamNests`); empty = skeleton order.
  std::vector<int> order;
  std::uint64_t cached = 0;  ///< C: bit i set = array i is cached in shared memory
  bool unroll = true;        ///< L: maximal unrolling of eligible loops (groups of 16)

  [[nodiscard]] long long threads() const;
  [[nodiscard]] long long foldDegree() const;
  bool operator==(const Layout&) const = default;
};

/// A shared-memory buffer ShMem(D, k) of one layout (Eq. 5).
struct SharedBuffer {
  int array = -1;
  int stream = -1;  ///< stream loop variable, -1 = k = 0 (loaded once, before the task loop)
  std::vector<long long> shape;  ///< extents of the (merged) section(s), for reports
  long long elements = 0;        ///< size(ShMem(D, k))
  double numStages = 1;          ///< NumStages(k) (Eq. 4)
  double cachingInsts = 0;       ///< Eq. 12 contribution, dynamic per thread
  bool coalesced = true;
  double transactions = 0;           ///< per caching warp instruction
  std::vector<long long> firstWarp;  ///< byte addresses of its first warp_size elements
};

/// One global-memory statement of a layout, for lowering: a direct access or a caching load.
struct GlobalAccess {
  std::string label;  ///< "ld A[i][k]" or "fill A (k)"
  bool store = false;
  int widthBytes = 4;
  double insts = 0;  ///< dynamic warp instructions per thread
  bool coalesced = true;
  double transactions = 1;
  bool sampled = false;          ///< transactions averaged over sample warps (not one warp's lanes)
  std::vector<long long> lanes;  ///< a representative warp's byte addresses
  // Where its addresses come from (Characterizer::addresses):
  bool fill = false;            ///< a caching load of a shared-memory buffer
  /// Its addresses depend on index data the skeleton gives no sample of (A20): unknown.
  bool unknownAddresses = false;
  std::vector<int> statements;  ///< direct: its access statement; fill: the statements the buffer serves
  int array = -1;
  int stream = -1;              ///< fill: the staged stream loop variable, -1 = loaded once (k = 0)
  long long stage = 0;          ///< fill: staging size
  double numStages = 1;         ///< fill: Eq. 4
  long long elements = 0;       ///< fill: elements of the buffer (Eq. 5)
};

/// Everything the characterizer derives for one layout (Tables 1 and 2, Eqs. 1–17).
struct LayoutStats {
  long long threadsPerBlock = 0;      ///< size(B)
  long long blocks = 0;               ///< Π ⌈extent_d / (b_d·f_d)⌉
  long long sharedBytesPerBlock = 0;  ///< Eq. 7
  int warpsPerBlock = 0;
  // Per-thread dynamic counts.
  double funcInsts = 0;          ///< Eq. 17
  double sharedAccessInsts = 0;  ///< cached ld/st and register reuse, counted as computation (A11)
  double loopInsts = 0;          ///< loop management (Table 3)
  double branchInsts = 0;        ///< conditional branches (Table 3)
  double dataPrepInsts = 0;      ///< 2 per caching instruction (Table 3)
  double indexInsts = 0;         ///< 4 per uncoalesced access (Table 3)
  double synchInsts = 0;         ///< 2 per stage (A13), part of compInsts
  double overheadInsts = 0;      ///< per-thread fixed overhead (A12)
  double compInsts = 0;          ///< sum of the above
  double coalMemInsts = 0;       ///< Eq. 14
  double uncoalMemInsts = 0;     ///< Eq. 15
  double uncoalPerMw = 1;        ///< Eq. 16 (A7)
  double loadBytesPerWarp = 0;   ///< Eq. 11
  std::vector<SharedBuffer> buffers;
  [[nodiscard]] double memInsts() const { return coalMemInsts + uncoalMemInsts; }
  [[nodiscard]] double totalInsts() const { return compInsts + memInsts(); }
  /// The WorkloadSummary the MWP-CWP model consumes.
  [[nodiscard]] WorkloadSummary toWorkload() const;
};

/// The CUDA launch of a layout: the last parallel dimension is x (A3), the one before it y,
/// the product of the rest z; the grid is ⌈extent_d / (b_d·f_d)⌉ per dimension.
[[nodiscard]] Launch launchOf(const Layout& layout, const Skeleton& sk);

/// The perfect nests of stream loops (grophecy.md §4.1, O): maximal chains of stream loops with
/// static bounds in which each loop's body is exactly the next stream loop. Each nest lists stream
/// indices (skeleton order, as in Layout::stage), outermost first; only nests of two or more
/// loops are returned, so an empty result means O has no choice.
[[nodiscard]] std::vector<std::vector<int>> streamNests(const Skeleton& sk);

/// The identity order when `layout.order` is empty, else `layout.order`.
[[nodiscard]] std::vector<int> effectiveOrder(const Layout& layout, size_t streams);

/// "B=16x16 F=1x1 S=k:16 C={A,B} L=unroll" (names from the skeleton); with a stream nest, the
/// traversal order follows S: "S=c:16 O=c,r".
[[nodiscard]] std::string describeLayout(const Layout& layout, const Skeleton& sk);

/// Domains of the layout factors (a hints file's [domain] table, or one pinned layout). An
/// empty list means "enumerate with autopruning".
struct LayoutDomain {
  std::vector<std::vector<int>> blocks;  ///< explicit block shapes, outermost dimension first
  std::vector<std::vector<int>> folds;   ///< explicit fold shapes
  std::map<std::string, std::vector<long long>> stages;  ///< per stream loop name; 0 = not staged
  std::optional<std::vector<std::vector<std::string>>> cacheSets;  ///< explicit cached-array sets
  /// O: explicit traversal orders, each naming every stream loop in the order traversed (only
  /// loops of one perfect stream nest may trade places); empty = every permutation of each nest.
  std::vector<std::vector<std::string>> orders;
  std::vector<bool> unroll = {true};        ///< L: maximal unrolling (true) and/or none (false)
  std::vector<int> stageMultipliers = {1};  ///< each Eq. 3 suggestion × these (A22)
  int minThreads = 0;                       ///< smallest block considered; 0 = one warp
  int maxFold = 16;  ///< largest power-of-two fold per dimension (divisors are always tried)
  /// true (a pinned layout): stream loops absent from `stages` are not staged, and staging is
  /// kept even where no cached array uses it.
  bool stagesExhaustive = false;
};

}  // namespace foresight::skeleton
