// SPDX-License-Identifier: Apache-2.0
/// \file
/// C loop frontend orchestration: markers → three traced sizes → fits → workload summaries,
/// KernelIR and launches at the requested size → the caller's advisor (advise/cloop_advice.h).
#include "foresight/frontend/cloop/cloop_frontend.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "foresight/frontend/cloop/advice.h"
#include "foresight/frontend/cloop/markers.h"
#include "foresight/frontend/cloop/program.h"
#include "foresight/frontend/cloop/workload.h"
#include "foresight/gpu/occupancy.h"
#include "foresight/memory/coalescing.h"
#include "foresight/support/process.h"
#include "foresight/support/progress.h"
#include "foresight/support/text_file.h"

namespace foresight::cloop {

namespace {


struct TracedSize {
  long long n = 0;
  std::vector<KernelTrace> kernels;
};

/// The per-thread counts of one trace, by kernel.
struct PerThread {
  double launches = 0, extentX = 0, extentY = 0, comp = 0, mem = 0, flops = 0;
  std::array<double, kNumInstrClasses> byClass{};
  std::vector<double> ops;  ///< per static memory op
};

PerThread perThread(const KernelTrace& k) {
  PerThread p;
  p.launches = static_cast<double>(k.launches);
  p.extentX = k.extentX;
  p.extentY = k.extentY;
  const double t = k.threads > 0 ? k.threads : 1;
  p.comp = k.compInsts / t;
  p.mem = k.memInsts / t;
  p.flops = k.flops / t;
  for (int c = 0; c < kNumInstrClasses; ++c) p.byClass[static_cast<size_t>(c)] = k.compByClass[static_cast<size_t>(c)] / t;
  for (double e : k.opEvents) p.ops.push_back(e / t);
  return p;
}

constexpr size_t kCoal = static_cast<size_t>(AccessClass::Coalesced);
constexpr size_t kUncoal = static_cast<size_t>(AccessClass::Uncoalesced);
constexpr size_t kConst = static_cast<size_t>(AccessClass::Constant);

std::string pct(double x) { return fmt::format("{:.1f}%", 100 * x); }

}  // namespace

Expected<CloopProgram> analyzeCloop(const std::string& path, const InputOptions& options,
                                    const CloopOptions& copt) {
  if (!options.gpu) return makeError("the C loop frontend needs a target GPU (--gpu)", path, 0);
  const Gpu& gpu = *options.gpu;
  Expected<std::string> text = readTextFile(path, "C file");
  if (!text) return std::move(text).takeError();
  Expected<SourceMarkers> markers = parseMarkers(path, *text);
  if (!markers) return std::move(markers).takeError();
  if (!cloopAvailable()) {
    Expected<InstrumentedProgram> none = buildInstrumented(path, *markers, {}, "");
    return std::move(none).takeError();
  }

  // Requested (target) sizes: -D, else the file's #define.
  std::map<std::string, std::string> defines;
  for (const auto& [k, v] : options.macros) defines[k] = v;
  std::vector<std::pair<std::string, long long>> targets;
  for (const auto& [name, traced] : markers->traceSizes) {
    long long value = 0;
    auto it = defines.find(name);
    if (it != defines.end()) {
      try {
        value = std::stoll(it->second);
      } catch (const std::exception&) {
        return makeError("-D " + name + "=" + it->second + ": a size macro must be an integer");
      }
    } else if (markers->defines.count(name)) {
      value = markers->defines.at(name);
    } else {
      return makeError("no requested size for '" + name + "': pass -D " + name + "=VALUE or #define it", path,
                       markers->traceLine);
    }
    if (value <= 0) return makeError("size macro '" + name + "' must be positive");
    if (traced < 4) return makeError("trace sizes must be at least 4 (they are traced at 1, 1/2 and 1/4)", path, markers->traceLine);
    targets.push_back({name, value});
  }

  CloopProgram program;
  program.path = path;
  program.sizeMacro = markers->traceSizes[0].first;
  program.targetSize = targets[0].second;

  // GPU-derived analysis options.
  AnalysisOptions aopt;
  aopt.l2Ways = copt.l2Ways;
  aopt.analysedBatches = copt.analysedBatches;
  aopt.warpSize = gpu.warpSize.value;
  if (const MemoryLevel* l2 = gpu.memoryLevel("l2")) {
    aopt.l2Bytes = l2->size.value;
    if (l2->line) aopt.l2LineBytes = static_cast<int>(l2->line->value);
  }

  RunLimits limits = copt.limits;
  if (markers->cpuSeconds > 0) limits.cpuSeconds = markers->cpuSeconds;
  if (markers->memoryMiB > 0) limits.memoryBytes = markers->memoryMiB << 20;
  limits.wallSeconds = std::max(limits.wallSeconds, 2 * limits.cpuSeconds);
  // The work folder goes when analysis ends, or when Foresight is interrupted (TempDir).
  Expected<TempDir> work = TempDir::create("foresight-cloop");
  if (!work) return std::move(work).takeError();
  if (std::getenv("FORESIGHT_KEEP_CLOOP")) work->keep();
  const std::array<int, 3> divisors{1, 2, 4};
  std::vector<TracedSize> traces;
  InstrumentedProgram largest;
  std::string largestTrace;
  for (int d : divisors) {
    std::vector<std::pair<std::string, std::string>> defs;
    for (const auto& [k, v] : defines) {
      bool isSize = false;
      for (const auto& ts : markers->traceSizes) isSize |= ts.first == k;
      if (!isSize) defs.push_back({k, v});
    }
    for (const auto& [name, traced] : markers->traceSizes) defs.push_back({name, std::to_string(traced / d)});
    const std::string dir = work->path() + "/n" + std::to_string(d);
    std::filesystem::create_directories(dir);
    const std::string sizes = d == 1 ? "trace size" : "trace size / " + std::to_string(d);
    Expected<InstrumentedProgram> prog = [&] {
      ProgressStage stage(options.progress, "clang " + std::filesystem::path(path).filename().string() + " (" + sizes + ")");
      return buildInstrumented(path, *markers, defs, dir, options.toolTimeoutSeconds);
    }();
    if (!prog) return std::move(prog).takeError();
    const std::string traceFile = dir + "/trace.bin";
    Expected<void> ran = [&] {
      ProgressStage stage(options.progress, "running the traced program (" + sizes + ")");
      return runTraced(prog->executable, traceFile, limits, path);
    }();
    if (!ran) return std::move(ran).takeError();
    // Per-kernel batch size from occupancy (resident blocks per SM x SMs).
    AnalysisOptions o = aopt;
    o.checkDependences = d == 1;
    if (!prog->kernels.empty()) {
      BlockResources br;
      br.threadsPerBlock = static_cast<int>(prog->kernels[0].blockX * prog->kernels[0].blockY);
      Expected<Occupancy> occ = computeOccupancy(gpu, br);
      if (!occ) return makeError("the block of kernel '" + prog->kernels[0].name + "' cannot run on GPU '" + gpu.name + "': " + occ.error().message, path, prog->kernels[0].line);
      o.blocksPerBatch = static_cast<long long>(occ->blocksPerSm) * gpu.smCount.value;
    }
    // Analyse per kernel block shape: kernels with other block shapes get their own batch size.
    std::vector<KernelTrace> kernels;
    std::map<long long, std::vector<KernelTrace>> byBatch;
    for (const StaticKernel& k : prog->kernels) {
      BlockResources br;
      br.threadsPerBlock = static_cast<int>(k.blockX * k.blockY);
      Expected<Occupancy> occ = computeOccupancy(gpu, br);
      if (!occ) return makeError("the block of kernel '" + k.name + "' cannot run on GPU '" + gpu.name + "': " + occ.error().message, path, k.line);
      const long long bpb = static_cast<long long>(occ->blocksPerSm) * gpu.smCount.value;
      if (!byBatch.count(bpb)) {
        AnalysisOptions ok = o;
        ok.blocksPerBatch = bpb;
        ProgressStage stage(options.progress, "analysing the trace (" + sizes + ")");
        Expected<std::vector<KernelTrace>> t = analyzeTrace(*prog, traceFile, ok, path);
        if (!t) return std::move(t).takeError();
        byBatch[bpb] = std::move(*t);
      }
    }
    for (size_t k = 0; k < prog->kernels.size(); ++k) {
      BlockResources br;
      br.threadsPerBlock = static_cast<int>(prog->kernels[k].blockX * prog->kernels[k].blockY);
      const long long bpb = static_cast<long long>(computeOccupancy(gpu, br)->blocksPerSm) * gpu.smCount.value;
      kernels.push_back(byBatch[bpb][k]);
      if (d == 1 && kernels.back().launches == 0) {
        return makeError("the marked loop of kernel '" + prog->kernels[k].name +
                             "' never ran when the program was traced (is it called from main?)",
                         path, prog->kernels[k].line);
      }
    }
    traces.push_back({markers->traceSizes[0].second / d, std::move(kernels)});
    program.tracedSizes.push_back(markers->traceSizes[0].second / d);
    if (d == 1) {
      largest = *prog;
      largestTrace = traceFile;
    }
  }

  const double target = static_cast<double>(program.targetSize);
  const std::array<double, 3> ns{static_cast<double>(traces[0].n), static_cast<double>(traces[1].n),
                                 static_cast<double>(traces[2].n)};
  const double ratio = target / ns[0];
  std::string sizeNote;
  for (size_t m = 1; m < targets.size(); ++m) {
    const double r = static_cast<double>(targets[m].second) / static_cast<double>(markers->traceSizes[m].second);
    if (std::fabs(r - ratio) > 1e-6 * ratio) {
      sizeNote = "size macros scale by different ratios (" + targets[m].first + "); counts are extrapolated along " +
                 program.sizeMacro + " only";
    }
  }

  for (size_t k = 0; k < largest.kernels.size(); ++k) {
    const StaticKernel& sk = largest.kernels[k];
    const KernelTrace& traced = traces[0].kernels[k];
    std::array<PerThread, 3> pts;
    for (size_t t = 0; t < 3; ++t) {
      if (k >= traces[t].kernels.size()) return makeError("the kernels differ between traced sizes", path, sk.line);
      pts[t] = perThread(traces[t].kernels[k]);
    }
    std::map<std::string, CountFit> fits;
    auto fit = [&](const std::string& name, auto get) {
      fits[name] = fitCount(name, ns, {get(pts[0]), get(pts[1]), get(pts[2])});
    };
    fit("launches", [](const PerThread& p) { return p.launches; });
    fit("extent_x", [](const PerThread& p) { return p.extentX; });
    fit("extent_y", [](const PerThread& p) { return p.extentY; });
    fit("comp", [](const PerThread& p) { return p.comp; });
    fit("mem", [](const PerThread& p) { return p.mem; });
    fit("flops", [](const PerThread& p) { return p.flops; });
    for (int c = 0; c < kNumInstrClasses; ++c) {
      fit("class" + std::to_string(c), [c](const PerThread& p) { return p.byClass[static_cast<size_t>(c)]; });
    }
    for (size_t i = 0; i < largest.memOps.size(); ++i) {
      if (largest.memOps[i].kernel != static_cast<int>(k)) continue;
      fit("op" + std::to_string(i), [i](const PerThread& p) { return i < p.ops.size() ? p.ops[i] : 0.0; });
    }

    CloopKernel ck;
    ck.line = sk.line;
    ck.launches = std::max(1.0, std::round(fits["launches"].at(target)));
    const double ex = std::max(1.0, std::round(fits["extent_x"].at(target)));
    const double ey = sk.gridDims == 2 ? std::max(1.0, std::round(fits["extent_y"].at(target))) : 1.0;
    ck.launch.block = {sk.blockX, sk.blockY, 1};
    ck.launch.grid = {static_cast<long long>(std::ceil(ex / static_cast<double>(sk.blockX))),
                      static_cast<long long>(std::ceil(ey / static_cast<double>(sk.blockY))), 1};
    for (const auto& [name, value] : targets) ck.launch.macros[name] = value;
    const WorkloadSummary w = summaryAt(traced, fits, target, largest, static_cast<int>(k), aopt.warpSize, aopt.l2LineBytes);
    ck.input.ir = lowerToIr(sk.name, static_cast<int>(k), traced, largest, w, fits, target, path);
    const std::vector<int> nonAffine = attachAddressStreams(ck.input.ir, static_cast<int>(k), {&traces[0].kernels[k], &traces[1].kernels[k], &traces[2].kernels[k]},
                         ns, target, largest, fits, ck.launch, ex, ey, aopt.warpSize);
    ck.input.summary = w;
    const double total = w.memInsts();
    for (int c = 0; c < kNumAccessClasses; ++c) {
      ck.classShare[static_cast<size_t>(c)] = total > 0 ? w.memory[static_cast<size_t>(c)].insts / total : 0;
      ck.dramPerInst[static_cast<size_t>(c)] = w.memory[static_cast<size_t>(c)].dramTransactionsPerInst;
    }
    ck.allFits = fits;
    for (const auto& [name, f] : fits) {
      if (name.rfind("class", 0) == 0 || name.rfind("op", 0) == 0) continue;
      ck.fits.push_back(f);
    }

    // Notes: mapping, scaling, classes.
    ck.notes.push_back(fmt::format(
        "cloop: kernel '{}' (line {}): {} mapped loop{}, block {}x{}; traced at {}={}, {}, {}; extrapolated to {}",
        sk.name, sk.line, sk.gridDims, sk.gridDims == 2 ? "s (inner loop = threadIdx.x)" : "", sk.blockX, sk.blockY,
        program.sizeMacro, traces[0].n, traces[1].n, traces[2].n, program.targetSize));
    double worst = 0;
    std::string worstName;
    for (const CountFit& f : ck.fits) {
      if (f.checkError > worst) {
        worst = f.checkError;
        worstName = f.quantity;
      }
    }
    ck.notes.push_back(fmt::format(
        "cloop: scaling fit: per-thread memory ~ n^{}, computation ~ n^{}, launches ~ n^{}; worst check at {}={}: "
        "{} off ({})",
        fits["mem"].degree, fits["comp"].degree, fits["launches"].degree, program.sizeMacro, traces[2].n, pct(worst),
        worstName.empty() ? "all exact" : worstName));
    ck.notes.push_back(fmt::format(
        "cloop: warp memory instructions: {} coalesced, {} uncoalesced, {} constant; L2 misses per warp instruction: "
        "{:.3f} / {:.3f} / {:.4f} ({} warps analysed, {}-way {} KiB L2)",
        pct(ck.classShare[kCoal]), pct(ck.classShare[kUncoal]), pct(ck.classShare[kConst]), ck.dramPerInst[kCoal],
        ck.dramPerInst[kUncoal], ck.dramPerInst[kConst], traced.analysedWarps, aopt.l2Ways, aopt.l2Bytes / 1024));
    if (!nonAffine.empty()) {
      std::string lines;
      for (int l : nonAffine) lines += (lines.empty() ? "" : ", ") + std::to_string(l);
      ck.notes.push_back(fmt::format(
          "cloop: the addresses of {} global operation{} (line{} {}) are not affine in the thread and the "
          "occurrence at every traced size: the memory engine charges them to DRAM, outside the footprint",
          nonAffine.size(), nonAffine.size() == 1 ? "" : "s", nonAffine.size() == 1 ? "" : "s", lines));
    }
    if (ck.launches > 1) ck.notes.push_back(fmt::format("cloop: kernel '{}' is launched {} times per run", sk.name, ck.launches));
    if (!sizeNote.empty()) ck.notes.push_back("cloop: " + sizeNote);
    program.kernels.push_back(std::move(ck));
  }

  if (options.cloopAdvisor) {
    for (size_t k = 0; k < program.kernels.size(); ++k) {
      CloopKernel& ck = program.kernels[k];
      AdviceContext ctx{ck.input,  ck.launch, ck.classShare, ck.allFits, static_cast<int>(k), traces[0].kernels[k],
                        largest,   largestTrace, aopt,       target,      gpu,  copt.smemLiteral, path};
      ck.advice = options.cloopAdvisor(ctx);
      for (const Advice& a : ck.advice) ck.notes.push_back("advice: " + a.message);
    }
  }
  return program;
}

Expected<LoadedInput> loadCloopInput(const std::string& path, const InputOptions& options) {
  Expected<CloopProgram> program = analyzeCloop(path, options);
  if (!program) return std::move(program).takeError();
  LoadedInput in;
  in.path = path;
  in.frontend = "cloop";
  const CloopKernel* chosen = nullptr;
  for (const CloopKernel& k : program->kernels) {
    in.runs.push_back({in.kernels.size(), k.launch, k.launches, k.notes});
    in.kernels.push_back(k.input);
    if (k.input.ir.name == options.kernel || program->kernels.size() == 1) chosen = &k;
  }
  if (chosen) {
    in.launch = chosen->launch;
    in.notes = chosen->notes;
  }
  return in;
}

}  // namespace foresight::cloop
