// SPDX-License-Identifier: Apache-2.0
/// \file
/// The memory-hierarchy engine (hierarchy.h): sampled block streams → L1 (per SM) and L2
/// (chip-wide) reuse distances → where each site's sectors are served, DRAM traffic and the
/// launch's footprint.
#include "foresight/memory/hierarchy.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <climits>
#include <cmath>
#include <deque>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "foresight/gpu/occupancy.h"
#include "foresight/ir/warp_stream.h"
#include "foresight/memory/bank_conflicts.h"
#include "foresight/memory/coalescing.h"
#include "foresight/memory/reuse_distance.h"
#include "foresight/memory/summarize.h"
#include "foresight/support/parallel.h"
#include "foresight/support/radix_sort.h"

namespace foresight {

namespace {

/// Grids of at most this many blocks are analysed block by block, exactly.
constexpr long long kExactBlocks = 8;
/// Accesses and lane addresses of the blocks fetched for a sampled grid kept at most (32 MiB of
/// addresses); beyond, the oldest are evicted and fetched again if visited again.
constexpr long long kKeptBlockItems = 1LL << 22;

/// Distinct lines of `sectorsPerLine` sectors among a request's sectors (ascending, distinct).
long long distinctLines(const std::vector<long long>& sectors, long long sectorsPerLine) {
  // A power of two (every GPU described) takes the line by an arithmetic shift, which rounds
  // down for negative sectors as unitOf() does: the engine calls this for every sampled access.
  const int shift = sectorsPerLine > 0 && (sectorsPerLine & (sectorsPerLine - 1)) == 0
                        ? std::countr_zero(static_cast<unsigned long long>(sectorsPerLine))
                        : -1;
  long long lines = 0, line = 0;
  for (long long sec : sectors) {
    const long long l = shift >= 0 ? sec >> shift : unitOf(sec, sectorsPerLine);
    if (lines > 0 && l == line) continue;  // ascending: still in the current line
    ++lines;
    line = l;
  }
  return lines;
}

/// L1 wavefronts of a request known only by its sector count `n`: a coalesced request's sectors
/// are consecutive (a line per `sectorsPerLine`); any other takes a line per sector.
double patternWavefronts(double n, bool coalesced, double sectorsPerLine) {
  return coalesced ? std::ceil(n / sectorsPerLine) : n;
}

/// Hit share of a site a view's spatial sample kept none of. A sample keeps whole regions, so a
/// site whose data spans few regions (a small table every warp reads: `centres[c * F + f]`,
/// stencil coefficients) may have none kept, and it would count as missing every time: a 2.7 KB
/// table read from DRAM at every access. Such a site's touches are spread over the view (every
/// warp reads it), so between two touches of one of its sectors the view makes about
/// `viewSectors` × distinct / `siteSectors` sector accesses; when that is below the cache's
/// `capacitySectors`, no LRU eviction can come between them (the distinct sectors in between
/// are at most the accesses), and only each sector's first touch misses. `extent` (lowest and
/// highest sector touched) bounds the distinct sectors, or `counted` gives them (a tile's rows far
/// apart: the extent counts the gaps). Nothing (no estimate: the site stays all misses) when the
/// bound does not hold or the site has no sectors of known address.
std::optional<double> residentHitShare(double siteSectors, std::pair<long long, long long> extent, double viewSectors,
                                       double capacitySectors, std::optional<double> counted = std::nullopt) {
  if (!(siteSectors > 0) || extent.first > extent.second) return std::nullopt;
  const double distinct =
      std::min({siteSectors, static_cast<double>(extent.second - extent.first + 1), counted.value_or(siteSectors)});
  if (!(viewSectors * distinct / siteSectors < capacitySectors)) return std::nullopt;
  return 1.0 - distinct / siteSectors;
}

/// Sector accesses analysed for L2 at most (spatial sampling keeps a share of the sectors).
constexpr long long kSampledAccesses = 1 << 17;
/// Room for the sample of a view that would generate `expected` sector accesses unsampled: the
/// kept ones are about min(expected, kSampledAccesses), with a margin for the hash's noise.
size_t sampleCapacity(double expected) {
  return static_cast<size_t>(1.25 * std::min(std::max(expected, 0.0), static_cast<double>(kSampledAccesses)));
}
/// Lane addresses generated for the L2 window at most (extrapolated blocks).
constexpr long long kGeneratedLanes = 1LL << 25;
/// Dynamic instructions the frontend may run for the chip-wide sample (exact blocks).
constexpr double kExactInstructions = 2e6;
/// A warp whose stream is longer than this many instructions is analysed from a systematic
/// sample of it (kWarpWindow-long windows, one in the middle of each equal stratum: the
/// scheme of WarpStreamSource::sampled), so that the engine's work does not grow with the trip
/// counts of the kernel's loops.
constexpr long long kWarpInstructions = 1 << 15;
constexpr long long kWarpWindow = 1 << 13;

bool isGlobalLike(MemorySpace s) {
  return s == MemorySpace::Global || s == MemorySpace::Local || s == MemorySpace::Texture;
}

/// An atomic read-modify-write by its opcode: SASS RED/REDG/ATOM/ATOMG, PTX red.*/atom.* (the
/// memory space is checked apart: shared atomics are ATOMS / atom.shared).
bool isAtomicOpcode(const std::string& opcode) {
  const std::string head = opcode.substr(0, opcode.find('.'));
  return head == "RED" || head == "REDG" || head == "ATOM" || head == "ATOMG" || head == "red" || head == "atom";
}

/// An atomic f32 add (SASS RED.E.ADD.F32..., PTX red.global.add.f32; each spells its opcodes in
/// one case): the L2 applies these more slowly than integer adds (the atomics floor's two times).
bool isFloatAddAtomic(const std::string& opcode) {
  return opcode.find(".ADD.F32") != std::string::npos || opcode.find(".add.f32") != std::string::npos;
}

/// Distinct atomic addresses counted at most; beyond, the hottest address is not looked for
/// (a scattered atomic pattern, which no single address serialises).
constexpr size_t kMaxAtomicAddresses = 1 << 20;

/// One memory access of a warp: its site and the lane addresses (empty = unknown). An access
/// of a sampled warp (longer than kWarpInstructions) also says where it lies in the warp's full
/// stream, which window of the sample it belongs to and how many accesses it stands for.
struct WarpAccess {
  int site = 0;
  std::vector<long long> lanes;
  double at = -1;      ///< position in the full stream, in [0, 1); -1: a whole stream (index / count)
  double weight = 1;   ///< accesses of the full stream it stands for (the window's stratum / length)
  int window = -1;     ///< window of the sample; -1: a whole stream
  bool warm = false;   ///< first half of its window: it only warms the caches (not counted)
  /// Partially written sectors of a store with known lanes (partialSectors()); -1 otherwise.
  int partialSectors = -1;
  /// Data-stage wavefronts of a load with known lanes through an L1 with a tag stage
  /// (countBankConflicts() on its banks); -1 otherwise.
  int bankWavefronts = -1;
};

/// The sector number seen by the reuse analysis: sectors of different windows of a sampled
/// stream are kept apart (each window starts cold; a reuse across the unsampled gap between
/// two windows cannot be measured, so none is assumed).
long long windowUnit(long long sector, int window) {
  return window < 0 ? sector : sector + (static_cast<long long>(window + 1) << 52);
}

/// The global/local/texture accesses of one warp, in order.
using WarpAccesses = std::vector<WarpAccess>;

/// Static facts of an access site.
struct Site {
  int block = 0, index = 0;
  const MemoryAccess* access = nullptr;
};

/// Spatial sampling (SHARDS-like): a sector is analysed iff a hash of its region (kRegionShift)
/// falls below `rate`, so every sector is kept with probability `rate` and the sectors of a
/// region together; reuse distances, capacities and distinct counts then all scale by the
/// sample's rate (SampleTally). Whole regions cost one hash for the consecutive sectors of a
/// warp access.
constexpr int kRegionShift = 3;  // 8 sectors: 256 B

/// The region's hash, uniform over 64 bits.
unsigned long long regionHash(long long region) {
  unsigned long long h = static_cast<unsigned long long>(region) * 0x9E3779B97F4A7C15ULL;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 29;
  return h;
}

/// Which regions a rate keeps: those whose hash h has double(h) < rate · (2^64 − 1). The
/// conversion to double is monotone, so they are the hashes below one integer threshold, found
/// once per rate by bisection; the test per region is then one integer compare.
class RegionSampler {
 public:
  explicit RegionSampler(double rate) : all_(rate >= 1) {
    if (all_) return;
    const double limit = rate * 18446744073709551615.0;
    // The least h with double(h) >= limit (double(2^64 − 1) = 2^64 exceeds it for rate < 1);
    // every hash below it is kept.
    unsigned long long lo = 0, hi = ~0ULL;
    while (lo < hi) {
      const unsigned long long mid = lo + (hi - lo) / 2;
      if (static_cast<double>(mid) >= limit) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    threshold_ = lo;
  }
  [[nodiscard]] bool keeps(long long region) const { return all_ || regionHash(region) < threshold_; }

 private:
  bool all_;
  unsigned long long threshold_ = 0;
};


/// Sector accesses a spatially sampled analysis generated and kept, loads and stores apart.
/// Their ratio is the sample's actual rate (SHARDS' adjustment): scaling counts by it rather
/// than by the nominal rate removes the noise of how many sectors happened to be kept, and the
/// scaled-up counts are exact for streams that touch each sector equally often.
struct SampleTally {
  double loadAll = 0, loadKept = 0, storeAll = 0, storeKept = 0;

  void generated(bool store, size_t n) { (store ? storeAll : loadAll) += static_cast<double>(n); }
  void kept(bool store) { ++(store ? storeKept : loadKept); }
  void add(const SampleTally& o) {
    loadAll += o.loadAll;
    loadKept += o.loadKept;
    storeAll += o.storeAll;
    storeKept += o.storeKept;
  }
  /// kept / generated; the nominal rate when nothing was generated or kept.
  [[nodiscard]] double rate(double nominal) const { return ratio(loadKept + storeKept, loadAll + storeAll, nominal); }
  /// Share of the distinct sectors that are written, each class scaled by its own actual rate.
  [[nodiscard]] double writtenShare(double distinctRead, double distinctWritten, double nominal) const {
    const double read = distinctRead / ratio(loadKept, loadAll, nominal);
    const double written = distinctWritten / ratio(storeKept, storeAll, nominal);
    return read + written > 0 ? written / (read + written) : 0;
  }

 private:
  static double ratio(double kept, double all, double nominal) { return all > 0 && kept > 0 ? kept / all : nominal; }
};

/// Streams of any block of the launch: exact from the frontend for a few blocks, the rest by
/// affine extrapolation in (blockIdx.x, .y, .z) from a base block in the middle of the grid and
/// its neighbours, when a check block's exact streams agree with it.
class BlockStreams {
 public:
  /// `l1Banks`: the banks of an L1 with a tag stage, whose loads' bank wavefronts the views
  /// need (WarpAccess::bankWavefronts); none otherwise.
  BlockStreams(const KernelIR& ir, const Launch& launch, int warpsPerBlock,
               const std::map<std::pair<int, int>, int>& siteOf, std::vector<int> siteWidth, long long sectorBytes,
               std::optional<BankOptions> l1Banks)
      : ir_(ir), launch_(launch), warps_(warpsPerBlock), siteOf_(siteOf), siteWidth_(std::move(siteWidth)),
        sectorBytes_(sectorBytes), l1Banks_(l1Banks) {}

  long long linear(long long x, long long y, long long z) const {
    return x + launch_.grid.x * (y + launch_.grid.y * z);
  }

  Expected<const std::vector<WarpAccesses>*> exact(long long block) {
    auto it = exact_.find(block);
    if (it != exact_.end()) return &it->second;
    // A block fetched again after its eviction runs the same again; the frontend's cost is
    // counted once (the views size their samples by it).
    const bool first = fetched_.insert(block).second;
    std::vector<WarpAccesses> warps(static_cast<size_t>(warps_));
    StreamSampling sampling;
    sampling.budget = kWarpInstructions;
    sampling.window = kWarpWindow;
    // The frontend runs the block's warps side by side, eight at a time (their streams held
    // until read); they are read in warp order.
    std::optional<Error> failed;
    parallelInOrder(
        static_cast<size_t>(warps_), 8,
        [&](std::size_t w) { return ir_.streams->sampled(block, static_cast<int>(w), sampling); },
        [&](std::size_t w, Expected<SampledStream>& s) {
          if (!s) {
            failed = std::move(s).takeError();
            return false;
          }
          if (first) instructionsFetched_ += static_cast<long long>(s->instructions.size());
          const bool windowed = s->windows.size() > 1 || (s->windows.size() == 1 && s->windows[0].weight != 1);
          windowed_ = windowed_ || windowed;
          // Each instruction's site (-1: none, or predicated off in every lane: it issues but
          // requests nothing), so that the warp's accesses are allocated once.
          siteBuf_.assign(s->instructions.size(), -1);
          size_t accesses = 0;
          for (const StreamWindow& win : s->windows) {
            for (size_t j = win.begin; j < win.end && j < s->instructions.size(); ++j) {
              const DynamicInstruction& d = s->instructions[j];
              if (d.activeMask == 0) continue;
              if (auto site = siteOf_.find({d.block, d.index}); site != siteOf_.end()) {
                siteBuf_[j] = site->second;
                ++accesses;
              }
            }
          }
          warps[static_cast<size_t>(w)].reserve(accesses);
          for (size_t k = 0; k < s->windows.size(); ++k) {
            const StreamWindow& win = s->windows[k];
            for (size_t j = win.begin; j < win.end && j < s->instructions.size(); ++j) {
              if (siteBuf_[j] < 0) continue;
              DynamicInstruction& d = s->instructions[j];
              const MemoryAccess& m = *ir_.blocks[d.block].instructions[d.index].memory;
              WarpAccess a;
              a.site = siteBuf_[j];
              if (!d.laneAddresses.empty()) {
                a.lanes = std::move(d.laneAddresses);
              } else if (!m.dataDependent) {
                // The static representative addresses, for the lanes that execute.
                a.lanes = m.laneAddresses;
                for (size_t l = 0; l < a.lanes.size() && l < 32; ++l) {
                  if (!(d.activeMask >> l & 1)) a.lanes[l] = -1;
                }
              }
              // Computed here, once per fetched access: shifted blocks reuse it, and the views that
              // read it may run on several threads.
              if (m.isStore && !a.lanes.empty()) a.partialSectors = partialSectors(a.lanes, m.widthBytes, sectorBytes_);
              if (!m.isStore && !a.lanes.empty() && l1Banks_) {
                // Shift-invariant: moving every lane by whole words rotates the banks.
                if (Expected<BankConflicts> bc = countBankConflicts(a.lanes, m.widthBytes, *l1Banks_)) a.bankWavefronts = bc->wavefronts;
              }
              if (windowed) {
                a.at = (win.origin + static_cast<double>(j - win.begin) + 0.5) / std::max(1.0, s->fullLength);
                a.weight = win.weight;
                a.window = static_cast<int>(k);
                a.warm = 2 * (j - win.begin) < win.end - win.begin;
              }
              warps[static_cast<size_t>(w)].push_back(std::move(a));
            }
          }
          return true;
        });
    if (failed) return std::move(*failed);
    if (first) ++exactFetched_;
    return keep(block, std::move(warps));
  }

  /// Decides whether affine extrapolation holds: fetches the base blocks — the middle of the
  /// grid and its neighbours in x, y and z (typical blocks, away from the grid's edges) — and
  /// a check block a quarter of the way in, and compares the check block's exact accesses with
  /// the extrapolated ones (same sites and lanes for ≥ 99 % of the common prefix, lengths
  /// within 20 %: grid-stride loops give edge blocks one iteration more or less).
  Expected<bool> prepareAffine() {
    Expected<bool> affine = decideAffine();
    evictable_ = true;  // the blocks fetched so far (base and check blocks) stay
    return affine;
  }

  /// Calls `visit(warp, i, accessesOfWarp, access, sectors)` for the accesses of block (x, y, z), warp by warp
  /// in stream order, that `want(warp, i, accessesOfWarp)` selects: `sectors` are the sectors
  /// its lanes touch (ascending, distinct), null when its addresses are unknown. Extrapolated blocks are not
  /// materialized: an access whose lanes all move by the same bytes per block step (the usual
  /// case) is the base block's sectors shifted when the shift is a whole number of sectors, and
  /// its lanes are extrapolated one access at a time otherwise (extrapolateLanes()). Other
  /// blocks run exactly.
  template <class Want, class Visit>
  Expected<void> forEachAccess(long long x, long long y, long long z, Want&& want, Visit&& visit) {
    long long coord[3];
    bool shifted = false;
    Expected<const std::vector<WarpAccesses>*> src = sourceOf(x, y, z, coord, shifted);
    if (!src) return std::move(src).takeError();
    const std::vector<WarpAccesses>* source = *src;
    std::vector<long long> sectors, lanes;  // per call: views may run on several threads
    for (size_t w = 0; w < source->size(); ++w) {
      const WarpAccesses& wa = (*source)[w];
      for (size_t i = 0; i < wa.size(); ++i) {
        if (!want(w, i, wa.size())) continue;
        const WarpAccess& a = wa[i];
        if (a.lanes.empty()) {
          visit(w, i, wa.size(), a, static_cast<const std::vector<long long>*>(nullptr));
          continue;
        }
        if (shifted) {
          shiftedSectors(w, i, coord, sectors, lanes);
        } else {
          touchedSectors(a.lanes, siteWidth_[static_cast<size_t>(a.site)], sectorBytes_, sectors);
        }
        visit(w, i, wa.size(), a, &sectors);
      }
    }
    return {};
  }

  /// Calls `visit(access, lanes)` for the accesses of block (x, y, z) with known addresses at the
  /// sites that `want(site)` selects, with their lane addresses (extrapolated from the base
  /// block as forEachAccess() does, exact for blocks that run exactly).
  template <class Want, class Visit>
  Expected<void> forEachLanes(long long x, long long y, long long z, Want&& want, Visit&& visit) {
    long long coord[3];
    bool shifted = false;
    Expected<const std::vector<WarpAccesses>*> src = sourceOf(x, y, z, coord, shifted);
    if (!src) return std::move(src).takeError();
    std::vector<long long> lanes;
    for (size_t w = 0; w < (*src)->size(); ++w) {
      const WarpAccesses& wa = (**src)[w];
      for (size_t i = 0; i < wa.size(); ++i) {
        const WarpAccess& a = wa[i];
        if (a.lanes.empty() || !want(a.site)) continue;
        if (!shifted) {
          visit(a, a.lanes);
          continue;
        }
        extrapolateLanes(w, i, coord, lanes);
        visit(a, lanes);
      }
    }
    return {};
  }

  /// Per site, the lowest and highest byte that any block of the grid touches, in the engine's
  /// own model of the addresses: the base block's lanes extrapolated to the corners of the grid
  /// (an affine function of the block index is extreme at a corner of the grid's box), plus
  /// the blocks run exactly; or every block when each runs exactly. False when unknown: warps
  /// analysed from windows (the unsampled stretches are not seen), unknown addresses, blocks
  /// run exactly but not all of them, or an extrapolated lane that would go below 0 (clamped).
  bool byteHulls(const Dim3& grid, std::vector<std::pair<long long, long long>>& hull) {
    hull.assign(siteWidth_.size(), {LLONG_MAX, LLONG_MIN});
    if (windowed_) return false;
    // Without extrapolation only a grid that ran whole has hulls (checked before the scan).
    if (!affine_ && (launch_.blocks() > kExactBlocks || static_cast<long long>(exact_.size()) != launch_.blocks())) return false;
    auto widen = [&](const WarpAccess& a, long long lo, long long hi) {
      auto& h = hull[static_cast<size_t>(a.site)];
      h.first = std::min(h.first, lo);
      h.second = std::max(h.second, hi + siteWidth_[static_cast<size_t>(a.site)] - 1);
    };
    auto exactHull = [&](const std::vector<WarpAccesses>& ws) {
      for (const WarpAccesses& wa : ws) {
        for (const WarpAccess& a : wa) {
          if (a.lanes.empty()) return false;
          for (long long l : a.lanes) {
            if (l >= 0) widen(a, l, l);
          }
        }
      }
      return true;
    };
    for (const auto& [block, ws] : exact_) {
      if (!exactHull(ws)) return false;
    }
    if (!affine_) return launch_.blocks() <= kExactBlocks && static_cast<long long>(exact_.size()) == launch_.blocks();
    const long long dims[3] = {grid.x, grid.y, grid.z};
    for (int d = 0; d < 3; ++d) {
      if (dims[d] > 1 && !dimOk_[d]) return false;
    }
    for (size_t w = 0; w < base_[0]->size(); ++w) {
      for (size_t i = 0; i < (*base_[0])[w].size(); ++i) {
        const WarpAccess& a = (*base_[0])[w][i];
        if (a.lanes.empty()) return false;
        for (size_t l = 0; l < a.lanes.size(); ++l) {
          if (a.lanes[l] < 0) continue;
          long long lo = a.lanes[l], hi = a.lanes[l];
          for (int d = 0; d < 3; ++d) {
            if (dims[d] < 2) continue;
            const long long delta = (*base_[d + 1])[w][i].lanes[l] - a.lanes[l];
            const long long first = -origin_[d] * delta, last = (dims[d] - 1 - origin_[d]) * delta;
            lo += std::min(first, last);
            hi += std::max(first, last);
          }
          if (lo < 0) return false;
          widen(a, lo, hi);
        }
      }
    }
    return true;
  }

  [[nodiscard]] bool affine() const { return affine_; }
  /// Whether visiting any block fetches nothing more: every block is the base block shifted
  /// (extrapolation holds in each dimension the grid extends in) or one fetched already.
  [[nodiscard]] bool fetchesNothing() const {
    const long long dims[3] = {launch_.grid.x, launch_.grid.y, launch_.grid.z};
    for (int d = 0; d < 3; ++d) {
      if (dims[d] > 1 && !dimOk_[d]) return false;
    }
    return affine_;
  }
  /// Whether some fetched warp was longer than kWarpInstructions (analysed from windows).
  [[nodiscard]] bool windowed() const { return windowed_; }
  [[nodiscard]] int exactFetched() const { return exactFetched_; }
  /// Dynamic instructions the frontend ran for the exact blocks so far (its cost).
  [[nodiscard]] long long instructionsFetched() const { return instructionsFetched_; }
  /// Whether every access a visit can yield has known lanes and a whole weight: what the views
  /// add up per access is then a whole number, so sums over blocks are exact in any grouping.
  /// Only meaningful when fetchesNothing() (every visited block is a kept one, or the base
  /// block shifted).
  [[nodiscard]] bool integralWeights() const {
    for (const auto& [block, warps] : exact_) {
      for (const WarpAccesses& w : warps) {
        for (const WarpAccess& a : w) {
          if (a.lanes.empty() || a.weight != std::floor(a.weight)) return false;
        }
      }
    }
    return true;
  }
  /// Whether block (x, y, z) is the base block shifted (as forEachAccess() takes it) with every
  /// access's sectors the base's moved by a whole number of sectors (shiftedSectors()'s first
  /// case); then `by[c]` is the sectors the accesses of shift class c move by.
  [[nodiscard]] bool wholeSectorShifts(long long x, long long y, long long z, std::vector<long long>& by) const {
    if (!affine_) return false;
    const long long coord[3] = {x - origin_[0], y - origin_[1], z - origin_[2]};
    for (int d = 0; d < 3; ++d) {
      if (coord[d] != 0 && !dimOk_[d]) return false;
    }
    if (exact_.count(linear(x, y, z))) return false;
    by.resize(classes_.size());
    for (size_t c = 0; c < classes_.size(); ++c) {
      const ShiftClass& k = classes_[c];
      long long bytes = 0;
      for (int d = 0; d < 3; ++d) {
        if (coord[d] == 0) continue;
        bytes += coord[d] * k.delta[d];
        // The class's lowest lane staying at or above 0 keeps every member's (the clamp of
        // extrapolateLanes() never acts).
        if (!k.uniform[d] || k.minLane + bytes < 0) return false;
      }
      if (bytes % sectorBytes_ != 0) return false;
      by[c] = bytes / sectorBytes_;
    }
    return true;
  }
  [[nodiscard]] size_t shiftClasses() const { return classes_.size(); }
  /// The base block's accesses (the source of every shifted block), and per access its
  /// sectors and shift class.
  [[nodiscard]] const std::vector<WarpAccesses>& baseBlock() const { return *base_[0]; }
  [[nodiscard]] const std::vector<long long>& baseSectors(size_t w, size_t i) const { return shifts_[w][i].sectors; }
  [[nodiscard]] int shiftClass(size_t w, size_t i) const { return shifts_[w][i].shiftClass; }

  /// Accesses of the base block (the size of one block's sample).
  [[nodiscard]] long long baseAccesses() const {
    long long n = 0;
    if (base_[0]) {
      for (const WarpAccesses& w : *base_[0]) n += static_cast<long long>(w.size());
    }
    return n;
  }

 private:
  /// Fetches the base and check blocks and decides whether affine extrapolation holds
  /// (prepareAffine()).
  Expected<bool> decideAffine() {
    const Dim3 g = launch_.grid;
    if (launch_.blocks() <= kExactBlocks) {
      // Every block runs exactly; block 0 is the base that sizes the samples (baseAccesses()).
      Expected<const std::vector<WarpAccesses>*> b0 = exact(0);
      if (!b0) return std::move(b0).takeError();
      base_[0] = *b0;
      return affine_ = false;
    }
    const long long dims[3] = {g.x, g.y, g.z};
    for (int d = 0; d < 3; ++d) origin_[d] = dims[d] >= 2 ? (dims[d] - 1) / 2 : 0;
    Expected<const std::vector<WarpAccesses>*> b0 = exact(linear(origin_[0], origin_[1], origin_[2]));
    if (!b0) return std::move(b0).takeError();
    base_[0] = *b0;
    for (int d = 0; d < 3; ++d) {
      if (dims[d] < 2) continue;
      long long c[3] = {origin_[0], origin_[1], origin_[2]};
      ++c[d];
      Expected<const std::vector<WarpAccesses>*> b = exact(linear(c[0], c[1], c[2]));
      if (!b) return std::move(b).takeError();
      base_[d + 1] = *b;
    }
    checkDims();
    const long long cx = g.x / 4, cy = g.y / 4, cz = g.z / 4;
    const long long check = linear(cx, cy, cz);
    if (exact_.count(check)) return affine_ = false;
    Expected<const std::vector<WarpAccesses>*> c = exact(check);
    if (!c) return std::move(c).takeError();
    // The check block's accesses against the base block's extrapolated to it, one access at a
    // time (extrapolateLanes(); the base blocks must agree in each dimension it moves along).
    const long long coord[3] = {cx - origin_[0], cy - origin_[1], cz - origin_[2]};
    for (int d = 0; d < 3; ++d) {
      if (coord[d] != 0 && !dimOk_[d]) return affine_ = false;
    }
    const std::vector<WarpAccesses>& base = *base_[0];
    long long agree = 0, common = 0;
    bool lengthsClose = true;
    std::vector<long long> lanes;
    for (size_t w = 0; w < base.size(); ++w) {
      const WarpAccesses& p = base[w];
      const WarpAccesses& e = (**c)[w];
      const size_t n = std::min(p.size(), e.size());
      lengthsClose = lengthsClose && 5 * std::max(p.size(), e.size()) <= 6 * std::max<size_t>(1, n);
      common += static_cast<long long>(n);
      for (size_t i = 0; i < n; ++i) {
        if (p[i].site != e[i].site) continue;
        extrapolateLanes(w, i, coord, lanes);
        agree += lanes == e[i].lanes;
      }
    }
    affine_ = lengthsClose && agree * 100 >= common * 99;
    if (affine_) prepareShifts();
    return affine_;
  }

  /// Stores a fetched block's accesses. Those of grids analysed from a sample of blocks stay
  /// within kKeptBlockItems (the oldest evicted first; the base and check blocks always stay): a
  /// block is rarely visited twice, and keeping every one made long warps' lane addresses
  /// (matmul_naive_1d: 1 M per block) grow to hundreds of MB, first-touched page by page.
  const std::vector<WarpAccesses>* keep(long long block, std::vector<WarpAccesses> warps) {
    long long items = 0;
    for (const WarpAccesses& w : warps) {
      for (const WarpAccess& a : w) items += 1 + static_cast<long long>(a.lanes.size());
    }
    if (evictable_ && launch_.blocks() > kExactBlocks) {
      while (!evictOrder_.empty() && keptItems_ + items > kKeptBlockItems) {
        exact_.erase(evictOrder_.front().first);
        keptItems_ -= evictOrder_.front().second;
        evictOrder_.pop_front();
      }
      evictOrder_.push_back({block, items});
      keptItems_ += items;
    }
    return &exact_.emplace(block, std::move(warps)).first->second;
  }

  /// The accesses of block (x, y, z): the base block's, to be shifted to `coord` (its offset from
  /// the base block) when extrapolation holds there (`shifted`), else the block's exact run.
  Expected<const std::vector<WarpAccesses>*> sourceOf(long long x, long long y, long long z, long long coord[3],
                                                      bool& shifted) {
    coord[0] = x - origin_[0];
    coord[1] = y - origin_[1];
    coord[2] = z - origin_[2];
    shifted = affine_ && !exact_.count(linear(x, y, z)) && (coord[0] == 0 || dimOk_[0]) &&
              (coord[1] == 0 || dimOk_[1]) && (coord[2] == 0 || dimOk_[2]);
    if (shifted) return base_[0];
    return exact(linear(x, y, z));
  }

  /// The sectors of access i of warp w of the block at `coord` from the base block (into
  /// `sectors`): its sectors shifted when its lanes move uniformly by whole sectors, else its
  /// lanes extrapolated (into `lanes`, scratch).
  void shiftedSectors(size_t w, size_t i, const long long coord[3], std::vector<long long>& sectors,
                      std::vector<long long>& lanes) const {
    const WarpAccess& a = (*base_[0])[w][i];
    const Shift& sh = shifts_[w][i];
    // extrapolateLanes() adds the dimensions in turn and clamps each partial sum at 0: the shift
    // holds when no active lane goes below 0 on the way.
    long long bytes = 0;
    bool uniform = true;
    for (int d = 0; d < 3; ++d) {
      if (coord[d] == 0) continue;
      bytes += coord[d] * sh.delta[d];
      uniform = uniform && sh.uniform[d] && sh.minLane + bytes >= 0;
    }
    if (uniform && bytes % sectorBytes_ == 0) {
      sectors.resize(sh.sectors.size());
      const long long by = bytes / sectorBytes_;
      for (size_t k = 0; k < sh.sectors.size(); ++k) sectors[k] = sh.sectors[k] + by;
    } else {
      extrapolateLanes(w, i, coord, lanes);
      touchedSectors(lanes, siteWidth_[static_cast<size_t>(a.site)], sectorBytes_, sectors);
    }
  }

  /// Lanes of access i of warp w of the block at `coord` (from the base block): a0 + Δx·(ax − a0)
  /// + Δy·(ay − a0) + Δz·(az − a0) per active lane, each partial sum clamped at 0.
  void extrapolateLanes(size_t w, size_t i, const long long coord[3], std::vector<long long>& out) const {
    const WarpAccess& a = (*base_[0])[w][i];
    out = a.lanes;
    for (int d = 0; d < 3; ++d) {
      if (coord[d] == 0) continue;
      const WarpAccess& ad = (*base_[d + 1])[w][i];
      for (size_t l = 0; l < out.size(); ++l) {
        if (a.lanes[l] < 0) continue;
        out[l] = std::max(0LL, out[l] + coord[d] * (ad.lanes[l] - a.lanes[l]));
      }
    }
  }

  /// Whether extrapolation in each grid dimension holds: the neighbour in d ran the base
  /// block's accesses, at the same sites, with the same active lanes.
  void checkDims() {
    for (int d = 0; d < 3; ++d) {
      dimOk_[d] = base_[d + 1] != nullptr;
      for (size_t w = 0; dimOk_[d] && w < base_[0]->size(); ++w) {
        const WarpAccesses& a0 = (*base_[0])[w];
        const WarpAccesses& ad = (*base_[d + 1])[w];
        dimOk_[d] = a0.size() == ad.size();
        for (size_t i = 0; dimOk_[d] && i < a0.size(); ++i) {
          dimOk_[d] = a0[i].site == ad[i].site && a0[i].lanes.size() == ad[i].lanes.size();
          for (size_t l = 0; dimOk_[d] && l < a0[i].lanes.size(); ++l) dimOk_[d] = (a0[i].lanes[l] < 0) == (ad[i].lanes[l] < 0);
        }
      }
    }
  }

  /// Per access of the base block: its sectors and, per grid dimension, whether all its active
  /// lanes move by one byte delta per block step (and which), for forEachAccess().
  struct Shift {
    std::vector<long long> sectors;
    long long delta[3] = {0, 0, 0};
    bool uniform[3] = {false, false, false};
    long long minLane = 0;  ///< lowest active lane address
    int shiftClass = -1;    ///< its ShiftClass (-1: unknown addresses)
  };

  void prepareShifts() {
    shifts_.assign(base_[0]->size(), {});
    classes_.clear();
    std::map<std::array<long long, 6>, size_t> classOf;
    for (size_t w = 0; w < base_[0]->size(); ++w) {
      const WarpAccesses& a0 = (*base_[0])[w];
      shifts_[w].resize(a0.size());
      for (size_t i = 0; i < a0.size(); ++i) {
        Shift& sh = shifts_[w][i];
        const WarpAccess& a = a0[i];
        if (a.lanes.empty()) continue;
        touchedSectors(a.lanes, siteWidth_[static_cast<size_t>(a.site)], sectorBytes_, sh.sectors);
        sh.minLane = LLONG_MAX;
        for (long long l : a.lanes) {
          if (l >= 0) sh.minLane = std::min(sh.minLane, l);
        }
        if (sh.minLane == LLONG_MAX) sh.minLane = 0;  // no active lane: no sector either
        for (int d = 0; d < 3; ++d) {
          if (!dimOk_[d]) continue;
          const WarpAccess& ad = (*base_[d + 1])[w][i];
          bool first = true, same = true;
          for (size_t l = 0; same && l < a.lanes.size(); ++l) {
            if (a.lanes[l] < 0) continue;
            const long long delta = ad.lanes[l] - a.lanes[l];
            same = first || delta == sh.delta[d];
            sh.delta[d] = delta;
            first = false;
          }
          sh.uniform[d] = same;
        }
        // Its class: the accesses that move alike, the lowest lane among them.
        const std::array<long long, 6> key{sh.delta[0], sh.delta[1], sh.delta[2], sh.uniform[0], sh.uniform[1], sh.uniform[2]};
        const size_t c = classOf.try_emplace(key, classes_.size()).first->second;
        if (c == classes_.size()) {
          classes_.emplace_back();
          std::copy(sh.delta, sh.delta + 3, classes_[c].delta);
          std::copy(sh.uniform, sh.uniform + 3, classes_[c].uniform);
        }
        // (An access without active lanes has no sectors wherever it moves.)
        if (!sh.sectors.empty()) classes_[c].minLane = std::min(classes_[c].minLane, sh.minLane);
        sh.shiftClass = static_cast<int>(c);
      }
    }
  }

  /// The base block's accesses that move alike from block to block (per dimension, the same
  /// byte delta and the same uniformity): a shifted block moves each class as one.
  struct ShiftClass {
    long long delta[3] = {0, 0, 0};
    bool uniform[3] = {false, false, false};
    long long minLane = LLONG_MAX;  ///< lowest active lane of its accesses
  };

  const KernelIR& ir_;
  const Launch& launch_;
  int warps_;
  const std::map<std::pair<int, int>, int>& siteOf_;
  std::map<long long, std::vector<WarpAccesses>> exact_;
  std::set<long long> fetched_;      ///< every block exact() ran, kept or not
  std::deque<std::pair<long long, long long>> evictOrder_;  ///< evictable kept blocks and their items, oldest first
  long long keptItems_ = 0;           ///< accesses and lane addresses of the evictable kept blocks
  bool evictable_ = false;            ///< blocks fetched from now on may be evicted (prepareAffine())
  const std::vector<WarpAccesses>* base_[4] = {nullptr, nullptr, nullptr, nullptr};
  std::vector<int> siteBuf_;  ///< exact(): the site of each instruction of a warp's stream
  long long origin_[3] = {0, 0, 0};
  bool affine_ = false;
  bool windowed_ = false;
  std::vector<int> siteWidth_;  ///< bytes per lane of each site
  long long sectorBytes_;
  std::optional<BankOptions> l1Banks_;
  std::vector<std::vector<Shift>> shifts_;  ///< per warp and access of the base block
  std::vector<ShiftClass> classes_;          ///< the accesses' shift classes (prepareShifts())
  bool dimOk_[3] = {false, false, false};   ///< extrapolation in each dimension holds (checkDims())
  int exactFetched_ = 0;
  long long instructionsFetched_ = 0;
};

/// Converts sampled warps into time-ordered sector accesses: a block of wave v runs from v to
/// v + 1, its warps' accesses spread evenly over that interval.
struct Timed {
  double time;
  SampledAccess access;
  double sectorsOfRequest;  ///< sectors of the full streams it stands for
  long long sector = 0;     ///< its sector (access.unit is kept apart per window)
  double extrapolate = 1;   ///< footprint: a first touch stands for this many (windowFootprint)
  bool warm = false;        ///< warms the caches only (WarpAccess::warm)
  bool firstHalf = false;   ///< in the first half of the L2 window's blocks
};
static_assert(sizeof(Timed) <= 64, "a sampled access moves as one cache line when sorted");

/// Per site of one analysis: requests, sectors with known addresses, and sectors of requests
/// with unknown addresses (transactionsPerInst), each weighted by the accesses it stands for.
struct SiteTotals {
  /// L1 wavefronts: `wavefronts` if the requests' lines miss, `hitWavefronts` if they hit
  /// (l1LoadWavefronts(); the same without a tag stage, and for stores).
  std::vector<double> requests, sectors, unknown, wavefronts, hitWavefronts, partial;
  /// Lowest and highest sector touched with known addresses: over all blocks, and over the
  /// first half of the window's (the growth per block sizes the arrays gathers spread over).
  std::vector<std::pair<long long, long long>> extent, firstHalfExtent;
  explicit SiteTotals(size_t n)
      : requests(n, 0), sectors(n, 0), unknown(n, 0), wavefronts(n, 0), hitWavefronts(n, 0), partial(n, 0),
        extent(n, {LLONG_MAX, LLONG_MIN}), firstHalfExtent(n, {LLONG_MAX, LLONG_MIN}) {}
  /// Adds the totals of later blocks (exact when every term is whole: integralWeights()).
  void add(const SiteTotals& o) {
    for (size_t s = 0; s < requests.size(); ++s) {
      requests[s] += o.requests[s];
      sectors[s] += o.sectors[s];
      unknown[s] += o.unknown[s];
      wavefronts[s] += o.wavefronts[s];
      hitWavefronts[s] += o.hitWavefronts[s];
      partial[s] += o.partial[s];
      for (auto [mine, theirs] : {std::pair{&extent[s], &o.extent[s]}, std::pair{&firstHalfExtent[s], &o.firstHalfExtent[s]}}) {
        mine->first = std::min(mine->first, theirs->first);
        mine->second = std::max(mine->second, theirs->second);
      }
    }
  }
};

/// Where the sampled sectors of one warp access come from, as Timed records them.
struct SampledOrigin {
  const WarpAccess* access = nullptr;
  double time = 0;    ///< the access's time (wave + its place in the block's interval)
  double weight = 1;  ///< accesses of the full streams it stands for
  int site = 0, cluster = 0, warp = 0;
  bool store = false, firstHalf = false;
};

/// Appends to `out` the sectors of one warp access (`sectors`, ascending, each moved by `move`)
/// whose regions `sampler` keeps, in order, counting them in `tally`.
void keepSampled(const std::vector<long long>& sectors, long long move, const SampledOrigin& o,
                 const RegionSampler& sampler, std::vector<Timed>& out, SampleTally& tally) {
  const WarpAccess& a = *o.access;
  long long region = LLONG_MIN;
  bool kept = false;
  for (const long long base : sectors) {
    const long long sec = base + move;
    if ((sec >> kRegionShift) != region) {
      region = sec >> kRegionShift;
      kept = sampler.keeps(region);
    }
    if (!kept) continue;
    tally.kept(o.store);
    SampledAccess sa;
    sa.unit = windowUnit(sec, a.window);
    sa.cluster = o.cluster;
    sa.warp = o.warp;
    sa.site = o.site;
    sa.store = o.store;
    out.push_back({o.time, sa, o.weight, sec, a.warm ? 1.0 : 2 * a.weight - 1, a.warm, o.firstHalf});
  }
}

/// The base block prepared for visiting many blocks that are it shifted by whole sectors
/// (BlockStreams::wholeSectorShifts()), as the views do. Such a block adds the same requests,
/// sectors and partial writes to the per-site totals as any other; its L1 wavefronts depend
/// only on where its lines start (the residue of each shift class's move), and its sampled
/// sectors are those of the regions (kRegionShift) the sampler keeps: one hash per distinct
/// region a shift class touches, and nothing per access unless one of its regions is kept.
/// The result is what visiting the block access by access gives: the same accesses in the same
/// order, and the same totals, all whole numbers (so that their grouping does not matter).
class ShiftedBlocks {
 public:
  /// A base-block access the views select, with what its sampled sectors carry.
  struct Access {
    size_t warp = 0, index = 0;
    int site = 0;
    bool store = false;
    double weight = 1;  ///< accesses it stands for (a whole number)
    double at = 0;      ///< its time within the block's interval
  };

  /// Whether a launch's blocks can be visited this way: a base block whose accesses all have
  /// known lanes and whole weights, lines of a power-of-two sectors no longer than a region,
  /// and few shift classes (a block costs a pass over them).
  static bool applies(const BlockStreams& streams, double sectorsPerLine) {
    if (!streams.fetchesNothing() || !streams.integralWeights() || streams.shiftClasses() > kMaxClasses) return false;
    const auto spl = static_cast<long long>(sectorsPerLine);
    return static_cast<double>(spl) == sectorsPerLine && spl >= 1 && (kRegionSectors % spl) == 0;
  }

  ShiftedBlocks(const BlockStreams& streams, std::vector<Access> accesses, size_t sites, long long sectorsPerLine,
                L1TagStage tags)
      : streams_(streams), accesses_(std::move(accesses)), sites_(sites), sectorsPerLine_(sectorsPerLine), tags_(tags),
        requests_(sites, 0), sectors_(sites, 0), partial_(sites, 0) {
    const size_t classes = streams.shiftClasses();
    std::vector<std::pair<long long, long long>> extent(classes * sites, {LLONG_MAX, LLONG_MIN});
    for (const Access& a : accesses_) {
      const std::vector<long long>& sec = streams.baseSectors(a.warp, a.index);
      const auto site = static_cast<size_t>(a.site);
      const double n = static_cast<double>(sec.size());
      requests_[site] += a.weight;
      sectors_[site] += n * a.weight;
      if (a.store) partial_[site] += streams.baseBlock()[a.warp][a.index].partialSectors * a.weight;
      (a.store ? storeSectors_ : loadSectors_) += sec.size();
      if (sec.empty()) continue;
      auto& e = extent[static_cast<size_t>(streams.shiftClass(a.warp, a.index)) * sites + site];
      e.first = std::min(e.first, sec.front());
      e.second = std::max(e.second, sec.back());
    }
    for (size_t k = 0; k < extent.size(); ++k) {
      if (extent[k].first <= extent[k].second) extents_.push_back({k / sites, k % sites, extent[k].first, extent[k].second});
    }
  }

  /// Adds block (x, y, z) to `totals`, `tally` and `out` as the views' access-by-access visit
  /// would; false (nothing added) when the block is not the base block shifted by whole sectors.
  bool collect(long long x, long long y, long long z, int cluster, int firstWarp, double wave, bool firstHalf,
               const RegionSampler& sampler, std::vector<Timed>& out, SiteTotals& totals, SampleTally& tally) const {
    thread_local std::vector<long long> by;
    thread_local std::vector<size_t> picked;
    if (!streams_.wholeSectorShifts(x, y, z, by)) return false;
    for (size_t s = 0; s < sites_; ++s) {
      totals.requests[s] += requests_[s];
      totals.sectors[s] += sectors_[s];
      totals.partial[s] += partial_[s];
    }
    tally.generated(false, loadSectors_);
    tally.generated(true, storeSectors_);
    for (const Extent& e : extents_) {
      const long long move = by[e.shiftClass];
      for (auto* t : {&totals.extent[e.site], firstHalf ? &totals.firstHalfExtent[e.site] : nullptr}) {
        if (!t) continue;
        t->first = std::min(t->first, e.lo + move);
        t->second = std::max(t->second, e.hi + move);
      }
    }
    // Per shift class: its residue's wavefronts, and the accesses of its kept regions.
    picked.clear();
    for (size_t c = 0; c < by.size(); ++c) {
      const Residue& r = residue(static_cast<int>(by[c] & (kRegionSectors - 1)));
      const long long region = by[c] >> kRegionShift;
      for (size_t s = 0; s < sites_; ++s) {
        totals.wavefronts[s] += r.wavefronts[c * sites_ + s];
        totals.hitWavefronts[s] += r.hitWavefronts[c * sites_ + s];
      }
      const std::vector<long long>& offsets = r.offsets[c];
      for (size_t j = 0; j < offsets.size(); ++j) {
        if (!sampler.keeps(offsets[j] + region)) continue;
        picked.insert(picked.end(), r.accesses[c].begin() + r.starts[c][j], r.accesses[c].begin() + r.starts[c][j + 1]);
      }
    }
    if (picked.empty()) return true;
    std::sort(picked.begin(), picked.end());
    picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
    for (const size_t k : picked) {
      const Access& a = accesses_[k];
      const SampledOrigin origin{&streams_.baseBlock()[a.warp][a.index], wave + a.at, a.weight, a.site, cluster,
                                 firstWarp + static_cast<int>(a.warp), a.store, firstHalf};
      keepSampled(streams_.baseSectors(a.warp, a.index), by[static_cast<size_t>(streams_.shiftClass(a.warp, a.index))],
                  origin, sampler, out, tally);
    }
    return true;
  }

 private:
  static constexpr long long kRegionSectors = 1LL << kRegionShift;
  static constexpr size_t kMaxClasses = 64;

  /// What depends on a shift's residue q (its sectors mod kRegionSectors), per shift class:
  /// the distinct regions its accesses touch, relative to the shift's whole regions
  /// ((sector + q) >> kRegionShift), with the accesses touching each; and per site the L1
  /// wavefronts of its accesses (lines start at the same sectors for every shift of residue q,
  /// as a line divides a region).
  struct Residue {
    std::vector<std::vector<long long>> offsets;    ///< [class] ascending, distinct
    std::vector<std::vector<size_t>> starts;        ///< [class] CSR into accesses, offsets.size() + 1
    std::vector<std::vector<size_t>> accesses;      ///< [class] access indices per offset, ascending
    std::vector<double> wavefronts, hitWavefronts;  ///< [class · sites + site]: SiteTotals' two
  };
  struct Extent {
    size_t shiftClass, site;
    long long lo, hi;  ///< lowest and highest sector of the class's accesses at the site
  };

  /// Built on first use; views on several threads may ask at once.
  const Residue& residue(int q) const {
    if (!built_[q].load(std::memory_order_acquire)) {
      const std::lock_guard<std::mutex> lock(building_);
      if (!built_[q].load(std::memory_order_relaxed)) {
        residues_[q] = buildResidue(q);
        built_[q].store(true, std::memory_order_release);
      }
    }
    return residues_[q];
  }

  Residue buildResidue(int q) const {
    const size_t classes = streams_.shiftClasses();
    Residue r;
    r.offsets.resize(classes);
    r.starts.resize(classes);
    r.accesses.resize(classes);
    r.wavefronts.assign(classes * sites_, 0);
    r.hitWavefronts.assign(classes * sites_, 0);
    // Per class, the (region offset, access) touches in access order.
    std::vector<std::vector<long long>> offsets(classes);
    std::vector<std::vector<size_t>> toucher(classes);
    std::vector<long long> moved;
    for (size_t k = 0; k < accesses_.size(); ++k) {
      const Access& a = accesses_[k];
      const auto c = static_cast<size_t>(streams_.shiftClass(a.warp, a.index));
      moved = streams_.baseSectors(a.warp, a.index);
      for (long long& sec : moved) sec += q;
      const L1Wavefronts wf = l1LoadWavefronts(distinctLines(moved, sectorsPerLine_),
                                               streams_.baseBlock()[a.warp][a.index].bankWavefronts, tags_);
      r.wavefronts[c * sites_ + static_cast<size_t>(a.site)] += wf.miss * a.weight;
      r.hitWavefronts[c * sites_ + static_cast<size_t>(a.site)] += wf.hit * a.weight;
      long long last = LLONG_MIN;
      for (const long long sec : moved) {
        if ((sec >> kRegionShift) == last) continue;
        last = sec >> kRegionShift;
        offsets[c].push_back(last);
        toucher[c].push_back(k);
      }
    }
    // Grouped by offset, each group's accesses in access order (a stable sort; an access's
    // sectors are ascending, so it touches each region once).
    std::vector<std::uint64_t> keys;
    for (size_t c = 0; c < classes; ++c) {
      keys.resize(offsets[c].size());
      for (size_t j = 0; j < keys.size(); ++j) keys[j] = radixKey(offsets[c][j]);
      const std::vector<std::uint32_t> order = stableOrder(keys);
      for (size_t j = 0; j < order.size(); ++j) {
        if (j == 0 || keys[order[j]] != keys[order[j - 1]]) {
          r.offsets[c].push_back(offsets[c][order[j]]);
          r.starts[c].push_back(j);
        }
        r.accesses[c].push_back(toucher[c][order[j]]);
      }
      r.starts[c].push_back(order.size());
    }
    return r;
  }

  const BlockStreams& streams_;
  std::vector<Access> accesses_;
  size_t sites_;
  long long sectorsPerLine_;
  L1TagStage tags_;
  std::vector<double> requests_, sectors_, partial_;  ///< per site, per block
  size_t loadSectors_ = 0, storeSectors_ = 0;         ///< sectors a block generates
  std::vector<Extent> extents_;
  mutable std::mutex building_;
  mutable std::array<std::atomic<bool>, kRegionSectors> built_{};
  mutable std::array<Residue, kRegionSectors> residues_;
};

/// Keeps `readKeep` of each load site's DRAM sectors and `writeKeep` of each store site's; the
/// load sites' L2 misses that no longer reach DRAM hit in L2 instead, in the same share. Misses,
/// not DRAM sectors, move: with a fetch granularity of several sectors one miss may read more
/// than one sector, and moving those would count more hits than the site has lookups.
/// Recomputes the launch totals.
void keepDram(MemoryTraffic& t, double readKeep, double writeKeep) {
  t.dramReadSectors = t.dramWriteSectors = t.l2HitSectors = 0;
  for (SiteTraffic& st : t.sites) {
    const double keep = st.isStore ? writeKeep : readKeep;
    if (!st.isStore) {
      st.l2Hits += std::max(0.0, st.sectors - st.l1Hits - st.l2Hits) * (1 - keep);
      t.l2HitSectors += st.l2Hits;
    }
    st.dramSectors *= keep;
    (st.isStore ? t.dramWriteSectors : t.dramReadSectors) += st.dramSectors;
  }
}

/// Provisional totals for inputs without streams (summaries, skeletons, C loops): the
/// workload summary's transactions, every sector from DRAM unless measured rates are given.
Expected<MemoryTraffic> fromSummary(const KernelIR& ir, const WorkloadSummary* summary, const Launch& launch,
                                    const Gpu& gpu, const MemoryAnalysisOptions& options, double sectorsPerLine,
                                    MemoryTraffic t) {
  WorkloadSummary s;
  if (summary) {
    s = *summary;
  } else {
    Expected<WorkloadSummary> derived = summarize(ir, gpu);
    if (!derived) return std::move(derived).takeError();
    s = *derived;
  }
  const long long warpSize = std::max(1, gpu.warpSize.value);
  const double warps = static_cast<double>(launch.blocks()) *
                       static_cast<double>((launch.threadsPerBlock() + warpSize - 1) / warpSize);
  for (int c = 0; c < kNumAccessClasses; ++c) {
    const MemoryClassStats& m = s.memory[static_cast<size_t>(c)];
    t.loadRequests += m.insts * warps;
    t.loadSectors += m.insts * warps * m.transactionsPerInst;
    const bool coalesced = static_cast<AccessClass>(c) != AccessClass::Uncoalesced;
    t.loadWavefronts += m.insts * warps * patternWavefronts(m.transactionsPerInst, coalesced, sectorsPerLine);
  }
  const double h1 = options.l1HitRate.value_or(0.0), h2 = options.l2HitRate.value_or(0.0);
  t.l1HitSectors = t.loadSectors * h1;
  t.l2HitSectors = t.loadSectors * (1 - h1) * h2;
  t.dramReadSectors = t.loadSectors * (1 - h1) * (1 - h2);
  t.notes.push_back("memory: no per-warp addresses for this input; every global sector is charged to DRAM and the footprint is unknown");
  return t;
}

}  // namespace

double sectorsPerL1Line(const Gpu& gpu, double sectorBytes) {
  const MemoryLevel* l1 = gpu.memoryForResource("l1");
  return l1 && l1->line && sectorBytes > 0 ? std::max(1.0, std::floor(static_cast<double>(l1->line->value) / sectorBytes)) : 4.0;
}

std::optional<L1TagStage> l1TagStage(const Gpu& gpu) {
  const MemoryLevel* l1 = gpu.memoryForResource("l1");
  if (!l1 || !l1->tagLinesPerWavefront || !l1->banks || !l1->bankWidth) return std::nullopt;
  return L1TagStage{l1->tagExtraWavefronts ? l1->tagExtraWavefronts->value : 0.0, l1->tagLinesPerWavefront->value};
}

const Instruction* siteInstruction(const KernelIR& ir, const SiteTraffic& site) {
  if (site.block < 0 || static_cast<size_t>(site.block) >= ir.blocks.size()) return nullptr;
  const BasicBlock& b = ir.blocks[static_cast<size_t>(site.block)];
  if (site.index < 0 || static_cast<size_t>(site.index) >= b.instructions.size()) return nullptr;
  return &b.instructions[static_cast<size_t>(site.index)];
}

double idealSectorsPerRequest(double widthBytes, double sectorBytes) {
  return sectorBytes > 0 ? std::max(1.0, std::ceil(32.0 * widthBytes / sectorBytes)) : 1.0;
}

SharedWavefront sharedWavefront(const Gpu& gpu) {
  SharedWavefront w;
  const MemoryLevel* shared = gpu.memoryForResource("shared");
  if (!shared) return w;
  if (shared->banks && shared->bankWidth) {
    w.bytes = static_cast<double>(shared->banks->value) * shared->bankWidth->value;
    w.banksKnown = true;
  }
  const double smGhz = gpu.smCount.value * gpu.clockGhz.value;
  if (shared->bandwidth && shared->bandwidth->value > 0 && smGhz > 0) {
    w.cycles = w.bytes / (shared->bandwidth->value / smGhz);
  }
  return w;
}

double conflictFreeSharedWavefronts(const Gpu& gpu, double widthBytes) {
  return std::max(1.0, std::ceil(32.0 * widthBytes / sharedWavefront(gpu).bytes));
}

Expected<MemoryTraffic> analyzeMemory(const KernelIR& ir, const WorkloadSummary* summary,
                                      const Launch& launch, const Gpu& gpu,
                                      const MemoryAnalysisOptions& options) {
  MemoryTraffic t;
  const MemoryLevel* l1Level = gpu.memoryForResource("l1");
  const MemoryLevel* l2Level = gpu.memoryForResource("l2");
  const MemoryLevel* dram = gpu.memoryForResource("dram");
  const MemoryLevel* shared = gpu.memoryForResource("shared");
  const long long sectorBytes = l2Level && l2Level->sector ? l2Level->sector->value
                                : dram && dram->sector     ? dram->sector->value
                                                           : 32;
  t.sectorBytes = static_cast<double>(sectorBytes);
  const double sectorsPerLine = sectorsPerL1Line(gpu, t.sectorBytes);
  if (!ir.streams) return fromSummary(ir, summary, launch, gpu, options, sectorsPerLine, t);

  // Occupancy: resident blocks per SM, the shared memory they take from a unified L1.
  BlockResources br;
  br.threadsPerBlock = static_cast<int>(launch.threadsPerBlock());
  br.registersPerThread = ir.resources.registers;
  br.sharedPerBlock = ir.resources.staticSharedBytes + launch.dynamicSharedBytes;
  br.carveoutPercent = launch.carveoutPercent;
  Expected<Occupancy> occ = computeOccupancy(gpu, br);
  if (!occ) return std::move(occ).takeError();
  const int warpSize = std::max(1, gpu.warpSize.value);
  const int warpsPerBlock = static_cast<int>((launch.threadsPerBlock() + warpSize - 1) / warpSize);
  const long long blocks = launch.blocks();
  const int sms = std::max(1, gpu.smCount.value);
  const int perSm = std::max(1, occ->blocksPerSm);
  const long long resident = std::min<long long>(blocks, static_cast<long long>(perSm) * sms);
  long long l1Bytes = l1Level ? l1Level->size.value : 0;
  if (l1Level && shared && launch.carveoutPercent) {
    // A chosen carveout: L1 is what the carveout's shared capacity leaves of the array.
    l1Bytes = std::max<long long>(0, l1Level->size.value - occ->sharedCapacity);
  } else if (l1Level && shared && l1Level->size.value > gpu.limits.sharedPerSm.value) {
    // Unified L1/shared array: L1 gets what the resident blocks' shared memory leaves.
    l1Bytes = std::max(l1Level->size.value - gpu.limits.sharedPerSm.value,
                       l1Level->size.value - perSm * occ->sharedAllocatedPerBlock);
  }
  // Global loads are cached in L1 by default on Fermi and from Volta on; Kepler to Pascal cache
  // only the read-only (texture) path and local memory.
  const bool l1CachesGlobal = gpu.ccMajor == 2 || gpu.ccMajor >= 7;

  // Access sites: every global/local/texture memory instruction.
  std::map<std::pair<int, int>, int> siteOf;
  std::vector<Site> sites;
  for (size_t b = 0; b < ir.blocks.size(); ++b) {
    for (size_t i = 0; i < ir.blocks[b].instructions.size(); ++i) {
      const Instruction& in = ir.blocks[b].instructions[i];
      if (!in.memory || !isGlobalLike(in.memory->space)) continue;
      siteOf[{static_cast<int>(b), static_cast<int>(i)}] = static_cast<int>(sites.size());
      sites.push_back({static_cast<int>(b), static_cast<int>(i), &*in.memory});
    }
  }
  t.sites.resize(sites.size());
  for (size_t s = 0; s < sites.size(); ++s) {
    t.sites[s].block = sites[s].block;
    t.sites[s].index = sites[s].index;
    t.sites[s].isStore = sites[s].access->isStore;
  }
  if (sites.empty()) return t;
  auto l1Eligible = [&](const MemoryAccess& m) {
    if (!l1Level || m.isStore || m.cacheOp == CacheOp::Cg || m.cacheOp == CacheOp::Cv) return false;
    return m.space != MemorySpace::Global || l1CachesGlobal || m.cacheOp == CacheOp::Nc;
  };

  std::vector<int> siteWidth;
  for (const Site& st : sites) siteWidth.push_back(st.access->widthBytes);
  // An L1 with a tag stage serves a load that hits in the slower of its tag and bank wavefronts.
  const L1TagStage l1Tags = l1TagStage(gpu).value_or(L1TagStage{});
  std::optional<BankOptions> l1Banks;
  if (l1Tags.known()) l1Banks = BankOptions{l1Level->banks->value, l1Level->bankWidth->value, std::max(1, gpu.warpSize.value)};
  BlockStreams streams(ir, launch, warpsPerBlock, siteOf, std::move(siteWidth), sectorBytes, l1Banks);
  Expected<bool> affine = streams.prepareAffine();
  if (!affine) return std::move(affine).takeError();
  auto coords = [&](long long b) {
    const long long gx = launch.grid.x, gy = launch.grid.y;
    return std::array<long long, 3>{b % gx, (b / gx) % gy, b / (gx * gy)};
  };

  // Orders accesses by time, ties in their order (as std::stable_sort would), sorting keys and
  // moving each access once.
  auto sortByTime = [](std::vector<Timed>& v) {
    std::vector<std::uint64_t> key(v.size());
    for (size_t i = 0; i < v.size(); ++i) key[i] = radixKey(v[i].time);
    std::vector<Timed> out;
    out.reserve(v.size());
    for (const std::uint32_t k : stableOrder(key)) out.push_back(std::move(v[k]));
    v = std::move(out);
  };
  // Distinct sectors of a time-ordered sample, for windowed streams: a sector first touched in
  // the first half of a window counts once; one first touched in its second half stands for the
  // new sectors of the rest of its stratum too (weight·2 − 1: the rate of new sectors once the
  // window is warm, extrapolated), so a stream of fresh data grows with its length and data
  // re-read in every window counts once.
  auto windowFootprint = [](const std::vector<Timed>& sample, bool firstHalfOnly) {
    // First touch of each sector: (sector, time order) sorted, the first of each sector.
    std::vector<size_t> index;
    std::vector<std::uint64_t> key;
    index.reserve(sample.size());
    key.reserve(sample.size());
    for (size_t i = 0; i < sample.size(); ++i) {
      if (firstHalfOnly && !sample[i].firstHalf) continue;
      index.push_back(i);
      key.push_back(radixKey(sample[i].sector));
    }
    double d = 0;
    const std::vector<std::uint32_t> order = stableOrder(key);  // by sector, then time
    for (size_t k = 0; k < order.size(); ++k) {
      if (k == 0 || key[order[k]] != key[order[k - 1]]) d += sample[index[order[k]]].extrapolate;
    }
    return d;
  };
  // Accesses of a warp's stream that the views take: one in strideOf(n) of its n; access i's
  // time within its block's interval.
  auto strideOf = [&](size_t n) {
    const auto cap = static_cast<size_t>(std::max(1LL, options.maxAccessesPerWarp));
    return n > cap ? (n + cap - 1) / cap : size_t{1};
  };
  auto timeInBlock = [](const WarpAccess& a, size_t i, size_t n) {
    return a.at >= 0 ? a.at : (static_cast<double>(i) + 0.5) / std::max<double>(1.0, static_cast<double>(n));
  };
  // Blocks that are the base block shifted by whole sectors, visited by their kept regions.
  std::optional<ShiftedBlocks> shifted;
  if (ShiftedBlocks::applies(streams, sectorsPerLine)) {
    std::vector<ShiftedBlocks::Access> selected;
    const std::vector<WarpAccesses>& base = streams.baseBlock();
    for (size_t w = 0; w < base.size(); ++w) {
      const size_t n = base[w].size();
      for (size_t i = 0; i < n; i += strideOf(n)) {
        const WarpAccess& a = base[w][i];
        selected.push_back({w, i, a.site, sites[static_cast<size_t>(a.site)].access->isStore,
                            static_cast<double>(strideOf(n)) * a.weight, timeInBlock(a, i, n)});
      }
    }
    shifted.emplace(streams, std::move(selected), sites.size(), static_cast<long long>(sectorsPerLine), l1Tags);
  }
  // Converts the accesses of block `c` into time-ordered sector accesses, those of the regions
  // the sampler keeps (RegionSampler): a block of wave v runs from v to v + 1, its warps'
  // accesses spread evenly over that interval (or at their place in a windowed stream).
  // `from`, `to`: the share of the block's run to take (its accesses whose progress lies in
  // [from, to)); the whole run by default.
  auto collect = [&](const std::array<long long, 3>& c, int cluster, int& warpCounter, double wave, bool firstHalf,
                     const RegionSampler& sampler, std::vector<Timed>& out, SiteTotals& totals, SampleTally& tally,
                     double from = 0.0, double to = 1.0) -> Expected<void> {
    const int firstWarp = warpCounter;
    warpCounter += warpsPerBlock;
    const bool whole = from <= 0.0 && to >= 1.0;
    if (whole && shifted && shifted->collect(c[0], c[1], c[2], cluster, firstWarp, wave, firstHalf, sampler, out, totals, tally)) {
      return {};
    }
    return streams.forEachAccess(
        c[0], c[1], c[2], [&](size_t, size_t i, size_t n) { return i % strideOf(n) == 0; },
        [&](size_t w, size_t i, size_t n, const WarpAccess& a, const std::vector<long long>* touched) {
          if (!whole) {
            const double progress = timeInBlock(a, i, n);
            if (progress < from || progress >= to) return;
          }
          const auto site = static_cast<size_t>(a.site);
          const MemoryAccess& m = *sites[site].access;
          const double weight = static_cast<double>(strideOf(n)) * a.weight;
          totals.requests[site] += weight;
          if (!touched) {
            const double n = m.transactionsPerInst.value_or(1.0);
            totals.unknown[site] += n * weight;
            const bool coalesced = m.pattern && *m.pattern == AccessClass::Coalesced;
            const double wavefronts = patternWavefronts(n, coalesced, sectorsPerLine) * weight;
            totals.wavefronts[site] += wavefronts;
            totals.hitWavefronts[site] += wavefronts;
            return;
          }
          totals.sectors[site] += static_cast<double>(touched->size()) * weight;
          if (!touched->empty()) {
            // Ascending and distinct (forEachAccess()): the extremes are the ends.
            const long long lo = touched->front(), hi = touched->back();
            for (auto* e : {&totals.extent[site], firstHalf ? &totals.firstHalfExtent[site] : nullptr}) {
              if (!e) continue;
              e->first = std::min(e->first, lo);
              e->second = std::max(e->second, hi);
            }
          }
          const L1Wavefronts wf =
              l1LoadWavefronts(distinctLines(*touched, static_cast<long long>(sectorsPerLine)), a.bankWavefronts, l1Tags);
          totals.wavefronts[site] += wf.miss * weight;
          totals.hitWavefronts[site] += wf.hit * weight;
          // The base block's lanes: a shifted block writes its sectors the same way.
          if (m.isStore) {
            // The same base access recurs in every shifted block: its count is kept with it.
            totals.partial[site] += a.partialSectors * weight;
          }
          tally.generated(m.isStore, touched->size());
          const SampledOrigin origin{&a, wave + timeInBlock(a, i, n), weight, a.site, cluster, firstWarp + static_cast<int>(w), m.isStore, firstHalf};
          keepSampled(*touched, 0, origin, sampler, out, tally);
        });
  };

  // ---- L1: the blocks resident on SM 0 (0, S, 2S, …), all their warps, one wave. ----
  // l1Whole: sectors weighted by the chance that their whole request hit (the least likely of
  // its sampled sectors: they hit and miss together, as the lines of one request do).
  std::vector<double> l1Hit(sites.size(), 0), l1Seen(sites.size(), 0), l1Whole(sites.size(), 0);
  // The distinct sectors each `wanted` site touches in `blockIds`, counted where its data is
  // re-read: when the accesses of the blocks' first halves already touch at least 10/11 of
  // them; nothing for a site whose data grows through its run (a windowed stream's unsampled
  // stretches may touch more) or that touches more than `limit` (no estimate would hold).
  auto rereadDistinct = [&](const std::vector<long long>& blockIds, const std::vector<char>& wanted,
                            double limit) -> Expected<std::vector<std::optional<double>>> {
    std::vector<std::optional<double>> out(sites.size());
    if (std::find(wanted.begin(), wanted.end(), 1) == wanted.end()) return out;
    const auto cap = static_cast<size_t>(std::max(1.0, limit));
    std::vector<std::vector<long long>> all(sites.size()), early(sites.size());
    std::vector<char> tooMany(sites.size(), 0);
    const auto squeeze = [](std::vector<long long>& v) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    for (const long long b : blockIds) {
      const std::array<long long, 3> c = coords(b);
      Expected<void> ok = streams.forEachAccess(
          c[0], c[1], c[2], [](size_t, size_t, size_t) { return true; },
          [&](size_t, size_t i, size_t n, const WarpAccess& a, const std::vector<long long>* touched) {
            const auto site = static_cast<size_t>(a.site);
            if (!touched || !wanted[site] || tooMany[site]) return;
            all[site].insert(all[site].end(), touched->begin(), touched->end());
            if (timeInBlock(a, i, n) < 0.5) early[site].insert(early[site].end(), touched->begin(), touched->end());
            if (all[site].size() > 4 * cap) {
              squeeze(all[site]);
              squeeze(early[site]);
              tooMany[site] = all[site].size() > cap;
            }
          });
      if (!ok) return std::move(ok).takeError();
    }
    for (size_t site = 0; site < sites.size(); ++site) {
      if (!wanted[site] || tooMany[site]) continue;
      squeeze(all[site]);
      squeeze(early[site]);
      const auto d = static_cast<double>(all[site].size());
      if (d > 0 && all[site].size() <= cap && d <= 1.1 * static_cast<double>(early[site].size())) out[site] = d;
    }
    return out;
  };
  auto l1View = [&]() -> Expected<void> {
    const int maxBlocks = streams.affine() ? perSm : std::min(perSm, 2);
    const double collectRate = std::min(1.0, static_cast<double>(kSampledAccesses) /
                                    std::max(1.0, 4.0 * maxBlocks * static_cast<double>(streams.baseAccesses())));
    std::vector<Timed> timed;
    SiteTotals viewTotals(sites.size());
    SampleTally collected;
    int warpCounter = 0, sampled = 0;
    const RegionSampler sampler(collectRate);
    // Past the first wave the SM's block slots are refilled as blocks retire, so its resident
    // blocks are at different points of their runs: in steady state slot i of P is i/P of a
    // block's run ahead of slot 0, so over one block's time it runs the rest of its block
    // (progress i/P to 1) and then the start of the block that takes the slot next (the
    // block sms x P later in launch order, progress 0 to i/P). Data that co-resident blocks
    // share only when in step (a column of B that every block reaches at the same k) is no
    // longer reused; data every block keeps touching (a small table) still is. A launch of one
    // wave or less starts its blocks together and stays in step.
    const bool staggered = blocks > static_cast<long long>(sms) * perSm;
    std::vector<long long> viewBlocks;
    for (int i = 0; i < maxBlocks; ++i) {
      const long long b = static_cast<long long>(i) * sms;
      if (b >= blocks) break;
      const int cluster = sampled++;
      const double phase = staggered ? static_cast<double>(i) / maxBlocks : 0.0;
      Expected<void> ok = collect(coords(b), cluster, warpCounter, -phase, false, sampler, timed, viewTotals, collected, phase, 1.0);
      if (!ok) return std::move(ok).takeError();
      viewBlocks.push_back(b);
      const long long next = b + static_cast<long long>(sms) * perSm;
      if (phase > 0 && next < blocks) {
        ok = collect(coords(next), cluster, warpCounter, 1.0 - phase, false, sampler, timed, viewTotals, collected, 0.0, phase);
        if (!ok) return std::move(ok).takeError();
        viewBlocks.push_back(next);
      }
    }
    sortByTime(timed);
    std::vector<SampledAccess> stream;
    std::vector<double> mult;
    std::vector<size_t> requestBegin;  // per request: its first entry of `stream` (the sectors of one warp access are adjacent)
    const Timed* previous = nullptr;
    for (const Timed& x : timed) {
      const MemoryAccess& m = *sites[static_cast<size_t>(x.access.site)].access;
      if (!l1Eligible(m) && !m.isStore) continue;
      SampledAccess a = x.access;
      a.allocates = !m.isStore;  // write-through, no allocate
      a.counted = !m.isStore && !x.warm;
      if (!previous || previous->time != x.time || previous->access.warp != x.access.warp || previous->access.site != x.access.site) {
        requestBegin.push_back(stream.size());
      }
      previous = &x;
      stream.push_back(a);
      mult.push_back(x.sectorsOfRequest);
    }
    requestBegin.push_back(stream.size());
    const double residentOnSm = static_cast<double>(std::min<long long>(perSm, (blocks + sms - 1) / sms));
    SamplePopulation pop{static_cast<double>(std::max(1, sampled)), std::max<double>(residentOnSm, sampled)};
    const double capacity = static_cast<double>(l1Bytes) / static_cast<double>(sectorBytes) * collected.rate(collectRate);
    ReuseResult r = analyzeReuse(stream, pop, capacity);
    for (size_t i = 0; i < stream.size(); ++i) {
      if (!stream[i].counted) continue;
      l1Hit[static_cast<size_t>(stream[i].site)] += r.outcomes[i].hit * mult[i];
      l1Seen[static_cast<size_t>(stream[i].site)] += mult[i];
    }
    for (size_t q = 0; q + 1 < requestBegin.size(); ++q) {
      double whole = 1;
      for (size_t i = requestBegin[q]; i < requestBegin[q + 1]; ++i) whole = std::min(whole, r.outcomes[i].hit);
      for (size_t i = requestBegin[q]; i < requestBegin[q + 1]; ++i) {
        if (stream[i].counted) l1Whole[static_cast<size_t>(stream[i].site)] += whole * mult[i];
      }
    }
    // Loads the sample kept none of (residentHitShare()); the L1 allocates on loads only.
    double viewLoadSectors = 0;
    for (size_t site = 0; site < sites.size(); ++site) {
      if (!sites[site].access->isStore) viewLoadSectors += viewTotals.sectors[site];
    }
    const double capacitySectors = static_cast<double>(l1Bytes) / static_cast<double>(sectorBytes);
    std::vector<char> unseen(sites.size(), 0);
    for (size_t site = 0; site < sites.size(); ++site) {
      const MemoryAccess& m = *sites[site].access;
      unseen[site] = !m.isStore && l1Eligible(m) && l1Seen[site] <= 0 && viewTotals.sectors[site] > 0;
    }
    Expected<std::vector<std::optional<double>>> counted = rereadDistinct(viewBlocks, unseen, capacitySectors);
    if (!counted) return std::move(counted).takeError();
    for (size_t site = 0; site < sites.size(); ++site) {
      if (!unseen[site]) continue;
      if (const std::optional<double> h = residentHitShare(viewTotals.sectors[site], viewTotals.extent[site], viewLoadSectors,
                                                           capacitySectors, (*counted)[site])) {
        l1Hit[site] = l1Whole[site] = *h;
        l1Seen[site] = 1;
      }
    }
    return {};
  };

  // ---- L2: the first blocks of the launch order, every warp, every access (a time window of
  // the whole chip: neighbours and the blocks of whole waves run together, so sharing is seen
  // as it happens), sectors sampled spatially (a sector is kept iff its hash falls below the
  // rate; capacity and counts scale with it). ----
  const long long perBlockAccesses = std::max<long long>(1, streams.baseAccesses());
  long long windowBlocks = blocks;
  if (streams.affine() || blocks <= kExactBlocks) {
    windowBlocks = std::min<long long>(blocks, std::max<long long>(1, kGeneratedLanes / (perBlockAccesses * warpSize)));
  } else {
    const double perBlock = static_cast<double>(streams.instructionsFetched()) / std::max(1, streams.exactFetched());
    windowBlocks = std::min<long long>(blocks, std::max<long long>(2, static_cast<long long>(kExactInstructions / std::max(1.0, perBlock))));
  }
  // Sectors per access, from the base block, to choose the spatial rate.
  double sectorsPerAccess = 4;
  {
    double n = 0, sec = 0;
    Expected<void> ok = streams.forEachAccess(
        0, 0, 0, [](size_t, size_t, size_t) { return true; },
        [&](size_t, size_t, size_t, const WarpAccess&, const std::vector<long long>* touched) {
          if (!touched) return;
          sec += static_cast<double>(touched->size());
          n += 1;
        });
    if (!ok) return std::move(ok).takeError();
    if (n > 0) sectorsPerAccess = std::max(1.0, sec / n);
  }
  const double expected = static_cast<double>(windowBlocks) * static_cast<double>(perBlockAccesses) * sectorsPerAccess;
  const double rate = std::min(1.0, static_cast<double>(kSampledAccesses) / std::max(1.0, expected));
  // Sectors one L2 miss reads from DRAM (`fetch_granularity`; 1 = the sector alone). With more,
  // DRAM reads come from the stream analysed at that granularity: a sector fetched with its
  // neighbour is no second DRAM read, and a lone sector costs the whole fetch. The
  // sector-level outcomes stay for L2 hits and latency (a neighbour fetched by the same
  // request arrives with it, not before).
  const long long fetch = l2Level && l2Level->fetchGranularity && sectorBytes > 0
                              ? std::max<long long>(1, l2Level->fetchGranularity->value / sectorBytes)
                              : 1;
  std::vector<Timed> timed;
  SiteTotals window(sites.size());
  SampleTally windowTally;
  const long long half = windowBlocks / 2;
  // The L2 sectors the window's blocks get: a window smaller than the chip's resident blocks gets
  // their share of L2 (before sampling).
  const double windowL2Sectors =
      l2Level ? static_cast<double>(l2Level->size.value) / static_cast<double>(sectorBytes) *
                    std::min(1.0, static_cast<double>(windowBlocks) / static_cast<double>(resident))
              : 0;
  std::vector<SampledAccess> stream;
  double windowRate = 1;
  ReuseResult r;
  std::optional<ReuseResult> rf;
  auto windowView = [&]() -> Expected<void> {
    const RegionSampler windowSampler(rate);
    // The blocks [from, to) of the window, in launch order, into `out`, `totals` and `tally`.
    auto collectBlocks = [&](long long from, long long to, std::vector<Timed>& out, SiteTotals& totals,
                             SampleTally& tally) -> Expected<void> {
      int warpCounter = static_cast<int>(from * warpsPerBlock);
      for (long long b = from; b < to; ++b) {
        const double wave = std::floor(static_cast<double>(b) / static_cast<double>(resident));
        Expected<void> ok = collect(coords(b), 0, warpCounter, wave, b < half, windowSampler, out, totals, tally);
        if (!ok) return std::move(ok).takeError();
      }
      return {};
    };
    timed.reserve(sampleCapacity(expected));
    // The window is most of the engine's work. When its blocks need no fetching and every term
    // it adds up is whole (so that the sums do not depend on their grouping), its two halves
    // are collected side by side and joined in launch order: the same accesses, order and sums.
    if (streams.fetchesNothing() && streams.integralWeights() && windowBlocks >= 2 * kExactBlocks) {
      const long long mid = windowBlocks / 2;
      std::vector<Timed> later;
      later.reserve(sampleCapacity(expected / 2));
      SiteTotals laterTotals(sites.size());
      SampleTally laterTally;
      Expected<void> done[2] = {Expected<void>{}, Expected<void>{}};
      parallelFor(2, [&](std::size_t k) {
        done[k] = k == 0 ? collectBlocks(0, mid, timed, window, windowTally)
                         : collectBlocks(mid, windowBlocks, later, laterTotals, laterTally);
      });
      for (Expected<void>& d : done) {
        if (!d) return std::move(d).takeError();
      }
      timed.insert(timed.end(), std::make_move_iterator(later.begin()), std::make_move_iterator(later.end()));
      window.add(laterTotals);
      windowTally.add(laterTally);
    } else {
      Expected<void> ok = collectBlocks(0, windowBlocks, timed, window, windowTally);
      if (!ok) return std::move(ok).takeError();
    }
    sortByTime(timed);
    stream.reserve(timed.size());
    for (const Timed& x : timed) stream.push_back(x.access);
    windowRate = windowTally.rate(rate);
    const double l2Capacity = windowL2Sectors * windowRate;
    // The sector-level and the fetch-level analyses of the same stream.
    if (fetch > 1) {
      std::tie(r, rf) = analyzeReuseGrouped(stream, SamplePopulation{1, 1}, l2Capacity, fetch);
    } else {
      r = analyzeReuse(stream, SamplePopulation{1, 1}, l2Capacity);
    }
    return {};
  };

  // ---- L2, second view: clusters of neighbouring blocks spread over the whole grid, weighted
  // (Horvitz–Thompson, reuse_distance.h). The window sees sharing between blocks close in launch
  // order; the spread clusters see sharing between distant blocks (a row of B shared by every
  // block row, a buffer revisited by blocks far apart). Each view only misses sharing, it does
  // not invent it, so per site the higher hit share (and the lower write-back share) is kept,
  // and the smaller footprint. ----
  std::vector<double> spreadSeen(sites.size(), 0), spreadHit(sites.size(), 0), spreadWb(sites.size(), 0),
      spreadFetchedHit(sites.size(), 0);
  double spreadFootprint = -1, spreadWrittenShare = 0;
  auto spreadView = [&]() -> Expected<void> {
    if (windowBlocks >= blocks || !l2Level) return {};
    const bool twoD = launch.grid.y > 1;
    const int clusterX = static_cast<int>(std::min<long long>(launch.grid.x, twoD ? 2 : 4));
    const int clusterY = twoD ? 2 : 1;
    const int clusterBlocks = clusterX * clusterY;
    const long long clusters = std::max<long long>(1, blocks / clusterBlocks);
    int wanted = 0;
    if (streams.affine()) {
      const long long perCluster = std::max<long long>(1, perBlockAccesses * clusterBlocks);
      wanted = static_cast<int>(std::clamp<long long>(kSampledAccesses / static_cast<long long>(perCluster * sectorsPerAccess), 2, 64));
    } else {
      const double perBlock = static_cast<double>(streams.instructionsFetched()) / std::max(1, streams.exactFetched());
      wanted = static_cast<int>(std::clamp(kExactInstructions / std::max(1.0, perBlock * clusterBlocks), 2.0, 8.0));
    }
    wanted = static_cast<int>(std::min<long long>(wanted, clusters));
    std::vector<Timed> spread;
    SiteTotals ignored(sites.size());
    SampleTally collected;
    const double spreadExpected =
        static_cast<double>(wanted) * clusterBlocks * static_cast<double>(perBlockAccesses) * sectorsPerAccess;
    const double collectRate = std::min(1.0, static_cast<double>(kSampledAccesses) / std::max(1.0, spreadExpected));
    int warps = 0, sampled = 0;
    const RegionSampler sampler(collectRate);
    spread.reserve(sampleCapacity(spreadExpected));
    for (int k = 0; k < wanted; ++k) {
      // Origins spread over the grid by golden-ratio steps (against even steps in y, so that
      // they do not all fall in one column of a 2-D grid). Even steps in a 1-D grid alias with
      // periodic data (`blockIdx.x % R`): blocks 12,500 apart all read chunk 0 or 100 of R = 200,
      // and the clusters took 100 MB read once per 200 blocks for data all of them share.
      const double u = static_cast<double>(k) / wanted;
      const double golden = std::fmod(0.5 + k * 0.6180339887498949, 1.0);
      std::array<long long, 3> c{0, 0, 0};
      if (twoD) {
        c[0] = static_cast<long long>(golden * static_cast<double>(launch.grid.x));
        c[1] = static_cast<long long>(u * static_cast<double>(launch.grid.y));
        c[2] = 0;
      } else {
        c = coords(static_cast<long long>(golden * static_cast<double>(blocks)));
      }
      c[0] = std::clamp<long long>(c[0], 0, launch.grid.x - clusterX);
      c[1] = std::clamp<long long>(c[1], 0, launch.grid.y - clusterY);
      for (int dy = 0; dy < clusterY; ++dy) {
        for (int dx = 0; dx < clusterX; ++dx) {
          const long long b = streams.linear(c[0] + dx, c[1] + dy, c[2]);
          const double wave = std::floor(static_cast<double>(b) / static_cast<double>(resident));
          Expected<void> ok = collect({c[0] + dx, c[1] + dy, c[2]}, sampled, warps, wave, false, sampler, spread, ignored, collected);
          if (!ok) return std::move(ok).takeError();
        }
      }
      ++sampled;
    }
    sortByTime(spread);
    std::vector<SampledAccess> sstream;
    sstream.reserve(spread.size());
    for (const Timed& x : spread) sstream.push_back(x.access);
    const double spreadRate = collected.rate(collectRate);
    const double capacity = static_cast<double>(l2Level->size.value) / static_cast<double>(sectorBytes) * spreadRate;
    const SamplePopulation spreadPopulation{static_cast<double>(sampled), static_cast<double>(clusters)};
    ReuseResult sr;
    std::optional<ReuseResult> srf;
    if (fetch > 1) {
      std::tie(sr, srf) = analyzeReuseGrouped(sstream, spreadPopulation, capacity, fetch);
    } else {
      sr = analyzeReuse(sstream, spreadPopulation, capacity);
    }
    for (size_t i = 0; i < sstream.size(); ++i) {
      if (spread[i].warm) continue;
      const size_t site = static_cast<size_t>(sstream[i].site);
      spreadSeen[site] += spread[i].sectorsOfRequest;
      spreadHit[site] += sr.outcomes[i].hit * spread[i].sectorsOfRequest;
      spreadWb[site] += sr.outcomes[i].writeBack * spread[i].sectorsOfRequest;
      if (srf) spreadFetchedHit[site] += srf->outcomes[i].hit * spread[i].sectorsOfRequest;
    }
    spreadFootprint = sr.distinctUnits / spreadRate;
    if (streams.windowed()) {
      // Sectors of different windows were kept apart: the extrapolated distinct sectors instead.
      std::vector<long long> units;
      units.reserve(sstream.size());
      for (const SampledAccess& a : sstream) units.push_back(a.unit);
      std::sort(units.begin(), units.end());
      units.erase(std::unique(units.begin(), units.end()), units.end());
      if (!units.empty()) spreadFootprint *= windowFootprint(spread, false) / static_cast<double>(units.size());
    }
    spreadWrittenShare = collected.writtenShare(sr.distinctReadUnits, sr.distinctWrittenUnits, collectRate);
    return {};
  };

  // The three views are independent. When every block they visit is the base block shifted or
  // a block fetched before (read-only here), they run side by side: the window on one core,
  // the L1 and spread views on another; each keeps its own order of work, so the results are
  // those of one after the other. Streams that fetch blocks as they go run the views in turn.
  {
    Expected<void> done[2] = {Expected<void>{}, Expected<void>{}};
    auto task = [&](std::size_t k) {
      if (k == 0) {
        done[0] = windowView();
      } else {
        done[1] = l1View();
        if (done[1]) done[1] = spreadView();
      }
    };
    if (streams.fetchesNothing()) {
      parallelFor(2, task);
    } else {
      // In launch order: the spread view sizes its clusters by what the window fetched.
      done[1] = l1View();
      if (done[1]) done[0] = windowView();
      if (done[0] && done[1]) done[1] = spreadView();
    }
    for (Expected<void>& d : done) {
      if (!d) return std::move(d).takeError();
    }
  }
  std::vector<double>& requests = window.requests;
  std::vector<double>& sectors = window.sectors;
  std::vector<double>& unknown = window.unknown;
  const std::vector<double>& wavefronts = window.wavefronts;
  const std::vector<double>& hitWavefronts = window.hitWavefronts;
  // Per site: L1 hit rate from the SM analysis; L2 outcome of the window, conditioned on an L1
  // miss (an access that hits in L1 would have hit in L2: P(L2 | L1 miss) =
  // (P(L2) − P(L1)) / (1 − P(L1))).
  std::vector<double> sampledSectors(sites.size(), 0), l2Hit(sites.size(), 0), writeBacks(sites.size(), 0),
      fetchedHit(sites.size(), 0);
  for (size_t i = 0; i < stream.size(); ++i) {
    if (timed[i].warm) continue;
    const size_t site = static_cast<size_t>(stream[i].site);
    const double w = timed[i].sectorsOfRequest;
    sampledSectors[site] += w;
    l2Hit[site] += r.outcomes[i].hit * w;
    writeBacks[site] += r.outcomes[i].writeBack * w;
    if (rf) fetchedHit[site] += rf->outcomes[i].hit * w;
  }

  const double scale = static_cast<double>(blocks) / static_cast<double>(windowBlocks);
  // A load site's L1 wavefronts: its requests' if their lines hit, in its L1 hit share, and if
  // they miss in the rest.
  const auto siteWavefronts = [&](size_t s, const SiteTraffic& st) {
    const double h = st.isStore || st.sectors <= 0 ? 0.0 : std::clamp(st.l1Hits / st.sectors, 0.0, 1.0);
    return (h * hitWavefronts[s] + (1 - h) * wavefronts[s]) * scale;
  };
  double windowSectors = 0;
  for (const double n : sectors) windowSectors += n;
  for (size_t site = 0; site < sites.size(); ++site) {
    requests[site] *= scale;
    // Share of the site's sectors that hit / write back, applied to all its sectors.
    const double seen = sampledSectors[site];
    double hitShare = seen > 0 ? l2Hit[site] / seen : 0;
    double wbShare = seen > 0 ? writeBacks[site] / seen : 1;
    double fetchedShare = seen > 0 ? fetchedHit[site] / seen : 0;
    if (spreadSeen[site] > 0) {
      hitShare = std::max(hitShare, spreadHit[site] / spreadSeen[site]);
      wbShare = std::min(wbShare, spreadWb[site] / spreadSeen[site]);
      fetchedShare = std::max(fetchedShare, spreadFetchedHit[site] / spreadSeen[site]);
    } else if (seen <= 0 && l2Level) {
      // Neither view kept any of it (residentHitShare()): the window's share of the L2.
      if (const std::optional<double> h = residentHitShare(sectors[site], window.extent[site], windowSectors, windowL2Sectors)) {
        hitShare = *h;
        wbShare = 1 - *h;  // a written sector goes back once
        const double distinct = (1 - *h) * sectors[site];
        fetchedShare = std::max(0.0, 1 - std::max(1.0, distinct / static_cast<double>(fetch)) / sectors[site]);
      }
    }
    l2Hit[site] = hitShare * sectors[site];
    writeBacks[site] = wbShare * sectors[site];
    fetchedHit[site] = fetchedShare * sectors[site];
  }
  // Sites whose every address is data-dependent but whose array the frontend knows: their lanes
  // spread uniformly over that array (spreadAccesses()). The array's size is the launch's (when
  // given), else what the accesses with known addresses show of it over the grid; for an array
  // only ever indexed by data (x[cols[j]]), that of the median array the kernel indexes directly,
  // in elements.
  const double sb = static_cast<double>(sectorBytes);
  std::vector<double> gatherFootprint(sites.size(), 0);  // sectors; 0 = charged to DRAM
  std::vector<char> gatherGuessed(sites.size(), 0);       // footprint from the median array
  double gatherCached = 0;                                 // Σ over the gathered arrays
  std::map<long long, double> perArray;                    // allocation begin → footprint in sectors
  if (!options.l1HitRate && !options.l2HitRate) {
    struct Array {
      long long lo, hi;  // sectors
      int width;
    };
    std::vector<Array> arrays;
    for (size_t site = 0; site < sites.size(); ++site) {
      const auto [lo, hiWindow] = window.extent[site];
      if (lo > hiWindow || sites[site].access->space != MemorySpace::Global) continue;  // not local spills
      long long hi = hiWindow;
      const auto& firstHalf = window.firstHalfExtent[site];
      if (windowBlocks < blocks && windowBlocks - half > 0 && firstHalf.first <= firstHalf.second) {
        hi += std::max(0LL, hiWindow - firstHalf.second) * (blocks - windowBlocks) / (windowBlocks - half);
      }
      arrays.push_back({lo, hi, sites[site].access->widthBytes});
    }
    std::sort(arrays.begin(), arrays.end(), [](const Array& a, const Array& b) { return a.lo < b.lo; });
    std::vector<Array> merged;
    for (const Array& a : arrays) {
      if (!merged.empty() && a.lo <= merged.back().hi + 1) {
        merged.back().hi = std::max(merged.back().hi, a.hi);
        merged.back().width = std::max(merged.back().width, a.width);
      } else {
        merged.push_back(a);
      }
    }
    std::vector<double> elements;
    for (const Array& a : merged) elements.push_back(static_cast<double>(a.hi - a.lo + 1) * sb / std::max(1, a.width));
    std::sort(elements.begin(), elements.end());
    const double median = elements.empty() ? 0 : elements[elements.size() / 2];
    for (size_t site = 0; site < sites.size(); ++site) {
      const MemoryAccess& m = *sites[site].access;
      const Instruction& in = ir.blocks[static_cast<size_t>(sites[site].block)].instructions[static_cast<size_t>(sites[site].index)];
      if (!m.allocation || !m.laneAddresses.empty() || window.unknown[site] <= 0 || isAtomicOpcode(in.opcode)) continue;
      const long long alo = m.allocation->begin / sectorBytes, ahi = (m.allocation->end - 1) / sectorBytes;
      double own = 0;
      for (const Array& a : merged) {
        if (a.hi >= alo && a.lo <= ahi) own += static_cast<double>(std::min(a.hi, ahi) - std::max(a.lo, alo) + 1);
      }
      gatherGuessed[site] = own <= 0;
      gatherFootprint[site] = m.allocation->bytes ? std::max(1.0, static_cast<double>(*m.allocation->bytes) / sb)
                              : own > 0           ? own
                                                  : median * m.widthBytes / sb;
      if (gatherFootprint[site] > 0) {
        double& f = perArray[m.allocation->begin];
        f = std::max(f, gatherFootprint[site]);
      }
    }
    for (const auto& [begin, f] : perArray) gatherCached += f;
  }
  const double l2Sectors = l2Level ? static_cast<double>(l2Level->size.value) / sb : 0;
  double unknownTotal = 0, gatheredTotal = 0, gatherDistinctRead = 0, gatherDistinctWritten = 0;
  // The gathering sites of one array (with one direction and L1 path) share its sectors: their
  // accesses are spread together and split by each site's share of the lanes. Spread one by one,
  // each site would miss on every sector's first touch again (spmv's unrolled x[col[j]] loads).
  struct GatherGroup {
    double requests = 0, lanes = 0;
    SpreadTraffic traffic;
  };
  using GroupKey = std::tuple<long long, bool, bool>;  // allocation begin, store, through L1
  std::map<GroupKey, GatherGroup> gatherGroups;
  const auto groupOf = [&](size_t s) {
    const MemoryAccess& m = *sites[s].access;
    return GroupKey{m.allocation->begin, m.isStore, !m.isStore && l1Eligible(m)};
  };
  for (size_t s = 0; s < sites.size(); ++s) {
    if (gatherFootprint[s] <= 0) continue;
    GatherGroup& g = gatherGroups[groupOf(s)];
    g.requests += requests[s];
    g.lanes += unknown[s] * scale;
  }
  for (auto& [key, g] : gatherGroups) {
    const auto& [begin, store, throughL1] = key;
    g.traffic = spreadAccesses(g.requests, g.lanes, perArray[begin], gatherCached, throughL1 ? static_cast<double>(l1Bytes) / sb : 0,
                               static_cast<int>(std::min<long long>(sms, blocks)), l2Sectors, store);
    gatheredTotal += g.traffic.sectors;
  }
  std::set<GroupKey> distinctCounted;  // groups of arrays of guessed size whose touched sectors joined the footprint
  const auto addToTotals = [&t](bool store, const SiteTraffic& st) {
    if (store) {
      t.storeRequests += st.requests;
      t.storeSectors += st.sectors;
      t.storeWavefronts += st.wavefronts;
      t.partialStoreSectors += st.partialSectors;
      t.dramWriteSectors += st.dramSectors;
    } else {
      t.loadRequests += st.requests;
      t.loadSectors += st.sectors;
      t.loadWavefronts += st.wavefronts;
      t.l1HitSectors += st.l1Hits;
      t.l1SplitHitSectors += st.l1SplitHits;
      t.l2HitSectors += st.l2Hits;
      t.dramReadSectors += st.dramSectors;
    }
  };
  for (size_t s = 0; s < sites.size(); ++s) {
    SiteTraffic& st = t.sites[s];
    const MemoryAccess& m = *sites[s].access;
    const double known = sectors[s] * scale;
    const double dark = unknown[s] * scale;
    if (gatherFootprint[s] > 0) {
      const GroupKey key = groupOf(s);
      const GatherGroup& g = gatherGroups[key];
      const double share = g.lanes > 0 ? dark / g.lanes : 0;
      if (gatherGuessed[s] && distinctCounted.insert(key).second) {
        (m.isStore ? gatherDistinctWritten : gatherDistinctRead) += g.traffic.distinct;
      }
      st.requests = requests[s];
      st.sectors = share * g.traffic.sectors;
      st.partialSectors = window.partial[s] * scale;
      st.l1Hits = share * g.traffic.l1Hits;
      st.l2Hits = share * g.traffic.l2Hits;
      st.dramSectors = share * g.traffic.dramSectors;
      st.wavefronts = siteWavefronts(s, st);
      addToTotals(m.isStore, st);
      continue;
    }
    unknownTotal += dark;
    st.requests = requests[s];
    st.sectors = known + dark;
    st.wavefronts = wavefronts[s] * scale;
    st.partialSectors = window.partial[s] * scale;
    if (m.isStore) {
      st.l2Hits = st.sectors;
      st.dramSectors = writeBacks[s] * scale + dark;
      addToTotals(true, st);
      continue;
    }
    double h1 = l1Eligible(m) && l1Seen[s] > 0 ? l1Hit[s] / l1Seen[s] : 0.0;
    const double h2all = sectors[s] > 0 ? l2Hit[s] / sectors[s] : 0.0;
    double h2 = h1 < 1 ? std::max(0.0, (h2all - h1) / (1 - h1)) : 0.0;
    const double whole = l1Eligible(m) && l1Seen[s] > 0 ? std::min(h1, l1Whole[s] / l1Seen[s]) : h1;
    if (options.l1HitRate) h1 = *options.l1HitRate;
    if (options.l2HitRate) h2 = *options.l2HitRate;
    st.l1Hits = known * h1;
    st.l1SplitHits = options.l1HitRate ? 0.0 : known * std::max(0.0, h1 - whole);
    st.l2Hits = known * (1 - h1) * h2;
    st.dramSectors = known * (1 - h1) * (1 - h2) + dark;
    if (fetch > 1 && !options.l2HitRate) {
      // DRAM reads at the fetch granularity: the misses of the fetched-unit analysis (conditioned
      // on an L1 miss as above), each bringing `fetch` sectors.
      const double hfAll = sectors[s] > 0 ? fetchedHit[s] / sectors[s] : 0.0;
      const double hf = h1 < 1 ? std::clamp((hfAll - h1) / (1 - h1), 0.0, 1.0) : 0.0;
      st.dramSectors = known * (1 - h1) * (1 - hf) * static_cast<double>(fetch) + dark;
      // Per L2 miss, the sectors of unknown address counted as one each (as their DRAM reads).
      const double misses = known * (1 - h1) * (1 - h2) + dark;
      if (misses > 1e-9) st.dramFetchPerMiss = st.dramSectors / misses;
    }
    st.wavefronts = siteWavefronts(s, st);
    addToTotals(false, st);
  }
  // Footprint: the window's distinct sectors, plus, for the blocks beyond it, the growth per
  // block seen over the window's second half (new data per block in steady state).
  double distinct = r.distinctUnits;
  // Distinct sampled sectors of the window's first half (Timed::firstHalf), for the growth per
  // block; a first touch of a whole (unwindowed) stream counts once.
  const double firstHalfDistinct = windowFootprint(timed, true);
  if (streams.windowed()) distinct = windowFootprint(timed, false);
  const double windowDistinct = distinct;
  if (windowBlocks < blocks && windowBlocks - half > 0) {
    const double growth = std::max(0.0, windowDistinct - firstHalfDistinct) /
                          static_cast<double>(windowBlocks - half);
    distinct += growth * static_cast<double>(blocks - windowBlocks);
  }
  double writtenShare = windowTally.writtenShare(r.distinctReadUnits, r.distinctWrittenUnits, rate);
  distinct /= windowRate;
  if (spreadFootprint >= 0 && spreadFootprint < distinct) {
    distinct = spreadFootprint;
    writtenShare = spreadWrittenShare;
  }
  t.compulsoryReadBytes = distinct * (1 - writtenShare) * static_cast<double>(sectorBytes);
  t.compulsoryWriteBytes = distinct * writtenShare * static_cast<double>(sectorBytes);
  // The hull of each site's bytes over the whole grid bounds the footprint from above: the
  // sampled estimate only sees sharing between the blocks it samples (a row of B read by every
  // block row, 64 blocks apart in launch order, looks private to each sampled block and is
  // counted once per block), so it can exceed the arrays the launch touches many times over.
  std::vector<std::pair<long long, long long>> hull;
  struct HullBytes {
    double read, written, all;  // bytes the loads, the stores, all sites may touch
  };
  std::optional<HullBytes> hullBytes;
  if (streams.byteHulls(launch.grid, hull)) {
    // Distinct sectors of the union of the sites' hulls: of all sites, of the stores, of the loads.
    enum class Sites { All, Stores, Loads };
    auto unionSectors = [&](Sites which) {
      std::vector<std::pair<long long, long long>> v;
      for (size_t s = 0; s < sites.size(); ++s) {
        const bool store = sites[s].access->isStore;
        if (hull[s].first > hull[s].second || (which == Sites::Stores && !store) ||
            (which == Sites::Loads && store)) {
          continue;
        }
        v.emplace_back(hull[s].first / sectorBytes, hull[s].second / sectorBytes);
      }
      std::sort(v.begin(), v.end());
      double n = 0;
      long long end = LLONG_MIN;  // last sector counted
      for (const auto& [lo, hi] : v) {
        if (hi <= end) continue;
        n += static_cast<double>(hi - std::max(lo, end + 1) + 1);
        end = hi;
      }
      return n;
    };
    const double all = unionSectors(Sites::All), written = unionSectors(Sites::Stores);
    const double sb = static_cast<double>(sectorBytes);
    // An array read and written (y = a x + y) is in both: its reads miss once too.
    hullBytes = HullBytes{unionSectors(Sites::Loads) * sb, written * sb, all * sb};
    if (all * sb < t.compulsoryBytes()) {
      t.compulsoryReadBytes = (all - written) * sb;
      t.compulsoryWriteBytes = written * sb;
      t.notes.push_back("memory: footprint capped by the hull of each site's addresses over the grid");
    }
  }
  char note[240];
  // A frontend that knows the footprint exactly (skeletons) replaces the sampled estimate; an
  // upper bound (C loops) caps it.
  if (const std::optional<Footprint> known = ir.streams->footprint()) {
    if (known->exact) hullBytes.reset();  // the exact footprint bounds the misses below
    if (known->exact || known->readBytes + known->writtenBytes < t.compulsoryBytes()) {
      t.compulsoryReadBytes = known->readBytes;
      t.compulsoryWriteBytes = known->writtenBytes;
      t.notes.push_back(known->exact ? "memory: footprint exact from the frontend (bounded regular sections over the loop space)"
                                     : "memory: footprint capped by the frontend's bound (hull of each array's affine accesses)");
    }
  }
  // Arrays only ever indexed by data are outside every footprint above: the sectors their
  // accesses touch are read (or written) at least once.
  t.compulsoryReadBytes += gatherDistinctRead * sb;
  t.compulsoryWriteBytes += gatherDistinctWritten * sb;
  // A footprint that fits in L2 leaves only compulsory misses: under LRU a re-touch hits when
  // fewer distinct sectors than the capacity came in between, and between any two touches fewer
  // than the whole footprint do. The sampled views miss the reuse between blocks they do not
  // sample together (distant in launch order, or in a later wave) and charge DRAM for it; cap
  // DRAM reads at the bytes the loads may touch and write-backs at the bytes the stores may
  // touch, the rest served by L2. The footprint there is an upper bound when one is known (the
  // hull, or the frontend's exact footprint), so that a sampled estimate that falls short cannot
  // push DRAM below what the launch reads. Without a hull the footprint does not say which
  // written sectors are also read: each sector misses at most once, on its first touch, so the
  // whole footprint bounds the read misses. Not with unknown addresses (their data is outside
  // the footprint) or measured hit rates.
  const double boundRead = hullBytes ? hullBytes->read : t.compulsoryBytes();
  const double boundWritten = hullBytes ? hullBytes->written : t.compulsoryWriteBytes;
  const double fits = hullBytes ? hullBytes->all : t.compulsoryBytes();
  if (l2Level && unknownTotal == 0 && !options.l2HitRate && fits > 0 &&
      fits <= static_cast<double>(l2Level->size.value)) {
    const double sb = static_cast<double>(sectorBytes);
    const double readCap = boundRead / sb, writeCap = boundWritten / sb;
    const double readKeep = t.dramReadSectors > readCap ? readCap / t.dramReadSectors : 1;
    const double writeKeep = t.dramWriteSectors > writeCap ? writeCap / t.dramWriteSectors : 1;
    if (readKeep < 1 || writeKeep < 1) {
      keepDram(t, readKeep, writeKeep);
      t.notes.push_back("memory: the footprint fits in L2: DRAM traffic capped at the compulsory bytes");
    }
  }
  // A warm start (Launch::l2Start): the same launch ran just before over the same data. Under
  // LRU a footprint that fits in L2 is resident when the launch starts and stays so (fewer
  // distinct sectors than the capacity are ever touched): every L1 miss hits in L2, and a store
  // finds its sector resident (dirty from the run before), so nothing reaches DRAM. A larger
  // footprint leaves, under LRU, the sectors the previous run touched last, which this run
  // evicts before it reaches them when it touches its data in the same order: a cold start.
  // Measured L2s lose part of a footprint below their size and keep part of one above it
  // (`warm_full`, `warm_none`): that share of the first touches is served by L2 instead. A
  // footprint that fits has only first touches left to reach DRAM (the cap above), so the share
  // applies to all its DRAM traffic; a larger one also misses on re-touches within the launch,
  // which no warm start saves: only the share of the compulsory bytes moves.
  // Not with unknown addresses (outside the footprint) or measured hit rates.
  if (launch.l2Start == L2Start::Warm) {
    const double share = l2Level && unknownTotal == 0 && !options.l2HitRate && fits > 0 ? warmShare(*l2Level, fits) : 0.0;
    if (share > 0) {
      const bool fitsL2 = fits <= static_cast<double>(l2Level->size.value);
      auto kept = [&](double dram, double compulsory) {  // the share of DRAM sectors left
        if (dram <= 0) return 1.0;
        const double moved = share * (fitsL2 ? dram : std::min(dram, compulsory / sb));
        return (dram - moved) / dram;
      };
      keepDram(t, kept(t.dramReadSectors, t.compulsoryReadBytes), kept(t.dramWriteSectors, t.compulsoryWriteBytes));
      t.residentBytes = t.compulsoryBytes() * share;
      std::snprintf(note, sizeof note, "memory: warm L2: %.0f%% of the footprint (%.3g MiB) is resident from the launch before",
                    100 * share, fits / (1 << 20));
      t.notes.push_back(note);
    } else {
      t.notes.push_back(fits > 0 && l2Level
                            ? "memory: warm L2 asked for, but the footprint is too large for the L2 to keep any of it: a cold start"
                            : "memory: warm L2 asked for, but the footprint is not known (data-dependent addresses in unknown arrays, or measured hit rates): a cold start");
    }
  }
  // Atomics at the L2 (the atomics floor), over the window's blocks:
  //  - to one address they are applied one after another: the lane operations per address. The
  //    most-updated address counts for the whole launch when every window block updates it (one
  //    result or counter for the grid); otherwise its window count stands, a lower bound.
  //  - the atomic units take a warp request sector by sector, each sector request as long as
  //    its most-updated address has lanes (expectedSectorMaxLanes() is the same count for
  //    addresses spread over an array); one unit serves each `atomic_interleave` chunk of bytes.
  //    The busiest chunk counts for the launch on the same rule as the hottest address.
  {
    std::vector<char> atomicSite(sites.size(), 0);
    bool anyAtomic = false;
    for (size_t s = 0; s < sites.size(); ++s) {
      const Instruction& in = ir.blocks[static_cast<size_t>(sites[s].block)].instructions[static_cast<size_t>(sites[s].index)];
      // 1: an atomic, 2: an f32 add atomic.
      atomicSite[s] = sites[s].access->space == MemorySpace::Global && isAtomicOpcode(in.opcode)
                          ? (isFloatAddAtomic(in.opcode) ? 2 : 1)
                          : 0;
      anyAtomic = anyAtomic || atomicSite[s];
    }
    struct AddressCount {
      double ops = 0, floatOps = 0;
      long long lastBlock = -1, blocks = 0;
    };
    const long long interleave =
        l2Level && l2Level->atomicInterleave ? std::max<long long>(1, l2Level->atomicInterleave->value) : 0;
    std::unordered_map<long long, AddressCount> perAddress, perChunk;  // perChunk: ops = sector lanes
    bool scattered = false, chunksScattered = false;
    double sectorLanes = 0;
    std::vector<long long> sorted;
    for (long long b = 0; anyAtomic && b < windowBlocks; ++b) {
      const std::array<long long, 3> c = coords(b);
      auto count = [&](std::unordered_map<long long, AddressCount>& map, long long key, double ops, double floatOps) {
        AddressCount& n = map[key];
        n.ops += ops;
        n.floatOps += floatOps;
        if (n.lastBlock != b) {
          n.lastBlock = b;
          ++n.blocks;
        }
      };
      Expected<void> ok = streams.forEachLanes(
          c[0], c[1], c[2], [&](int site) { return atomicSite[static_cast<size_t>(site)] != 0; },
          [&](const WarpAccess& a, const std::vector<long long>& lanes) {
            const bool isFloat = atomicSite[static_cast<size_t>(a.site)] == 2;
            sorted.clear();
            for (long long address : lanes) {
              if (address < 0) continue;
              sorted.push_back(address);
              if (!scattered) count(perAddress, address, a.weight, isFloat ? a.weight : 0);
            }
            scattered = scattered || perAddress.size() > kMaxAtomicAddresses;
            // Sector requests: the most lanes on one address of each sector.
            std::sort(sorted.begin(), sorted.end());
            for (size_t i = 0; i < sorted.size();) {
              const long long sector = sorted[i] / sectorBytes;
              long long most = 0;
              while (i < sorted.size() && sorted[i] / sectorBytes == sector) {
                size_t j = i;
                while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
                most = std::max<long long>(most, static_cast<long long>(j - i));
                i = j;
              }
              const double lanesOfRequest = static_cast<double>(most) * a.weight;
              sectorLanes += lanesOfRequest;
              if (interleave > 0 && !chunksScattered) count(perChunk, sector * sectorBytes / interleave, lanesOfRequest, 0);
            }
            chunksScattered = chunksScattered || perChunk.size() > kMaxAtomicAddresses;
          });
      if (!ok) return std::move(ok).takeError();
    }
    const double windowScale = static_cast<double>(blocks) / static_cast<double>(std::max<long long>(1, windowBlocks));
    // The busiest entry of a count: ties to the one more blocks update, then the lowest key
    // (the map's order is not the launch's); its launch count (see above).
    auto hottest = [&](const std::unordered_map<long long, AddressCount>& map) -> std::optional<AddressCount> {
      const AddressCount* hot = nullptr;
      long long hotKey = 0;
      for (const auto& [key, n] : map) {
        if (!hot || n.ops > hot->ops || (n.ops == hot->ops && (n.blocks > hot->blocks || (n.blocks == hot->blocks && key < hotKey)))) {
          hot = &n;
          hotKey = key;
        }
      }
      if (!hot) return std::nullopt;
      AddressCount launchCount = *hot;
      const double scale = hot->blocks == windowBlocks ? windowScale : 1.0;
      launchCount.ops *= scale;
      launchCount.floatOps *= scale;
      return launchCount;
    };
    if (!scattered) {
      if (const std::optional<AddressCount> hot = hottest(perAddress)) {
        t.hotAtomicOps = hot->ops;
        t.hotAtomicFloatOps = hot->floatOps;
      }
    }
    if (!chunksScattered) {
      if (const std::optional<AddressCount> hot = hottest(perChunk)) t.atomicHotUnitLanes = hot->ops;
    }
    t.atomicSectorLanes = sectorLanes * windowScale;
    // Data-dependent addresses in an array the launch sizes: spread uniformly over it.
    for (size_t s = 0; s < sites.size(); ++s) {
      const MemoryAccess& m = *sites[s].access;
      if (!atomicSite[s] || !m.laneAddresses.empty() || !m.allocation || !m.allocation->bytes || window.requests[s] <= 0) continue;
      const long long words = std::max<long long>(1, *m.allocation->bytes / std::max(1, m.widthBytes));
      const int perSector = static_cast<int>(std::max<long long>(1, sectorBytes / std::max(1, m.widthBytes)));
      const double lanes = std::clamp(m.transactionsPerInst.value_or(static_cast<double>(warpSize)), 1.0, static_cast<double>(warpSize));
      const double requests = window.requests[s];  // the launch's: scaled with the other sites' above
      const double lanesPerRequest = expectedSectorMaxLanes(lanes, words, perSector);
      t.atomicSectorLanes += requests * lanesPerRequest;
      if (interleave > 0) {
        const double chunks = std::ceil(static_cast<double>(*m.allocation->bytes) / static_cast<double>(interleave));
        t.atomicHotUnitLanes = std::max(t.atomicHotUnitLanes, requests * lanesPerRequest / std::max(1.0, chunks));
      }
      const double perAddressOps = requests * lanes / static_cast<double>(words);
      if (perAddressOps > t.hotAtomicOps) {
        t.hotAtomicOps = perAddressOps;
        t.hotAtomicFloatOps = atomicSite[s] == 2 ? perAddressOps : 0;
      }
    }
  }
  std::snprintf(note, sizeof note,
                "memory: L2 over the first %lld of %lld blocks (%s), %.3g of the sectors analysed; L1 %lld KiB per SM",
                windowBlocks, blocks, streams.affine() ? "addresses affine in the block index" : "exact streams", rate,
                l1Bytes / 1024);
  t.notes.push_back(note);
  if (streams.windowed()) {
    std::snprintf(note, sizeof note,
                  "memory: warps longer than %lld instructions analysed from %lld windows of %lld (each starts cold; its first half only warms the caches)",
                  kWarpInstructions, kWarpInstructions / kWarpWindow, kWarpWindow);
    t.notes.push_back(note);
  }
  if (gatheredTotal > 0) {
    std::string arrays;
    std::set<std::string> named;
    for (size_t s = 0; s < sites.size(); ++s) {
      const MemoryAccess& m = *sites[s].access;
      if (gatherFootprint[s] <= 0 || !named.insert(m.allocation->name).second) continue;
      std::snprintf(note, sizeof note, "%s%s %.3g MiB%s", arrays.empty() ? "" : ", ",
                    m.allocation->name.empty() ? "?" : m.allocation->name.c_str(), gatherFootprint[s] * sb / (1 << 20),
                    m.allocation->bytes ? " (as the launch gives it)"
                    : gatherGuessed[s]  ? " (as large as the median array indexed directly)"
                                        : "");
      arrays += note;
    }
    std::snprintf(note, sizeof note, "memory: %.0f%% of the sectors have data-dependent addresses, spread uniformly over their arrays: ",
                  100.0 * gatheredTotal / std::max(1.0, t.loadSectors + t.storeSectors));
    t.notes.push_back(note + arrays);
  }
  if (unknownTotal > 0) {
    std::snprintf(note, sizeof note, "memory: %.0f%% of the sectors have data-dependent addresses in unknown arrays: charged to DRAM, left out of the footprint",
                  100.0 * unknownTotal / std::max(1.0, t.loadSectors + t.storeSectors));
    t.notes.push_back(note);
  }
  return t;
}

double expectedSectorMaxLanes(double lanes, long long addresses, int perSector) {
  if (!(lanes > 0) || addresses <= 0) return 0;
  lanes = std::min(lanes, 64.0);
  const int s = static_cast<int>(std::clamp<long long>(perSector, 1, addresses));
  const long long sectors = (addresses + s - 1) / s;
  const double p = 1.0 / static_cast<double>(sectors);
  // For k lanes: each sector gets j ~ Binomial(k, p) of them, spread uniformly over its s
  // addresses, and E[max | j] = sum over t < j of (1 − P(max ≤ t | j)), where P(max ≤ t | j) =
  // j! · [x^j] (sum over i ≤ t of (x/s)^i / i!)^s (counts of j lanes in s addresses, none above t).
  auto expected = [&](int k) {
    if (k <= 0) return 0.0;
    std::vector<double> inSector(static_cast<size_t>(k) + 1), factorial(static_cast<size_t>(k) + 1, 1.0);
    for (int j = 1; j <= k; ++j) factorial[static_cast<size_t>(j)] = factorial[static_cast<size_t>(j - 1)] * j;
    for (int j = 0; j <= k; ++j) {
      inSector[static_cast<size_t>(j)] = factorial[static_cast<size_t>(k)] / (factorial[static_cast<size_t>(j)] * factorial[static_cast<size_t>(k - j)]) *
                                         std::pow(p, j) * std::pow(1 - p, k - j);
    }
    double perSectorMax = 0;
    // (x/s)^i / i!; the product below takes the terms up to t only.
    std::vector<double> term(static_cast<size_t>(k) + 1), power(static_cast<size_t>(k) + 1), next(static_cast<size_t>(k) + 1);
    for (int i = 0; i <= k; ++i) term[static_cast<size_t>(i)] = std::pow(1.0 / s, i) / factorial[static_cast<size_t>(i)];
    for (int t = 0; t < k; ++t) {
      std::fill(power.begin(), power.end(), 0.0);
      power[0] = 1;
      for (int r = 0; r < s; ++r) {
        std::fill(next.begin(), next.end(), 0.0);
        for (int a = 0; a <= k; ++a) {
          if (power[static_cast<size_t>(a)] == 0) continue;
          for (int b = 0; a + b <= k && b <= t; ++b) next[static_cast<size_t>(a + b)] += power[static_cast<size_t>(a)] * term[static_cast<size_t>(b)];
        }
        power.swap(next);
      }
      for (int j = t + 1; j <= k; ++j) {
        const double atMostT = std::min(1.0, power[static_cast<size_t>(j)] * factorial[static_cast<size_t>(j)]);
        perSectorMax += inSector[static_cast<size_t>(j)] * (1 - atMostT);
      }
    }
    return static_cast<double>(sectors) * perSectorMax;
  };
  const int below = static_cast<int>(std::floor(lanes));
  const double frac = lanes - below;
  return frac > 0 ? (1 - frac) * expected(below) + frac * expected(below + 1) : expected(below);
}

SpreadTraffic spreadAccesses(double requests, double lanes, double footprint, double cached, double l1Sectors,
                             int sms, double l2Sectors, bool isStore) {
  SpreadTraffic t;
  if (requests <= 0 || lanes <= 0) return t;
  const double f = std::max(1.0, footprint);
  const double pool = std::max(f, cached);
  const double k = lanes / requests;
  // Distinct sectors of k independent uniform draws: f (1 − (1 − 1/f)^k), via log1p for large f.
  const double perRequest = std::clamp(-f * std::expm1(k * std::log1p(-1.0 / std::max(f, 1.0 + 1e-12))), std::min(1.0, k), k);
  t.sectors = requests * perRequest;
  const auto distinct = [&](double n) { return f * -std::expm1(-n / f); };
  const auto misses = [&](double n, double capacity) {
    return std::min(n, std::max(distinct(n), n * (1 - std::min(1.0, capacity / pool))));
  };
  t.distinct = distinct(t.sectors);
  double l1Misses = t.sectors;
  if (!isStore && l1Sectors > 0) {
    const double perSm = t.sectors / std::max(1, sms);
    l1Misses = misses(perSm, l1Sectors) * std::max(1, sms);
    t.l1Hits = t.sectors - l1Misses;
  }
  // Every sector touched misses the L2 once, however many of its touches the L1 served.
  t.dramSectors = std::min(l1Misses, std::max(misses(l1Misses, l2Sectors), t.distinct));
  t.l2Hits = isStore ? t.sectors : l1Misses - t.dramSectors;
  return t;
}

double achievableBandwidth(const MemoryLevel& level, double readShare) {
  const double peak = level.bandwidth ? level.bandwidth->value : 0.0;
  const double read = level.readBandwidth ? level.readBandwidth->value : peak;
  const double write = level.writeBandwidth ? level.writeBandwidth->value : peak;
  const double mixed = level.mixedBandwidth ? level.mixedBandwidth->value : peak;
  if (read <= 0 || write <= 0 || mixed <= 0) return peak;
  const double r = std::clamp(readShare, 0.0, 1.0);
  const double perByte = r >= 0.5 ? (1 / mixed) + (2 * r - 1) * (1 / read - 1 / mixed)
                                  : (1 / write) + 2 * r * (1 / mixed - 1 / write);
  return 1 / perByte;
}

double warmShare(const MemoryLevel& level, double bytes) {
  const double size = static_cast<double>(level.size.value);
  const double full = level.warmFull ? static_cast<double>(level.warmFull->value) : size;
  const double none = level.warmNone ? static_cast<double>(level.warmNone->value) : size;
  if (bytes <= full) return 1;
  if (bytes >= none) return 0;
  return (none - bytes) / (none - full);
}

double averageHitLatency(const MemoryLevel& level) {
  if (!level.farLatency || !level.partitions || level.partitions->value <= 1) return level.latency.value;
  const double near = 1.0 / level.partitions->value;
  return near * level.latency.value + (1 - near) * level.farLatency->value;
}

}  // namespace foresight
