// SPDX-License-Identifier: Apache-2.0
/// \file
/// CFG construction, post-dominators (iterative set intersection over a virtual exit) and
/// natural loops (back edges to dominating headers). Kernels have at most a few hundred
/// blocks, so the simple quadratic algorithms suffice.
#include "foresight/frontend/cuda/ptx_cfg.h"

#include <bit>
#include <cmath>

#include <algorithm>

namespace foresight::cuda {

namespace {

bool isTerminator(const PtxInstruction& i) { return i.base == "bra" || i.base == "ret" || i.base == "exit"; }

using Sets = std::vector<std::vector<char>>;

/// Dominator-style sets: out[n] = {n} ∪ ⋂ out[p] over `preds[n]`; `root` starts as {root}.
Sets fixpoint(int n, const std::vector<std::vector<int>>& preds, int root) {
  Sets out(n, std::vector<char>(n, 1));
  out[root].assign(n, 0);
  out[root][root] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (int b = 0; b < n; ++b) {
      if (b == root) continue;
      std::vector<char> s(n, preds[b].empty() ? 0 : 1);
      for (int p : preds[b]) {
        for (int i = 0; i < n; ++i) s[i] = s[i] && out[p][i];
      }
      s[b] = 1;
      if (s != out[b]) {
        out[b] = std::move(s);
        changed = true;
      }
    }
  }
  return out;
}

}  // namespace

bool PtxLoop::contains(int block) const { return std::binary_search(blocks.begin(), blocks.end(), block); }

PtxCfg linkCfg(const std::vector<char>& leader, const std::function<BlockEnd(int)>& endOf) {
  PtxCfg cfg;
  const int n = static_cast<int>(leader.size()) - 1;
  cfg.blockOf.assign(static_cast<size_t>(std::max(0, n)), -1);
  for (int i = 0; i < n;) {
    PtxBlock b;
    b.first = i;
    do {
      cfg.blockOf[static_cast<size_t>(i++)] = static_cast<int>(cfg.blocks.size());
    } while (i < n && !leader[static_cast<size_t>(i)]);
    b.end = i;
    cfg.blocks.push_back(b);
  }
  const int nb = static_cast<int>(cfg.blocks.size());
  std::vector<char> mayExit(static_cast<size_t>(nb), 0);
  for (int bi = 0; bi < nb; ++bi) {
    PtxBlock& b = cfg.blocks[static_cast<size_t>(bi)];
    const BlockEnd e = endOf(b.end - 1);
    const bool next = bi + 1 < nb;
    if (e.kind == BlockEnd::Kind::kBranch) b.taken = cfg.blockOf[static_cast<size_t>(e.target)];
    if (e.kind == BlockEnd::Kind::kNext || e.guarded) b.fallthrough = next ? bi + 1 : -1;
    if (b.taken >= 0) b.successors.push_back(b.taken);
    if (b.fallthrough >= 0 && b.fallthrough != b.taken) b.successors.push_back(b.fallthrough);
    mayExit[static_cast<size_t>(bi)] = e.kind == BlockEnd::Kind::kExit || b.successors.empty();
  }
  analyseCfg(cfg, mayExit);
  return cfg;
}

Expected<PtxCfg> buildCfg(const PtxKernel& k, const std::string& file) {
  const int n = static_cast<int>(k.instructions.size());
  if (n == 0) return makeError("kernel '" + k.name + "' has no instructions", file, k.declLine);
  std::vector<char> leader(n + 1, 0);
  leader[0] = 1;
  for (const auto& [label, index] : k.labels) {
    if (index <= n) leader[index] = 1;
  }
  std::vector<int> target(n, -1);
  for (int i = 0; i < n; ++i) {
    const PtxInstruction& x = k.instructions[i];
    if (isTerminator(x)) leader[i + 1] = 1;
    if (x.base != "bra") continue;
    if (x.operands.empty() || x.operands[0].kind != PtxOperand::Kind::Label) {
      return makeError("indirect branch '" + x.text + "' is not supported", file, x.ptxLine);
    }
    auto it = k.labels.find(x.operands[0].name);
    if (it == k.labels.end() || it->second >= n) return makeError("branch to unknown label '" + x.operands[0].name + "'", file, x.ptxLine);
    target[i] = it->second;
  }
  return linkCfg(leader, [&](int i) {
    const PtxInstruction& x = k.instructions[i];
    if (x.base == "bra") return BlockEnd{BlockEnd::Kind::kBranch, target[i], x.guard >= 0};
    if (x.base == "ret" || x.base == "exit") return BlockEnd{BlockEnd::Kind::kExit, -1, x.guard >= 0};
    return BlockEnd{};
  });
}

void analyseCfg(PtxCfg& cfg, const std::vector<char>& mayExit) {
  const int nb = static_cast<int>(cfg.blocks.size());
  // Post-dominators over the reversed graph with a virtual exit node `nb`.
  std::vector<std::vector<int>> succOrExit(nb + 1), preds(nb + 1);
  for (int b = 0; b < nb; ++b) {
    succOrExit[b] = cfg.blocks[b].successors;
    if (mayExit[b]) succOrExit[b].push_back(nb);
    for (int s : cfg.blocks[b].successors) preds[s].push_back(b);
  }
  const Sets pdom = fixpoint(nb + 1, succOrExit, nb);
  for (int b = 0; b < nb; ++b) {
    int best = -1;
    int bestSize = -1;
    for (int c = 0; c < nb; ++c) {
      if (c == b || !pdom[b][c]) continue;
      // The immediate post-dominator is the strict post-dominator with the largest set.
      int size = 0;
      for (char x : pdom[c]) size += x;
      if (size > bestSize) {
        best = c;
        bestSize = size;
      }
    }
    cfg.blocks[b].ipdom = best;
  }

  // Dominators and natural loops.
  const Sets dom = fixpoint(nb, preds, 0);
  for (int u = 0; u < nb; ++u) {
    for (int h : cfg.blocks[u].successors) {
      if (!dom[u][h]) continue;
      PtxLoop* loop = nullptr;
      for (PtxLoop& l : cfg.loops) {
        if (l.header == h) loop = &l;
      }
      if (!loop) {
        cfg.loops.push_back(PtxLoop{h, {h}, -1});
        loop = &cfg.loops.back();
      }
      std::vector<int> work = {u};
      while (!work.empty()) {
        const int x = work.back();
        work.pop_back();
        if (std::find(loop->blocks.begin(), loop->blocks.end(), x) != loop->blocks.end()) continue;
        loop->blocks.push_back(x);
        for (int p : preds[x]) work.push_back(p);
      }
    }
  }
  for (PtxLoop& l : cfg.loops) std::sort(l.blocks.begin(), l.blocks.end());
  std::sort(cfg.loops.begin(), cfg.loops.end(), [](const PtxLoop& a, const PtxLoop& b) { return a.blocks.size() > b.blocks.size(); });
  for (size_t i = 0; i < cfg.loops.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (cfg.loops[j].contains(cfg.loops[i].header)) cfg.loops[i].parent = static_cast<int>(j);
    }
    for (int b : cfg.loops[i].blocks) cfg.blocks[b].loop = static_cast<int>(i);  // inner loops come later
  }
}

const PtxLoop* exitedLoop(const PtxCfg& cfg, int block) {
  const PtxBlock& b = cfg.blocks[block];
  for (int l = b.loop; l >= 0; l = cfg.loops[l].parent) {
    const PtxLoop& loop = cfg.loops[l];
    if (b.taken >= 0 && b.fallthrough >= 0 && loop.contains(b.taken) != loop.contains(b.fallthrough)) return &loop;
  }
  return nullptr;
}

bool defaultTaken(const PtxCfg& cfg, int block) {
  const PtxLoop* loop = exitedLoop(cfg, block);
  const int target = cfg.blocks[block].taken;
  return loop && target >= 0 && !loop->contains(target);
}

std::map<int, bool> boundLoadRoles(const std::vector<int>& loads, int summedA, int summedB,
                                   const std::map<int, int>& indexUses) {
  std::map<int, bool> roles;
  for (int i : loads) roles[i] = loads.size() > 1;
  if (summedA >= 0 && summedB >= 0 && summedA != summedB) {
    const bool a = indexUses.count(summedA) > 0, b = indexUses.count(summedB) > 0;
    const int start = a != b ? (a ? summedA : summedB) : std::max(summedA, summedB);
    roles[summedA] = summedA == start;
    roles[summedB] = summedB == start;
  }
  return roles;
}

bool tripHintTakes(const PtxCfg& cfg, int block, long long trips, long long& stayCount) {
  const PtxBlock& b = cfg.blocks[block];
  if (const PtxLoop* loop = exitedLoop(cfg, block)) {
    // A test in the header before the body (`while`) stays N times; a test after the body — in
    // a later block, or at the end of a one-block loop whose test branches back to its own
    // header — has seen one pass of the body already, so it stays N − 1 times.
    const bool afterBody = block != loop->header || std::find(b.successors.begin(), b.successors.end(), loop->header) != b.successors.end();
    const long long allowed = trips - (afterBody ? 1 : 0);
    const bool stay = stayCount < allowed;
    stayCount = stay ? stayCount + 1 : 0;
    return stay == loop->contains(b.taken);
  }
  return trips > 0 ? b.taken != b.ipdom : b.taken == b.ipdom;
}

std::uint32_t probabilityLanes(std::uint32_t lanes, double p) {
  const int k = static_cast<int>(std::lround(p * std::popcount(lanes)));
  std::uint32_t out = 0;
  for (int lane = 0, given = 0; lane < 32 && given < k; ++lane) {
    if (lanes >> lane & 1) {
      out |= 1u << lane;
      ++given;
    }
  }
  return out;
}

bool SimtStack::next(int& block, std::uint32_t& mask) {
  while (!stack_.empty()) {
    const Entry& e = stack_.back();
    if (e.pc < 0 || e.pc == e.rpc || (e.mask & ~exited_) == 0) {
      stack_.pop_back();
      continue;
    }
    block = e.pc;
    mask = current_ = e.mask & ~exited_;
    return true;
  }
  return false;
}

SimtStack::Edges SimtStack::finish(std::uint32_t exitNow, bool branch, std::uint32_t taken) {
  Edges edges;
  Entry& top = stack_.back();
  const PtxBlock& blk = cfg_.blocks[top.pc];
  auto go = [&](int to) {
    top.pc = to;
    if (to >= 0) edges.to[edges.count++] = to;
  };
  if (exitNow) {
    exited_ |= exitNow;
    if ((current_ & ~exitNow) == 0 || blk.fallthrough < 0) {
      stack_.pop_back();
    } else {
      go(blk.fallthrough);
    }
    return edges;
  }
  if (!branch) {
    go(blk.fallthrough);
    return edges;
  }
  taken &= current_;
  const std::uint32_t notTaken = current_ & ~taken;
  if (notTaken == 0) {
    go(blk.taken);
  } else if (taken == 0) {
    go(blk.fallthrough);
  } else {
    edges.to[edges.count++] = blk.taken;
    edges.to[edges.count++] = blk.fallthrough;
    const Entry rest{blk.fallthrough, notTaken, blk.ipdom};
    const Entry first{blk.taken, taken, blk.ipdom};
    top.pc = blk.ipdom;
    top.mask = current_;
    stack_.push_back(rest);
    stack_.push_back(first);
  }
  return edges;
}

}  // namespace foresight::cuda
