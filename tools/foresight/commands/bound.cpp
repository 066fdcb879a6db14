// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight bound --gpu G [--gemm M,N,K] [--variant lai|general] [tile options]`: the
/// attainable SGEMM peak of a GPU (Lai's upper-bound analysis, model/gemm_bound.h), the
/// implementation parameters that reach it and what binds it.
#include <CLI/CLI.hpp>
#include <memory>
#include <sstream>

#include "../command.h"
#include "../common_options.h"
#include "foresight/gpu/presets.h"
#include "foresight/model/gemm_bound.h"
#include "foresight/report/bound_view.h"

namespace foresight::cli {

namespace {

struct BoundCliOptions {
  std::string gpu;
  std::string gemm;     ///< "M,N,K"
  std::string variant;  ///< "", "lai", "general"
  int threads = 0;
  std::string threadTile;  ///< "MxN"
  int depth = 0;
  int ldsBits = 0;
  int stages = 1;
  double overhead = 0;
  int addressRegisters = 7;
  bool json = false;
};

/// "a,b,c" or "axb" → numbers; false on anything else.
bool splitNumbers(const std::string& text, char sep, size_t count, std::vector<long long>& out) {
  out.clear();
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, sep)) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 12) return false;
    out.push_back(std::stoll(part));
  }
  return out.size() == count && std::all_of(out.begin(), out.end(), [](long long v) { return v > 0; });
}

int runBound(const BoundCliOptions& o) {
  Expected<Gpu> gpu = resolveGpu(o.gpu);
  if (!gpu) return reportError(gpu.error());
  GemmBoundOptions options;
  if (o.variant.empty()) {
    options.variant = gpu->sgemmMix ? GemmBoundVariant::Lai : GemmBoundVariant::General;
  } else {
    Expected<GemmBoundVariant> v = parseGemmBoundVariant(o.variant);
    if (!v) return reportError(v.error());
    options.variant = *v;
  }
  if (!o.gemm.empty()) {
    std::vector<long long> mnk;
    if (!splitNumbers(o.gemm, ',', 3, mnk)) return reportError(makeError("--gemm '" + o.gemm + "' must be M,N,K (positive integers)"));
    options.m = mnk[0];
    options.n = mnk[1];
    options.k = mnk[2];
  }
  const bool anyTile = o.threads > 0 || !o.threadTile.empty() || o.depth > 0 || o.ldsBits > 0;
  if (anyTile) {
    std::vector<long long> mn;
    if (o.threads <= 0 || o.threadTile.empty() || o.depth <= 0 || o.ldsBits <= 0) {
      return reportError(makeError("a tile needs --threads, --thread-tile MxN, --depth and --lds-bits together"));
    }
    if (!splitNumbers(o.threadTile, 'x', 2, mn) || mn[0] > 64 || mn[1] > 64) {
      return reportError(makeError("--thread-tile '" + o.threadTile + "' must be MxN with sides from 1 to 64"));
    }
    options.tile = GemmTile{o.threads, static_cast<int>(mn[0]), static_cast<int>(mn[1]), o.depth, o.ldsBits, o.stages};
  }
  options.overheadPerKStep = o.overhead;
  options.addressRegisters = o.addressRegisters;
  Expected<GemmBound> bound = gemmBound(*gpu, options);
  if (!bound) return reportError(bound.error());
  const GemmBoundView view(*gpu, std::move(*bound), options.m, options.n, options.k);
  return printView(view, o.json);
}

}  // namespace

std::function<int()> setupBound(CLI::App& sub) {
  auto o = std::make_shared<BoundCliOptions>();
  sub.add_option("--gpu", o->gpu, "GPU preset name or description file")->required();
  sub.add_option("--gemm", o->gemm, "Problem size M,N,K: also print the least time 2·M·N·K / bound");
  sub.add_option("--variant", o->variant,
                 "lai (the thesis' Eqs. 4.1-4.11; needs the GPU's measured [sgemm_mix]) or general "
                 "(rectangular tiles, occupancy rules, the GPU's rates); default: lai where measured");
  sub.add_option("--threads", o->threads, "Evaluate one tile: threads per block");
  sub.add_option("--thread-tile", o->threadTile, "Evaluate one tile: C elements per thread, MxN");
  sub.add_option("--depth", o->depth, "Evaluate one tile: k-depth L of the shared A and B tiles");
  sub.add_option("--lds-bits", o->ldsBits, "Evaluate one tile: shared-load width, 32, 64 or 128");
  sub.add_option("--stages", o->stages, "Evaluate one tile: shared-memory buffers (general variant)")->capture_default_str();
  sub.add_option("--overhead", o->overhead,
                 "general: other instructions per k-step per thread (addresses, loop, barriers)")
      ->capture_default_str();
  sub.add_option("--address-registers", o->addressRegisters, "Registers for addresses and the loop end (R_addr)")
      ->capture_default_str();
  sub.add_flag("--json", o->json, "Print one JSON object on stdout");
  return [o] { return runBound(*o); };
}

}  // namespace foresight::cli
