// SPDX-License-Identifier: Apache-2.0
#include "foresight/advise/placement/access_profile.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <bit>
#include <limits>
#include <map>
#include <unordered_map>

#include "foresight/ir/warp_stream.h"
#include "foresight/memory/coalescing.h"

namespace foresight {

namespace {

/// The array whose window holds `address`, or -1.
int arrayOf(const std::vector<ArrayWindow>& arrays, long long address) {
  for (size_t a = 0; a < arrays.size(); ++a) {
    if (address >= arrays[a].begin && address < arrays[a].end) return static_cast<int>(a);
  }
  return -1;
}

/// First active lane address of a request, or -1.
long long firstActive(const std::vector<long long>& lanes) {
  for (long long a : lanes) {
    if (a >= 0) return a;
  }
  return -1;
}

/// Per profiled block and array: the byte range touched and which thread first read each byte.
struct BlockUse {
  long long lo = std::numeric_limits<long long>::max();
  long long hi = 0;
  std::unordered_map<long long, int> firstReader;  // element offset → thread
};

/// A warp's stream for the profile: whole when it is at most four budgets long (so that accesses
/// of the prologue and the epilogue, an output written once at the end, are all seen), else the
/// systematic sample of the budget (every phase in proportion, loops by their steady state).
Expected<SampledStream> profiledStream(const WarpStreamSource& source, long long block, int warp,
                                       const StreamSampling& sampling) {
  Expected<SampledStream> s = source.sampled(block, warp, sampling);
  if (!s || sampling.budget <= 0 || s->fullLength > 4.0 * static_cast<double>(sampling.budget) ||
      s->instructions.size() >= static_cast<size_t>(s->fullLength)) {
    return s;
  }
  StreamSampling whole;
  whole.budget = 0;
  return source.sampled(block, warp, whole);
}

}  // namespace

bool porpleStable(double cur, double pre1, double pre2) {
  const double dCur = std::abs(cur - pre1);
  const double dPre = std::abs(pre1 - pre2);
  return dCur < 0.005 * std::abs(pre1) || (0.995 * dPre < dCur && dCur < 1.005 * dPre);
}

int porpleWarpsProfiled(const std::vector<double>& warpProxy) {
  double prev1 = 0, prev2 = 0;
  for (size_t w = 0; w < warpProxy.size(); ++w) {
    const double cur = (prev1 * static_cast<double>(w) + warpProxy[w]) / static_cast<double>(w + 1);
    if (w >= 2 && porpleStable(cur, prev1, prev2)) return static_cast<int>(w + 1);
    prev2 = prev1;
    prev1 = cur;
  }
  return static_cast<int>(warpProxy.size());
}

Expected<AccessProfile> profileAccesses(const KernelIR& ir, const Launch& launch, const ProfileOptions& options) {
  if (!ir.streams || ir.arrays.empty()) {
    return makeError("kernel '" + ir.name +
                     "': data placement needs the per-lane addresses of its global arrays, which only the CUDA "
                     "frontend (.cu, .ptx, .cubin) provides");
  }
  AccessProfile p;
  p.gridBlocks = launch.blocks();
  p.threadsPerBlock = static_cast<int>(launch.threadsPerBlock());
  p.warpsPerBlock = static_cast<int>((launch.threadsPerBlock() + 31) / 32);
  p.profiledBlocks = std::clamp<long long>(options.blocks, 1, p.gridBlocks);

  // Static global access sites.
  std::map<std::pair<int, int>, int> siteOf;
  for (size_t b = 0; b < ir.blocks.size(); ++b) {
    for (size_t i = 0; i < ir.blocks[b].instructions.size(); ++i) {
      const Instruction& in = ir.blocks[b].instructions[i];
      if (!in.memory || in.memory->space != MemorySpace::Global) continue;
      siteOf[{static_cast<int>(b), static_cast<int>(i)}] = static_cast<int>(p.sites.size());
      ProfiledSite s;
      s.array = -1;
      s.store = in.memory->isStore;
      s.widthBytes = in.memory->widthBytes;
      s.executes = ir.blocks[b].executionsPerWarp > 0;
      s.where = !in.sourceFile.empty() && in.sourceLine > 0 ? in.sourceFile + ":" + std::to_string(in.sourceLine) : in.opcode;
      if (in.memory->allocation) s.array = arrayOf(ir.arrays, in.memory->allocation->begin);
      if (s.array < 0) s.array = arrayOf(ir.arrays, firstActive(in.memory->laneAddresses));
      p.sites.push_back(std::move(s));
    }
  }
  if (p.sites.empty()) return makeError("kernel '" + ir.name + "' accesses no global array: there is nothing to place");

  std::vector<long long> extent(ir.arrays.size(), 0);
  std::vector<int> widest(ir.arrays.size(), 0);
  std::vector<char> read(ir.arrays.size(), 0), written(ir.arrays.size(), 0), dependent(ir.arrays.size(), 0);
  std::vector<char> uniform(ir.arrays.size(), 1), coalesced(ir.arrays.size(), 1);
  std::vector<char> temporal(ir.arrays.size(), 0), shared(ir.arrays.size(), 0);
  std::vector<long long> tile(ir.arrays.size(), 0);
  std::vector<double> requestsPerArray(ir.arrays.size(), 0);
  std::vector<char> reached(p.sites.size(), 0);

  // One request from a dynamic instruction; false when it is no global array access.
  auto request = [&](const DynamicInstruction& d, int warp, double weight, ProfiledRequest& r) {
    auto it = siteOf.find({d.block, d.index});
    if (it == siteOf.end()) return false;
    const MemoryAccess& m = *ir.blocks[static_cast<size_t>(d.block)].instructions[static_cast<size_t>(d.index)].memory;
    const std::vector<long long>& lanes = d.laneAddresses.empty() && !m.dataDependent ? m.laneAddresses : d.laneAddresses;
    ProfiledSite& site = p.sites[static_cast<size_t>(it->second)];
    if (site.array < 0) site.array = arrayOf(ir.arrays, firstActive(lanes));
    if (site.array < 0) return false;  // an address outside every array window (a module variable)
    r.array = site.array;
    r.site = it->second;
    r.warp = warp;
    r.store = m.isStore;
    r.widthBytes = m.widthBytes;
    r.weight = weight;
    r.lanes.clear();
    r.unknownLanes = 0;
    if (lanes.empty()) {
      r.unknownLanes = std::popcount(d.activeMask);
      return r.unknownLanes > 0;
    }
    const ArrayWindow& w = ir.arrays[static_cast<size_t>(r.array)];
    r.lanes.reserve(lanes.size());
    for (long long a : lanes) r.lanes.push_back(a >= w.begin && a < w.end ? a - w.begin : kInactiveLane);
    return true;
  };
  auto extend = [&](const ProfiledRequest& r) {
    const size_t a = static_cast<size_t>(r.array);
    widest[a] = std::max(widest[a], r.widthBytes);
    if (r.store) written[a] = 1;
    else read[a] = 1;
    if (r.unknownLanes > 0) dependent[a] = 1;
    for (long long o : r.lanes) {
      if (o >= 0) extent[a] = std::max(extent[a], o + r.widthBytes);
    }
  };

  StreamSampling sampling;
  sampling.budget = options.instructionsPerWarp;
  std::vector<std::vector<ProfiledRequest>> perWarp;
  // Procedure 2's proxy per warp: the mean over its threads of each thread's sum of the element
  // indices it accessed (all arrays in one sum: porple.md §5.4's choice for several arrays).
  std::vector<double> proxy;
  for (long long b = 0; b < p.profiledBlocks; ++b) {
    std::vector<BlockUse> use(ir.arrays.size());
    for (int w = 0; w < p.warpsPerBlock; ++w) {
      Expected<SampledStream> s = profiledStream(*ir.streams, b, w, sampling);
      if (!s) return std::move(s).takeError();
      const int warp = static_cast<int>(perWarp.size());
      std::vector<ProfiledRequest>& out = perWarp.emplace_back();
      std::array<double, 32> threadSum{};
      std::uint32_t threadsSeen = 0;
      size_t window = 0;
      for (size_t k = 0; k < s->instructions.size(); ++k) {
        while (window + 1 < s->windows.size() && k >= s->windows[window].end) ++window;
        const double weight = s->windows.empty() ? 1.0 : s->windows[window].weight;
        ProfiledRequest r;
        if (!request(s->instructions[k], warp, weight, r)) continue;
        extend(r);
        reached[static_cast<size_t>(r.site)] = 1;
        const size_t a = static_cast<size_t>(r.array);
        requestsPerArray[a] += weight;
        if (!r.lanes.empty()) {
          Expected<SectorCount> sc = countSectors(r.lanes, r.widthBytes);
          if (sc && !sc->coalesced) coalesced[a] = 0;
          if (!r.store) {
            long long first = -1;
            for (long long o : r.lanes) {
              if (o < 0) continue;
              if (first < 0) first = o;
              else if (o != first) uniform[a] = 0;
            }
          }
          BlockUse& u = use[a];
          for (size_t lane = 0; lane < r.lanes.size(); ++lane) {
            const long long o = r.lanes[lane];
            if (o < 0) continue;
            if (lane < threadSum.size()) {
              threadSum[lane] += static_cast<double>(o / r.widthBytes);
              threadsSeen |= std::uint32_t{1} << lane;
            }
            u.lo = std::min(u.lo, o);
            u.hi = std::max(u.hi, o + r.widthBytes);
            if (r.store) continue;
            const int thread = w * 32 + static_cast<int>(lane);
            auto [at, inserted] = u.firstReader.try_emplace(o / r.widthBytes, thread);
            if (!inserted) (at->second == thread ? temporal[a] : shared[a]) = 1;
          }
        } else if (!r.store) {
          uniform[a] = 0;
          coalesced[a] = 0;
        }
        out.push_back(std::move(r));
      }
      double sum = 0;
      for (size_t lane = 0; lane < threadSum.size(); ++lane) {
        if (threadsSeen >> lane & 1) sum += threadSum[lane];
      }
      proxy.push_back(threadsSeen ? sum / std::popcount(threadsSeen) : 0.0);
    }
    for (size_t a = 0; a < use.size(); ++a) {
      if (use[a].hi > use[a].lo) tile[a] = std::max(tile[a], use[a].hi - use[a].lo);
    }
  }
  // The last block's warps, for the extents only.
  if (p.gridBlocks > p.profiledBlocks) {
    for (int w = 0; w < p.warpsPerBlock; ++w) {
      Expected<SampledStream> s = profiledStream(*ir.streams, p.gridBlocks - 1, w, sampling);
      if (!s) return std::move(s).takeError();
      ProfiledRequest r;
      for (const DynamicInstruction& d : s->instructions) {
        if (request(d, 0, 1, r)) extend(r);
      }
    }
  }

  // Procedure 2: the trace keeps the warps up to where the mean index settled; they stand for
  // the rest. Threads that exchange data through shared memory (a shared store and a barrier)
  // depend on each other, and PORPLE then profiles the whole block. Within a warp the rule does
  // not apply: the warp's lanes run together, so its trace has them all at no extra cost.
  const int allWarps = static_cast<int>(perWarp.size());
  p.tracedWarps = allWarps;
  if (options.earlyStop) {
    bool sharedStore = false, barrier = false;
    for (const BasicBlock& bb : ir.blocks) {
      for (const Instruction& in : bb.instructions) {
        barrier = barrier || in.barrier;
        sharedStore = sharedStore || (in.memory && in.memory->space == MemorySpace::Shared && in.memory->isStore);
      }
    }
    if (sharedStore && barrier) {
      p.fullTraceReason = "its threads exchange data through shared memory";
    } else {
      p.tracedWarps = porpleWarpsProfiled(proxy);
      if (allWarps < 3) p.fullTraceReason = "fewer than 3 warps (the test compares two earlier means)";
      else if (p.tracedWarps == allWarps) p.fullTraceReason = "the mean index did not settle";
    }
  }
  const double standsFor = static_cast<double>(allWarps) / static_cast<double>(std::max(1, p.tracedWarps));
  perWarp.resize(static_cast<size_t>(p.tracedWarps));
  for (auto& w : perWarp) {
    for (ProfiledRequest& r : w) r.weight *= standsFor;
  }
  // Interleave: the k-th request of every warp, warp by warp, then the (k+1)-th.
  size_t longest = 0;
  for (const auto& w : perWarp) longest = std::max(longest, w.size());
  for (size_t k = 0; k < longest; ++k) {
    for (auto& w : perWarp) {
      if (k < w.size()) p.requests.push_back(std::move(w[k]));
    }
  }

  // Arrays that received accesses, renumbered densely.
  std::vector<int> newIndex(ir.arrays.size(), -1);
  for (size_t a = 0; a < ir.arrays.size(); ++a) {
    if (!read[a] && !written[a]) continue;
    newIndex[a] = static_cast<int>(p.arrays.size());
    ProfiledArray pa;
    const ArrayWindow& w = ir.arrays[a];
    pa.name = w.name;
    pa.read = read[a] != 0;
    pa.written = written[a] != 0;
    pa.dataDependent = dependent[a] != 0;
    pa.elementBytes = std::max(1, widest[a]);
    pa.sizeGiven = w.bytes.has_value();
    pa.bytes = w.bytes.value_or(extent[a]);
    pa.sizeKnown = pa.sizeGiven || !pa.dataDependent;
    pa.tileBytes = tile[a];
    pa.tileable = !pa.dataDependent && tile[a] > 0;
    pa.requests = requestsPerArray[a] / static_cast<double>(p.profiledBlocks);
    pa.traits.written = pa.written;
    pa.traits.analyzable = !pa.dataDependent;
    pa.traits.warpUniform = pa.read && uniform[a] != 0;
    pa.traits.coalesced = coalesced[a] != 0;
    pa.traits.temporalReuse = temporal[a] != 0;
    pa.traits.sharedReuse = shared[a] != 0;
    p.arrays.push_back(std::move(pa));
  }
  for (size_t k = 0; k < p.sites.size(); ++k) {
    ProfiledSite& s = p.sites[k];
    // A site matters when its array is missing from the profile (an unrolled loop's remainder
    // that never ran is no loss when the main body touched the same array). Sites whose array
    // is unknown (never resolved) cannot be attributed either way.
    const bool arrayMissing = s.array >= 0 && newIndex[static_cast<size_t>(s.array)] < 0;
    if (!reached[k] && s.executes && arrayMissing) {
      const std::string what = ir.arrays[static_cast<size_t>(s.array)].name + " (" + s.where + ")";
      if (std::find(p.unreached.begin(), p.unreached.end(), what) == p.unreached.end()) p.unreached.push_back(what);
    }
    s.array = s.array >= 0 ? newIndex[static_cast<size_t>(s.array)] : -1;
  }
  for (ProfiledRequest& r : p.requests) r.array = newIndex[static_cast<size_t>(r.array)];
  if (p.arrays.empty()) return makeError("kernel '" + ir.name + "' accesses no global array: there is nothing to place");
  return p;
}

}  // namespace foresight
