// SPDX-License-Identifier: Apache-2.0
/// \file
/// Text and JSON of GemmBoundView.
#include "foresight/report/bound_view.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

namespace foresight {

void GemmBoundView::printText(std::ostream& os) const {
  const GemmBound& b = bound_;
  const GemmTile& t = b.tile;
  os << fmt::format("gpu        {}: {}, peak {:.1f} GFLOPS (FP32)\n", gpuName_, gpuFullName_, b.peakGflops);
  os << fmt::format("variant    {}{}\n", gemmBoundVariantName(b.variant),
                    b.variant == GemmBoundVariant::Lai ? " (Lai 2013, Eqs. 4.1-4.11)" : " (generalised; not in the thesis)");
  os << fmt::format("bound      {:.1f} GFLOPS = {:.1f} % of peak, bound by {}\n", b.boundGflops, 100 * b.fractionOfPeak(),
                    b.binding);
  if (b.seconds > 0) os << fmt::format("time       {:.3f} ms at least for M,N,K = {},{},{}\n", b.seconds * 1e3, m_, n_, k_);
  os << fmt::format("  sm bound   {:.1f} GFLOPS = FFMA share {:.1f} % x mix throughput F_T {:.3f} x peak  (F_T: {})\n",
                    b.smBoundGflops, 100 * b.ffmaShare, b.mixThroughput, b.mixSource);
  os << fmt::format("  dram bound {:.1f} GFLOPS = DRAM bandwidth x 2·BM·BN / ((BM + BN)·4 B)\n", b.memBoundGflops);
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
  j["bound_gflops"] = b.boundGflops;
  j["fraction_of_peak"] = b.fractionOfPeak();
  j["binding"] = b.binding;
  j["peak_gflops"] = b.peakGflops;
  j["sm_bound_gflops"] = b.smBoundGflops;
  j["dram_bound_gflops"] = b.memBoundGflops;
  j["ffma_share"] = b.ffmaShare;
  j["mix_throughput"] = b.mixThroughput;
  j["mix_source"] = b.mixSource;
  if (b.seconds > 0) {
    j["problem"] = {m_, n_, k_};
    j["seconds"] = b.seconds;
  }
  j["tile"] = {{"threads_per_block", b.tile.threadsPerBlock}, {"thread_tile", {b.tile.tileM, b.tile.tileN}},
               {"block_tile", {b.blockTileM, b.blockTileN}}, {"depth", b.tile.depth}, {"lds_bits", b.tile.ldsBits},
               {"stages", b.tile.stages}, {"blocks_per_sm", b.blocksPerSm}, {"shared_bytes_per_sm", b.sharedBytesPerSm}};
  j["registers"] = {{"accumulators", b.registers.accumulators}, {"prefetch", b.registers.prefetch},
                    {"fragments", b.registers.fragments}, {"addresses", b.registers.addresses},
                    {"total", b.registers.total()}};
  j["feasible_tiles"] = b.feasibleTiles;
  return j;
}

}  // namespace foresight
