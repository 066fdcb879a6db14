// SPDX-License-Identifier: Apache-2.0
/// \file
/// The CUDA frontend pipeline: obtain PTX, cubin and (optionally) SASS through the Toolchain,
/// read resources from the cubin, execute sampled warps of the PTX with the launch's values,
/// and lower the averaged execution into a KernelIR.
#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/support/strings.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <filesystem>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "foresight/frontend/cuda/cuda_streams.h"
#include "foresight/frontend/cuda/isa/instr_class_table.h"
#include "foresight/frontend/cuda/isa/mma_shape.h"
#include "foresight/frontend/cuda/ptx_cfg.h"
#include "foresight/frontend/cuda/ptx_parser.h"
#include "foresight/frontend/cuda/register_banks.h"
#include "foresight/frontend/cuda/sass_interpreter.h"
#include "foresight/frontend/cuda/sass_parser.h"
#include "foresight/frontend/cuda/sass_ptx_map.h"
#include "foresight/frontend/cuda/source_if.h"
#include "foresight/support/edit_distance.h"
#include "foresight/support/parallel.h"

namespace foresight::cuda {

namespace fs = std::filesystem;

std::vector<int> sampleOrder(int warps, int count) {
  std::vector<int> out;
  std::vector<char> taken(std::max(warps, 0), 0);
  auto take = [&](int w) {
    if (w >= 0 && w < warps && !taken[w] && static_cast<int>(out.size()) < count) {
      taken[w] = 1;
      out.push_back(w);
    }
  };
  take(0);
  take(warps - 1);
  for (int step = std::max(1, warps / 2); static_cast<int>(out.size()) < std::min(count, warps); step = std::max(1, step / 2)) {
    for (int w = step; w < warps; w += step) take(w);
    if (step == 1) break;
  }
  return out;
}

Expected<std::string> archForGpu(const Gpu& gpu) {
  // Kepler to Pascal (CC 3.0 ... 6.2) are older than any target the toolchain still compiles
  // for: the kernel is compiled for sm_75, whose instructions stand in for the GPU's own (the
  // timing comes from the GPU description); standInArch() says so. Volta gets its own sm_70.
  if (standInArch(gpu)) return std::string(kStandInArch);
  const std::string arch = "sm_" + std::to_string(gpu.ccMajor) + std::to_string(gpu.ccMinor);
  if (Expected<void> ok = checkSupportedArch(arch); !ok) {
    Error e = std::move(ok).takeError();
    e.message = "GPU '" + gpu.name + "' (compute capability " + gpu.computeCapability() + "): " + e.message;
    return e;
  }
  return arch;
}

std::string demangleBaseName(const std::string& m) {
  if (m.rfind("_Z", 0) != 0) return m;
  size_t p = 2;
  std::string last;
  const bool nested = p < m.size() && m[p] == 'N';
  if (nested) ++p;
  while (p < m.size() && std::isdigit(static_cast<unsigned char>(m[p]))) {
    size_t len = 0;
    while (p < m.size() && std::isdigit(static_cast<unsigned char>(m[p]))) len = len * 10 + (m[p++] - '0');
    last = m.substr(p, len);
    p += len;
    if (!nested) break;
  }
  return last.empty() ? m : last;
}

std::string demangleKernelName(const std::string& symbol, bool withParameters) {
  if (symbol.rfind("_Z", 0) != 0) return symbol;
  int status = 0;
  char* raw = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status != 0 || raw == nullptr) {
    std::free(raw);
    return demangleBaseName(symbol);
  }
  const std::string d = raw;
  std::free(raw);
  // "void block_sum<256>(float*, float*)": the parameter list is the parenthesis that closes
  // the string, the return type (template functions only) what precedes the last space outside
  // angle brackets and parentheses ("(anonymous namespace)::k", "scale<unsigned int>").
  size_t params = d.size();
  if (!d.empty() && d.back() == ')') {
    int depth = 0;
    for (size_t i = d.size(); i-- > 0;) {
      if (d[i] == ')') ++depth;
      if (d[i] == '(' && --depth == 0) {
        params = i;
        break;
      }
    }
  }
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i < params; ++i) {
    if (d[i] == '<' || d[i] == '(') ++depth;
    if (d[i] == '>' || d[i] == ')') --depth;
    if (depth == 0 && d[i] == ' ') start = i + 1;
  }
  return d.substr(start, (withParameters ? d.size() : params) - start);
}

std::vector<KernelName> kernelNames(const PtxModule& module) {
  std::vector<KernelName> out;
  for (const PtxKernel& k : module.kernels) out.push_back({demangleKernelName(k.name), k.name});
  // Overloads demangle to the same name: those keep their parameter list ("k(float*)").
  for (size_t i = 0; i < out.size(); ++i) {
    bool shared = false;
    for (size_t j = 0; j < out.size(); ++j) shared = shared || (j != i && demangleKernelName(module.kernels[j].name) == out[i].name);
    if (shared) out[i].name = demangleKernelName(module.kernels[i].name, true);
  }
  for (KernelName& k : out) {
    if (k.symbol == k.name) k.symbol.clear();
  }
  return out;
}

namespace {

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// `src` with comments replaced by spaces (string and character literals kept as they are).
std::string stripComments(const std::string& src) {
  std::string out = src;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '"' || out[i] == '\'') {
      const char q = out[i];
      for (++i; i < out.size() && out[i] != q && out[i] != '\n'; ++i) {
        if (out[i] == '\\') ++i;
      }
    } else if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      const size_t end = out.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? out.size() : end + 2;
      for (; i < stop; ++i) {
        if (out[i] != '\n') out[i] = ' ';
      }
      --i;
    }
  }
  return out;
}

/// Removes `[[...]]` and `__attribute__((...))` from a parameter declaration.
std::string stripAttributes(std::string decl) {
  for (size_t a; (a = decl.find("[[")) != std::string::npos;) {
    const size_t e = decl.find("]]", a);
    decl.erase(a, e == std::string::npos ? std::string::npos : e + 2 - a);
  }
  for (size_t a; (a = decl.find("__attribute__")) != std::string::npos;) {
    size_t i = a + 13;
    while (i < decl.size() && std::isspace(static_cast<unsigned char>(decl[i]))) ++i;
    int depth = 0;
    for (; i < decl.size(); ++i) {
      if (decl[i] == '(') ++depth;
      if (decl[i] == ')' && --depth == 0) break;
    }
    decl.erase(a, i == decl.size() ? std::string::npos : i + 1 - a);
  }
  return decl;
}

}  // namespace

Expected<std::uint64_t> argumentBits(const PtxParam& param, bool pointer, const ArgValue& value, const std::string& what) {
  const std::string& type = param.type;
  // `.param .align A .b8 name[N]`: a struct or array by value (a lone .b8 is one byte).
  const bool aggregate = type == "b8" && param.bytes > 1;
  if (aggregate || param.bytes > 8 || param.bytes <= 0) {
    return makeError(what + " is an aggregate of " + std::to_string(param.bytes) +
                     " bytes passed by value (a struct or array); --arg sets scalars (integers, reals, "
                     "bools, enums) and pointer base addresses only: pass its fields as separate parameters, or "
                     "leave it unset (its loads are then data-dependent)");
  }
  if (pointer) {
    if (value.isReal || value.integer < 0) return makeError(what + " is a pointer: its --arg is a base address, a non-negative integer");
    return static_cast<std::uint64_t>(value.integer);
  }
  if (type == "f32" || type == "f64") return realBits(value.asReal(), param.bytes);
  if (type == "f16" || type == "bf16") return makeError(what + " is a half-precision " + type + "; --arg does not set it yet");
  if (value.isReal) {
    return makeError(what + " is an integer (" + type + "); --arg gave the real number " + fmt::format("{:g}", value.real));
  }
  // Integers (bool and enum included) keep their two's-complement bits in the parameter's width.
  const auto v = static_cast<std::uint64_t>(value.integer);
  return param.bytes >= 8 ? v : v & ((std::uint64_t{1} << (8 * param.bytes)) - 1);
}

std::vector<SourceParam> sourceParams(const std::string& source, const std::string& name) {
  const std::string src = stripComments(source);
  size_t pos = 0;
  while (!name.empty() && (pos = src.find(name, pos)) != std::string::npos) {
    const size_t at = pos;
    pos += name.size();
    if ((at > 0 && isIdentChar(src[at - 1])) || (pos < src.size() && isIdentChar(src[pos]))) continue;
    size_t q = pos;
    while (q < src.size() && std::isspace(static_cast<unsigned char>(src[q]))) ++q;
    if (q >= src.size() || src[q] != '(') continue;
    // The declaration head: back to the previous ';', '{', '}' or preprocessor line, across
    // lines and balanced parentheses (`__launch_bounds__(256, 2)`, `__attribute__((...))`).
    size_t h = at;
    int paren = 0;
    while (h > 0) {
      const char c = src[h - 1];
      if (c == ')') ++paren;
      if (c == '(') {
        if (paren == 0) break;
        --paren;
      }
      if (paren == 0 && (c == ';' || c == '{' || c == '}' || c == '#' || c == '<' || c == '>' || c == '=')) break;
      --h;
    }
    const std::string head = src.substr(h, at - h);
    bool global = false;
    for (size_t g = head.find("__global__"); g != std::string::npos; g = head.find("__global__", g + 1)) {
      const bool left = g == 0 || !isIdentChar(head[g - 1]);
      const bool right = g + 10 >= head.size() || !isIdentChar(head[g + 10]);
      if (left && right) global = true;
    }
    if (!global) continue;
    std::vector<SourceParam> out;
    int depth = 0;
    std::string cur;
    size_t start = q + 1;
    // The declaration's extent without the white space around it.
    auto add = [&](size_t stop) {
      size_t b = start, e = stop;
      while (b < e && std::isspace(static_cast<unsigned char>(src[b]))) ++b;
      while (e > b && std::isspace(static_cast<unsigned char>(src[e - 1]))) --e;
      out.push_back({cur, false, b, e});
    };
    for (size_t i = q + 1; i < src.size(); ++i) {
      const char c = src[i];
      if (c == '(' || c == '<' || c == '[') ++depth;
      if (c == ')' && depth == 0) {
        if (!trim(cur).empty()) add(i);
        break;
      }
      if (c == ')' || c == '>' || c == ']') --depth;
      if (c == ',' && depth == 0) {
        add(i);
        cur.clear();
        start = i + 1;
        continue;
      }
      cur += c;
    }
    // `k(void)` declares no parameters.
    if (out.size() == 1 && trim(out[0].name) == "void") out.clear();
    for (SourceParam& p : out) {
      std::string decl = stripAttributes(p.name);
      if (const size_t eq = decl.find('='); eq != std::string::npos) decl = decl.substr(0, eq);
      if (const size_t br = decl.find('['); br != std::string::npos) decl = decl.substr(0, br);
      p.pointer = decl.find('*') != std::string::npos || decl.find('&') != std::string::npos;
      size_t e = decl.size();
      while (e > 0 && !isIdentChar(decl[e - 1])) --e;
      size_t b = e;
      while (b > 0 && isIdentChar(decl[b - 1])) --b;
      p.name = decl.substr(b, e - b);
      // An unnamed parameter ("const float* __restrict__", "int") has no usable name.
      static const char* kNotNames[] = {"__restrict__", "__restrict", "restrict", "const", "volatile", "int", "unsigned",
                                        "float", "double", "char", "short", "long", "bool", "size_t", "signed"};
      for (const char* k : kNotNames) {
        if (p.name == k) p.name.clear();
      }
    }
    return out;
  }
  return {};
}

WarpStreams::WarpStreams(PtxModule module, int kernelIndex, PtxCfg cfg, InterpreterOptions options, std::string fileName)
    : module_(std::move(module)), kernelIndex_(kernelIndex), cfg_(std::move(cfg)), options_(std::move(options)),
      fileName_(std::move(fileName)) {
  options_.recordStream = true;
}

Expected<WarpTrace> WarpStreams::trace(long long block, int warp) const {
  if (block < 0 || block >= options_.launch.grid.count()) return makeError("block " + std::to_string(block) + " is outside the grid");
  if (warp < 0 || warp >= (options_.launch.block.count() + 31) / 32) return makeError("warp " + std::to_string(warp) + " is outside the block");
  return trace(block, warp, options_.foldLoops);
}

Expected<WarpTrace> WarpStreams::trace(long long block, int warp, bool foldLoops) const {
  if (block < 0 || block >= options_.launch.grid.count()) return makeError("block " + std::to_string(block) + " is outside the grid");
  if (warp < 0 || warp >= (options_.launch.block.count() + 31) / 32) return makeError("warp " + std::to_string(warp) + " is outside the block");
  InterpreterOptions o = options_;
  o.foldLoops = foldLoops;
  const WarpInterpreter interpreter(module_, module_.kernels[kernelIndex_], cfg_, std::move(o), fileName_);
  return interpreter.run(block, warp);
}

const std::vector<PtxInstruction>& WarpStreams::instructions() const { return module_.kernels[kernelIndex_].instructions; }

namespace {

std::string stemOf(const std::string& path) {
  std::string f = fs::path(path).filename().string();
  return f.substr(0, f.find('.'));
}

/// "a/b/x.sm_90.cubin" → "a/b/x.sm_90" + ext.
std::string sibling(const std::string& path, const std::string& ext) {
  fs::path p(path);
  return (p.parent_path() / (p.stem().string() + ext)).string();
}

std::string baseFile(const std::string& path) { return fs::path(path).filename().string(); }

/// The `--trip`/`--branch` hints whose line holds no code of the input's kernels (a typo would
/// otherwise be ignored without a word; one list of hints may serve several kernels of a file,
/// or variants that compile a line out): a note each, naming the kernel's lines.
std::vector<std::string> hintLineNotes(const PtxModule& module, const PtxKernel& kernel, const std::string& name, const CudaOptions& o,
                                       const std::string& path) {
  std::map<std::string, std::pair<int, int>> lines;  // source file → first and last line of user code
  const auto pathOf = [&](const PtxInstruction& x) {
    auto f = module.files.find(x.sourceFile);
    return f == module.files.end() ? path : f->second;
  };
  for (const PtxInstruction& x : kernel.instructions) {
    if (x.sourceLine <= 0 || x.library) continue;
    auto [it, fresh] = lines.emplace(baseFile(pathOf(x)), std::make_pair(x.sourceLine, x.sourceLine));
    it->second.first = std::min(it->second.first, x.sourceLine);
    it->second.second = std::max(it->second.second, x.sourceLine);
  }
  std::vector<std::string> notes;
  const auto check = [&](const std::string& option, const std::string& file, int line, const std::string& value) {
    for (const PtxKernel& k : module.kernels) {
      for (const PtxInstruction& x : k.instructions) {
        if (x.sourceLine == line && endsWithPath(pathOf(x), file)) return;
      }
    }
    std::string where;
    for (const auto& [f, range] : lines) {
      where += (where.empty() ? "" : ", ") + f + ":" + std::to_string(range.first) + "-" + std::to_string(range.second);
    }
    notes.push_back(option + " " + file + ":" + std::to_string(line) + "=" + value + " is ignored: kernel '" + name +
                    "' has no code on that line (" +
                    (where.empty() ? "the input has no source line information; compile it with -lineinfo" : "its code is on " + where) +
                    ")");
  };
  for (const TripHint& h : o.trips) check("--trip", h.file, h.line, std::to_string(h.trips));
  for (const BranchHint& h : o.branches) check("--branch", h.file, h.line, fmt::format("{:g}", h.takenProbability));
  return notes;
}

std::string typeKind(const PtxInstruction& inst) {
  for (auto it = inst.mods.rbegin(); it != inst.mods.rend(); ++it) {
    const std::string& m = *it;
    if (m == "f32" || m == "f64" || m == "f16" || m == "f16x2" || m == "bf16") return m == "f16x2" || m == "bf16" ? "f16" : m;
  }
  return "";
}

/// Class and flops of a PTX instruction from the data table.
OpcodeClass classify(const PtxInstruction& inst) {
  const InstrClassTable& table = ptxClassTable();
  const std::string kind = typeKind(inst);
  if (inst.base == "cvt") {
    bool fp = false;
    for (const std::string& m : inst.mods) fp = fp || m[0] == 'f' || m == "bf16";
    if (auto r = table.find(fp ? "cvt" : "cvt.int")) return *r;
  }
  if (!kind.empty()) {
    if (auto r = table.find(inst.base + "." + kind)) return *r;
  }
  if (auto r = table.find(inst.base)) {
    if (!kind.empty() && r->cls == InstrClass::Int) r->cls = kind == "f64" ? InstrClass::Fp64 : InstrClass::Fp32;
    return *r;
  }
  return {"", InstrClass::Int, 0};
}

std::optional<MemorySpace> memorySpaceOf(const PtxInstruction& inst) {
  if (inst.isAsyncCopy()) return MemorySpace::Global;  // the global read of a cp.async
  static const std::set<std::string> kMem = {"ld", "ldu", "st", "atom", "red"};
  if (!kMem.count(inst.base)) return std::nullopt;
  auto has = [&](const char* m) { return std::find(inst.mods.begin(), inst.mods.end(), m) != inst.mods.end(); };
  if (has("param")) return std::nullopt;
  if (has("shared")) return MemorySpace::Shared;
  if (has("local")) return MemorySpace::Local;
  if (has("const")) return MemorySpace::Constant;
  return MemorySpace::Global;
}

void collectRegs(const PtxOperand& op, std::vector<int>& out) {
  if ((op.kind == PtxOperand::Kind::Register || op.kind == PtxOperand::Kind::Address) && op.reg >= 0) out.push_back(op.reg);
  for (const PtxOperand& e : op.elems) collectRegs(e, out);
}

SassSummary summarizeSass(const SassFunction& fn, const InstrClassTable& table) {
  SassSummary s;
  s.table = table.family;
  // The function ends with EXIT, then a `BRA self` and NOP padding: count up to the last EXIT
  // that is followed only by padding.
  size_t end = fn.instructions.size();
  while (end > 0 && (fn.instructions[end - 1].mnemonic == "NOP" ||
                     (fn.instructions[end - 1].mnemonic == "BRA" && fn.instructions[end - 1].guard < 0 &&
                      fn.labels.count(fn.instructions[end - 1].target) &&
                      fn.labels.at(fn.instructions[end - 1].target) == fn.instructions[end - 1].offset))) {
    --end;
  }
  std::set<std::string> unknown;
  for (size_t i = 0; i < end; ++i) {
    const SassInstruction& inst = fn.instructions[i];
    ++s.instructions;
    if (inst.control) ++s.withControlBits;
    if (auto row = table.find(inst.mnemonic)) {
      ++s.byClass[static_cast<int>(row->cls)];
    } else {
      unknown.insert(inst.mnemonic);
    }
  }
  s.unknownOpcodes.assign(unknown.begin(), unknown.end());
  return s;
}

/// Register number of a SASS operand in the IR's register space (R: 0–255, UR: 256–319,
/// P: 320–327, UP: 328–335), expanded over 64/128-bit groups; RZ, URZ, PT and UPT are none.
void sassRegs(const SassOperand& op, std::vector<int>& out) {
  if (op.kind == SassOperand::Kind::Memory || op.kind == SassOperand::Kind::Constant) {
    for (const SassOperand& p : op.parts) sassRegs(p, out);
    return;
  }
  int base = -1;
  if (op.kind == SassOperand::Kind::Register && op.reg != 255) base = op.reg;
  if (op.kind == SassOperand::Kind::Uniform && op.reg != 255) base = 256 + op.reg;
  if (op.kind == SassOperand::Kind::Predicate && op.reg != 7) base = 320 + op.reg;
  if (op.kind == SassOperand::Kind::UniformPredicate && op.reg != 7) base = 328 + op.reg;
  if (base < 0) return;
  for (int k = 0; k < op.width; ++k) out.push_back(base + k);
}

/// What the sampled SASS runs saw of one SASS memory instruction.
struct SassMemoryStats {
  long long known = 0;          ///< executions with every active lane's address known
  long long dataDependent = 0;  ///< executions with an unknown address
  long long activeLanes = 0;    ///< summed over all recorded executions
  long long units = 0;          ///< sectors (global, local) or wavefronts (shared) of the known ones
  std::vector<long long> first;  ///< lane addresses of the first known execution
};

/// Replaces the IR's blocks and loops by the SASS stream: one block per SASS basic block with
/// its executions per warp from the SASS run, classes and flops from the family table,
/// register operands, and memory accesses taken from the PTX instruction each SASS access was
/// paired with by source line (an unpaired one borrows the first PTX access of its line and
/// kind; a spill is a local access at the same offset in every lane). Where the SASS run itself
/// resolved the addresses (64-bit register pairs, shared offsets), its sectors and wavefronts
/// replace the PTX partner's, and an access it could not resolve is data-dependent.
template <class MemoryOf>
void lowerSass(const SassFunction& fn, const InstrClassTable& table, const SassPtxMap& map, const PtxCfg& cfg,
               const std::vector<double>& executions, MemoryOf&& memoryOf,
               const std::vector<InstructionStats>& ptxStats, const std::vector<SassMemoryStats>& sassMemory,
               const std::optional<RegisterBanks>& banks, KernelIR& ir) {
  std::map<int, const SassPtxPair*> pairOf;
  for (const SassPtxPair& p : map.pairs) pairOf[p.sass] = &p;
  // Writes memory and has no destination register: stores and reductions (RED/REDG: an atomic
  // whose result is unused).
  auto storeLike = [](const SassInstruction& si) {
    return si.mnemonic.rfind("ST", 0) == 0 || si.mnemonic == "RED" || si.mnemonic == "REDG";
  };
  // The most executed PTX partner per (line, mnemonic): used for unpaired SASS accesses, and
  // for executed SASS accesses whose own partner the PTX run never executed (ptxas's unrolling
  // differs from NVVM's, so in-order pairing can land on a remainder loop).
  std::map<std::pair<int, std::string>, int> partner;
  for (const SassPtxPair& p : map.pairs) {
    if (p.ptx < 0) continue;
    const auto key = std::make_pair(fn.instructions[p.sass].sourceLine, fn.instructions[p.sass].mnemonic);
    auto [it, inserted] = partner.emplace(key, p.ptx);
    if (!inserted && ptxStats[p.ptx].executions > ptxStats[it->second].executions) it->second = p.ptx;
  }
  // Per (line, store): the array of the PTX run's data-dependent accesses there, when they all
  // index one (allocation base and a PTX access in it; 0 = several). A SASS access the SASS run
  // could not resolve takes it: in-order pairing of a line's loads may give it a partner with
  // known addresses (x[cols[j]] next to cols[j] and vals[j]).
  std::map<std::pair<int, bool>, std::pair<long long, int>> lineArray;
  for (const SassPtxPair& p : map.pairs) {
    if (p.ptx < 0 || ptxStats[p.ptx].dataDependent == 0 || !ptxStats[p.ptx].allocation) continue;
    const SassInstruction& si = fn.instructions[p.sass];
    const bool store = storeLike(si);
    const long long a = *ptxStats[p.ptx].allocation;
    auto [it, inserted] = lineArray.emplace(std::make_pair(si.sourceLine, store), std::make_pair(a, p.ptx));
    if (!inserted && it->second.first != a) it->second.first = 0;
  }
  ir.blocks.clear();
  ir.loops.clear();
  for (size_t b = 0; b < cfg.blocks.size(); ++b) {
    const PtxBlock& pb = cfg.blocks[b];
    BasicBlock bb;
    bb.label = "0x" + fmt::format("{:04x}", fn.instructions[pb.first].offset);
    bb.successors = pb.successors;
    bb.executionsPerWarp = executions[pb.first];
    for (int i = pb.first; i < pb.end; ++i) {
      const SassInstruction& si = fn.instructions[i];
      Instruction inst;
      inst.opcode = si.opcode;
      const std::optional<OpcodeClass> row = table.find(si.mnemonic);
      inst.cls = row ? row->cls : InstrClass::Int;
      inst.flops = row ? row->flops : 0;
      if (const std::optional<MmaShape> mma = sassMmaShape(si.opcode)) {
        inst.cls = mma->cls;
        inst.flops = mma->flopsPerLane();
        inst.pipeWork = mma->pipeWork;
      }
      inst.sourceFile = fs::path(si.sourceFile).filename().string();
      inst.sourceLine = si.sourceLine;
      inst.barrier = si.mnemonic == "BAR";
      if (si.control) inst.stallCycles = si.control->stall;
      if (banks && checksRegisterBanks(si.mnemonic)) {
        inst.bankConflictDegree = sourceBankDegree(si, i > pb.first ? &fn.instructions[i - 1] : nullptr, *banks);
      }
      const bool store = storeLike(si);
      for (size_t k = 0; k < si.operands.size(); ++k) {
        // A memory operand is never a destination register (LDGSTS writes shared memory at it).
        const bool dst = k == 0 && !store && si.operands[k].kind != SassOperand::Kind::Memory && si.mnemonic != "BRA" &&
                         si.mnemonic != "EXIT" && !inst.barrier;
        sassRegs(si.operands[k], dst ? inst.dst : inst.src);
      }
      if (si.guard >= 0 && si.guard != 7) inst.src.push_back((si.guardUniform ? 328 : 320) + si.guard);
      if (auto p = pairOf.find(i); p != pairOf.end()) {
        int ptx = p->second->ptx;
        if (ptx < 0 || (ptxStats[ptx].executions == 0 && executions[i] > 0)) {
          auto q = partner.find({si.sourceLine, si.mnemonic});
          if (q != partner.end()) ptx = q->second;
        }
        if (ptx >= 0) {
          inst.memory = memoryOf(ptx);
          if (inst.memory) inst.memory->widthBytes = si.memoryWidthBytes;
        } else {
          // A spill (or an access without any PTX partner): the same offset in every lane of
          // interleaved local memory. A shared one without a partner (ldmatrix of a wmma load,
          // whose PTX is no ld) stays shared: consecutive rows, conflict-free, unless the SASS
          // run resolves its addresses (below).
          MemoryAccess m;
          const SassSpace space = sassAccessKind(si).space;
          m.space = p->second->spill || space == SassSpace::Local ? MemorySpace::Local
                    : space == SassSpace::Shared                  ? MemorySpace::Shared
                                                                  : MemorySpace::Global;
          m.isStore = store;
          m.widthBytes = si.memoryWidthBytes;
          const int lanes = si.matrixRowLanes() > 0 ? si.matrixRowLanes() : 32;
          for (int lane = 0; lane < lanes; ++lane) m.laneAddresses.push_back((1LL << 36) + lane * si.memoryWidthBytes);
          if (m.space == MemorySpace::Shared) {
            m.wavefrontsPerInst = std::max(1, lanes * si.memoryWidthBytes / 128);
          } else {
            m.transactionsPerInst = std::max(1, 32 * si.memoryWidthBytes / 32);
          }
          inst.memory = std::move(m);
        }
      }
      if (const SassMemoryStats& ms = sassMemory[i]; inst.memory && ms.known + ms.dataDependent > 0) {
        MemoryAccess& m = *inst.memory;
        m.dataDependent = ms.dataDependent > 0;
        if (ms.known > 0) {
          m.laneAddresses = ms.first;
          m.pattern.reset();
          const double avg = static_cast<double>(ms.units) / static_cast<double>(ms.known);
          if (m.space == MemorySpace::Shared) {
            m.wavefrontsPerInst = avg;
            m.transactionsPerInst.reset();
          } else {
            m.transactionsPerInst = avg;
          }
        } else {
          // Conservative, as for the PTX: every active lane its own sector.
          if (auto a = lineArray.find({si.sourceLine, store}); a != lineArray.end() && a->second.first > 0) {
            m.allocation = memoryOf(a->second.second)->allocation;
          }
          m.laneAddresses.clear();
          m.pattern = AccessClass::Uncoalesced;
          m.transactionsPerInst = static_cast<double>(ms.activeLanes) / static_cast<double>(ms.dataDependent);
        }
      }
      bb.instructions.push_back(std::move(inst));
    }
    ir.blocks.push_back(std::move(bb));
  }
  for (const PtxLoop& l : cfg.loops) {
    const PtxBlock& h = cfg.blocks[l.header];
    if (l.blocks.size() == 1 && h.end - h.first == 1 && fn.instructions[h.first].mnemonic == "BRA") continue;  // padding
    Loop loop;
    loop.header = l.header;
    loop.blocks = l.blocks;
    loop.source = TripCountSource::FromLaunch;
    double entries = 0;
    for (size_t b = 0; b < cfg.blocks.size(); ++b) {
      if (l.contains(static_cast<int>(b))) continue;
      for (int s : cfg.blocks[b].successors) {
        if (s == l.header) entries += executions[cfg.blocks[b].first];
      }
    }
    loop.tripCount = entries > 0 ? std::min(executions[cfg.blocks[l.header].first], executions[cfg.blocks[l.header].first] / entries) : 0;
    ir.loops.push_back(loop);
  }
}

struct Inputs {
  std::string source;  ///< CUDA source (for parameter names), may be empty
  std::string sourcePath;  ///< where `source` was read
  std::string ptx;
  std::string cubin;   ///< may be empty (ptxas absent)
  std::string sass;    ///< may be empty
  std::string arch;
  std::vector<std::string> notes;
  std::string sassStatus;
};

/// The names `#include "..."` gives in `text` (comments stripped; `<...>` includes left out).
std::vector<std::string> quotedIncludes(const std::string& text) {
  std::vector<std::string> out;
  const std::string src = stripComments(text);
  size_t pos = 0;
  while (pos < src.size()) {
    size_t end = src.find('\n', pos);
    if (end == std::string::npos) end = src.size();
    const std::string line = trim(std::string_view(src).substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line[0] != '#') continue;
    const std::string directive = trim(std::string_view(line).substr(1));
    if (directive.rfind("include", 0) != 0) continue;
    const size_t q1 = directive.find('"');
    const size_t q2 = q1 == std::string::npos ? q1 : directive.find('"', q1 + 1);
    if (q2 == std::string::npos) continue;
    out.push_back(directive.substr(q1 + 1, q2 - q1 - 1));
  }
  return out;
}

/// Visits the files `source` (at `path`) includes with `#include "..."`, transitively and each
/// once (at most 64), in the order nvcc would find them: next to the including file, then under
/// `includeDirs`; a file that cannot be read is skipped (nvcc reports it). `visit(file, text)`
/// returns true to stop.
template <class Visit>
void forEachIncluded(const std::string& path, const std::string& source, const std::vector<std::string>& includeDirs,
                     Toolchain& tc, std::set<std::string>& seen, Visit&& visit) {
  constexpr size_t kMaxIncludes = 64;
  std::vector<std::pair<std::string, std::string>> pending{{path, source}};
  for (size_t next = 0; next < pending.size() && seen.size() < kMaxIncludes; ++next) {
    for (const std::string& name : quotedIncludes(pending[next].second)) {
      std::vector<fs::path> candidates;
      if (fs::path(name).is_absolute()) {
        candidates.emplace_back(name);
      } else {
        candidates.push_back(fs::path(pending[next].first).parent_path() / name);
        for (const std::string& d : includeDirs) candidates.push_back(fs::path(d) / name);
      }
      for (const fs::path& c : candidates) {
        const std::string file = c.lexically_normal().string();
        Expected<std::string> text = tc.readFile(file);
        if (!text) continue;
        if (seen.insert(file).second) {
          if (visit(file, *text)) return;
          pending.emplace_back(file, std::move(*text));
        }
        break;
      }
    }
  }
}

/// The text of the files `source` includes (forEachIncluded), each after its path: the compile
/// cache hashes it with the source, so an edited header is recompiled.
std::string includedSources(const std::string& path, const std::string& source, const std::vector<std::string>& includeDirs,
                            Toolchain& tc) {
  std::string out;
  std::set<std::string> seen{fs::path(path).lexically_normal().string()};
  forEachIncluded(path, source, includeDirs, tc, seen, [&](const std::string& file, const std::string& text) {
    out += file + "\n" + text + "\n";
    return false;
  });
  return out;
}

/// Compilation options given for an input that is not compiled: an Error naming the first.
Expected<void> compileOptionsUnused(const CudaOptions& o, const std::string& path) {
  const char* option = !o.macros.empty()      ? "-D macros apply"
                       : !o.includeDirs.empty() ? "-I include paths apply"
                       : !o.nvccFlags.empty()   ? "nvcc flags (--nvcc-flag, --maxrregcount) apply"
                                                : nullptr;
  if (option) return makeError(std::string(option) + " to .cu inputs only", path, 0);
  return {};
}

/// The branch hints with what the `if` on each hinted line runs (source_if.h), read from the
/// source file the line table names (the input's own source, an included file, or a file next
/// to the input); IfBody::kNone when the source cannot be read.
std::vector<BranchHint> withIfBodies(std::vector<BranchHint> hints, const PtxModule& module, const Inputs& in, const std::string& path,
                                     Toolchain& tc) {
  std::map<std::string, std::optional<std::string>> texts;  // source path → its text
  const auto textOf = [&](const std::string& file) -> const std::optional<std::string>& {
    auto [it, fresh] = texts.emplace(file, std::nullopt);
    if (!fresh) return it->second;
    if (!in.sourcePath.empty() && fs::path(in.sourcePath).lexically_normal() == fs::path(file).lexically_normal()) {
      it->second = in.source;
    } else if (Expected<std::string> t = tc.readFile(file)) {
      it->second = std::move(*t);
    } else if (Expected<std::string> next = tc.readFile((fs::path(path).parent_path() / fs::path(file).filename()).string())) {
      it->second = std::move(*next);
    }
    return it->second;
  };
  for (BranchHint& h : hints) {
    std::string file;
    for (const auto& [index, name] : module.files) {
      if (endsWithPath(name, h.file)) file = name;
    }
    if (file.empty() && endsWithPath(in.sourcePath, h.file)) file = in.sourcePath;
    if (file.empty()) continue;
    if (const std::optional<std::string>& text = textOf(file)) h.body = ifBodyAt(*text, h.line);
  }
  return hints;
}

Expected<Inputs> obtainInputs(const std::string& path, const CudaOptions& o, Toolchain& tc) {
  Inputs in;
  in.arch = o.arch;
  const std::string ext = fs::path(path).extension().string();
  auto readSourceNextTo = [&](const std::string& p) {
    const fs::path cu = fs::path(p).parent_path() / (stemOf(p) + ".cu");
    if (Expected<std::string> s = tc.readFile(cu.string())) {
      in.source = std::move(*s);
      in.sourcePath = cu.string();
    }
  };
  if (ext == ".cu") {
    if (Expected<void> ok = checkSupportedArch(o.arch); !ok) return std::move(ok).takeError();
    Expected<std::string> src = tc.readFile(path);
    if (!src) return std::move(src).takeError();
    in.source = *src;
    in.sourcePath = path;
    CompileRequest req{path, *src, o.arch, o.macros, true, o.includeDirs, o.nvccFlags, includedSources(path, *src, o.includeDirs, tc)};
    Expected<std::string> ptx = tc.compileToPtx(req);
    if (!ptx) return std::move(ptx).takeError();
    in.ptx = std::move(*ptx);
    Expected<std::string> cubin = tc.compileToCubin(req);
    if (!cubin) return std::move(cubin).takeError();
    in.cubin = std::move(*cubin);
  } else if (ext == ".ptx") {
    if (Expected<void> ok = compileOptionsUnused(o, path); !ok) return std::move(ok).takeError();
    Expected<std::string> ptx = tc.readFile(path);
    if (!ptx) return std::move(ptx).takeError();
    in.ptx = std::move(*ptx);
    readSourceNextTo(path);
    if (Expected<std::string> c = tc.readFile(sibling(path, ".cubin"))) {
      in.cubin = std::move(*c);
    } else if (Expected<std::string> c2 = tc.assemble(in.ptx, o.arch, path)) {
      in.cubin = std::move(*c2);
    } else {
      in.notes.push_back("no cubin: " + c2.error().message + "; registers and shared memory are unknown");
    }
  } else if (ext == ".cubin" || ext == ".sass") {
    if (Expected<void> ok = compileOptionsUnused(o, path); !ok) return std::move(ok).takeError();
    const std::string cubinPath = ext == ".cubin" ? path : sibling(path, ".cubin");
    Expected<std::string> cubin = tc.readFile(cubinPath);
    if (!cubin) return makeError("a ." + ext.substr(1) + " input needs its cubin at " + cubinPath, path, 0);
    in.cubin = std::move(*cubin);
    Expected<std::string> ptx = tc.readFile(sibling(path, ".ptx"));
    if (!ptx) {
      return makeError("a " + ext + " input needs the PTX it was built from next to it (" + sibling(path, ".ptx") +
                           ") for the dynamic analysis",
                       path, 0);
    }
    in.ptx = std::move(*ptx);
    readSourceNextTo(path);
    if (ext == ".sass") {
      Expected<std::string> s = tc.readFile(path);
      if (!s) return std::move(s).takeError();
      in.sass = std::move(*s);
    }
  } else {
    return makeError("the CUDA frontend reads .cu, .ptx, .cubin and .sass files", path, 0);
  }
  if (!in.cubin.empty()) {
    Expected<Cubin> c = readCubin(in.cubin, path);
    if (!c) return std::move(c).takeError();
    const std::string cubinArch = "sm_" + std::to_string(c->smVersion);
    if (ext != ".cu" && ext != ".ptx" && cubinArch != o.arch && cubinArch + "a" != o.arch) {
      in.notes.push_back("the cubin targets " + cubinArch + ", not the GPU's " + o.arch + "; its resources are used as they are");
      in.arch = cubinArch;
    }
  }
  if (in.sass.empty()) {
    if (!tc.canDisassemble(in.arch)) {
      in.sassStatus = nvdisasmDecodes(in.arch) ? "nvdisasm not found (scripts/setup.sh fetches it into .tools/)"
                                               : "nvdisasm 12.5 cannot decode " + in.arch;
    } else if (!in.cubin.empty()) {
      Expected<std::string> s = tc.disassemble(in.cubin, in.arch, path);
      if (s) {
        in.sass = std::move(*s);
      } else {
        in.sassStatus = s.error().message;
      }
    }
  }
  return in;
}

/// Parameter names and pointer-ness of `kernel` from its definition, searched in the main
/// source, then in the files the kernel's `.loc` lines point to (as the PTX names them, else by
/// file name next to the main source), then in the files the main source includes with
/// `#include "..."` (transitively): Rodinia-style programs define their kernels in an included
/// `.cu`. The first declaration that names every parameter wins, else the first with the right
/// number of parameters; empty when none has.
std::vector<SourceParam> definitionParams(const Inputs& in, const PtxModule& module, const PtxKernel& kernel,
                                          const std::vector<std::string>& includeDirs, Toolchain& tc) {
  const std::string base = demangleBaseName(kernel.name);
  std::vector<SourceParam> fallback;
  std::set<std::string> seen;
  auto consider = [&](const std::string& text) -> bool {
    std::vector<SourceParam> params = sourceParams(text, base);
    if (params.size() != kernel.params.size()) return false;
    const bool named = std::all_of(params.begin(), params.end(), [](const SourceParam& p) { return !p.name.empty(); });
    if (named) fallback = std::move(params);
    else if (fallback.empty()) fallback = std::move(params);
    return named;
  };
  if (!in.source.empty()) {
    seen.insert(fs::path(in.sourcePath).lexically_normal().string());
    if (consider(in.source)) return fallback;
  }
  const fs::path dir = fs::path(in.sourcePath).parent_path();
  std::vector<int> lineFiles;
  for (const PtxInstruction& inst : kernel.instructions) {
    if (inst.sourceLine > 0 && std::find(lineFiles.begin(), lineFiles.end(), inst.sourceFile) == lineFiles.end()) {
      lineFiles.push_back(inst.sourceFile);
    }
  }
  for (int index : lineFiles) {
    auto f = module.files.find(index);
    if (f == module.files.end()) continue;
    const fs::path named = f->second;
    for (const fs::path& p : {named, dir / named, dir / named.filename()}) {
      const std::string key = p.lexically_normal().string();
      if (!seen.insert(key).second) continue;
      Expected<std::string> text = tc.readFile(key);
      if (!text) continue;
      if (consider(*text)) return fallback;
      break;  // read: the other spellings name the same file
    }
  }
  if (in.source.empty()) return fallback;
  forEachIncluded(in.sourcePath, in.source, includeDirs, tc, seen,
                  [&](const std::string&, const std::string& text) { return consider(text); });
  return fallback;
}

/// An error the PTX reader located at line `e.line` of `path`'s PTX, moved to where the user
/// can look: a `.ptx` input keeps its PTX line; the PTX next to a `.cubin` or `.sass` input is
/// named itself; for a `.cu` the PTX was generated, so the error points at the source line of
/// the last `.loc` before that PTX line in the same function, else at the `.cu` with no line.
Error locatePtxError(Error e, const std::string& ptx, const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".ptx" || e.file != path || e.line <= 0) return e;
  if (ext != ".cu") {
    e.file = sibling(path, ".ptx");
    return e;
  }
  // `.file` directives may follow the functions (nvcc writes them last): read them all first.
  std::map<int, std::string> files;
  std::vector<std::string> lines;
  for (size_t pos = 0; pos < ptx.size();) {
    size_t end = ptx.find('\n', pos);
    if (end == std::string::npos) end = ptx.size();
    lines.push_back(trim(std::string_view(ptx).substr(pos, end - pos)));
    pos = end + 1;
  }
  auto words = [](const std::string& text) {
    std::vector<std::string> w(3);
    std::istringstream(text) >> w[0] >> w[1] >> w[2];
    return w;
  };
  for (const std::string& text : lines) {
    const size_t q1 = text.find('"');
    const size_t q2 = q1 == std::string::npos ? q1 : text.find('"', q1 + 1);
    if (words(text)[0] == ".file" && q2 != std::string::npos) {
      files[std::atoi(words(text)[1].c_str())] = text.substr(q1 + 1, q2 - q1 - 1);
    }
  }
  int file = 0, line = 0;
  for (int n = 1; n <= e.line && n <= static_cast<int>(lines.size()); ++n) {
    const std::vector<std::string> w = words(lines[n - 1]);
    if (w[0] == ".loc") {
      file = std::atoi(w[1].c_str());
      line = std::atoi(w[2].c_str());
    } else if (lines[n - 1].find(".entry") != std::string::npos || lines[n - 1].find(".func") != std::string::npos) {
      line = 0;  // a new function: the previous one's lines do not apply
    }
  }
  e.line = line;
  if (line > 0) {
    auto f = files.find(file);
    if (f != files.end() && baseFile(f->second) != baseFile(path)) e.file = baseFile(f->second);
  }
  return e;
}

/// A SASS listing error for `path`: a `.sass` input keeps its line; otherwise nvdisasm wrote
/// the listing, and the error names the input without a line.
Error locateSassError(Error e, const std::string& path) {
  if (fs::path(path).extension() == ".sass" || e.file != path || e.line <= 0) return e;
  e.message += " (line " + std::to_string(e.line) + " of the SASS listing nvdisasm printed)";
  e.line = 0;
  return e;
}

/// KernelIR::longestWarpShare from the longest executed warp's dynamic instructions and their
/// mean (1 when nothing ran).
double longestWarpShare(double longest, double mean) { return mean > 0 ? std::max(1.0, longest / mean) : 1.0; }

}  // namespace

Expected<CudaProgram> loadCuda(const std::string& path, const CudaOptions& o, Toolchain& tc) {
  if (o.launch.grid.count() <= 0 || o.launch.block.count() <= 0) {
    return makeError("CUDA inputs need a launch; pass --grid and --block", path, 0);
  }
  Expected<Inputs> inputs = obtainInputs(path, o, tc);
  if (!inputs) return std::move(inputs).takeError();
  Expected<PtxModule> module = parsePtx(inputs->ptx, path);
  if (!module) return locatePtxError(std::move(module).takeError(), inputs->ptx, path);

  CudaProgram program;
  program.path = path;
  program.arch = inputs->arch;
  program.tools = tc.describe();
  program.isa = "ptx";
  program.sassStatus = inputs->sassStatus;
  const std::vector<KernelName> names = kernelNames(*module);
  for (const KernelName& k : names) program.kernelNames.push_back(k.name);
  Expected<size_t> chosen = chooseKernel(names, o.kernel, path);
  if (!chosen) return std::move(chosen).takeError();
  const PtxKernel& kernel = module->kernels[*chosen];

  std::optional<Cubin> cubin;
  if (!inputs->cubin.empty()) {
    Expected<Cubin> c = readCubin(inputs->cubin, path);
    if (!c) return std::move(c).takeError();
    cubin = std::move(*c);
    // __launch_bounds__(N) / .maxntid: the driver refuses a larger block ("too many resources
    // requested for launch"), so no prediction either.
    if (const CubinKernel* ck = cubin->find(kernel.name); ck && ck->maxThreads[0]) {
      long long bound = 1;
      for (const std::optional<int>& d : ck->maxThreads) bound *= d.value_or(1);
      if (o.launch.block.count() > bound) {
        return makeError(fmt::format("kernel '{}' is compiled with __launch_bounds__ / .maxntid of {} threads per block; "
                                     "a block of {} threads cannot launch (CUDA: too many resources requested for launch)",
                                     demangleBaseName(kernel.name), bound, o.launch.block.count()),
                         path, 0);
      }
    }
  }
  std::optional<SassListing> listing;
  if (!inputs->sass.empty()) {
    Expected<SassListing> l = parseSass(inputs->sass, path);
    if (!l) return locateSassError(std::move(l).takeError(), path);
    listing = std::move(*l);
  }

  CudaKernel out;
  out.mangled = kernel.name;
  out.name = names[*chosen].name;
  out.notes = inputs->notes;
  out.notes.insert(out.notes.end(), kernel.notes.begin(), kernel.notes.end());  // calls, recursion, printf

  // Parameters: names from the source, pointer-ness from the source or the PTX type.
  const std::vector<SourceParam> src = definitionParams(*inputs, *module, kernel, o.includeDirs, tc);
  const bool haveNames = src.size() == kernel.params.size();
  InterpreterOptions io;
  io.launch = o.launch;
  io.trips = o.trips;
  io.foldLoops = o.foldLoops;
  io.branches = withIfBodies(o.branches, *module, *inputs, path, tc);
  io.kernelName = out.name;
  io.maxInstructionsPerWarp = o.maxInstructionsPerWarp;
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    io.paramNames.push_back(haveNames && !src[i].name.empty() ? src[i].name : "param_" + std::to_string(i));
  }
  out.paramNames = io.paramNames;
  for (const auto& [name, value] : o.launch.args) {
    auto it = std::find(io.paramNames.begin(), io.paramNames.end(), name);
    if (it == io.paramNames.end()) {
      std::string list;
      for (const std::string& n : io.paramNames) list += (list.empty() ? "" : ", ") + n;
      std::string hint = didYouMean(name, io.paramNames);
      for (const std::string& p : io.paramNames) {
        const bool sameIgnoringCase = p.size() == name.size() &&
            std::equal(p.begin(), p.end(), name.begin(), [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); });
        if (sameIgnoringCase) hint = "; did you mean '" + p + "'?";
      }
      return makeError("kernel '" + out.name + "' has no parameter '" + name + "'" + hint +
                           " (parameters: " + list + ")",
                       path, 0);
    }
    const int ord = static_cast<int>(it - io.paramNames.begin());
    Expected<std::uint64_t> bits = argumentBits(kernel.params[static_cast<size_t>(ord)], haveNames && src[ord].pointer, value,
                                                "parameter '" + name + "' of kernel '" + out.name + "'");
    if (!bits) return makeError(bits.error().message, path, 0);
    io.scalarArgs[ord] = static_cast<long long>(*bits);
  }
  // Pointer-ness from the source, else from the PTX type (a 64-bit parameter).
  const auto isPointer = [&](size_t i) { return haveNames ? src[i].pointer : kernel.params[i].bytes == 8; };
  // A pointer parameter named as --array and --data name it (or "@N" by position): its ordinal.
  const auto pointerOrdinal = [&](const std::string& name, const std::string& option) -> Expected<int> {
    size_t ord = static_cast<size_t>(std::find(io.paramNames.begin(), io.paramNames.end(), name) - io.paramNames.begin());
    if (name.size() > 1 && name[0] == '@') {  // by position: "@3"
      const bool digits = std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
      ord = digits && name.size() < 8 ? static_cast<size_t>(std::stoll(name.substr(1))) : io.paramNames.size();
    }
    if (ord >= io.paramNames.size() || !isPointer(ord)) {
      std::vector<std::string> pointers;
      for (size_t i = 0; i < io.paramNames.size(); ++i) {
        if (isPointer(i)) pointers.push_back(io.paramNames[i]);
      }
      std::string list;
      for (const std::string& p : pointers) list += (list.empty() ? "" : ", ") + p;
      return makeError(option + " '" + name + "': kernel '" + out.name + "' has no pointer parameter of that name" +
                           didYouMean(name, pointers) + " (pointer parameters: " + (list.empty() ? "none" : list) + ")",
                       path, 0);
    }
    return static_cast<int>(ord);
  };
  std::map<int, long long> arrayBytes;  // --array sizes by parameter ordinal
  for (const auto& [name, bytes] : o.launch.arrayBytes) {
    Expected<int> ord = pointerOrdinal(name, "--array");
    if (!ord) return std::move(ord).takeError();
    arrayBytes[*ord] = bytes;
  }
  for (const auto& [name, data] : o.launch.arrayData) {
    Expected<int> ord = pointerOrdinal(name, "--data");
    if (!ord) return std::move(ord).takeError();
    io.arrayData.emplace(*ord, data);
  }
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    // A pointer given a base address (--arg) takes it; the others get a base of their own.
    if (!io.scalarArgs.count(static_cast<int>(i)) && isPointer(i)) io.pointerParams.push_back(static_cast<int>(i));
  }

  Expected<PtxCfg> cfg = buildCfg(kernel, path);
  if (!cfg) return locatePtxError(std::move(cfg).takeError(), inputs->ptx, path);
  for (std::string& n : hintLineNotes(*module, kernel, out.name, o, path)) out.notes.push_back(std::move(n));
  const WarpInterpreter interpreter(*module, kernel, *cfg, io, path);

  // Execute the sampled warps of block 0 and average.
  const long long warpsPerBlock = (o.launch.block.count() + 31) / 32;
  const int maxSampled = static_cast<int>(std::min<long long>(warpsPerBlock, std::max(1, o.maxSampledWarps)));
  // Spread over the block (first, last, then halves), so that a run cut short by the
  // instruction budget still sees boundary and interior warps.
  const std::vector<int> order = sampleOrder(static_cast<int>(std::min<long long>(warpsPerBlock, 1 << 20)), maxSampled);
  int sampled = 0;
  std::vector<double> blockExec(cfg->blocks.size(), 0);
  std::vector<std::map<int, double>> edgeExec(cfg->blocks.size());
  std::vector<InstructionStats> stats(kernel.instructions.size());
  std::map<int, std::string> hinted;
  double dynamic = 0, longest = 0;
  long long executed = 0;
  std::optional<ProgressStage> ptxStage;
  ptxStage.emplace(o.progress, "interpreting the PTX of kernel '" + out.name + "' (warps of block 0)", maxSampled);
  // The warps run side by side, a core's worth at a time, and are read in order (a warp run
  // past the budget's stop is discarded unread).
  std::optional<Error> failed;
  parallelInOrder(
      order.size(), std::max(1u, std::thread::hardware_concurrency()),
      [&](std::size_t k) { return interpreter.run(0, order[k]); },
      [&](std::size_t, Expected<WarpTrace>& t) {
        if (!t) {
          failed = std::move(t).takeError();
          return false;
        }
        ++sampled;
        ptxStage->advance(sampled);
        executed += t->dynamicInstructions;
        for (size_t b = 0; b < blockExec.size(); ++b) {
          blockExec[b] += static_cast<double>(t->blockExecutions[b]);
          for (const auto& [to, n] : t->edges[b]) edgeExec[b][to] += static_cast<double>(n);
        }
        for (size_t i = 0; i < stats.size(); ++i) {
          InstructionStats& s = stats[i];
          const InstructionStats& x = t->instructions[i];
          s.executions += x.executions;
          s.activeLanes += x.activeLanes;
          s.knownRequests += x.knownRequests;
          s.units += x.units;
          s.dataDependent += x.dataDependent;
          s.allocation = mergeAllocation(s.allocation, x.allocation);
          if (s.firstAddresses.empty()) s.firstAddresses = x.firstAddresses;
        }
        for (const ResolvedBranch& r : t->hintedBranches) hinted[r.instruction] = r.how;
        for (const std::string& n : t->notes) {
          if (std::find(out.notes.begin(), out.notes.end(), n) == out.notes.end()) out.notes.push_back(n);
        }
        dynamic += static_cast<double>(t->dynamicInstructions);
        longest = std::max(longest, static_cast<double>(t->dynamicInstructions));
        return !(sampled >= std::min(2, maxSampled) && executed >= o.sampleInstructionBudget);  // first and last warp at least
      });
  if (failed) return std::move(*failed);
  ptxStage.reset();
  for (size_t b = 0; b < blockExec.size(); ++b) {
    blockExec[b] /= sampled;
    for (auto& [to, n] : edgeExec[b]) n /= sampled;
  }
  dynamic /= sampled;
  out.sampledWarps = sampled;
  const std::vector<int> sampledWarps(order.begin(), order.begin() + sampled);
  if (sampled < maxSampled) {
    out.notes.push_back(fmt::format("{} of {} warps of block 0 executed: one warp runs {:.0f} PTX instructions, over the "
                                    "{} sampling budget",
                                    sampled, maxSampled, dynamic, o.sampleInstructionBudget));
  }
  out.dynamicInstructionsPerWarp = dynamic;

  auto fileOf = [&](const PtxInstruction& inst) -> std::string {
    auto f = module->files.find(inst.sourceFile);
    return f == module->files.end() ? baseFile(path) : baseFile(f->second);
  };

  std::set<std::string> reported;
  // The memory access of PTX instruction i, from the averaged warp statistics.
  auto memoryOf = [&](int i) -> std::optional<MemoryAccess> {
    const PtxInstruction& pi = kernel.instructions[i];
    const InstructionStats& s = stats[i];
    std::optional<MemorySpace> space = memorySpaceOf(pi);
    if (!space) return std::nullopt;
    MemoryAccess m;
    m.space = *space;
    m.isStore = pi.base == "st" || pi.base == "red";
    m.widthBytes = ptxAccessBytes(pi);
    for (const std::string& mod : pi.mods) {
      if (mod == "cg") m.cacheOp = CacheOp::Cg;
      else if (mod == "cs") m.cacheOp = CacheOp::Cs;
      else if (mod == "lu") m.cacheOp = CacheOp::Lu;
      else if (mod == "cv" || mod == "volatile") m.cacheOp = CacheOp::Cv;
      else if (mod == "nc") m.cacheOp = CacheOp::Nc;
      else if (mod == "wt") m.cacheOp = CacheOp::Wt;
    }
    const std::string where = fileOf(pi) + ":" + std::to_string(pi.sourceLine);
    if (s.knownRequests > 0) {
      m.laneAddresses = s.firstAddresses;
      const double avg = static_cast<double>(s.units) / static_cast<double>(s.knownRequests);
      if (m.space == MemorySpace::Shared) {
        m.wavefrontsPerInst = avg;
      } else {
        m.transactionsPerInst = avg;
      }
    }
    if (s.dataDependent > 0) {
      m.dataDependent = true;
      if (s.allocation && *s.allocation > 0) {
        const long long base = *s.allocation;
        const auto ordinal = static_cast<size_t>(base / WarpInterpreter::kPointerWindow - 1);
        m.allocation = MemoryAccess::Allocation{base, base + WarpInterpreter::kPointerWindow,
                                                ordinal < io.paramNames.size() ? io.paramNames[ordinal] : std::string(), std::nullopt};
        if (auto b = arrayBytes.find(static_cast<int>(ordinal)); b != arrayBytes.end()) m.allocation->bytes = b->second;
      }
      if (s.knownRequests == 0) {
        m.laneAddresses.clear();
        m.pattern = AccessClass::Uncoalesced;
        // Conservative: every active lane its own sector.
        m.transactionsPerInst = s.executions > 0 ? static_cast<double>(s.activeLanes) / static_cast<double>(s.executions) : 32.0;
      }
      const std::string note =
          where + ": " + pi.opcode + " has a data-dependent address" +
          (m.allocation && !m.allocation->name.empty()
               ? " in " + m.allocation->name + " (one sector per active lane, spread uniformly over the array)"
               : " (counted as uncoalesced, one sector per active lane)");
      if (reported.insert(note).second) out.notes.push_back(note);
    }
    if (s.executions == 0 && m.laneAddresses.empty() && !m.pattern) {
      m.pattern = AccessClass::Coalesced;  // never executed by the sampled warps: weight 0
      m.transactionsPerInst = 1;
    }
    return m;
  };

  // Lower to KernelIR.
  KernelIR& ir = out.ir;
  ir.name = out.name;
  ir.longestWarpShare = longestWarpShare(longest, dynamic);
  for (const int ord : io.pointerParams) {
    ArrayWindow w{io.paramNames[static_cast<size_t>(ord)], WarpInterpreter::pointerBase(ord),
                  WarpInterpreter::pointerBase(ord) + WarpInterpreter::kPointerWindow, std::nullopt};
    if (auto b = arrayBytes.find(ord); b != arrayBytes.end()) w.bytes = b->second;
    ir.arrays.push_back(std::move(w));
  }
  std::map<int, std::string> blockLabel;
  for (const auto& [label, index] : kernel.labels) blockLabel[index] = label;
  for (size_t b = 0; b < cfg->blocks.size(); ++b) {
    const PtxBlock& pb = cfg->blocks[b];
    BasicBlock bb;
    bb.label = blockLabel.count(pb.first) ? blockLabel[pb.first] : (b == 0 ? "entry" : "bb" + std::to_string(b));
    bb.successors = pb.successors;
    bb.executionsPerWarp = blockExec[b];
    for (int i = pb.first; i < pb.end; ++i) {
      const PtxInstruction& pi = kernel.instructions[i];
      Instruction inst;
      inst.opcode = pi.opcode;
      const OpcodeClass c = classify(pi);
      inst.cls = c.cls;
      inst.flops = c.flops;
      if (const std::optional<MmaShape> mma = ptxMmaShape(pi.opcode)) {
        inst.cls = mma->cls;
        inst.flops = mma->flopsPerLane();
        inst.pipeWork = mma->pipeWork;
      }
      inst.sourceFile = fileOf(pi);
      inst.sourceLine = pi.sourceLine;
      inst.barrier = pi.isBlockBarrier();
      const bool hasDst = !pi.operands.empty() && pi.base != "st" && pi.base != "red" && pi.base != "bra" &&
                          pi.base != "bar" && pi.base != "barrier" && pi.base != "ret" && pi.base != "exit";
      for (size_t k = 0; k < pi.operands.size(); ++k) collectRegs(pi.operands[k], k == 0 && hasDst ? inst.dst : inst.src);
      if (pi.guard >= 0) inst.src.push_back(pi.guard);
      if (std::optional<MemoryAccess> m = memoryOf(i)) inst.memory = std::move(*m);
      if (auto h = hinted.find(i); h != hinted.end()) {
        const std::string note = inst.sourceFile + ":" + std::to_string(pi.sourceLine) + ": " +
                                 (pi.base == "bra" ? "data-dependent branch resolved by " : "loaded value set by ") + h->second;
        if (reported.insert(note).second) out.notes.push_back(note);
      }
      bb.instructions.push_back(std::move(inst));
    }
    ir.blocks.push_back(std::move(bb));
  }
  for (const PtxLoop& l : cfg->loops) {
    Loop loop;
    loop.header = l.header;
    loop.blocks = l.blocks;
    double entries = 0;
    for (size_t b = 0; b < cfg->blocks.size(); ++b) {
      if (l.contains(static_cast<int>(b))) continue;
      if (auto it = edgeExec[b].find(l.header); it != edgeExec[b].end()) entries += it->second;
    }
    loop.source = TripCountSource::FromLaunch;
    std::pair<std::string, int> location{"", 0};
    for (int b : l.blocks) {
      const PtxBlock& pb = cfg->blocks[b];
      const PtxInstruction& last = kernel.instructions[pb.end - 1];
      if (hinted.count(pb.end - 1)) loop.source = TripCountSource::Hinted;
      for (int s : pb.successors) {
        if (!l.contains(s) && location.second == 0) location = {fileOf(last), last.sourceLine};
      }
    }
    for (const TripHint& h : o.trips) {
      if (h.line == location.second && baseFile(h.file) == location.first) loop.source = TripCountSource::Hinted;
    }
    loop.tripCount = entries > 0 ? blockExec[l.header] / entries : 0;
    ir.loops.push_back(std::move(loop));
    out.loopLocations.push_back(location);
  }
  if (cubin) {
    if (const CubinKernel* ck = cubin->find(kernel.name)) {
      out.resources = *ck;
      ir.resources.registers = ck->registers;
      ir.resources.staticSharedBytes = ck->sharedBytes;
      ir.resources.localBytes = ck->frameBytes;
    }
  }
  std::shared_ptr<const WarpStreamSource> sassStreams;  // set when the IR holds the SASS stream
  if (listing) {
    if (const SassFunction* fn = listing->find(kernel.name)) {
      Expected<const InstrClassTable*> table = sassClassTable(std::stoi(program.arch.substr(3, 2)));
      if (table) {
        out.sass = summarizeSass(*fn, **table);
        for (const std::string& n : fn->notes) {
          if (std::find(out.notes.begin(), out.notes.end(), n) == out.notes.end()) out.notes.push_back(n);
        }
        const SassPtxMap map = mapSassToPtx(kernel, *fn);
        for (const SassPtxPair& pair : map.pairs) out.sass->memoryPaired += pair.ptx >= 0 ? 1 : 0;
        out.sass->spillStores = map.spillStores;
        out.sass->spillLoads = map.spillLoads;
        out.sass->spillStoreBytes = map.spillStoreBytes;
        out.sass->spillLoadBytes = map.spillLoadBytes;
        out.sass->unmatchedSass = map.unmatchedSass;
        out.sass->unmatchedPtx = map.unmatchedPtx;
        if (out.resources) {
          SassRunOptions so;
          so.launch = o.launch;
          so.layout = &*out.resources;
          so.scalarArgs = io.scalarArgs;
          so.pointerParams = io.pointerParams;
          so.arrayData = io.arrayData;
          so.trips = o.trips;
          so.foldLoops = o.foldLoops;
          so.branches = io.branches;
          so.recordAddresses = true;
          so.maxInstructions = o.maxInstructionsPerWarp;
          double total = 0, longestSass = 0;
          std::vector<double> perInstruction(fn->instructions.size(), 0);
          std::vector<SassMemoryStats> sassMemory(fn->instructions.size());
          std::string memoryError;
          std::optional<PtxCfg> sassCfg;
          ProgressStage sassStage(o.progress, "running the SASS of kernel '" + out.name + "' (warps of block 0)",
                                  static_cast<long long>(sampledWarps.size()));
          // One preparation for every warp; the warps run side by side, eight at a time, and are
          // read in order.
          Expected<std::shared_ptr<const SassPrepared>> prepared = prepareSassRun(*fn, so);
          parallelInOrder(
              sampledWarps.size(), 8,
              [&](std::size_t k) {
                return prepared ? runSassWarp(*fn, so, 0, sampledWarps[k], prepared->get())
                                : Expected<SassWarpCount>(prepared.error());
              },
              [&](std::size_t, Expected<SassWarpCount>& c) {
                if (!c) {
                  out.sass->dynamicStatus = c.error().message;
                  return false;
                }
                sassStage.advance(sassStage.done() + 1);
                total += static_cast<double>(c->dynamicInstructions) / sampled;
                longestSass = std::max(longestSass, static_cast<double>(c->dynamicInstructions));
                for (size_t i = 0; i < perInstruction.size(); ++i) perInstruction[i] += static_cast<double>(c->instructions[i].executions) / sampled;
                // Accesses of folded loop iterations repeat their recorded iteration's (LoopFold):
                // each counts 1 + repeats times per fold repeating it, with the sectors of the
                // recorded one.
                std::vector<long long> times(c->accesses.size(), 1);
                for (const LoopFold& f : c->folds) {
                  for (size_t k = f.addressBegin; k < f.addressEnd && k < times.size(); ++k) times[k] *= 1 + f.repeats;
                }
                for (size_t ai = 0; ai < c->accesses.size(); ++ai) {
                  const LaneAccess& a = c->accesses[ai];
                  const long long w = times[ai];
                  SassMemoryStats& ms = sassMemory[a.instruction];
                  if (a.lanes.empty()) {
                    ms.dataDependent += w;
                    ms.activeLanes += 32 * w;
                    continue;
                  }
                  long long active = 0;
                  for (long long x : a.lanes) active += x >= 0 ? 1 : 0;
                  ms.activeLanes += active * w;
                  const SassInstruction& si = fn->instructions[a.instruction];
                  const int width = std::max(1, si.memoryWidthBytes);
                  const PtxSpace space = sassAccessKind(si).space == SassSpace::Shared ? PtxSpace::Shared : PtxSpace::Global;
                  Expected<long long> units =
                      accessUnits(a.lanes, width, space, isSassAtomic(si), si.bankPassLanes());
                  if (!units) {
                    memoryError = units.error().message;
                    continue;
                  }
                  ms.units += *units * w;
                  ms.known += w;
                  if (ms.first.empty()) ms.first = a.lanes;
                }
                if (!sassCfg) sassCfg = std::move(c->cfg);
                return true;
              });
          if (out.sass->dynamicStatus.empty()) {
            out.sass->dynamicInstructionsPerWarp = total;
            if (o.sassStream) {
              if (!memoryError.empty()) sassMemory.assign(fn->instructions.size(), SassMemoryStats{});  // keep the PTX's
              lowerSass(*fn, **table, map, *sassCfg, perInstruction, memoryOf, stats, sassMemory, o.registerBanks, ir);
              // ptxas aggregates a warp's atomics to one address (VOTEU.ANY, FLO, POPC: one
              // leader lane adds the count): where the SASS run saw one lane per atomic, the
              // PTX run's note that the lanes serialize does not hold.
              for (size_t i = 0; i < fn->instructions.size(); ++i) {
                const SassInstruction& si = fn->instructions[i];
                const SassMemoryStats& ms = sassMemory[i];
                if (!isSassAtomic(si) || ms.known == 0 || ms.dataDependent > 0 || ms.activeLanes > ms.known) continue;
                const std::string at = baseFile(si.sourceFile) + ":" + std::to_string(si.sourceLine) + ": ";
                const auto serialized = [&](const std::string& n) {
                  return n.rfind(at, 0) == 0 && n.find("lanes of a warp update one address") != std::string::npos;
                };
                if (std::erase_if(out.notes, serialized) == 0) continue;
                out.notes.push_back(at + si.opcode + ": ptxas aggregates the warp's atomics into one (one lane updates the address)");
              }
              ir.longestWarpShare = longestWarpShare(longestSass, total);
              program.isa = "sass (memory from ptx)";
              sassStreams = std::make_shared<const CudaStreamSource>(*fn, *out.resources, so,
                                                                      irLocations(*sassCfg, fn->instructions.size()));
              out.loopLocations.clear();
              for (const PtxLoop& l : sassCfg->loops) {
                const PtxBlock& h = sassCfg->blocks[l.header];
                if (l.blocks.size() == 1 && h.end - h.first == 1 && fn->instructions[h.first].mnemonic == "BRA") continue;
                std::pair<std::string, int> location{"", 0};
                for (int b : l.blocks) {
                  for (int succ : sassCfg->blocks[b].successors) {
                    const SassInstruction& last = fn->instructions[sassCfg->blocks[b].end - 1];
                    if (!l.contains(succ) && location.second == 0) location = {baseFile(last.sourceFile), last.sourceLine};
                  }
                }
                out.loopLocations.push_back(location);
              }
              for (size_t l = 0; l < ir.loops.size() && l < out.loopLocations.size(); ++l) {
                for (const TripHint& h : o.trips) {
                  if (h.line == out.loopLocations[l].second && baseFile(h.file) == out.loopLocations[l].first) {
                    ir.loops[l].source = TripCountSource::Hinted;
                  }
                }
              }
            }
          }
        }
        if (program.isa == "ptx") program.isa = "ptx, sass";
      } else {
        program.sassStatus = table.error().message;
      }
    }
  }
  for (const TripHint& h : o.trips) {
    bool used = false;
    for (const auto& [index, how] : hinted) {
      const PtxInstruction& pi = kernel.instructions[index];
      used = used || (pi.sourceLine == h.line && fileOf(pi) == baseFile(h.file));
    }
    if (!used) out.notes.push_back("--trip " + h.file + ":" + std::to_string(h.line) + " matched no data-dependent branch");
  }
  out.streams = std::make_shared<const WarpStreams>(*module, static_cast<int>(&kernel - module->kernels.data()), *cfg, io, path);
  out.ir.streams = sassStreams ? sassStreams
                               : std::make_shared<const CudaStreamSource>(out.streams, irLocations(*cfg, kernel.instructions.size()));
  program.kernels.push_back(std::move(out));
  return program;
}

}  // namespace foresight::cuda
