// SPDX-License-Identifier: Apache-2.0
/// \file
/// `Characterizer`: GROPHECY's synthesis of a layout's workload characteristics (grophecy.md
/// §5, Eqs. 1–17 and Table 3) on one GPU. Work is split by the enumeration's dependency order:
/// the constructor analyses the skeleton once; `prepare` does everything that depends on B and F
/// only (tiles, sharing degrees Eq. 1, staging suggestions Eqs. 2–3, direct accesses Eq. 13 and
/// their coalescing); `characterize` adds S, O, C and L (Eqs. 4–12, 14–17). Coalescing uses the
/// memory module's rule for the GPU generation (CC 1.0/1.1, CC 1.2/1.3, 32-byte sectors).
///
/// Example (grophecy.md §10.3, MatMul 800×400×800, B = 16×16, A and B cached, s_k = 16, FX5600):
///   Blocks 2500, shared 2048 B/block, NumStages 25, Coal_Mem_insts 51, Uncoal 0,
///   Comp_insts 2281 (functional 1206 + shared loads 800 + loops 125 + data preparation 100 +
///   synchronisation 50), Total_insts 2332, Load_bytes_per_warp 128.
#pragma once

#include <memory>
#include <vector>

#include "foresight/frontend/skeleton/layout.h"
#include "foresight/frontend/skeleton/skeleton.h"
#include "foresight/gpu/gpu.h"
#include "foresight/ir/counted_streams.h"
#include "foresight/support/error.h"

namespace foresight::skeleton {

/// Table 3: peripheral-instruction constants, plus the per-thread overhead of A12. The paper's
/// values were found empirically on CC 1.x PTX; `peripheralCostsFor` is the one place to give a
/// GPU family other values, and a hints file's [peripheral] table overrides them per run.
struct PeripheralCosts {
  int unrollGroup = 16;             ///< iterations per unrolled group ("No. of loops to unroll")
  double perBranch = 3;             ///< per conditional branch
  double perLoopIteration = 5;      ///< loop management per iteration of a non-unrolled loop
  double perCachingInst = 2;        ///< data preparation per caching memory instruction
  double perUncoalescedAccess = 4;  ///< index calculation per uncoalesced memory instruction
  double perThreadOverhead = 0;     ///< A12: fixed instructions per thread, not multiplied by F
};

/// Table 3 for a GPU: the paper's constants for every family today (no other calibration has
/// been published); override here when one is measured.
[[nodiscard]] PeripheralCosts peripheralCostsFor(const Gpu& gpu);

/// Options of the characterizer.
struct CharacterizerOptions {
  PeripheralCosts costs;
  /// Warps averaged when a sample file drives an indirect access's coalescing (§5.9).
  int sampleWarps = 16;
};

/// What `prepare` computed for one (B, F); opaque outside the characterizer.
struct PreparedShape;

/// The layout-independent analysis of one skeleton on one GPU. It caches intermediate results, so
/// one Characterizer must not be used by several threads at once (create one per thread).
class Characterizer {
 public:
  /// Errors when an element size is not 1, 2, 4, 8 or 16 bytes (no coalescing rule applies).
  static Expected<Characterizer> create(const Skeleton& sk, const Gpu& gpu,
                                        const CharacterizerOptions& options);
  Characterizer(Characterizer&&) noexcept;
  Characterizer& operator=(Characterizer&&) noexcept;
  ~Characterizer();

  /// Everything that depends on B and F only. `block` and `fold` have one entry per parallel
  /// dimension.
  [[nodiscard]] std::shared_ptr<const PreparedShape> prepare(const std::vector<int>& block,
                                                             const std::vector<int>& fold) const;

  /// ShrDegree(D) (Eq. 1) of every array for a prepared shape; > 1 means cacheable.
  [[nodiscard]] const std::vector<double>& sharingDegrees(const PreparedShape& shape) const;
  /// Bit set of the cacheable arrays (ShrDegree > 1 and referenced).
  [[nodiscard]] std::uint64_t cacheable(const PreparedShape& shape) const;
  /// Eq. 3 staging suggestions for each stream loop (in Skeleton order), from the cacheable
  /// arrays it references; empty when nothing in the loop can be cached.
  [[nodiscard]] const std::vector<std::vector<long long>>& stageSuggestions(
      const PreparedShape& shape) const;
  /// The same under a traversal order O (Layout::order; empty = skeleton order): the enclosing
  /// stream loops of a loop in a permuted nest change, and with them Eq. 2's one-iteration tile.
  [[nodiscard]] const std::vector<std::vector<long long>>& stageSuggestions(
      const PreparedShape& shape, const std::vector<int>& order) const;
  /// Bit set of arrays referenced inside each stream loop (in Skeleton order).
  [[nodiscard]] const std::vector<std::uint64_t>& arraysInStream(const PreparedShape& shape) const;

  /// The full statistics of a layout whose B and F were prepared. With `globals`, also lists
  /// every global-memory statement (for lowering to KernelIR).
  [[nodiscard]] LayoutStats characterize(const PreparedShape& shape, const Layout& layout,
                                         std::vector<GlobalAccess>* globals = nullptr) const;

  /// Lane byte addresses of the first warp of an interior block for access statement `access`
  /// (statement order of the skeleton), as used for coalescing; for lowering and tests.
  [[nodiscard]] std::vector<long long> laneAddresses(const PreparedShape& shape, int access) const;

  /// The addresses of the global statements `characterize` listed for a layout (`globals`,
  /// same order = the AccessAddresses statement ids), for any warp of its launch (launchOf):
  /// the bounded regular sections of each statement under the thread mapping, walked element
  /// by element (docs/skeleton-model.md, "Addresses"). Arrays get distinct synthetic bases,
  /// (ordinal + 1) << 40. The result owns its own copy of the skeleton.
  [[nodiscard]] std::shared_ptr<const AccessAddresses> addresses(const PreparedShape& shape, const Layout& layout,
                                                                 const std::vector<GlobalAccess>& globals) const;

  /// Stream loop variables in skeleton order (the order of Layout::stage).
  [[nodiscard]] const std::vector<int>& streams() const;
  [[nodiscard]] const Skeleton& skeleton() const;
  [[nodiscard]] const Gpu& gpu() const;

 private:
  friend class SkeletonAddresses;
  struct Impl;
  explicit Characterizer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace foresight::skeleton
