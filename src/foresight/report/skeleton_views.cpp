// SPDX-License-Identifier: Apache-2.0
/// \file
/// Rendering of the skeleton reports.
#include "foresight/report/skeleton_views.h"

#include <fmt/format.h>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

#include "foresight/report/prediction_view.h"

namespace foresight {

namespace {

using skeleton::Layout;
using skeleton::LayoutStats;
using skeleton::RankedLayout;
using skeleton::Skeleton;

std::string num(double v) {
  if (std::isinf(v)) return "inf";
  if (std::fabs(v) >= 1e4 || std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{:.0f}", v);
  return fmt::format("{:.4g}", v);
}

std::string shapeText(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

nlohmann::json layoutJson(const Layout& l, const Skeleton& sk) {
  nlohmann::json stage = nlohmann::json::object();
  size_t s = 0;
  for (const skeleton::Var& v : sk.vars) {
    if (v.kind != skeleton::VarKind::Stream) continue;
    if (s < l.stage.size()) stage[v.name] = l.stage[s];
    ++s;
  }
  nlohmann::json cache = nlohmann::json::array();
  for (size_t a = 0; a < sk.arrays.size(); ++a) {
    if ((l.cached >> a) & 1) cache.push_back(sk.arrays[a].name);
  }
  return {{"text", skeleton::describeLayout(l, sk)},
          {"block", l.block},
          {"fold", l.fold},
          {"stage", stage},
          {"cache", cache},
          {"unroll", l.unroll}};
}

nlohmann::json statsJson(const LayoutStats& s, const RankedLayout& r) {
  return {{"Thread_per_block", s.threadsPerBlock},
          {"Blocks", s.blocks},
          {"Active_blocks_per_SM", r.activeBlocksPerSm},
          {"Total_insts", s.totalInsts()},
          {"Comp_insts", s.compInsts},
          {"Mem_insts", s.memInsts()},
          {"Coal_Mem_insts", s.coalMemInsts},
          {"Uncoal_Mem_insts", s.uncoalMemInsts},
          {"Uncoal_per_mw", s.uncoalPerMw},
          {"Synch_insts", s.synchInsts},
          {"Load_bytes_per_warp", s.loadBytesPerWarp},
          {"SharedMem_bytes_per_block", s.sharedBytesPerBlock},
          {"comp_breakdown",
           {{"functional", s.funcInsts},
            {"shared_and_register", s.sharedAccessInsts},
            {"loop", s.loopInsts},
            {"branch", s.branchInsts},
            {"data_preparation", s.dataPrepInsts},
            {"index", s.indexInsts},
            {"synchronisation", s.synchInsts},
            {"overhead", s.overheadInsts}}}};
}

nlohmann::json rankedJson(const RankedLayout& r, const Skeleton& sk, long long rank) {
  return {{"rank", rank},
          {"layout", layoutJson(r.layout, sk)},
          {"time_s", r.seconds},
          {"cycles", r.cycles},
          {"bound",
           {{"resource", resourceName(r.bound.resource)},
            {"mode", boundModeName(r.bound.mode)},
            {"label", grophecyBoundLabel(r.bound)}}},
          {"mwp", r.mwp},
          {"cwp_minus_1", r.cwpFull - 1},
          {"n_minus_1", r.n - 1},
          {"statistics", statsJson(r.stats, r)}};
}

void printLayoutDetail(std::ostream& os, const RankedLayout& r, const Skeleton& sk) {
  const Layout& l = r.layout;
  const LayoutStats& s = r.stats;
  std::string dims;
  const char* axes[] = {"x", "y", "z"};
  for (int d = sk.parallelDims - 1, i = 0; d >= 0; --d, ++i) {
    dims += (dims.empty() ? "" : ", ") + sk.vars[d].name + " -> threadIdx." + axes[std::min(i, 2)];
  }
  os << fmt::format("  block      {} threads ({})\n", shapeText(l.block), dims);
  os << fmt::format("  folding    {} ({} task{} per thread, cyclic)\n", shapeText(l.fold),
                    l.foldDegree(), l.foldDegree() == 1 ? "" : "s");
  size_t si = 0;
  bool anyStage = false;
  for (const skeleton::Var& v : sk.vars) {
    if (v.kind != skeleton::VarKind::Stream) continue;
    if (si < l.stage.size() && l.stage[si] > 0) {
      const double stages = std::ceil(v.trip / static_cast<double>(l.stage[si]));
      os << fmt::format("  staging    {}: {} iterations per stage, {} stage{}\n", v.name,
                        l.stage[si], num(stages), stages == 1 ? "" : "s");
      anyStage = true;
    }
    ++si;
  }
  if (!anyStage) os << "  staging    none\n";
  if (s.buffers.empty()) {
    os << "  shared     none (every array read from global memory)\n";
  } else {
    std::string bufs;
    for (const skeleton::SharedBuffer& b : s.buffers) {
      std::string shape;
      for (long long e : b.shape) shape += "[" + std::to_string(e) + "]";
      bufs += (bufs.empty() ? "" : ", ") + sk.arrays[b.array].name + shape +
              (b.stream < 0 ? std::string(" once") : " per " + sk.vars[b.stream].name + " stage");
      if (b.elements != [&] {
            long long n = 1;
            for (long long e : b.shape) n *= e;
            return n;
          }()) {
        bufs += fmt::format(" ({} elements)", b.elements);
      }
    }
    os << fmt::format("  shared     {}: {} B per block\n", bufs, s.sharedBytesPerBlock);
  }
  os << fmt::format("  unrolling  {}\n",
                    l.unroll ? "eligible loops unrolled in groups of 16" : "none");
}

}  // namespace

const char* grophecyBoundLabel(const Bound& bound) {
  switch (bound.resource) {
    case Resource::Dram: return "memory-bound";
    case Resource::Parallelism: return "parallelism-bound";
    default: return "compute-bound";
  }
}

std::string SkeletonPredictionView::summary() const {
  const Skeleton& sk = *context_.skeleton;
  std::string out;
  for (const SkeletonSearchReport& g : gpus_) {
    out += fmt::format("{}; layout {}\n",
                       predictionSummary({context_.input, "skeleton", sk.name, g.gpu, g.bestLaunch}, g.best),
                       skeleton::describeLayout(g.result.layouts.front().layout, sk));
  }
  return out;
}

void SkeletonPredictionView::printText(std::ostream& os) const {
  const Skeleton& sk = *context_.skeleton;
  if (gpus_.size() == 1) {
    const SkeletonSearchReport& g = gpus_.front();
    const RankedLayout& r = g.result.layouts.front();
    const LayoutStats& s = r.stats;
    if (context_.pinned) {
      os << fmt::format("layout     {} (pinned by the hints)\n",
                        skeleton::describeLayout(r.layout, sk));
    } else {
      os << fmt::format("layout     {} (best of {} layouts, {} block/fold shapes, {} infeasible)\n",
                        skeleton::describeLayout(r.layout, sk), g.result.enumerated,
                        g.result.shapes, g.result.infeasible);
    }
    printLayoutDetail(os, r, sk);
    os << "\nstatistics (GROPHECY Table 2, per thread)\n";
    os << fmt::format("  Thread_per_block      {:>12}\n", s.threadsPerBlock);
    os << fmt::format("  Blocks                {:>12}\n", s.blocks);
    os << fmt::format("  Active_blocks_per_SM  {:>12}\n", r.activeBlocksPerSm);
    os << fmt::format("  Total_insts           {:>12}\n", num(s.totalInsts()));
    os << fmt::format(
        "  Comp_insts            {:>12}  functional {}, shared/register {}, loops {}, branches "
        "{},\n"
        "                                      data preparation {}, index {}, synchronisation "
        "{}{}\n",
        num(s.compInsts), num(s.funcInsts), num(s.sharedAccessInsts), num(s.loopInsts),
        num(s.branchInsts), num(s.dataPrepInsts), num(s.indexInsts), num(s.synchInsts),
        s.overheadInsts > 0 ? ", overhead " + num(s.overheadInsts) : std::string());
    os << fmt::format("  Mem_insts             {:>12}\n", num(s.memInsts()));
    os << fmt::format("  Coal_Mem_insts        {:>12}\n", num(s.coalMemInsts));
    os << fmt::format("  Uncoal_Mem_insts      {:>12}\n", num(s.uncoalMemInsts));
    os << fmt::format("  Uncoal_per_mw         {:>12}\n", num(s.uncoalPerMw));
    os << fmt::format("  Synch_insts           {:>12}\n", num(s.synchInsts));
    os << fmt::format("  Load_bytes_per_warp   {:>12}\n", num(s.loadBytesPerWarp));
    os << fmt::format("  SharedMem_bytes/block {:>12}\n", s.sharedBytesPerBlock);
    os << fmt::format("\nbottleneck MWP {}, CWP-1 {}, N-1 {}: {}\n\n", num(r.mwp),
                      num(r.cwpFull - 1), num(r.n - 1), grophecyBoundLabel(r.bound));
    const PredictionView view({context_.input, "skeleton", sk.name, g.gpu, g.bestLaunch}, g.best);
    view.printText(os);
    return;
  }
  // Several GPUs side by side.
  os << fmt::format("input      {} (skeleton frontend)\n", context_.input);
  // The model that made the reported predictions (--model emulate predicts the best layout with
  // the emulator; the layout search itself always ranks with MWP-CWP).
  const Prediction& first = gpus_.front().best;
  os << fmt::format("model      {} ({} variant)\n\n", first.model, first.variant);
  for (const SkeletonSearchReport& g : gpus_) {
    os << fmt::format("{:<10} {}\n", g.gpu->name,
                      skeleton::describeLayout(g.result.layouts.front().layout, sk));
  }
  os << "\n";
  std::string header = fmt::format("{:<22}", "");
  // " {:>13}": 14 columns per GPU, and a space even when a cell is longer ("parallelism-bound").
  for (const SkeletonSearchReport& g : gpus_) header += fmt::format(" {:>13}", g.gpu->name);
  os << header << "\n";
  const auto row = [&](const char* name, auto value) {
    std::string line = fmt::format("{:<22}", name);
    for (const SkeletonSearchReport& g : gpus_)
      line += fmt::format(" {:>13}", value(g.result.layouts.front(), g));
    os << line << "\n";
  };
  using G = SkeletonSearchReport;
  row("time", [](const RankedLayout&, const G& g) { return timeText(g.best.seconds); });
  row("bound",
      [](const RankedLayout& r, const G&) { return std::string(grophecyBoundLabel(r.bound)); });
  row("MWP", [](const RankedLayout& r, const G&) { return num(r.mwp); });
  row("CWP-1", [](const RankedLayout& r, const G&) { return num(r.cwpFull - 1); });
  row("N-1", [](const RankedLayout& r, const G&) { return num(r.n - 1); });
  row("Thread_per_block", [](const RankedLayout& r, const G&) {
    return num(static_cast<double>(r.stats.threadsPerBlock));
  });
  row("Blocks",
      [](const RankedLayout& r, const G&) { return num(static_cast<double>(r.stats.blocks)); });
  row("Active_blocks_per_SM",
      [](const RankedLayout& r, const G&) { return num(r.activeBlocksPerSm); });
  row("Total_insts", [](const RankedLayout& r, const G&) { return num(r.stats.totalInsts()); });
  row("Comp_insts", [](const RankedLayout& r, const G&) { return num(r.stats.compInsts); });
  row("Coal_Mem_insts", [](const RankedLayout& r, const G&) { return num(r.stats.coalMemInsts); });
  row("Uncoal_Mem_insts",
      [](const RankedLayout& r, const G&) { return num(r.stats.uncoalMemInsts); });
  row("Uncoal_per_mw", [](const RankedLayout& r, const G&) { return num(r.stats.uncoalPerMw); });
  row("Synch_insts", [](const RankedLayout& r, const G&) { return num(r.stats.synchInsts); });
  row("Load_bytes_per_warp",
      [](const RankedLayout& r, const G&) { return num(r.stats.loadBytesPerWarp); });
  row("SharedMem_bytes/block", [](const RankedLayout& r, const G&) {
    return num(static_cast<double>(r.stats.sharedBytesPerBlock));
  });
  row("layouts searched", [](const RankedLayout&, const G& g) {
    return num(static_cast<double>(g.result.enumerated));
  });
  const double base = gpus_.front().best.seconds;
  row("speed-up vs first",
      [&](const RankedLayout&, const G& g) { return fmt::format("{:.2f}x", base / g.best.seconds); });
}

nlohmann::json SkeletonPredictionView::toJson() const {
  const Skeleton& sk = *context_.skeleton;
  const auto one = [&](const SkeletonSearchReport& g) {
    const RankedLayout& r = g.result.layouts.front();
    nlohmann::json j =
        PredictionView({context_.input, "skeleton", sk.name, g.gpu, g.bestLaunch}, g.best).toJson();
    j["layout"] = layoutJson(r.layout, sk);
    j["statistics"] = statsJson(r.stats, r);
    j["grophecy"] = {{"mwp", r.mwp},
                     {"cwp_minus_1", r.cwpFull - 1},
                     {"n_minus_1", r.n - 1},
                     {"label", grophecyBoundLabel(r.bound)}};
    j["search"] = {{"pinned", context_.pinned},
                   {"layouts", g.result.enumerated},
                   {"shapes", g.result.shapes},
                   {"infeasible", g.result.infeasible}};
    return j;
  };
  if (gpus_.size() == 1) return one(gpus_.front());
  nlohmann::json all = nlohmann::json::array();
  for (const SkeletonSearchReport& g : gpus_) all.push_back(one(g));
  return {{"input", context_.input}, {"frontend", "skeleton"}, {"kernel", sk.name}, {"gpus", all}};
}

void LayoutRankingView::printText(std::ostream& os) const {
  const Skeleton& sk = *context_.skeleton;
  os << fmt::format("input      {} (skeleton frontend), model {} ({} variant)\n", context_.input,
                    context_.model, context_.variant);
  for (const SkeletonSearchReport& g : gpus_) {
    os << fmt::format("\n{}: {} layouts searched ({} block/fold shapes, {} infeasible)\n",
                      g.gpu->name, g.result.enumerated, g.result.shapes, g.result.infeasible);
    os << fmt::format("{:>5}  {:>10}  {:<11} {:>7} {:>7} {:>5} {:>7} {:>7} {:>9} {:>7} {:>7}  {}\n",
                      "rank", "time", "bound", "MWP", "CWP-1", "N-1", "blocks", "shared", "comp",
                      "coal", "uncoal", "layout");
    const long long n = static_cast<long long>(g.result.layouts.size());
    const long long shown = top_ > 0 ? std::min(top_, n) : n;
    for (long long i = 0; i < shown; ++i) {
      const RankedLayout& r = g.result.layouts[i];
      std::string label = grophecyBoundLabel(r.bound);
      label = label.substr(0, label.find('-'));
      os << fmt::format(
          "{:>5}  {:>10}  {:<11} {:>7} {:>7} {:>5} {:>7} {:>7} {:>9} {:>7} {:>7}  {}\n", i + 1,
          timeText(r.seconds), label, num(r.mwp), num(r.cwpFull - 1), num(r.n - 1), r.stats.blocks,
          r.stats.sharedBytesPerBlock, num(r.stats.compInsts), num(r.stats.coalMemInsts),
          num(r.stats.uncoalMemInsts), skeleton::describeLayout(r.layout, sk));
    }
    if (shown < n) os << fmt::format("  ... {} more (--top 0 shows all)\n", n - shown);
  }
}

nlohmann::json LayoutRankingView::toJson() const {
  const Skeleton& sk = *context_.skeleton;
  nlohmann::json gpus = nlohmann::json::array();
  for (const SkeletonSearchReport& g : gpus_) {
    nlohmann::json variants = nlohmann::json::array();
    const long long n = static_cast<long long>(g.result.layouts.size());
    const long long shown = top_ > 0 ? std::min(top_, n) : n;
    for (long long i = 0; i < shown; ++i)
      variants.push_back(rankedJson(g.result.layouts[i], sk, i + 1));
    gpus.push_back({{"gpu", g.gpu->name},
                    {"search",
                     {{"layouts", g.result.enumerated},
                      {"shapes", g.result.shapes},
                      {"infeasible", g.result.infeasible}}},
                    {"variants", variants}});
  }
  nlohmann::json j = {{"input", context_.input},
                      {"frontend", "skeleton"},
                      {"kernel", sk.name},
                      {"model", context_.model},
                      {"variant", context_.variant}};
  if (gpus.size() == 1) {
    j["gpu"] = gpus[0]["gpu"];
    j["search"] = gpus[0]["search"];
    j["variants"] = gpus[0]["variants"];
  } else {
    j["gpus"] = gpus;
  }
  return j;
}

void LayoutRankingView::printCsv(std::ostream& os) const {
  const Skeleton& sk = *context_.skeleton;
  os << "gpu,rank,time_s,bound,mwp,cwp_minus_1,n_minus_1,active_blocks_per_sm,blocks,threads_per_"
        "block,"
        "shared_bytes_per_block,comp_insts,coal_mem_insts,uncoal_mem_insts,uncoal_per_mw,synch_"
        "insts,"
        "load_bytes_per_warp,block,fold,stage,cache,unroll\n";
  for (const SkeletonSearchReport& g : gpus_) {
    const long long n = static_cast<long long>(g.result.layouts.size());
    const long long shown = top_ > 0 ? std::min(top_, n) : n;
    for (long long i = 0; i < shown; ++i) {
      const RankedLayout& r = g.result.layouts[i];
      std::string stage, cache;
      size_t si = 0;
      for (const skeleton::Var& v : sk.vars) {
        if (v.kind != skeleton::VarKind::Stream) continue;
        stage += (stage.empty() ? "" : " ") + v.name + ":" + std::to_string(r.layout.stage[si++]);
      }
      for (size_t a = 0; a < sk.arrays.size(); ++a) {
        if ((r.layout.cached >> a) & 1) cache += (cache.empty() ? "" : " ") + sk.arrays[a].name;
      }
      os << fmt::format(
          "{},{},{:.6g},{},{:.6g},{:.6g},{:.6g},{},{},{},{},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:."
          "6g},{},{},{},{},{}\n",
          g.gpu->name, i + 1, r.seconds, grophecyBoundLabel(r.bound), r.mwp, r.cwpFull - 1, r.n - 1,
          r.activeBlocksPerSm, r.stats.blocks, r.stats.threadsPerBlock, r.stats.sharedBytesPerBlock,
          r.stats.compInsts, r.stats.coalMemInsts, r.stats.uncoalMemInsts, r.stats.uncoalPerMw,
          r.stats.synchInsts, r.stats.loadBytesPerWarp, shapeText(r.layout.block),
          shapeText(r.layout.fold), stage, cache, r.layout.unroll ? "true" : "false");
    }
  }
}

}  // namespace foresight
