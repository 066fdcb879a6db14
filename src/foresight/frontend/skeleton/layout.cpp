// SPDX-License-Identifier: Apache-2.0
/// \file
/// Small functions of layouts and their statistics: sizes, the workload summary, the CUDA launch
/// and the one-line description used in reports.
#include "foresight/frontend/skeleton/layout.h"

#include <algorithm>

namespace foresight::skeleton {

namespace {

long long ceilDiv(long long a, long long b) {
  return (a + b - 1) / b;
}

void collectNests(const Skeleton& sk, const std::vector<Stmt>& body, int& counter,
                  std::vector<std::vector<int>>& out) {
  for (const Stmt& s : body) {
    if (s.kind == StmtKind::Branch) {
      collectNests(sk, s.body, counter, out);
      continue;
    }
    if (s.kind != StmtKind::Loop) continue;
    const Var& v = sk.vars[s.var];
    if (v.kind != VarKind::Stream) {
      collectNests(sk, s.body, counter, out);
      continue;
    }
    // A chain: this stream loop and, while the body is exactly one static stream loop, the next.
    std::vector<int> chain = {counter++};
    const Stmt* cur = &s;
    bool staticBounds = !v.dataBounds;
    while (cur->body.size() == 1 && cur->body[0].kind == StmtKind::Loop &&
           sk.vars[cur->body[0].var].kind == VarKind::Stream) {
      cur = &cur->body[0];
      staticBounds &= !sk.vars[cur->var].dataBounds;
      chain.push_back(counter++);
    }
    if (chain.size() >= 2 && staticBounds) out.push_back(chain);
    collectNests(sk, cur->body, counter, out);
  }
}

}  // namespace

std::vector<std::vector<int>> streamNests(const Skeleton& sk) {
  std::vector<std::vector<int>> out;
  int counter = 0;
  collectNests(sk, sk.body, counter, out);
  return out;
}

std::vector<int> effectiveOrder(const Layout& layout, size_t streams) {
  if (layout.order.size() == streams) return layout.order;
  std::vector<int> id(streams);
  for (size_t s = 0; s < streams; ++s) id[s] = static_cast<int>(s);
  return id;
}

long long Layout::threads() const {
  long long n = 1;
  for (int b : block) n *= b;
  return n;
}

long long Layout::foldDegree() const {
  long long n = 1;
  for (int f : fold) n *= f;
  return n;
}

WorkloadSummary LayoutStats::toWorkload() const {
  WorkloadSummary w;
  w.compInsts = compInsts;
  w.synchInsts = synchInsts;
  w.mem(AccessClass::Coalesced).insts = coalMemInsts;
  w.mem(AccessClass::Uncoalesced).insts = uncoalMemInsts;
  w.mem(AccessClass::Uncoalesced).transactionsPerInst = uncoalPerMw;
  w.loadBytesPerWarp = loadBytesPerWarp;
  w.compByClass[static_cast<int>(InstrClass::Fp32)] = funcInsts;
  w.compByClass[static_cast<int>(InstrClass::Ldst)] = sharedAccessInsts;
  w.compByClass[static_cast<int>(InstrClass::Int)] = dataPrepInsts + indexInsts + overheadInsts;
  w.compByClass[static_cast<int>(InstrClass::Control)] = loopInsts + branchInsts + synchInsts;
  return w;
}

Launch launchOf(const Layout& layout, const Skeleton& sk) {
  Launch l;
  const int P = sk.parallelDims;
  long long* grid[] = {&l.grid.x, &l.grid.y, &l.grid.z};
  long long* block[] = {&l.block.x, &l.block.y, &l.block.z};
  for (int i = 0; i < P; ++i) {
    const int d = P - 1 - i;  // x is the last dimension
    const int slot = std::min(i, 2);
    const long long g =
        ceilDiv(sk.extent(d), static_cast<long long>(layout.block[d]) * layout.fold[d]);
    *grid[slot] = (i < 2 ? 1 : *grid[slot]) * g;
    *block[slot] = (i < 2 ? 1 : *block[slot]) * layout.block[d];
  }
  return l;
}

std::string describeLayout(const Layout& layout, const Skeleton& sk) {
  std::string out = "B=";
  for (size_t d = 0; d < layout.block.size(); ++d)
    out += (d ? "x" : "") + std::to_string(layout.block[d]);
  out += " F=";
  for (size_t d = 0; d < layout.fold.size(); ++d)
    out += (d ? "x" : "") + std::to_string(layout.fold[d]);
  out += " S=";
  bool any = false;
  size_t s = 0;
  for (const Var& v : sk.vars) {
    if (v.kind != VarKind::Stream) continue;
    if (s < layout.stage.size() && layout.stage[s] > 0) {
      out += (any ? "," : "") + v.name + ":" + std::to_string(layout.stage[s]);
      any = true;
    }
    ++s;
  }
  if (!any) out += "-";
  if (!streamNests(sk).empty()) {
    std::vector<std::string> names;
    for (const Var& v : sk.vars)
      if (v.kind == VarKind::Stream) names.push_back(v.name);
    const std::vector<int> order = effectiveOrder(layout, names.size());
    out += " O=";
    for (size_t j = 0; j < order.size(); ++j) out += (j ? "," : "") + names[order[j]];
  }
  out += " C={";
  bool first = true;
  for (size_t a = 0; a < sk.arrays.size(); ++a) {
    if ((layout.cached >> a) & 1) {
      out += (first ? "" : ",") + sk.arrays[a].name;
      first = false;
    }
  }
  out += "} L=";
  out += layout.unroll ? "unroll" : "none";
  return out;
}

}  // namespace foresight::skeleton
