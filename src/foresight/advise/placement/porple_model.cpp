// SPDX-License-Identifier: Apache-2.0
#include "foresight/advise/placement/porple_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "foresight/gpu/occupancy.h"
#include "foresight/memory/bank_conflicts.h"
#include "foresight/memory/coalescing.h"
#include "foresight/memory/reuse_distance.h"

namespace foresight {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
/// Weight of the sum over all paths in the path-based cost (a tie-break only).
constexpr double kTieBreak = 1e-9;

/// Bytes of an MSL size (elements counted as `elementBytes` each); 0 when absent.
long long bytesOf(const std::optional<MslSize>& s, int elementBytes) {
  if (!s) return 0;
  return s->elements ? s->total() * elementBytes : s->total();
}

/// α of the memory that holds an array: its pair's first (memory-intensive) or second value,
/// else PORPLE's experiments: 1 for constant memory, 0.2 for the others.
double alphaOf(const MslMemory& root, bool computeIntensive) {
  if (root.alpha) return computeIntensive ? root.alpha->second : root.alpha->first;
  return root.placement == Placement::Constant ? 1.0 : 0.2;
}

/// One memory of an array's hierarchy: its transactions and reuse distances.
struct LevelData {
  const MslMemory* memory = nullptr;
  bool root = false;
  double capacityUnits = kInfinity;  ///< cache capacity in its blocks (root: unbounded)
  double loadTx = 0;                 ///< transactions of loads, per profiled block (weighted)
  double storeTx = 0;
  // Resolved accesses: reuse distances ascending (cold = +inf) with prefix sums of their weights.
  std::vector<double> distance;
  std::vector<double> cumulative;
  double uniformWeight = 0;   ///< accesses of unresolved lanes (uniform over the footprint)
  double footprintUnits = 1;  ///< the array's size in this level's blocks

  [[nodiscard]] double totalWeight() const { return (cumulative.empty() ? 0 : cumulative.back()) + uniformWeight; }
  /// The fraction of accesses whose reuse distance is below `share` blocks.
  [[nodiscard]] double hitFraction(double share) const {
    const double total = totalWeight();
    if (total <= 0) return 0;
    const auto it = std::lower_bound(distance.begin(), distance.end(), share);
    const double resolved = it == distance.begin() ? 0 : cumulative[static_cast<size_t>(it - distance.begin()) - 1];
    return (resolved + uniformWeight * std::min(1.0, share / footprintUnits)) / total;
  }
};

/// An array placed as one option.
struct OptionData {
  bool offered = false;
  std::string whyNot;
  std::string path;
  double alpha = 0.2;
  std::vector<LevelData> levels;  ///< nearest first, the root last
  double copyCost = 0;            ///< shared: copy-in/out cost (global path), cycles × α
  double copyTx = 0;
};

struct ArrayOptions {
  std::array<OptionData, kNumPlacements> options;
};

/// Transactions of one request at a memory under its serialization condition, and the units
/// (blocks or addresses) it touches there, appended to `units`.
double transactions(const ProfiledRequest& r, const MslMemory& m, int elementBytes, std::vector<long long>& units) {
  units.clear();
  const std::optional<Serialization> form = m.serial ? m.serial->form : std::optional<Serialization>(Serialization::Line);
  const long long block = std::max<long long>(1, bytesOf(m.blockSize, elementBytes));
  if (form == Serialization::Bank) {
    BankOptions bo;
    bo.numBanks = m.banks.value_or(32);
    Expected<BankConflicts> bc = countBankConflicts(r.lanes, r.widthBytes, bo);
    return bc ? bc->wavefronts : 0;
  }
  if (form == Serialization::Address) {
    for (long long o : r.lanes) {
      if (o >= 0) units.push_back(o);
    }
    std::sort(units.begin(), units.end());
    units.erase(std::unique(units.begin(), units.end()), units.end());
    return static_cast<double>(units.size());
  }
  touchedSectors(r.lanes, r.widthBytes, block, units);
  if (form == Serialization::Line || form == Serialization::Sector || !m.serial) return static_cast<double>(units.size());
  // The generic condition: lanes grouped first-fit into transactions with no serialized pair.
  const long long banks = m.banks.value_or(32);
  std::vector<std::vector<long long>> groups;
  for (long long o : r.lanes) {
    if (o < 0) continue;
    bool placed = false;
    for (auto& g : groups) {
      const bool clash = std::any_of(g.begin(), g.end(), [&](long long q) {
        return m.serial->serialized(o, q, o / r.widthBytes, q / r.widthBytes, block, banks);
      });
      if (!clash) {
        g.push_back(o);
        placed = true;
        break;
      }
    }
    if (!placed) groups.push_back({o});
  }
  return static_cast<double>(groups.size());
}

}  // namespace

struct PorpleModel::Impl {
  const AccessProfile* profile = nullptr;
  PorpleModelOptions options;
  std::vector<ArrayOptions> arrays;
  long long constantBytes = 0;  ///< capacity of constant memory
  long long persistBytes = 0;   ///< capacity of the persisting L2 window
  const Gpu* gpu = nullptr;
  BlockResources base;
  int baseBlocksPerSm = 0;

  /// Builds one level's data for array `a` (memoised per memory: the same cache serves several
  /// placements).
  LevelData level(int a, const MslMemory& m, bool root, std::map<std::string, LevelData>& memo) const {
    const std::string key = m.name + (root ? "#root" : "");
    if (auto it = memo.find(key); it != memo.end()) {
      LevelData d = it->second;
      d.root = root;
      return d;
    }
    const ProfiledArray& pa = profile->arrays[static_cast<size_t>(a)];
    LevelData d;
    d.memory = &m;
    d.root = root;
    const long long block = std::max<long long>(1, bytesOf(m.blockSize, pa.elementBytes));
    const long long size = bytesOf(m.size, pa.elementBytes);
    if (!root) d.capacityUnits = size > 0 ? static_cast<double>(size) / static_cast<double>(block) : kInfinity;
    // Unresolved lanes spread over the array; an array of unknown size is taken as too large
    // for any cache (they miss: no hit is claimed that the profile cannot support).
    d.footprintUnits = pa.sizeKnown && pa.bytes > 0
                           ? std::max(1.0, std::ceil(static_cast<double>(pa.bytes) / static_cast<double>(block)))
                           : kInfinity;
    std::vector<SampledAccess> stream;
    std::vector<double> weights;
    std::vector<long long> units;
    for (const ProfiledRequest& r : profile->requests) {
      if (r.array != a) continue;
      double tx = 0;
      if (r.unknownLanes > 0) {
        tx = r.unknownLanes;
        d.uniformWeight += tx * r.weight;
      } else {
        tx = transactions(r, m, pa.elementBytes, units);
        for (long long u : units) {
          SampledAccess s;
          s.unit = u;
          s.warp = r.warp;
          s.store = r.store;
          stream.push_back(s);
          weights.push_back(r.weight);
        }
      }
      (r.store ? d.storeTx : d.loadTx) += tx * r.weight;
    }
    const double blocks = static_cast<double>(profile->profiledBlocks);
    d.loadTx /= blocks;
    d.storeTx /= blocks;
    if (!root && !stream.empty()) {
      const ReuseResult rr = analyzeReuse(stream, SamplePopulation{}, 0);
      std::vector<std::pair<double, double>> dw(stream.size());
      for (size_t k = 0; k < stream.size(); ++k) {
        const double dist = rr.outcomes[k].distance < 0 ? kInfinity : rr.outcomes[k].distance;
        dw[k] = {dist, weights[k]};
      }
      std::sort(dw.begin(), dw.end());
      d.distance.reserve(dw.size());
      d.cumulative.reserve(dw.size());
      double sum = 0;
      for (const auto& [dist, w] : dw) {
        sum += w;
        d.distance.push_back(dist);
        d.cumulative.push_back(sum);
      }
    }
    memo.emplace(key, d);
    return d;
  }

  /// The cost of one array under one option, with `share[memory]` arrays sharing each cache.
  double arrayCost(const OptionData& o, const std::map<const MslMemory*, int>& sharing, ArrayCost* out) const {
    double cost = 0;
    double served = 0;  // fraction served by nearer levels
    for (const LevelData& l : o.levels) {
      double fraction = 0;
      if (l.root) {
        fraction = std::max(0.0, 1.0 - served);
      } else {
        const auto k = sharing.find(l.memory);
        const double share = l.capacityUnits / std::max(1, k == sharing.end() ? 1 : k->second);
        const double p = l.hitFraction(share);
        fraction = std::max(0.0, p - served);
        served = std::max(served, p);
      }
      const double tx = (l.loadTx + l.storeTx) * fraction;
      const double latency = l.loadTx + l.storeTx > 0
                                 ? (l.loadTx * l.memory->readLatency + l.storeTx * l.memory->writeLatency) / (l.loadTx + l.storeTx)
                                 : l.memory->readLatency;
      cost += tx * latency * o.alpha;
      if (out) out->levels.push_back({l.memory->name, tx, fraction, latency});
    }
    cost += o.copyCost;
    if (out) {
      out->path = o.path;
      out->copyTransactions = o.copyTx;
      out->cost = cost;
    }
    return cost;
  }

  PlanCost evaluate(const PartialPlan& plan, bool detail) const {
    std::map<const MslMemory*, int> sharing;
    for (size_t a = 0; a < plan.size(); ++a) {
      if (!plan[a]) continue;
      const OptionData& o = arrays[a].options[static_cast<size_t>(*plan[a])];
      for (const LevelData& l : o.levels) {
        if (!l.root) ++sharing[l.memory];
      }
    }
    PlanCost pc;
    std::map<std::string, double> paths;
    double sum = 0;
    for (size_t a = 0; a < plan.size(); ++a) {
      if (!plan[a]) continue;
      const OptionData& o = arrays[a].options[static_cast<size_t>(*plan[a])];
      ArrayCost ac;
      ac.placement = *plan[a];
      const double c = arrayCost(o, sharing, detail ? &ac : nullptr);
      paths[o.path] += c;
      sum += c;
      if (detail) pc.arrays.push_back(std::move(ac));
    }
    double worst = 0;
    for (const auto& [name, t] : paths) {
      worst = std::max(worst, t);
      if (detail) pc.paths.emplace_back(name, t);
    }
    pc.cost = options.pathBased ? worst : sum;
    pc.total = sum;
    return pc;
  }
};

PorpleModel::PorpleModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PorpleModel::~PorpleModel() = default;

Expected<std::unique_ptr<PorpleModel>> PorpleModel::create(const AccessProfile& profile, const MslSpec& msl, const Gpu& gpu,
                                                           const KernelIR& ir, const Launch& launch,
                                                           const PorpleModelOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->profile = &profile;
  impl->options = options;
  impl->gpu = &gpu;
  impl->base.threadsPerBlock = static_cast<int>(launch.threadsPerBlock());
  impl->base.registersPerThread = ir.resources.registers;
  impl->base.sharedPerBlock = ir.resources.staticSharedBytes + launch.dynamicSharedBytes;
  impl->base.carveoutPercent = launch.carveoutPercent;
  Expected<Occupancy> occ = computeOccupancy(gpu, impl->base);
  if (!occ) return std::move(occ).takeError();
  impl->baseBlocksPerSm = occ->blocksPerSm;
  if (const MslMemory* c = msl.placementMemory(Placement::Constant)) impl->constantBytes = bytesOf(c->size, 4);
  if (const MslMemory* l = msl.placementMemory(Placement::PersistingL2)) impl->persistBytes = bytesOf(l->size, 1);

  const std::vector<const MslMemory*> globalChain = msl.hierarchy(Placement::Global);
  if (globalChain.empty()) {
    return makeError("the memory specification" + (msl.file.empty() ? std::string() : " '" + msl.file + "'") +
                     " has no global memory (a software-managed, writable memory with placement=global)");
  }
  const MslMemory& globalRoot = *globalChain.back();
  impl->arrays.resize(profile.arrays.size());
  for (size_t a = 0; a < profile.arrays.size(); ++a) {
    const ProfiledArray& pa = profile.arrays[a];
    std::map<std::string, LevelData> memo;
    for (int p = 0; p < kNumPlacements; ++p) {
      const auto placement = static_cast<Placement>(p);
      OptionData& o = impl->arrays[a].options[static_cast<size_t>(p)];
      const std::vector<const MslMemory*> chain = msl.hierarchy(placement);
      if (chain.empty()) {
        o.whyNot = std::string("the GPU offers no ") + placementName(placement) + " memory";
        continue;
      }
      const MslMemory& root = *chain.back();
      const bool readOnlyMemory = placement == Placement::ReadOnly || !root.writable ||
                                  (chain.front()->placement == Placement::ReadOnly);
      if (pa.written && readOnlyMemory) {
        o.whyNot = "written by the kernel";
        continue;
      }
      if (root.dim && *root.dim != 1) {
        o.whyNot = "applies to " + std::to_string(*root.dim) + "-D arrays only";
        continue;
      }
      if (placement == Placement::Texture &&
          (!pa.sizeKnown || pa.bytes / std::max(1, pa.elementBytes) > options.textureElements)) {
        o.whyNot = pa.sizeKnown ? "larger than the largest linear texture" : "size unknown (give --array NAME=BYTES)";
        continue;
      }
      if (placement == Placement::Constant || placement == Placement::PersistingL2) {
        const long long cap = placement == Placement::Constant ? impl->constantBytes : impl->persistBytes;
        if (!pa.sizeKnown) {
          o.whyNot = "size unknown (give --array NAME=BYTES)";
          continue;
        }
        if (pa.bytes > cap) {
          o.whyNot = std::to_string(pa.bytes) + " B exceed the " + std::to_string(cap) + " B of " + root.name;
          continue;
        }
      }
      if (placement == Placement::Shared) {
        if (!pa.tileable) {
          o.whyNot = pa.dataDependent ? "data-dependent indices (no per-block tile)" : "no per-block tile";
          continue;
        }
        BlockResources br = impl->base;
        br.sharedPerBlock += pa.tileBytes;
        Expected<Occupancy> so = computeOccupancy(gpu, br);
        if (!so || so->blocksPerSm < impl->baseBlocksPerSm) {
          o.whyNot = "a " + std::to_string(pa.tileBytes) + " B tile per block would lower occupancy";
          continue;
        }
      }
      o.offered = true;
      // The read-only cache is a path of its own (PORPLE: the texture path) to global memory.
      const MslMemory& entry = placement == Placement::ReadOnly ? *chain.front() : root;
      o.path = entry.path.empty() ? "global" : entry.path;
      o.alpha = alphaOf(root, options.computeIntensive);
      for (size_t j = 0; j < chain.size(); ++j) o.levels.push_back(impl->level(static_cast<int>(a), *chain[j], j + 1 == chain.size(), memo));
      if (placement == Placement::Shared) {
        // Copy-in (when read) and copy-out (when written) of the block's tile: coalesced global
        // transactions that miss every cache, plus the shared stores (loads) of the copy.
        const double passes = (pa.read ? 1.0 : 0.0) + (pa.written ? 1.0 : 0.0);
        const double rootBlock = static_cast<double>(std::max<long long>(1, bytesOf(globalRoot.blockSize, pa.elementBytes)));
        o.copyTx = passes * std::ceil(static_cast<double>(pa.tileBytes) / rootBlock);
        const double sharedPasses = passes * std::ceil(static_cast<double>(pa.tileBytes) / (4.0 * root.banks.value_or(32)));
        o.copyCost = o.copyTx * globalRoot.readLatency * alphaOf(globalRoot, options.computeIntensive) +
                     sharedPasses * root.readLatency * o.alpha;
      }
    }
  }
  return std::unique_ptr<PorpleModel>(new PorpleModel(std::move(impl)));
}

int PorpleModel::arrays() const { return static_cast<int>(impl_->arrays.size()); }

std::vector<Placement> PorpleModel::options(int i) const {
  std::vector<Placement> out;
  for (int p = 0; p < kNumPlacements; ++p) {
    if (impl_->arrays[static_cast<size_t>(i)].options[static_cast<size_t>(p)].offered) out.push_back(static_cast<Placement>(p));
  }
  return out;
}

double PorpleModel::cost(const PartialPlan& plan) const {
  const PlanCost c = impl_->evaluate(plan, false);
  return c.cost + kTieBreak * c.total;
}

bool PorpleModel::fits(const PartialPlan& plan) const {
  long long constant = 0, persist = 0, shared = 0;
  for (size_t a = 0; a < plan.size(); ++a) {
    if (!plan[a]) continue;
    const ProfiledArray& pa = impl_->profile->arrays[a];
    if (*plan[a] == Placement::Constant) constant += pa.bytes;
    if (*plan[a] == Placement::PersistingL2) persist += pa.bytes;
    if (*plan[a] == Placement::Shared) shared += pa.tileBytes;
  }
  if (constant > impl_->constantBytes || persist > impl_->persistBytes) return false;
  if (shared == 0) return true;
  BlockResources br = impl_->base;
  br.sharedPerBlock += shared;
  Expected<Occupancy> so = computeOccupancy(*impl_->gpu, br);
  return so && so->blocksPerSm >= impl_->baseBlocksPerSm;
}

PlanCost PorpleModel::explain(const Plan& plan) const {
  PartialPlan partial(plan.begin(), plan.end());
  return impl_->evaluate(partial, true);
}

std::string PorpleModel::whyNot(int i, Placement p) const {
  const OptionData& o = impl_->arrays[static_cast<size_t>(i)].options[static_cast<size_t>(p)];
  return o.offered ? std::string() : o.whyNot;
}

}  // namespace foresight
