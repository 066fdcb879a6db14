// SPDX-License-Identifier: Apache-2.0
/// \file
/// The bound-load analysis shared by the PTX and SASS runs (bound_loads.h).
#include "foresight/frontend/cuda/bound_loads.h"

#include <algorithm>

namespace foresight::cuda {

namespace {

bool has(const std::vector<int>& v, int r) { return r >= 0 && std::find(v.begin(), v.end(), r) != v.end(); }

}  // namespace

std::map<int, std::pair<long long, bool>> findBoundLoads(const PtxCfg& cfg, const std::vector<BoundLoadFacts>& code,
                                                       const std::vector<TripHint>& trips) {
  std::map<int, std::pair<long long, bool>> out;
  const int n = static_cast<int>(code.size());
  for (const TripHint& h : trips) {
    const auto inFile = [&](int k) { return code[k].path && endsWithPath(*code[k].path, h.file); };
    const auto lineOf = [&](int k) { return inFile(k) ? code[k].line : -1; };
    std::vector<int> loads;
    // Loads on the hinted line outside every loop tested there.
    for (int i = 0; i < n; ++i) {
      if (!code[i].load || code[i].line != h.line || !inFile(i)) continue;
      if (!inLoopTestedOnLine(cfg, cfg.blockOf[i], h.line, lineOf)) loads.push_back(i);
    }
    // The hinted loops' induction registers (stepped by a constant inside them), their step, and
    // the loads outside them that seed one, directly or through a copy, with nothing writing the
    // loaded register between the load and the first hinted loop.
    LoopStep step;
    const std::vector<char> inHinted = blocksOfLoopsTestedOnLine(cfg, h.line, lineOf);
    int loopStart = n;
    for (const PtxLoop& l : cfg.loops) {
      if (inHinted[static_cast<size_t>(l.header)]) loopStart = std::min(loopStart, cfg.blocks[static_cast<size_t>(l.header)].first);
    }
    std::vector<int> induction;
    for (int i = 0; i < n; ++i) {
      if (!inHinted[static_cast<size_t>(cfg.blockOf[i])]) continue;
      const BoundLoadFacts& f = code[i];
      if (f.stepped >= 0) {
        induction.push_back(f.stepped);
        if (f.indexStep) step.stepped(f.stepped, f.stepBy);
      }
      for (int r : f.compared) step.compared(r);
    }
    std::vector<int> seeds = induction;
    for (int i = 0; i < n; ++i) {
      if (!inHinted[static_cast<size_t>(cfg.blockOf[i])] && code[i].copyFrom >= 0 && has(induction, code[i].dst)) seeds.push_back(code[i].copyFrom);
    }
    for (int i = 0; i < loopStart && !induction.empty(); ++i) {
      const BoundLoadFacts& f = code[i];
      if (inHinted[static_cast<size_t>(cfg.blockOf[i])] || !f.load || f.line == h.line || !has(seeds, f.dst)) continue;
      bool overwritten = false;
      for (int k = i + 1; k < loopStart && !overwritten; ++k) overwritten = has(code[k].defs, f.dst);
      if (!overwritten) loads.push_back(i);
    }
    // A start and a count (boundLoadRoles): two of them added; the start also indexes or seeds
    // the induction variable. Copies of a loaded value stand for it.
    std::map<int, int> loadOf;  // register → load
    for (int i : loads) {
      if (code[i].dst >= 0) loadOf[code[i].dst] = i;
    }
    const auto loaded = [&](int r) {
      auto it = r >= 0 ? loadOf.find(r) : loadOf.end();
      return it == loadOf.end() ? -1 : it->second;
    };
    for (int i = 0; i < n; ++i) {
      if (code[i].copyFrom < 0 || code[i].dst < 0) continue;
      if (const int l = loaded(code[i].copyFrom); l >= 0) loadOf.emplace(code[i].dst, l);
    }
    int summedA = -1, summedB = -1;
    std::map<int, int> indexUses;  // load → index-like uses of its value
    for (int i = 0; i < n; ++i) {
      const BoundLoadFacts& f = code[i];
      if (summedA < 0 && f.sumA >= 0) {
        const int a = loaded(f.sumA), b = loaded(f.sumB);
        if (a >= 0 && b >= 0 && a != b) summedA = a, summedB = b;
      }
      for (int r : f.indexUses) {
        if (const int l = loaded(r); l >= 0) ++indexUses[l];
      }
    }
    for (const auto& [i, asIndex] : boundLoadRoles(loads, summedA, summedB, indexUses)) out[i] = {h.trips * step.step(), asIndex};
  }
  return out;
}

}  // namespace foresight::cuda
