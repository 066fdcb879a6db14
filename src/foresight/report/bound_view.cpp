// SPDX-License-Identifier: Apache-2.0
/// \file
/// Text and JSON of GemmBoundView.
#include "foresight/report/bound_view.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

namespace foresight {

void GemmBoundView::printText(std::ostream& os) const {
  const GemmBound& b = bound_;
  const GemmTile& t = b.tile;
  std::string precision = gemmPrecisionName(b.precision);
  for (char& c : precision) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  os << fmt::format("gpu        {}: {}, peak {:.1f} GFLOPS ({})\n", gpuName_, gpuFullName_, b.peakGflops, precision);
  os << fmt::format("variant    {}{}\n", gemmBoundVariantName(b.variant),
                    b.variant == GemmBoundVariant::Lai ? " (Lai 2013, Eqs. 4.1-4.11)" : " (generalised; not in the thesis)");
  os << fmt::format("bound      {:.1f} GFLOPS = {:.1f} % of peak, bound by {}\n", b.boundGflops, 100 * b.fractionOfPeak(),
                    b.binding);
  if (b.seconds > 0) os << fmt::format("time       {:.3f} ms at least for M,N,K = {},{},{}\n", b.seconds * 1e3, m_, n_, k_);
  if (!b.tiled) {
    os << fmt::format("  pipe bound {:.1f} GFLOPS = the {} peak (no tile search for this precision)\n", b.smBoundGflops,
                      precision);
  } else {
    os << fmt::format("  sm bound   {:.1f} GFLOPS = FFMA share {:.1f} % x mix throughput F_T {:.3f} x peak  (F_T: {})\n",
                      b.smBoundGflops, 100 * b.ffmaShare, b.mixThroughput, b.mixSource);
    os << fmt::format("  {:<4} bound {:.1f} GFLOPS = {} bandwidth x 2·BM·BN / ((BM + BN)·4 B)\n", b.memLevel,
                      b.memBoundGflops, b.memLevel == "l2" ? "L2" : "DRAM");
  }
  if (b.compulsoryBoundGflops > 0) {
    os << fmt::format("  compulsory dram bound {:.1f} GFLOPS = 2·M·N·K / (A, B read once + C written once) x DRAM bandwidth\n",
                      b.compulsoryBoundGflops);
  }
  if (!b.tiled) return;
  os << "\nparameters (one of " << b.feasibleTiles << " feasible)\n";
  os << fmt::format("  threads per block  {}\n", t.threadsPerBlock);
  os << fmt::format("  thread tile        {}x{} (C elements per thread)\n", t.tileM, t.tileN);
  os << fmt::format("  block tile         {}x{}, k-depth L = {}, {} stage{}\n", b.blockTileM, b.blockTileN, t.depth, t.stages,
                    t.stages == 1 ? "" : "s");
  os << fmt::format("  shared loads       {}-bit (LDS{})\n", t.ldsBits, t.ldsBits == 32 ? "" : "." + std::to_string(t.ldsBits));
  os << fmt::format("  blocks per SM      {} ({} threads, {} B shared)\n", b.blocksPerSm,
                    static_cast<long long>(b.blocksPerSm) * t.threadsPerBlock, b.sharedBytesPerSm);
  os << "\nregisters per thread\n";
  os << fmt::format("  accumulators       {}\n", b.registers.accumulators);
  os << fmt::format("  prefetch           {}\n", b.registers.prefetch);
  os << fmt::format("  fragments          {}\n", b.registers.fragments);
  os << fmt::format("  addresses, loop    {}\n", b.registers.addresses);
  os << fmt::format("  total              {}\n", b.registers.total());
}

nlohmann::json GemmBoundView::toJson() const {
  const GemmBound& b = bound_;
  nlohmann::json j;
  j["gpu"] = gpuName_;
  j["variant"] = gemmBoundVariantName(b.variant);
  j["precision"] = gemmPrecisionName(b.precision);
  j["bound_gflops"] = b.boundGflops;
  j["fraction_of_peak"] = b.fractionOfPeak();
  j["binding"] = b.binding;
  j["peak_gflops"] = b.peakGflops;
  j["sm_bound_gflops"] = b.smBoundGflops;
  j["memory_bound_gflops"] = b.memBoundGflops;
  j["memory_level"] = b.memLevel;
  j["ffma_share"] = b.ffmaShare;
  j["mix_throughput"] = b.mixThroughput;
  j["mix_source"] = b.mixSource;
  if (b.compulsoryBoundGflops > 0) j["compulsory_dram_bound_gflops"] = b.compulsoryBoundGflops;
  if (b.seconds > 0) {
    j["problem"] = {m_, n_, k_};
    j["seconds"] = b.seconds;
  }
  if (!b.tiled) return j;
  j["tile"] = {{"threads_per_block", b.tile.threadsPerBlock}, {"thread_tile", {b.tile.tileM, b.tile.tileN}},
               {"block_tile", {b.blockTileM, b.blockTileN}}, {"depth", b.tile.depth}, {"lds_bits", b.tile.ldsBits},
               {"stages", b.tile.stages}, {"blocks_per_sm", b.blocksPerSm}, {"shared_bytes_per_sm", b.sharedBytesPerSm}};
  j["registers"] = {{"accumulators", b.registers.accumulators}, {"prefetch", b.registers.prefetch},
                    {"fragments", b.registers.fragments}, {"addresses", b.registers.addresses},
                    {"total", b.registers.total()}};
  j["feasible_tiles"] = b.feasibleTiles;
  return j;
}

namespace {

/// The floors by name, largest first, zero ones left out.
std::vector<std::pair<std::string, double>> floorList(const PhysicalFloors& f) {
  std::vector<std::pair<std::string, double>> out = f.named();
  std::erase_if(out, [](const auto& floor) { return floor.second <= 0; });
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

std::string sharedLoadText(const std::map<int, int>& byBits) {
  std::string out;
  for (const auto& [bits, n] : byBits) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} x LDS{}", n, bits == 32 ? "" : "." + std::to_string(bits));
  }
  return out;
}

std::string rateText(double gflops) {
  return gflops >= 1000 ? fmt::format("{:.1f} TFLOPS", gflops / 1000) : fmt::format("{:.1f} GFLOPS", gflops);
}

}  // namespace

namespace {

/// What KernelBoundView's `kernel_bound` part shows.
struct KernelBoundData {
  const Gpu* gpu = nullptr;
  KernelBound bound;
  Prediction emulated;
  std::optional<GemmBound> gemm;
  long long m = 0, n = 0, k = 0;
};

void printKernelBound(std::ostream& os, const KernelBoundData& d) {
  const KernelBound& b = d.bound;
  const Gpu& gpu = *d.gpu;
  os << fmt::format("bound      {:.3f} us at least{}, bound by {}\n", b.seconds * 1e6,
                    b.flops > 0 ? ": " + rateText(b.gflops()) : std::string(), b.binding);
  std::string floors;
  for (const auto& [name, s] : floorList(b.floors)) {
    floors += fmt::format("{}{} {:.1f} us", floors.empty() ? "" : ", ", name, s * 1e6);
  }
  os << fmt::format("floors     {}\n", floors.empty() ? "none (nothing to bound)" : floors);
  if (b.hasLoop) {
    const InnerLoopMix& m = b.loop;
    // A block executed at most once per warp is no loop (fully unrolled code): say so.
    os << fmt::format("{} {}{}, {:.4g} {} per warp\n", m.iterationsPerWarp > 1 ? "inner loop" : "hot block ", m.label,
                      m.sourceLine > 0 ? fmt::format(" ({}:{})", m.sourceFile, m.sourceLine) : std::string(),
                      m.iterationsPerWarp, m.iterationsPerWarp > 1 ? "iterations" : "executions");
    std::string parts = fmt::format("{} FMA", m.fmas);
    if (m.matrixInstructions > 0) parts += fmt::format(", {} matrix", m.matrixInstructions);
    if (!m.sharedLoadsByBits.empty()) parts += ", " + sharedLoadText(m.sharedLoadsByBits);
    if (m.sharedStores > 0) parts += fmt::format(", {} shared stores", m.sharedStores);
    if (m.globalAccesses > 0) parts += fmt::format(", {} global", m.globalAccesses);
    if (m.barriers > 0) parts += fmt::format(", {} barriers", m.barriers);
    parts += fmt::format(", {} other", m.other);
    os << fmt::format("  per iteration  {}: {} instructions\n", parts, m.instructions);
    if (m.fmas > 0) {
      os << fmt::format("  FMA share      {:.1f} % (Lai's Eq. 4.10 factor, on this code)\n", 100 * m.fmaShare());
      if (m.accumulators > 0) {
        os << fmt::format("  accumulators   {} per thread (the C tile), {:.3g} k-steps per iteration\n", m.accumulators,
                          m.kSteps());
      }
      os << fmt::format("  shared loads   {:.3g} elements per FMA\n", m.sharedElementsPerFma());
    }
  }
  os << fmt::format("emulate    {:.3f} us predicted: {:.2f}x the bound\n", d.emulated.seconds * 1e6,
                    b.seconds > 0 ? d.emulated.seconds / b.seconds : 0.0);
  // The floors bound the kernel's work; a launch also costs its fixed overhead, which dominates
  // the gap of a tiny launch.
  if (gpu.launchOverheadUs && gpu.launchOverheadUs->value * 1e-6 > b.seconds) {
    os << fmt::format("           the launch itself costs about {:.3g} us on this GPU (not in the bound), more than the bound\n",
                      gpu.launchOverheadUs->value);
  }
  if (d.gemm) {
    os << fmt::format("gemm       the best {} GEMM of {}x{}x{} on {} ({} variant): {:.3f} us at least ({}, bound by {}); "
                      "this kernel's bound is {:.2f}x it\n",
                      gemmPrecisionName(d.gemm->precision), d.m, d.n, d.k, gpu.name, gemmBoundVariantName(d.gemm->variant),
                      d.gemm->seconds * 1e6, rateText(d.gemm->boundGflops), d.gemm->binding,
                      d.gemm->seconds > 0 ? b.seconds / d.gemm->seconds : 0.0);
  }
}

nlohmann::json kernelBoundJson(const KernelBoundData& d) {
  const KernelBound& b = d.bound;
  nlohmann::json j;
  j["bound_seconds"] = b.seconds;
  j["binding"] = b.binding;
  j["flops"] = b.flops;
  j["bound_gflops"] = b.gflops();
  nlohmann::json floors = nlohmann::json::object();
  for (const auto& [name, s] : floorList(b.floors)) floors[name] = s;
  j["floors_seconds"] = floors;
  j["compulsory_bytes"] = b.floors.compulsoryBytes;
  if (b.hasLoop) {
    const InnerLoopMix& m = b.loop;
    nlohmann::json lds = nlohmann::json::object();
    for (const auto& [bits, n] : m.sharedLoadsByBits) lds[std::to_string(bits)] = n;
    j["inner_loop"] = {{"label", m.label},
                       {"source_file", m.sourceFile},
                       {"source_line", m.sourceLine},
                       {"iterations_per_warp", m.iterationsPerWarp},
                       {"instructions", m.instructions},
                       {"fmas", m.fmas},
                       {"matrix_instructions", m.matrixInstructions},
                       {"shared_loads_by_bits", lds},
                       {"shared_stores", m.sharedStores},
                       {"global_accesses", m.globalAccesses},
                       {"barriers", m.barriers},
                       {"other", m.other},
                       {"accumulators", m.accumulators},
                       {"k_steps", m.kSteps()},
                       {"fma_share", m.fmaShare()},
                       {"shared_elements_per_fma", m.sharedElementsPerFma()}};
  }
  j["emulate_seconds"] = d.emulated.seconds;
  j["emulate_model"] = d.emulated.variant.empty() ? d.emulated.model : d.emulated.model + "/" + d.emulated.variant;
  j["gap"] = b.seconds > 0 ? d.emulated.seconds / b.seconds : 0.0;
  if (d.gemm) {
    nlohmann::json g = GemmBoundView(*d.gpu, *d.gemm, d.m, d.n, d.k).toJson();
    j["gemm"] = g;
  }
  return j;
}

}  // namespace

KernelBoundView::KernelBoundView(PredictionContext context, KernelBound bound, Prediction emulated,
                                 std::optional<GemmBound> gemm, long long m, long long n, long long k)
    : Report("kernel_bound", {}) {
  auto c = std::make_shared<const PredictionContext>(std::move(context));
  auto d = std::make_shared<const KernelBoundData>(
      KernelBoundData{c->gpu, std::move(bound), std::move(emulated), std::move(gemm), m, n, k});
  parts_ = {makeReportPart(
                "context", [c](std::ostream& os) { printContextHeader(os, *c); }, [c] { return contextJson(*c); }),
            makeReportPart(
                "kernel_bound", [d](std::ostream& os) { printKernelBound(os, *d); }, [d] { return kernelBoundJson(*d); })};
}

}  // namespace foresight
