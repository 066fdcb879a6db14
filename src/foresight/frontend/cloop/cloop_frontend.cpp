// SPDX-License-Identifier: Apache-2.0
/// \file
/// C loop frontend orchestration: markers → three traced sizes → fits → workload summaries,
/// KernelIR and launches at the requested size → advice.
#include "foresight/frontend/cloop/cloop_frontend.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "foresight/frontend/cloop/markers.h"
#include "foresight/frontend/cloop/program.h"
#include "foresight/gpu/occupancy.h"
#include "foresight/memory/coalescing.h"
#include "foresight/support/text_file.h"

namespace foresight::cloop {

double CountFit::at(double n) const { return degree == 0 ? a : a + b * std::pow(n, degree); }

namespace {

/// Removes the work folder when analysis ends.
struct WorkDir {
  std::string path;
  WorkDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/foresight-cloop-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data())) path = buf.data();
  }
  ~WorkDir() {
    if (!path.empty() && !std::getenv("FORESIGHT_KEEP_CLOOP")) {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
};

/// Fits value(n) = a + b n^d through the two largest sizes, d the rounded log-log slope
/// (0..3); checks the fit at the smallest size. `n` and `v` are largest first.
CountFit fitCount(const std::string& name, const std::array<double, 3>& n, const std::array<double, 3>& v) {
  CountFit f;
  f.quantity = name;
  if (std::fabs(v[0] - v[1]) <= 1e-9 * std::max(1.0, std::fabs(v[0]))) {
    f.degree = 0;
    f.a = v[0];
  } else {
    double slope = 1;
    if (v[0] > 0 && v[1] > 0) slope = std::log(v[0] / v[1]) / std::log(n[0] / n[1]);
    f.degree = static_cast<int>(std::clamp(std::lround(slope), 0L, 3L));
    if (f.degree == 0) f.degree = 1;  // the values differ, so the count grows with n
    f.b = (v[0] - v[1]) / (std::pow(n[0], f.degree) - std::pow(n[1], f.degree));
    f.a = v[0] - f.b * std::pow(n[0], f.degree);
  }
  const double predicted = f.at(n[2]);
  f.checkError = std::fabs(v[2]) > 1e-12 ? std::fabs(predicted - v[2]) / std::fabs(v[2]) : std::fabs(predicted);
  return f;
}

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

/// CGPredict's workload at the requested size from the fits and the traced size's classes.
WorkloadSummary summaryAt(const KernelTrace& traced, const std::map<std::string, CountFit>& fits, double target,
                          const InstrumentedProgram& prog, int kernel, int warpSize, int lineBytes) {
  WorkloadSummary w;
  w.compInsts = std::max(0.0, fits.at("comp").at(target));
  // Per memory operation: its per-thread count at the target (fitted), split by the classes its
  // warp instructions had in the analysed batches, with their L2 misses per warp instruction.
  std::array<double, kNumAccessClasses> insts{}, dram{};
  int elemBytes = 4;
  double sharedAccesses = 0;
  for (size_t i = 0; i < prog.memOps.size(); ++i) {
    if (prog.memOps[i].kernel != kernel) continue;
    const MemOpStats& s = traced.ops[i];
    auto it = fits.find("op" + std::to_string(i));
    if (it == fits.end()) continue;
    const OpSpace space = prog.memOps[i].space;
    if (space != OpSpace::Global) {
      const double count = std::max(0.0, it->second.at(target));
      if (space == OpSpace::GlobalToShared) {
        w.smemLoadInsts += count;
        w.synchInsts = std::max(w.synchInsts, count);  // one barrier after each tile load
      } else if (space == OpSpace::Shared) {
        w.smemConflictWeighted += count * (s.sharedInsts > 0 ? s.conflictSum / s.sharedInsts : 1);
        sharedAccesses += count;
      }
      continue;
    }
    const double n = s.warpInsts[0] + s.warpInsts[1] + s.warpInsts[2];
    if (n <= 0) continue;
    elemBytes = prog.memOps[i].bytes;
    const double count = std::max(0.0, it->second.at(target));
    for (size_t c = 0; c < insts.size(); ++c) {
      const double share = s.warpInsts[c] / n;
      insts[c] += count * share;
      dram[c] += count * share * s.misses / n;
    }
  }
  for (int c = 0; c < kNumAccessClasses; ++c) {
    MemoryClassStats& s = w.memory[static_cast<size_t>(c)];
    s.insts = insts[static_cast<size_t>(c)];
    // Paper mode (Table 3): 32 / 2 / 1 transactions per warp instruction for 32 4-byte lanes
    // over 64-B lines; the coalesced count follows the warp's bytes over the line.
    PaperTransactions table;
    table.uncoalesced = warpSize;
    table.coalesced = std::max(1, warpSize * elemBytes / lineBytes);
    s.transactionsPerInst = paperTransactions(static_cast<AccessClass>(c), table);
    s.dramTransactionsPerInst = s.insts > 0 ? dram[static_cast<size_t>(c)] / s.insts : 0;
  }
  // Shared accesses and barriers are instructions too (Eq. 12 counts them in no_total_insts).
  w.compInsts += sharedAccesses + w.synchInsts;
  w.loadBytesPerWarp = static_cast<double>(warpSize * elemBytes);
  double byClassTotal = 0;
  for (int c = 0; c < kNumInstrClasses; ++c) {
    const std::string key = "class" + std::to_string(c);
    w.compByClass[static_cast<size_t>(c)] = fits.count(key) ? std::max(0.0, fits.at(key).at(target)) : 0;
    byClassTotal += w.compByClass[static_cast<size_t>(c)];
  }
  // Keep the split consistent with the fitted total.
  if (byClassTotal > 0) {
    for (double& v : w.compByClass) v *= w.compInsts / byClassTotal;
  }
  w.compByClass[static_cast<size_t>(InstrClass::Ldst)] += 0;
  w.flopsPerThread = std::max(0.0, fits.at("flops").at(target));
  return w;
}

/// KernelIR: one block per memory operation (executions = its per-thread count at the target;
/// lane addresses of its first execution by the sample warp) and one per computation class.
KernelIR lowerToIr(const std::string& name, int kernelId, const KernelTrace& traced, const InstrumentedProgram& prog,
                   const WorkloadSummary& w, const std::map<std::string, CountFit>& fits, double target,
                   const std::string& path) {
  KernelIR ir;
  ir.name = name;
  for (size_t i = 0; i < prog.memOps.size(); ++i) {
    const StaticMemOp& op = prog.memOps[i];
    if (op.kernel != kernelId) continue;
    auto fit = fits.find("op" + std::to_string(i));
    const double count = fit == fits.end() ? 0 : std::max(0.0, fit->second.at(target));
    if (count <= 0) continue;
    const MemOpStats& s = traced.ops[i];
    const bool shared = op.space == OpSpace::Shared || op.space == OpSpace::SharedFill;
    Instruction in;
    in.opcode = std::string(op.isStore ? "st." : "ld.") + (shared ? "shared" : "global");
    in.cls = InstrClass::Ldst;
    in.sourceFile = path;
    in.sourceLine = op.line;
    MemoryAccess m;
    m.space = shared ? MemorySpace::Shared : MemorySpace::Global;
    m.isStore = op.isStore;
    m.widthBytes = op.bytes;
    if (!shared && op.space == OpSpace::Global) {
      const int major = static_cast<int>(std::max_element(s.warpInsts.begin(), s.warpInsts.end()) - s.warpInsts.begin());
      m.pattern = static_cast<AccessClass>(major);
    }
    for (const auto& [sop, lanes] : traced.sampleWarp) {
      if (sop == static_cast<int>(i)) {
        m.laneAddresses = lanes;
        break;
      }
    }
    in.memory = m;
    BasicBlock bb;
    const std::string arr = op.array >= 0 ? prog.arrays[static_cast<size_t>(op.array)].name : "mem";
    bb.label = fmt::format("{}_{}_line{}", op.isStore ? "store" : "load", arr, op.line);
    bb.instructions.push_back(in);
    bb.executionsPerWarp = count;
    ir.blocks.push_back(bb);
  }
  if (w.synchInsts > 0) {
    Instruction bar;
    bar.opcode = "bar.sync";
    bar.cls = InstrClass::Control;
    bar.barrier = true;
    BasicBlock bb;
    bb.label = "barrier";
    bb.instructions.push_back(bar);
    bb.executionsPerWarp = w.synchInsts;
    ir.blocks.push_back(bb);
  }
  for (int c = 0; c < kNumInstrClasses; ++c) {
    const double count = w.compByClass[static_cast<size_t>(c)];
    if (count <= 0) continue;
    Instruction in;
    in.opcode = "comp";
    in.cls = static_cast<InstrClass>(c);
    BasicBlock bb;
    bb.label = std::string("comp_") + instrClassName(in.cls);
    bb.instructions.push_back(in);
    bb.executionsPerWarp = count;
    ir.blocks.push_back(bb);
  }
  for (size_t b = 0; b + 1 < ir.blocks.size(); ++b) ir.blocks[b].successors.push_back(static_cast<int>(b + 1));
  return ir;
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
  WorkDir work;
  if (work.path.empty()) return makeError("cannot create a temporary folder for tracing");
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
    const std::string dir = work.path + "/n" + std::to_string(d);
    std::filesystem::create_directories(dir);
    Expected<InstrumentedProgram> prog = buildInstrumented(path, *markers, defs, dir);
    if (!prog) return std::move(prog).takeError();
    const std::string traceFile = dir + "/trace.bin";
    Expected<void> ran = runTraced(prog->executable, traceFile, limits, path);
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
    if (ck.launches > 1) ck.notes.push_back(fmt::format("cloop: kernel '{}' is launched {} times per run", sk.name, ck.launches));
    if (!sizeNote.empty()) ck.notes.push_back("cloop: " + sizeNote);
    program.kernels.push_back(std::move(ck));
  }

  if (copt.advice) {
    ModelOptions mo;
    mo.variant = MwpCwpVariant::CGPredict;
    for (size_t k = 0; k < program.kernels.size(); ++k) {
      CloopKernel& ck = program.kernels[k];
      const KernelTrace& traced = traces[0].kernels[k];
      Expected<Prediction> before = predict(ck.input, ck.launch, gpu, mo);
      if (!before) continue;
      const double mwp = [&] {
        for (const auto& v : before->values) if (v.name == "MWP") return v.value;
        return 0.0;
      }();
      const double cwp = [&] {
        for (const auto& v : before->values) if (v.name == "CWP") return v.value;
        return 0.0;
      }();
      // Uncoalesced and memory-bound: transpose the arrays that walk a column across the warp.
      std::map<int, double> uncoalByArray;
      for (size_t i = 0; i < largest.memOps.size(); ++i) {
        const StaticMemOp& op = largest.memOps[i];
        if (op.kernel != static_cast<int>(k) || op.array < 0) continue;
        uncoalByArray[op.array] += traced.ops[i].warpInsts[static_cast<size_t>(AccessClass::Uncoalesced)];
      }
      for (const auto& [arr, n] : uncoalByArray) {
        const StaticArray& a = largest.arrays[static_cast<size_t>(arr)];
        if (n <= 0 || a.dims.size() < 2 || traced.classInsts[kUncoal] < 0.25 * (traced.classInsts[0] + traced.classInsts[1] + traced.classInsts[2])) continue;
        if (mwp > cwp) continue;  // not memory-bound
        AnalysisOptions o = aopt;
        o.checkDependences = false;
        o.transposed = {arr};
        BlockResources br;
        br.threadsPerBlock = static_cast<int>(ck.launch.threadsPerBlock());
        Expected<Occupancy> occ = computeOccupancy(gpu, br);
        if (!occ) continue;
        o.blocksPerBatch = static_cast<long long>(occ->blocksPerSm) * gpu.smCount.value;
        Expected<std::vector<KernelTrace>> t = analyzeTrace(largest, largestTrace, o, path);
        if (!t) continue;
        KernelTrace& tt = (*t)[k];
        // Same fits; classes and misses of the transposed layout.
        KernelInput changed = ck.input;
        changed.summary = summaryAt(tt, ck.allFits, target, largest, static_cast<int>(k), aopt.warpSize, aopt.l2LineBytes);
        changed.summary->compByClass = ck.input.summary->compByClass;
        Expected<Prediction> after = predict(changed, ck.launch, gpu, mo);
        if (!after || after->seconds >= before->seconds) continue;
        Advice adv;
        adv.kind = "transpose";
        adv.secondsBefore = before->seconds;
        adv.secondsAfter = after->seconds;
        adv.message = fmt::format(
            "'{}' is read down a column across the warp (uncoalesced) and the kernel is memory-bound (MWP {:.2f} <= "
            "CWP {:.2f}): store it transposed (or interchange the loops so threadIdx.x walks its last dimension); "
            "predicted {:.2f} ms -> {:.2f} ms ({:.1f}x)",
            a.name, mwp, cwp, before->seconds * 1e3, after->seconds * 1e3, before->seconds / after->seconds);
        ck.advice.push_back(adv);
      }
      // Reusable tiles: a sequential inner loop re-reading arrays that several warps share.
      // The tiled kernel is predicted by the same model: each inner-loop read becomes a shared
      // read (X = 16 for a column walk of a 32-wide tile, else 1), each array adds one
      // global->shared load per 32 iterations and a barrier; 32x32 blocks, one tile per array.
      const double constShare = ck.classShare[kConst];
      const WorkloadSummary& base = *ck.input.summary;
      if (mwp <= cwp && constShare > 0.2 && base.smemLoadInsts == 0 && ck.launch.block.y > 1) {
        WorkloadSummary tiled = base;
        double tiles = 0, readArrays = 0, sumX = 0, readsPerThread = 0;
        bool conflicted = false;
        for (size_t i = 0; i < largest.memOps.size(); ++i) {
          const StaticMemOp& op = largest.memOps[i];
          if (op.kernel != static_cast<int>(k) || op.isStore || op.space != OpSpace::Global) continue;
          auto fit = ck.allFits.find("op" + std::to_string(i));
          if (fit == ck.allFits.end()) continue;
          const double perThread = fit->second.at(target);
          const MemOpStats& s = traced.ops[i];
          const double n = s.warpInsts[0] + s.warpInsts[1] + s.warpInsts[2];
          if (perThread < 32 || n <= 0) continue;  // read once per thread, not in the inner loop
          for (size_t c = 0; c < kNumAccessClasses; ++c) {
            tiled.memory[c].insts = std::max(0.0, tiled.memory[c].insts - perThread * s.warpInsts[c] / n);
          }
          const double x = s.warpInsts[kUncoal] > 0.5 * n ? 16 : 1;
          conflicted |= x > 1;
          tiles = std::max(tiles, perThread / 32);
          readArrays += 1;
          sumX += x;
          readsPerThread += perThread;
          tiled.smemLoadInsts += perThread / 32;
          tiled.smemConflictWeighted += perThread * x;
        }
        tiled.synchInsts = tiles;
        tiled.compInsts += readsPerThread + tiles;
        if (readArrays > 0) {
          KernelInput changed = ck.input;
          changed.summary = tiled;
          changed.ir.resources.staticSharedBytes = static_cast<long long>(readArrays) * 32 * 32 * 4;
          Launch launch = ck.launch;
          const double ex = static_cast<double>(ck.launch.grid.x * ck.launch.block.x);
          const double ey = static_cast<double>(ck.launch.grid.y * ck.launch.block.y);
          launch.block = {32, 32, 1};
          launch.grid = {static_cast<long long>(std::ceil(ex / 32)), static_cast<long long>(std::ceil(ey / 32)), 1};
          ModelOptions tm = mo;
          tm.smemRule = copt.smemLiteral ? SmemRule::PaperLiteral : SmemRule::PaperFitted;
          Expected<Prediction> after = predict(changed, launch, gpu, tm);
          if (after && after->seconds < before->seconds) {
            Advice adv;
            adv.kind = "shared-memory";
            adv.secondsBefore = before->seconds;
            adv.secondsAfter = after->seconds;
            adv.message = fmt::format(
                "the inner loop re-reads data that neighbouring threads share ({} of the memory instructions are "
                "constant across the warp): tile it 32x32 through shared memory (32x32 blocks, {} tiles of 4 KiB); "
                "predicted {:.2f} ms -> {:.2f} ms ({:.1f}x, {} shared-memory rule)",
                pct(constShare), readArrays, before->seconds * 1e3, after->seconds * 1e3,
                before->seconds / after->seconds, smemRuleName(tm.smemRule));
            ck.advice.push_back(adv);
            if (conflicted) {
              // Padding each tile row to 33 words puts a column walk's 32 words in 32 banks.
              WorkloadSummary padded = tiled;
              padded.smemConflictWeighted = readsPerThread;  // X = 1 for every tile read
              changed.summary = padded;
              Expected<Prediction> pad = predict(changed, launch, gpu, tm);
              if (pad) {
                Advice p2;
                p2.kind = "padding";
                p2.secondsBefore = after->seconds;
                p2.secondsAfter = pad->seconds;
                p2.message = fmt::format(
                    "in that tiling, the tile read down a column is 16-way bank-conflicted (CGPredict's Kepler "
                    "rule: 32 lanes in one bank over 16 segments): pad its rows to 33 words; predicted {:.2f} ms -> "
                    "{:.2f} ms",
                    after->seconds * 1e3, pad->seconds * 1e3);
                ck.advice.push_back(p2);
              }
            }
          }
        }
      }
      // Kernels that already use shared memory: bank conflicts measured on the hinted arrays.
      for (size_t i = 0; i < largest.memOps.size(); ++i) {
        const StaticMemOp& op = largest.memOps[i];
        const MemOpStats& s = traced.ops[i];
        if (op.kernel != static_cast<int>(k) || op.space != OpSpace::Shared || s.sharedInsts <= 0) continue;
        const double x = s.conflictSum / s.sharedInsts;
        if (x < 2) continue;
        Advice adv;
        adv.kind = "padding";
        adv.message = fmt::format("line {}: the access to shared array '{}' is {:.0f}-way bank-conflicted on average: "
                                  "pad its rows by one word",
                                  op.line, op.array >= 0 ? largest.arrays[static_cast<size_t>(op.array)].name : "?", x);
        ck.advice.push_back(adv);
      }
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
    in.kernels.push_back(k.input);
    if (k.input.ir.name == options.kernel || program->kernels.size() == 1) chosen = &k;
  }
  if (chosen) {
    in.launch = chosen->launch;
    in.notes = chosen->notes;
  }
  return in;
}

Expected<double> predictProgramSeconds(const CloopProgram& program, const Gpu& gpu, const ModelOptions& options) {
  double total = 0;
  for (const CloopKernel& k : program.kernels) {
    Expected<Prediction> p = predict(k.input, k.launch, gpu, options);
    if (!p) return std::move(p).takeError();
    total += p->seconds * k.launches;
  }
  return total;
}

}  // namespace foresight::cloop
