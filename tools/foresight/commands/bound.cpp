// SPDX-License-Identifier: Apache-2.0
/// \file
/// `foresight bound --gpu G [--gemm M,N,K] [--variant lai|general] [--precision P] [tile options]`:
/// the attainable GEMM peak of a GPU (Lai's upper-bound analysis, model/gemm_bound.h), the
/// implementation parameters that reach it and what binds it.
/// `foresight bound FILE --kernel K --gpu G [launch options] [--gemm M,N,K]`: the bound of one
/// kernel as compiled (model/kernel_bound.h), its inner loop's mix, and the emulator's gap to it.
#include <CLI/CLI.hpp>
#include <memory>
#include <sstream>

#include "../command.h"
#include "../common_options.h"
#include "foresight/frontend/input.h"
#include "foresight/gpu/presets.h"
#include "foresight/memory/hierarchy.h"
#include "foresight/model/gemm_bound.h"
#include "foresight/model/kernel_bound.h"
#include "foresight/model/predict.h"
#include "foresight/report/bound_view.h"

namespace foresight::cli {

namespace {

struct BoundCliOptions {
  CommonOptions file;  ///< FILE mode: the input, kernel, launch and compilation options
  std::string gpu;
  std::string html;     ///< --html FILE
  std::string gemm;     ///< "M,N,K"
  std::string variant;  ///< "", "lai", "general"
  std::string precision;  ///< "", "fp32", "tf32", ...
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

/// FILE mode: the kernel's floors and mix, the emulator's prediction, and the GEMM bound of
/// the size --gemm gives (when it does).
int runKernelBound(const BoundCliOptions& o, const Gpu& gpu, const std::optional<GemmBoundOptions>& gemm) {
  CommonOptions common = o.file;
  common.gpu = o.gpu;
  Expected<LoadedKernel> k = loadKernel(common, gpu);
  if (!k) return reportError(k.error());
  auto named = [&](Error e) {
    if (e.file.empty()) e.file = common.input;
    return reportError(e);
  };
  // One memory analysis, shared by the bound's DRAM floor and the emulator (as predict() shares it).
  Expected<MemoryTraffic> traffic =
      analyzeMemory(k->kernel().ir, k->kernel().summary ? &*k->kernel().summary : nullptr, k->launch, gpu);
  if (!traffic) return named(traffic.error());
  const auto shared = std::make_shared<const MemoryTraffic>(std::move(*traffic));
  Expected<KernelBound> bound = kernelBound(k->kernel(), k->launch, gpu, shared.get());
  if (!bound) return named(bound.error());
  common.model = "emulate";
  common.variant = "auto";
  Expected<ModelOptions> modelOptions = toModelOptions(common, &gpu);
  if (!modelOptions) return reportError(modelOptions.error());
  modelOptions->emulate.memory = shared;
  Expected<Prediction> emulated = predict(k->kernel(), k->launch, gpu, *modelOptions);
  if (!emulated) return named(emulated.error());
  std::optional<GemmBound> best;
  if (gemm) {
    Expected<GemmBound> g = gemmBound(gpu, *gemm);
    if (!g) return reportError(g.error());
    best = std::move(*g);
  }
  PredictionContext context{common.input, k->input.frontend, k->kernel().ir.name, &gpu, k->launch};
  const KernelBoundView view(std::move(context), std::move(*bound), std::move(*emulated), std::move(best),
                             gemm ? gemm->m : 0, gemm ? gemm->n : 0, gemm ? gemm->k : 0);
  return printView(view, PrintOptions{o.json, false, o.html, o.file.input});
}

int runBound(const BoundCliOptions& o) {
  Expected<Gpu> gpu = resolveGpu(o.gpu);
  if (!gpu) return reportError(gpu.error());
  GemmBoundOptions options;
  if (!o.precision.empty()) {
    Expected<GemmPrecision> p = parseGemmPrecision(o.precision);
    if (!p) return reportError(p.error());
    options.precision = *p;
  }
  if (o.variant.empty()) {
    options.variant = gpu->sgemmMix && options.precision == GemmPrecision::Fp32 ? GemmBoundVariant::Lai
                                                                               : GemmBoundVariant::General;
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
  if (!o.file.input.empty()) {
    if (anyTile) return reportError(makeError("a tile (--threads, --thread-tile, --depth, --lds-bits) is not read with FILE: "
                                              "the kernel's own mix is"));
    if (o.gemm.empty()) return runKernelBound(o, *gpu, std::nullopt);
    options.variant = o.variant.empty() ? GemmBoundVariant::General : options.variant;
    return runKernelBound(o, *gpu, options);
  }
  Expected<GemmBound> bound = gemmBound(*gpu, options);
  if (!bound) return reportError(bound.error());
  const GemmBoundView view(*gpu, std::move(*bound), options.m, options.n, options.k);
  return printView(view, PrintOptions{o.json, false, o.html, "gemm bound"});
}

}  // namespace

std::function<int()> setupBound(CLI::App& sub) {
  auto o = std::make_shared<BoundCliOptions>();
  sub.add_option("file", o->file.input,
                 "A kernel (.cu, .ptx, .cubin, .sass, .toml): bound it as compiled instead of an ideal GEMM");
  sub.add_option("--gpu", o->gpu, "GPU preset name or description file")->required();
  sub.add_option("--kernel", o->file.kernel, "FILE: the kernel, when it has several");
  sub.add_option("--grid", o->file.grid, "FILE: grid in blocks, X[,Y[,Z]]");
  sub.add_option("--block", o->file.block, "FILE: block in threads, X[,Y[,Z]]");
  sub.add_option("--arg", o->file.args, "FILE: scalar kernel argument, NAME=VALUE (repeatable)");
  sub.add_option("-D", o->file.defines, "FILE: macro for CUDA compilation, NAME[=VALUE] (repeatable)");
  sub.add_option("-I", o->file.includeDirs, "FILE: include directory for CUDA compilation (repeatable)");
  sub.add_option("--trip", o->file.trips, "FILE: trip count of a data-dependent loop, FILE:LINE=N (repeatable)");
  sub.add_option("--branch", o->file.branches, "FILE: taken probability of a data-dependent branch, FILE:LINE=P");
  sub.add_option("--dynamic-shared", o->file.dynamicShared, "FILE: dynamic shared memory per block, bytes");
  addToolTimeoutOption(sub, o->file.toolTimeout, "FILE: wall-clock limit of each nvcc, ptxas or nvdisasm run, seconds");
  sub.add_option("--gemm", o->gemm,
                 "Problem size M,N,K: also print the least time 2·M·N·K / bound (with FILE: the best GEMM of that size)");
  sub.add_option("--variant", o->variant,
                 "lai (the thesis' Eqs. 4.1-4.11; needs the GPU's measured [sgemm_mix]) or general "
                 "(rectangular tiles, occupancy rules, the GPU's rates); default: lai where measured");
  sub.add_option("--precision", o->precision,
                 "fp32 (FFMA SGEMM, default), fp64, dmma, tf32, fp16, bf16, fp8 or int8 (matrix-pipe peak and "
                 "compulsory DRAM traffic; general variant)");
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
  addHtmlOption(sub, o->html);
  return [o] { return runBound(*o); };
}

}  // namespace foresight::cli
