// SPDX-License-Identifier: Apache-2.0
/// \file
/// Line-based pairing of SASS and PTX memory instructions.
#include "foresight/frontend/cuda/sass_ptx_map.h"

#include "foresight/frontend/cuda/sass_interpreter.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace foresight::cuda {

namespace {

/// (space, isStore) of a PTX memory instruction, with the spaces of SassSpace.
std::pair<SassSpace, bool> ptxKind(const PtxInstruction& i) {
  if (i.isAsyncCopy()) return {SassSpace::Global, false};  // cp.async: LDGSTS, a global read
  if (i.base != "ld" && i.base != "ldu" && i.base != "st" && i.base != "atom" && i.base != "red") return {SassSpace::None, false};
  auto has = [&](const char* m) { return std::find(i.mods.begin(), i.mods.end(), m) != i.mods.end(); };
  if (has("param") || has("const")) return {SassSpace::None, false};
  const bool store = i.base == "st" || i.base == "red";
  if (has("shared")) return {SassSpace::Shared, store};
  if (has("local")) return {SassSpace::Local, store};
  return {SassSpace::Global, store};
}

}  // namespace

SassAccessKind sassAccessKind(const SassInstruction& i) {
  const std::string& m = i.mnemonic;
  if (m == "LDG" || m == "LD" || m == "LDGSTS") return {SassSpace::Global, false};  // LDGSTS: its global read
  if (m == "STG" || m == "ST" || m == "RED" || m == "REDG" || m == "ATOMG" || m == "ATOM") return {SassSpace::Global, m != "ATOM" && m != "ATOMG"};
  if (m == "LDS" || m == "LDSM") return {SassSpace::Shared, false};
  if (m == "STS" || m == "STSM" || m == "ATOMS") return {SassSpace::Shared, true};
  if (m == "LDL") return {SassSpace::Local, false};
  if (m == "STL") return {SassSpace::Local, true};
  return {};
}

SassPtxMap mapSassToPtx(const PtxKernel& ptx, const SassFunction& sass) {
  SassPtxMap map;
  // Queue of PTX accesses per (line, space, kind), in program order. Kind: 0 load, 1 store,
  // 2 atomic: a PTX atom whose result goes unused becomes a SASS RED(G), so atomics pair with
  // atomics whatever their store-ness.
  auto kind = [](bool atomic, bool store) { return atomic ? 2 : store ? 1 : 0; };
  std::map<std::tuple<int, SassSpace, int>, std::vector<int>> queues;
  for (size_t i = 0; i < ptx.instructions.size(); ++i) {
    const PtxInstruction& pi = ptx.instructions[i];
    const auto [space, store] = ptxKind(pi);
    const bool atomic = pi.base == "atom" || pi.base == "red";
    if (space != SassSpace::None) queues[{pi.sourceLine, space, kind(atomic, store)}].push_back(static_cast<int>(i));
  }
  std::map<std::tuple<int, SassSpace, int>, size_t> taken;
  for (size_t s = 0; s < sass.instructions.size(); ++s) {
    const SassInstruction& si = sass.instructions[s];
    const auto [space, store] = sassAccessKind(si);
    if (space == SassSpace::None || si.neverExecutes()) continue;
    const bool atomic = isSassAtomic(si);
    SassPtxPair pair;
    pair.sass = static_cast<int>(s);
    const auto key = std::make_tuple(si.sourceLine, space, kind(atomic, store));
    auto q = queues.find(key);
    size_t& next = taken[key];
    if (q != queues.end() && next < q->second.size()) {
      pair.ptx = q->second[next++];
    } else if (space == SassSpace::Local) {
      pair.spill = true;
      (store ? map.spillStores : map.spillLoads) += 1;
      (store ? map.spillStoreBytes : map.spillLoadBytes) += si.memoryWidthBytes;
    } else {
      ++map.unmatchedSass;
    }
    map.pairs.push_back(pair);
  }
  for (const auto& [key, q] : queues) {
    auto t = taken.find(key);
    map.unmatchedPtx += static_cast<int>(q.size() - (t == taken.end() ? 0 : t->second));
  }
  return map;
}

}  // namespace foresight::cuda
