// SPDX-License-Identifier: Apache-2.0
/// \file
/// `PtxCfg`: basic blocks of one PTX kernel, their successors, immediate post-dominators (the
/// reconvergence points of divergent branches) and natural loops (from back edges to a
/// dominating header).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "foresight/frontend/cuda/ptx_module.h"
#include "foresight/support/error.h"

namespace foresight::cuda {

/// One basic block: instructions [first, end).
struct PtxBlock {
  int first = 0;
  int end = 0;
  int taken = -1;        ///< branch target block of the terminator, -1 = none
  int fallthrough = -1;  ///< next block when the terminator does not branch, -1 = none (ret)
  std::vector<int> successors;
  int ipdom = -1;        ///< immediate post-dominator; -1 = the virtual exit
  int loop = -1;         ///< innermost loop containing the block, -1 = none
};

/// A natural loop.
struct PtxLoop {
  int header = 0;
  std::vector<int> blocks;  ///< sorted, header included
  int parent = -1;          ///< enclosing loop, -1 = none
  [[nodiscard]] bool contains(int block) const;
};

/// The control-flow graph of a kernel.
struct PtxCfg {
  std::vector<PtxBlock> blocks;
  std::vector<PtxLoop> loops;  ///< outer loops before inner ones
  std::vector<int> blockOf;    ///< instruction index → block index
};

/// How a basic block's last instruction ends it, for linkCfg().
struct BlockEnd {
  enum class Kind : std::uint8_t { kNext, kBranch, kExit };
  Kind kind = Kind::kNext;
  int target = -1;       ///< kBranch: the instruction it branches to
  bool guarded = false;  ///< a guarded branch or exit falls through when not taken
};

/// The CFG of instructions [0, leader.size() − 1) split into basic blocks where `leader[i]` is
/// set (leader[0] must be), linked by how each block's last instruction ends it (`endOf(i)`),
/// with post-dominators and loops (analyseCfg); a block that exits or ends the code may leave
/// the kernel. Shared by the PTX and the SASS CFG.
[[nodiscard]] PtxCfg linkCfg(const std::vector<char>& leader, const std::function<BlockEnd(int)>& endOf);

/// Builds the CFG; an Error for a branch to an unknown label or an indirect branch.
[[nodiscard]] Expected<PtxCfg> buildCfg(const PtxKernel& kernel, const std::string& fileName);

/// Fills `ipdom`, `loop` and `loops` of a CFG whose blocks and successors are set (shared with
/// the SASS CFG); `mayExit[b]` says that block b can leave the kernel.
void analyseCfg(PtxCfg& cfg, const std::vector<char>& mayExit);

/// Whether `loop` has its exit test on source line `line`: some block of the loop has an edge
/// out of it and ends with an instruction of that line (`lineOf(i)` gives instruction i's line).
template <class LineOf>
[[nodiscard]] bool loopTestedOnLine(const PtxCfg& cfg, const PtxLoop& loop, int line, LineOf&& lineOf) {
  for (int b : loop.blocks) {
    if (lineOf(cfg.blocks[b].end - 1) != line) continue;
    for (int succ : cfg.blocks[b].successors) {
      if (!loop.contains(succ)) return true;
    }
  }
  return false;
}

/// Whether `block` lies in a loop tested on line `line`. Loads inside such a loop are its
/// body's data, not its bounds.
template <class LineOf>
[[nodiscard]] bool inLoopTestedOnLine(const PtxCfg& cfg, int block, int line, LineOf&& lineOf) {
  for (int l = cfg.blocks[block].loop; l >= 0; l = cfg.loops[l].parent) {
    if (loopTestedOnLine(cfg, cfg.loops[l], line, lineOf)) return true;
  }
  return false;
}

/// Per block: 1 when it belongs to a loop tested on line `line` (all zero: no loop is, and the
/// branch of that line wants a probability, not a trip count).
template <class LineOf>
[[nodiscard]] std::vector<char> blocksOfLoopsTestedOnLine(const PtxCfg& cfg, int line, LineOf&& lineOf) {
  std::vector<char> in(cfg.blocks.size(), 0);
  for (const PtxLoop& l : cfg.loops) {
    if (!loopTestedOnLine(cfg, l, line, lineOf)) continue;
    for (int b : l.blocks) in[b] = 1;
  }
  return in;
}

/// Whether some loop of the kernel is tested on line `line`: the branch of that line wants a
/// trip count, not a probability.
template <class LineOf>
[[nodiscard]] bool lineTestsLoop(const PtxCfg& cfg, int line, LineOf&& lineOf) {
  for (const PtxLoop& l : cfg.loops) {
    if (loopTestedOnLine(cfg, l, line, lineOf)) return true;
  }
  return false;
}

/// The innermost loop that the branch ending `block` leaves on one of its two edges; null when
/// it leaves none (it is not a loop test).
[[nodiscard]] const PtxLoop* exitedLoop(const PtxCfg& cfg, int block);

/// The default for a branch on unknown data that no hint decides (library code, or the rest of
/// a run that ends in an error): true when the branch leaves a loop (the loop is left after one
/// pass); any other branch falls through. Shared by the PTX and SASS runs.
[[nodiscard]] bool defaultTaken(const PtxCfg& cfg, int block);

/// Whether the lanes of a branch on unknown data take it under `--trip …=trips`: a loop test
/// stays in its loop `trips` times (`stayCount` counts the stays of this branch and resets when
/// the loop is left; one stay less when the test follows the body: outside the header, or at
/// the end of a one-block loop), any other branch is
/// taken when trips > 0 unless its target is the join point. Shared by the PTX and SASS runs.
[[nodiscard]] bool tripHintTakes(const PtxCfg& cfg, int block, long long trips, long long& stayCount);

/// How the loads that feed a `--trip …=N` loop's bounds are resolved: each load index maps to
/// true (its value is N × its element index) or false (N). `summed` holds two loads whose
/// values the kernel adds (-1 when there are none): a start and a count, `for (i = s; i < s + c;
/// …)` over a record such as Rodinia BFS's node, so the count is N and the start N × its element
/// index (the one of the two with uses in `indexUses` — its value also indexes or seeds the
/// induction variable — when only one has, else the later of the two). Any other group of two
/// or more, CSR's `row_ptr[r]` and `row_ptr[r + 1]`, is N × element index each, so that
/// end − start = N; a single load is N. Shared by the PTX and SASS runs.
[[nodiscard]] std::map<int, bool> boundLoadRoles(const std::vector<int>& loads, int summedA, int summedB,
                                                 const std::map<int, int>& indexUses);

/// The step of a hinted loop, from what each ISA's run sees inside it: registers stepped up by a
/// constant (`add.s32 r, r, 32`; `IADD3 r, r, 0x20, RZ` / `VIADD`) and the registers its tests
/// compare (`setp`, `ISETP`). The step is the smallest by which a compared register is stepped
/// (an unrolled copy steps by a multiple), 1 when none is: `--trip …=N` runs N iterations, so a
/// loop that strides by s gets bounds N × s apart. Shared by the PTX and SASS runs.
class LoopStep {
 public:
  void stepped(int reg, long long by) {
    if (by <= 0) return;
    auto [it, inserted] = stepOf_.emplace(reg, by);
    if (!inserted) it->second = std::min(it->second, by);
  }
  void compared(int reg) {
    auto it = stepOf_.find(reg);
    if (it != stepOf_.end()) step_ = step_ == 0 ? it->second : std::min(step_, it->second);
  }
  [[nodiscard]] long long step() const { return std::max(1LL, step_); }

 private:
  std::map<int, long long> stepOf_;  // register → smallest step
  long long step_ = 0;               // 0: no compared register is stepped
};

/// The lanes `--branch …=p` sends to the target: the first round(p × |lanes|) of `lanes`.
[[nodiscard]] std::uint32_t probabilityLanes(std::uint32_t lanes, double p);

/// The SIMT reconvergence stack of one warp over a CFG, shared by the PTX and SASS warp
/// interpreters: a divergent branch runs the taken lanes, then the others, and both reconverge
/// at the branch block's immediate post-dominator, as on the hardware; exited lanes leave every
/// entry.
class SimtStack {
 public:
  SimtStack(const PtxCfg& cfg, std::uint32_t lanes) : cfg_(cfg), stack_{{0, lanes, -1}} {}

  /// The next block to execute and its active lanes; false when the warp has finished.
  [[nodiscard]] bool next(int& block, std::uint32_t& mask);

  /// The control-flow edges one block end took (at most two).
  struct Edges {
    int to[2] = {-1, -1};
    int count = 0;
  };
  /// Ends the block `next()` returned: `exitNow` lanes exited in it; when its terminator is a
  /// branch, `taken` holds the lanes that take it.
  Edges finish(std::uint32_t exitNow, bool branch, std::uint32_t taken);
  /// The whole stack (entries and exited lanes) as numbers: two warps' stacks with equal states
  /// continue alike (loop folding compares the stack at successive visits of a loop header).
  [[nodiscard]] std::vector<std::int64_t> state() const {
    std::vector<std::int64_t> s{static_cast<std::int64_t>(exited_)};
    for (const Entry& e : stack_) {
      s.push_back(e.pc);
      s.push_back(static_cast<std::int64_t>(e.mask));
      s.push_back(e.rpc);
    }
    return s;
  }

 private:
  struct Entry {
    int pc;
    std::uint32_t mask;
    int rpc;
  };
  const PtxCfg& cfg_;
  std::vector<Entry> stack_;
  std::uint32_t exited_ = 0;
  std::uint32_t current_ = 0;  ///< active lanes of the block being executed
};

}  // namespace foresight::cuda
