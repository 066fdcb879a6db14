// SPDX-License-Identifier: Apache-2.0
/// \file
/// The only LLVM user of the C loop frontend: compiles the C file to IR with the clang-14
/// driver, runs the pre-pipeline (cgpredict.md §10: inlining of always_inline helpers, sroa,
/// early-cse, instcombine, simplifycfg, loop-rotate, licm with scalar promotion, dead-store
/// elimination (the store that promotion leaves dead, as nvcc removes it), indvars; no
/// unrolling or vectorization), locates the marked loop nests by their source line, checks them,
/// inserts trace calls and links the instrumented program with a small C runtime.
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "foresight/frontend/cloop/program.h"
#include "foresight/support/process.h"

#ifndef FORESIGHT_CLANG
#define FORESIGHT_CLANG "clang-14"
#endif

namespace foresight::cloop {

bool cloopAvailable() { return true; }

namespace {

/// The fixed pre-pipeline (cgpredict.md §10). Ends in loop-simplify + lcssa so every loop has a
/// preheader, one latch and dedicated exits, where the trace calls go.
constexpr const char* kPipeline =
    "always-inline,function(sroa,early-cse,instcombine,simplifycfg,loop-simplify,lcssa,"
    "loop(loop-rotate),loop-mssa(licm),instcombine,simplifycfg,dse,loop-simplify,lcssa,"
    "loop(indvars),loop-simplify,lcssa)";

/// The trace runtime linked into the instrumented program: buffered 32-bit words to $CGP_TRACE.
constexpr const char* kRuntime = R"RT(
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#define CGP_CAP (1u << 18)
static FILE* cgp_out;
static uint32_t cgp_buf[CGP_CAP];
static unsigned cgp_n;
static void cgp_flush(void) {
  if (cgp_n && fwrite(cgp_buf, 4, cgp_n, cgp_out) != cgp_n) { fputs("cgp: trace write failed\n", stderr); _Exit(97); }
  cgp_n = 0;
}
static void cgp_close(void) { cgp_flush(); fclose(cgp_out); }
__attribute__((constructor)) static void cgp_open(void) {
  const char* p = getenv("CGP_TRACE");
  cgp_out = p ? fopen(p, "wb") : NULL;
  if (!cgp_out) { fputs("cgp: cannot open $CGP_TRACE\n", stderr); _Exit(96); }
  atexit(cgp_close);
}
void __cgp_ev(uint32_t w) { if (cgp_n + 1 > CGP_CAP) cgp_flush(); cgp_buf[cgp_n++] = w; }
void __cgp_mem(uint32_t w, const void* a) {
  if (cgp_n + 3 > CGP_CAP) cgp_flush();
  uint64_t v = (uint64_t)(uintptr_t)a;
  cgp_buf[cgp_n++] = w; cgp_buf[cgp_n++] = (uint32_t)v; cgp_buf[cgp_n++] = (uint32_t)(v >> 32);
}
)RT";

/// Runs clang (no shell) with stdout to /dev/null and stderr captured, under `timeoutSeconds`
/// (0: kClangTimeoutSeconds). An Error when clang cannot start, times out or crashes; the
/// result, whose exit status the caller checks, otherwise.
Expected<ProcessResult> runClang(std::vector<std::string> argv, const std::string& path, double timeoutSeconds) {
  ProcessRequest request;
  request.argv = std::move(argv);
  request.name = "clang";
  request.timeoutSeconds = timeoutSeconds > 0 ? timeoutSeconds : kClangTimeoutSeconds;
  request.captureStdout = false;
  Expected<ProcessResult> run = runProcess(request);
  if (!run) {
    if (run.error().message.rfind("cannot run '", 0) != 0) return std::move(run).takeError();
    return makeError(std::string("cannot run the C compiler '") + FORESIGHT_CLANG +
                     "' (install clang-14, see docs/input-cloop.md)");
  }
  if (run->timedOut) return makeError(describeFailure(request, *run) + "; " + kToolTimeoutHint, path, 0);
  if (run->signal != 0) return makeError(describeFailure(request, *run), path, 0);
  return run;
}

/// The first "error:" line of a clang diagnostic output, or its first line.
std::string firstError(const std::string& text) {
  std::istringstream in(text);
  std::string line, first;
  while (std::getline(in, line)) {
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error:") != std::string::npos) return line;
  }
  return first;
}

int lineOf(const llvm::Instruction& i) {
  if (const llvm::DebugLoc& dl = i.getDebugLoc()) return static_cast<int>(dl.getLine());
  return 0;
}

bool isAllowedLibcall(llvm::StringRef n) {
  static const std::set<std::string> ok = {
      "sqrt", "sqrtf", "fabs", "fabsf", "exp", "expf", "log", "logf", "pow", "powf", "sin", "sinf",
      "cos", "cosf", "tan", "tanf", "floor", "floorf", "ceil", "ceilf", "fmax", "fmaxf", "fmin", "fminf"};
  return ok.count(n.str()) > 0;
}

/// Cost in PTX-like instructions of an allowed math call (cgpredict.md §5 [choice]).
double libcallCost(llvm::StringRef n) {
  if (n.startswith("sqrt") || n.startswith("fabs") || n.startswith("floor") || n.startswith("ceil") ||
      n.startswith("fmax") || n.startswith("fmin")) {
    return 1;
  }
  return 4;  // exp, log, pow, trig: a few SFU and FP instructions each
}

/// Table 2 operation counts of one block.
StaticBlock countBlock(const llvm::BasicBlock& bb, const llvm::Loop* loop) {
  StaticBlock b;
  auto add = [&](InstrClass c, double n, double flops) {
    b.compInsts += n;
    b.byClass[static_cast<int>(c)] += n;
    b.flops += flops;
  };
  const llvm::Instruction* latchCond = nullptr;
  if (loop && loop->getLoopLatch() == &bb) {
    if (const auto* br = llvm::dyn_cast<llvm::BranchInst>(bb.getTerminator()); br && br->isConditional()) {
      latchCond = llvm::dyn_cast<llvm::Instruction>(br->getCondition());
    }
  }
  for (const llvm::Instruction& i : bb) {
    if (llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i) || llvm::isa<llvm::PHINode>(i) ||
        llvm::isa<llvm::GetElementPtrInst>(i) || llvm::isa<llvm::DbgInfoIntrinsic>(i) ||
        llvm::isa<llvm::ReturnInst>(i) || llvm::isa<llvm::UnreachableInst>(i)) {
      continue;
    }
    if (const auto* c = llvm::dyn_cast<llvm::CastInst>(&i)) {
      // Integer width changes, bitcasts and pointer casts are free; int <-> float converts.
      if (c->getOpcode() == llvm::Instruction::FPToSI || c->getOpcode() == llvm::Instruction::SIToFP ||
          c->getOpcode() == llvm::Instruction::FPToUI || c->getOpcode() == llvm::Instruction::UIToFP ||
          c->getOpcode() == llvm::Instruction::FPExt || c->getOpcode() == llvm::Instruction::FPTrunc) {
        add(InstrClass::Fp32, 1, 0);
      }
      continue;
    }
    const bool fp64 = i.getType()->isDoubleTy();
    const InstrClass fpc = fp64 ? InstrClass::Fp64 : InstrClass::Fp32;
    if (const auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
      const llvm::Function* f = call->getCalledFunction();
      if (!f) continue;
      if (f->isIntrinsic()) {
        const llvm::Intrinsic::ID id = f->getIntrinsicID();
        if (id == llvm::Intrinsic::fmuladd || id == llvm::Intrinsic::fma) {
          add(fpc, 1, 2);
        } else if (id == llvm::Intrinsic::sqrt || id == llvm::Intrinsic::fabs || id == llvm::Intrinsic::floor ||
                   id == llvm::Intrinsic::ceil || id == llvm::Intrinsic::maxnum || id == llvm::Intrinsic::minnum) {
          add(id == llvm::Intrinsic::sqrt ? InstrClass::Sfu : fpc, 1, 1);
        } else if (id == llvm::Intrinsic::exp || id == llvm::Intrinsic::log || id == llvm::Intrinsic::pow ||
                   id == llvm::Intrinsic::sin || id == llvm::Intrinsic::cos) {
          add(InstrClass::Sfu, 4, 1);
        }
        continue;  // lifetime, assume, ...: free
      }
      add(InstrClass::Sfu, libcallCost(f->getName()), 1);
      continue;
    }
    if (llvm::isa<llvm::BranchInst>(i) || llvm::isa<llvm::SwitchInst>(i)) {
      add(InstrClass::Control, 1, 0);
      continue;
    }
    if (llvm::isa<llvm::CmpInst>(i)) {
      if (&i == latchCond) continue;  // "loop = 1 add + 1 br" covers the latch compare
      add(llvm::isa<llvm::FCmpInst>(i) ? fpc : InstrClass::Int, 1, 0);
      continue;
    }
    switch (i.getOpcode()) {
      case llvm::Instruction::FMul:
        // An fmul feeding only an fadd/fsub fuses with it into one fma (Table 2).
        if (i.hasOneUse()) {
          const auto* u = llvm::dyn_cast<llvm::Instruction>(*i.user_begin());
          if (u && (u->getOpcode() == llvm::Instruction::FAdd || u->getOpcode() == llvm::Instruction::FSub)) {
            b.flops += 1;
            continue;
          }
        }
        add(fpc, 1, 1);
        break;
      case llvm::Instruction::FAdd:
      case llvm::Instruction::FSub:
      case llvm::Instruction::FDiv:
      case llvm::Instruction::FRem:
      case llvm::Instruction::FNeg:
        add(fpc, 1, 1);
        break;
      default:
        add(InstrClass::Int, 1, 0);
        break;
    }
  }
  return b;
}

/// The loop pointer operand is invariant in `loop`: the store would have been promoted to a
/// register by LICM unless something may alias it.
bool invariantAddress(const llvm::Value* ptr, const llvm::Loop* loop) {
  if (loop->isLoopInvariant(ptr)) return true;
  if (const auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(ptr)) {
    for (const llvm::Use& op : gep->operands()) {
      if (!loop->isLoopInvariant(op.get())) return false;
    }
    return true;
  }
  return false;
}

std::string describe(const llvm::Value* v) {
  if (v->hasName()) return v->getName().str();
  return "memory";
}

}  // namespace

Expected<InstrumentedProgram> buildInstrumented(
    const std::string& path, const SourceMarkers& markers,
    const std::vector<std::pair<std::string, std::string>>& defines, const std::string& workDir,
    double clangTimeoutSeconds) {
  const std::string bc = workDir + "/input.bc";
  std::vector<std::string> argv = {FORESIGHT_CLANG, "-O0", "-Xclang", "-disable-O0-optnone", "-g",
                                   "-emit-llvm", "-c", "-fno-discard-value-names", "-Wno-unknown-pragmas", "-fno-unroll-loops",
                                   "-fno-vectorize", "-fno-slp-vectorize"};
  for (const auto& [name, value] : defines) argv.push_back("-D" + name + (value.empty() ? "" : "=" + value));
  argv.push_back(path);
  argv.push_back("-o");
  argv.push_back(bc);
  Expected<ProcessResult> cc = runClang(std::move(argv), path, clangTimeoutSeconds);
  if (!cc) return std::move(cc).takeError();
  if (cc->exitCode != 0) {
    // clang's "file:line:col: error: message" becomes our located error.
    const std::string first = firstError(cc->err);
    const size_t tag = first.find(": error: ");
    if (tag != std::string::npos) {
      const std::string where = first.substr(0, tag);
      const size_t c2 = where.rfind(':');
      const size_t c1 = c2 == std::string::npos ? std::string::npos : where.rfind(':', c2 - 1);
      if (c1 != std::string::npos) {
        try {
          const int line = std::stoi(where.substr(c1 + 1, c2 - c1 - 1));
          const int col = std::stoi(where.substr(c2 + 1));
          return makeError("clang: " + first.substr(tag + 9), where.substr(0, c1), line, col);
        } catch (const std::exception&) {
        }
      }
    }
    return makeError("clang could not compile the file: " + first, path, 0);
  }

  llvm::LLVMContext ctx;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module = llvm::parseIRFile(bc, diag, ctx);
  if (!module) return makeError("cannot read clang's IR: " + diag.getMessage().str(), path, 0);

  {
    llvm::PassBuilder pb;
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    if (llvm::Error e = pb.parsePassPipeline(mpm, kPipeline)) {
      return makeError("internal: bad pass pipeline: " + llvm::toString(std::move(e)));
    }
    mpm.run(*module, mam);
  }

  InstrumentedProgram prog;
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type* i8p = llvm::Type::getInt8PtrTy(ctx);
  llvm::FunctionCallee evFn = module->getOrInsertFunction(
      "__cgp_ev", llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {i32}, false));
  llvm::FunctionCallee memFn = module->getOrInsertFunction(
      "__cgp_mem", llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {i32, i8p}, false));
  const llvm::DataLayout& dl = module->getDataLayout();
  auto word = [&](Event e, size_t id) {
    return llvm::ConstantInt::get(i32, (static_cast<unsigned>(e) << 28) | static_cast<unsigned>(id));
  };
  std::map<const llvm::Value*, int> arrayIds;

  // Each marker's loop: the outermost loop whose start line is the marked `for`.
  std::vector<bool> found(markers.kernels.size(), false);
  std::map<std::string, int> perFunction;
  for (llvm::Function& f : *module) {
    if (f.isDeclaration()) continue;
    llvm::DominatorTree dt(f);
    llvm::LoopInfo li(dt);
    for (llvm::Loop* top : li.getLoopsInPreorder()) {
      const int line = static_cast<int>(top->getStartLoc() ? top->getStartLoc().getLine() : 0);
      size_t mk = markers.kernels.size();
      for (size_t m = 0; m < markers.kernels.size(); ++m) {
        if (!found[m] && markers.kernels[m].loopLine == line) mk = m;
      }
      if (mk == markers.kernels.size()) continue;
      found[mk] = true;
      const KernelMarker& marker = markers.kernels[mk];
      const int kid = static_cast<int>(prog.kernels.size());
      StaticKernel kernel;
      kernel.function = f.getName().str();
      kernel.line = marker.loopLine;
      kernel.shared = marker.shared;
      const int nth = perFunction[kernel.function]++;
      kernel.name = !marker.name.empty() ? marker.name : kernel.function + (nth ? "_" + std::to_string(nth + 1) : "");

      llvm::BasicBlock* preheader = top->getLoopPreheader();
      if (!preheader) return makeError("internal: the marked loop has no preheader", path, marker.loopLine);

      // Checks: calls to unknown functions, stores that stayed in their loop.
      for (llvm::BasicBlock* bb : top->blocks()) {
        for (llvm::Instruction& i : *bb) {
          if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i)) {
            const llvm::Function* callee = call->getCalledFunction();
            if (callee && (callee->isIntrinsic() || isAllowedLibcall(callee->getName()))) continue;
            const std::string name = callee ? callee->getName().str() : "a function pointer";
            return makeError("call to unknown function '" + name +
                                 "' inside the marked loop nest: the kernel must be self-contained "
                                 "(math functions such as sqrtf are allowed; declare helpers "
                                 "'static inline __attribute__((always_inline))')",
                             path, lineOf(i) ? lineOf(i) : marker.loopLine);
          }
          if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
            const llvm::Loop* inner = li.getLoopFor(bb);
            const llvm::Value* base = llvm::getUnderlyingObject(st->getPointerOperand());
            const bool hintedShared = base->hasName() && std::find(marker.shared.begin(), marker.shared.end(),
                                                                   base->getName().str()) != marker.shared.end();
            if (inner && !hintedShared && invariantAddress(st->getPointerOperand(), inner)) {
              return makeError("the store to '" + describe(base) + "' stays in the loop at line " +
                                   std::to_string(inner->getStartLoc() ? inner->getStartLoc().getLine() : 0) +
                                   " although its address does not change there: possible pointer aliasing "
                                   "blocks its promotion to a register (a GPU thread would keep it in a "
                                   "register); use global arrays or 'restrict' pointers",
                               path, lineOf(i) ? lineOf(i) : marker.loopLine);
            }
          }
        }
      }

      // Thread mapping.
      const auto& subs = top->getSubLoops();
      int grid = marker.gridDims;
      if (grid == 0) {
        grid = 1;
        if (subs.size() == 1) {
          grid = 2;
          for (llvm::BasicBlock* bb : top->blocks()) {
            if (subs[0]->contains(bb)) continue;
            for (llvm::Instruction& i : *bb) {
              if (llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i)) grid = 1;
            }
          }
        }
      }
      if (grid == 2 && subs.size() != 1) {
        return makeError("grid(2) needs the marked loop to contain exactly one loop (its iterations "
                         "become threadIdx.x); this one contains " + std::to_string(subs.size()),
                         path, marker.pragmaLine);
      }
      kernel.gridDims = grid;
      kernel.blockX = marker.blockX ? marker.blockX : (grid == 2 ? 32 : 256);
      kernel.blockY = marker.blockX ? marker.blockY : (grid == 2 ? 8 : 1);

      // Loops, in preorder, with ids.
      std::map<const llvm::Loop*, int> loopIds;
      for (llvm::Loop* l : top->getLoopsInPreorder()) {
        StaticLoop sl;
        sl.kernel = kid;
        sl.parent = l == top ? -1 : loopIds.at(l->getParentLoop());
        sl.depth = static_cast<int>(l->getLoopDepth() - top->getLoopDepth());
        sl.line = l->getStartLoc() ? static_cast<int>(l->getStartLoc().getLine()) : 0;
        loopIds[l] = static_cast<int>(prog.loops.size());
        prog.loops.push_back(sl);
      }
      kernel.mappedLoops[0] = loopIds.at(top);
      if (grid == 2) kernel.mappedLoops[1] = loopIds.at(subs[0]);

      // Arrays used by the kernel and their base pointers at the preheader.
      std::map<int, llvm::Value*> kernelArrays;
      auto arrayFor = [&](llvm::Value* ptr, llvm::Type* accessType) -> int {
        llvm::Value* base = const_cast<llvm::Value*>(llvm::getUnderlyingObject(ptr, 0));
        auto it = arrayIds.find(base);
        if (it != arrayIds.end()) {
          kernelArrays[it->second] = base;
          return it->second;
        }
        bool usable = llvm::isa<llvm::GlobalVariable>(base) || llvm::isa<llvm::Argument>(base);
        if (auto* def = llvm::dyn_cast<llvm::Instruction>(base)) {
          usable = dt.dominates(def, preheader->getTerminator());
        }
        if (!usable) return -1;
        StaticArray a;
        a.name = base->hasName() ? base->getName().str() : "array" + std::to_string(prog.arrays.size());
        a.elemBytes = static_cast<int>(dl.getTypeStoreSize(accessType));
        if (auto* g = llvm::dyn_cast<llvm::GlobalVariable>(base)) {
          llvm::Type* t = g->getValueType();
          a.bytes = static_cast<long long>(dl.getTypeAllocSize(t));
          while (auto* at = llvm::dyn_cast<llvm::ArrayType>(t)) {
            a.dims.push_back(static_cast<long long>(at->getNumElements()));
            t = at->getElementType();
          }
          a.elemBytes = static_cast<int>(dl.getTypeAllocSize(t));
        }
        const int id = static_cast<int>(prog.arrays.size());
        prog.arrays.push_back(a);
        arrayIds[base] = id;
        kernelArrays[id] = base;
        return id;
      };

      // Shared-memory hints: the named globals.
      std::set<const llvm::Value*> sharedBases;
      for (const std::string& name : marker.shared) {
        const llvm::GlobalVariable* g = module->getNamedGlobal(name);
        bool used = false;
        for (llvm::BasicBlock* bb : top->blocks()) {
          for (llvm::Instruction& i : *bb) {
            const llvm::Value* ptr = nullptr;
            if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(&i)) ptr = ld->getPointerOperand();
            if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) ptr = st->getPointerOperand();
            if (g && ptr && llvm::getUnderlyingObject(ptr) == g) used = true;
          }
        }
        if (!used) {
          return makeError("shared(" + name + "): no global array '" + name + "' is accessed in the marked loop nest",
                           path, marker.pragmaLine);
        }
        sharedBases.insert(g);
      }
      auto isShared = [&](const llvm::Value* ptr) { return sharedBases.count(llvm::getUnderlyingObject(ptr)) > 0; };

      // Blocks: counts and Block events; memory operations: Mem events.
      for (llvm::BasicBlock* bb : top->blocks()) {
        const int bid = static_cast<int>(prog.blocks.size());
        StaticBlock sb = countBlock(*bb, li.getLoopFor(bb));
        sb.kernel = kid;
        prog.blocks.push_back(sb);
        std::vector<llvm::Instruction*> mems;
        std::map<const llvm::Instruction*, int> loadOps;
        for (llvm::Instruction& i : *bb) {
          if (llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i)) mems.push_back(&i);
        }
        for (llvm::Instruction* i : mems) {
          StaticMemOp op;
          op.kernel = kid;
          llvm::Value* ptr = nullptr;
          llvm::Type* ty = nullptr;
          if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(i)) {
            ptr = ld->getPointerOperand();
            ty = ld->getType();
          } else {
            auto* st = llvm::cast<llvm::StoreInst>(i);
            ptr = st->getPointerOperand();
            ty = st->getValueOperand()->getType();
            op.isStore = true;
          }
          op.bytes = static_cast<int>(dl.getTypeStoreSize(ty));
          op.line = lineOf(*i);
          if (isShared(ptr)) {
            op.space = OpSpace::Shared;
            // A store of a value loaded from global memory fills the tile: the pair is one
            // global→shared load (smem_load_const).
            if (auto* st = llvm::dyn_cast<llvm::StoreInst>(i)) {
              auto* src = llvm::dyn_cast<llvm::LoadInst>(st->getValueOperand());
              if (src && !isShared(src->getPointerOperand()) && loadOps.count(src)) {
                op.space = OpSpace::SharedFill;
                prog.memOps[static_cast<size_t>(loadOps.at(src))].space = OpSpace::GlobalToShared;
              }
            }
          }
          op.array = arrayFor(ptr, ty);
          const size_t mid = prog.memOps.size();
          prog.memOps.push_back(op);
          if (llvm::isa<llvm::LoadInst>(i)) loadOps[i] = static_cast<int>(mid);
          llvm::IRBuilder<> b(i);
          b.CreateCall(memFn, {word(Event::Mem, mid), b.CreateBitCast(ptr, i8p)});
        }
        llvm::IRBuilder<> b(&*bb->getFirstInsertionPt());
        b.CreateCall(evFn, {word(Event::Block, bid)});
      }
      // Kernel end at the marked loop's exits (inserted first so loop exits land before it).
      llvm::SmallVector<llvm::BasicBlock*, 4> topExits;
      top->getExitBlocks(topExits);
      for (llvm::BasicBlock* e : topExits) {
        llvm::IRBuilder<> b(&*e->getFirstInsertionPt());
        b.CreateCall(evFn, {word(Event::KernelEnd, kid)});
      }
      for (llvm::Loop* l : top->getLoopsInPreorder()) {
        const int lid = loopIds.at(l);
        llvm::SmallVector<llvm::BasicBlock*, 4> exits;
        l->getExitBlocks(exits);
        std::set<llvm::BasicBlock*> unique(exits.begin(), exits.end());
        for (llvm::BasicBlock* e : unique) {
          llvm::IRBuilder<> b(&*e->getFirstInsertionPt());
          b.CreateCall(evFn, {word(Event::LoopExit, lid)});
        }
        llvm::BasicBlock* latch = l->getLoopLatch();
        if (!latch) return makeError("internal: a loop of the marked nest has several latches", path, marker.loopLine);
        llvm::IRBuilder<> lb(latch->getTerminator());
        lb.CreateCall(evFn, {word(Event::LoopNext, lid)});
        if (l != top) {
          llvm::BasicBlock* ph = l->getLoopPreheader();
          if (!ph) return makeError("internal: a loop of the marked nest has no preheader", path, marker.loopLine);
          llvm::IRBuilder<> pb(ph->getTerminator());
          pb.CreateCall(evFn, {word(Event::LoopEnter, lid)});
        }
      }
      {
        llvm::IRBuilder<> b(preheader->getTerminator());
        b.CreateCall(evFn, {word(Event::KernelBegin, kid)});
        for (const auto& [aid, base] : kernelArrays) {
          b.CreateCall(memFn, {word(Event::Array, aid), b.CreateBitCast(base, i8p)});
        }
        b.CreateCall(evFn, {word(Event::LoopEnter, loopIds.at(top))});
      }
      prog.kernels.push_back(kernel);
    }
  }
  for (size_t m = 0; m < markers.kernels.size(); ++m) {
    if (!found[m]) {
      return makeError("the loop marked here (line " + std::to_string(markers.kernels[m].loopLine) +
                           ") is not in the compiled program: it was removed as dead code or its "
                           "function is never defined",
                       path, markers.kernels[m].pragmaLine);
    }
  }
  std::string verifyMsg;
  llvm::raw_string_ostream vs(verifyMsg);
  if (llvm::verifyModule(*module, &vs)) return makeError("internal: instrumented IR is invalid: " + vs.str(), path, 0);

  const std::string instBc = workDir + "/instrumented.bc";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(instBc, ec);
    if (ec) return makeError("cannot write " + instBc + ": " + ec.message());
    llvm::WriteBitcodeToFile(*module, os);
  }
  const std::string rt = workDir + "/cgp_runtime.c";
  {
    std::ofstream os(rt);
    os << kRuntime;
  }
  prog.executable = workDir + "/traced";
  Expected<ProcessResult> link = runClang({FORESIGHT_CLANG, "-O1", "-w", instBc, rt, "-o", prog.executable, "-lm"}, path, clangTimeoutSeconds);
  if (!link) return std::move(link).takeError();
  if (link->exitCode != 0) {
    return makeError("cannot link the instrumented program: " + firstError(link->err), path, 0);
  }
  return prog;
}

}  // namespace foresight::cloop
