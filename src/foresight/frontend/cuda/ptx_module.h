// SPDX-License-Identifier: Apache-2.0
/// \file
/// `PtxModule`: the parsed form of a PTX file — its kernels (`.entry`), their parameters,
/// registers, shared/local variables, labels and instructions with predicates, typed operands
/// and source lines (from `.loc` / `.file`), with the bodies of the `.func` device functions
/// they call expanded in place (see PtxInstruction::inlinedFrom), and the initial values of
/// module variables. Produced by ptx_parser.h; executed by warp_interpreter.h.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace foresight::cuda {

/// One operand of a PTX instruction.
struct PtxOperand {
  enum class Kind {
    Register,  ///< %r1 (`reg` = index in PtxKernel::registers)
    Special,   ///< %tid.x, %ntid.y, %ctaid.z, %nctaid.x, %laneid, %warpid (`name`)
    Immediate,  ///< 42, 0x10, -1 (`imm`); float immediates 0fXXXXXXXX set `isFloat`
    Symbol,    ///< a variable or parameter name (`name`)
    Address,   ///< [base+offset]: base register (`reg`) or symbol (`name`), plus `imm`
    Vector,    ///< {%f1, %f2}: `elems`
    Label,     ///< a branch target (`name`)
  };
  Kind kind = Kind::Immediate;
  int reg = -1;
  std::string name;
  long long imm = 0;
  bool isFloat = false;
  std::vector<PtxOperand> elems;
};

/// One PTX instruction.
struct PtxInstruction {
  std::string text;        ///< as written, without the trailing ';'
  std::string opcode;      ///< full opcode with modifiers ("ld.global.nc.f32")
  std::string base;        ///< first component ("ld")
  std::vector<std::string> mods;  ///< remaining components ({"global","nc","f32"})
  int guard = -1;          ///< guard predicate register, -1 = none
  bool guardNegated = false;
  std::vector<PtxOperand> operands;
  int sourceLine = 0;      ///< from the last `.loc` (0 = none)
  int sourceFile = 0;      ///< `.file` index of that `.loc`
  int ptxLine = 0;         ///< line in the PTX text
  /// `call`: the names of the return and argument `.param` slots, as declared in the caller
  /// (`call.uni (retval0), f, (param0, param1)` → {"retval0"}, {"param0", "param1"}).
  std::vector<std::string> callReturns, callArgs;
  /// `call` whose callee body follows it in place (the parser expanded it); false for calls
  /// that stay calls: external functions (vprintf) and recursion below the expansion depth.
  bool callExpanded = false;
  /// The `.func` this instruction was copied from when a call was expanded ("" = the kernel's
  /// own code).
  std::string inlinedFrom;
  /// Set when the function it was copied from has no source lines (`.loc`), i.e. library code
  /// the user did not write (libdevice slow paths such as __internal_accurate_pow): the
  /// instruction carries the call site's source line, and branches on unknown data take a
  /// documented default instead of needing a hint.
  bool library = false;

  /// A block barrier (`bar.sync`, `bar.arrive`, `barrier.sync`, `bar.red`); `bar.warp.sync`
  /// synchronizes the lanes of one warp only (it leaves no BAR in SASS).
  [[nodiscard]] bool isBlockBarrier() const {
    return (base == "bar" || base == "barrier") && std::find(mods.begin(), mods.end(), "warp") == mods.end();
  }
  /// `cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}`:
  /// an asynchronous copy of cp-size (4, 8 or 16) bytes per thread from global to shared memory
  /// (sm_80+), read as a global load of cp-size bytes. The cache policy is there only with
  /// `.L2::cache_hint` (asyncCopySourceOperand()). Its group instructions (`cp.async.commit_group`,
  /// `cp.async.wait_group`, `cp.async.wait_all`, `cp.async.mbarrier.arrive`) and the bulk
  /// (TMA) copies `cp.async.bulk…` are not copies of this kind.
  [[nodiscard]] bool isAsyncCopy() const {
    auto has = [&](const char* m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); };
    return base == "cp" && has("async") && !has("bulk") && operands.size() >= 3 &&
           operands[0].kind == PtxOperand::Kind::Address && operands[1].kind == PtxOperand::Kind::Address;
  }
  /// Of a cp.async, the operand that says how much of the source is read (src-size, an
  /// integer, or ignore-src, a predicate), or null when it has none: the fourth operand, unless
  /// that is the cache policy of `.L2::cache_hint`.
  [[nodiscard]] const PtxOperand* asyncCopySourceOperand() const {
    const bool hint = std::find(mods.begin(), mods.end(), "L2::cache_hint") != mods.end();
    return operands.size() > (hint ? 4u : 3u) ? &operands[3] : nullptr;
  }
};

/// A `.shared`, `.local`, `.global` or `.const` variable.
struct PtxVariable {
  std::string name;
  std::string space;  ///< "shared", "local", "global", "const"
  long long bytes = 0;  ///< 0 for `extern .shared … []` (dynamic shared memory)
  int align = 1;
  bool external = false;
  /// Initial value (`= 5`, `= {1, 2, 3}`, `= {0f3F800000}`) as little-endian bytes; empty when
  /// not initialised. Symbol addresses in initialisers are listed in `symbolInits` (their
  /// bytes here are 0).
  std::vector<unsigned char> init;
  /// (byte offset, symbol, addend) of initialiser elements that are addresses of variables
  /// (`generic(sym)`, `sym`, `sym+8`).
  struct SymbolInit {
    long long offset = 0;
    std::string symbol;
    long long addend = 0;
  };
  std::vector<SymbolInit> symbolInits;
};

/// A kernel parameter.
struct PtxParam {
  std::string name;  ///< "_Z6vecaddPKfS0_Pfi_param_0"
  std::string type;  ///< "u64", "u32", "f32", "b8" (aggregates)
  int bytes = 0;
};

/// One `.entry`, or one `.func` (then `returns` holds its return parameters).
struct PtxKernel {
  std::string name;  ///< mangled
  std::vector<PtxParam> params;
  std::vector<PtxParam> returns;       ///< `.func` only: `(.param .b32 func_retval0)`
  std::vector<std::string> registers;  ///< register names, index = PtxOperand::reg
  std::set<std::string> predicates;    ///< the names among them declared `.reg .pred`
  std::vector<PtxVariable> variables;  ///< kernel-scope .shared/.local
  std::vector<PtxInstruction> instructions;
  std::map<std::string, int> labels;   ///< label → index of the next instruction
  int declLine = 0;                    ///< PTX line of the `.entry`
  /// What the parser assumed for this kernel (expanded calls, recursion depth, printf),
  /// by source line, for the user.
  std::vector<std::string> notes;
};

/// A whole PTX file.
struct PtxModule {
  std::string target;  ///< "sm_90"
  std::vector<PtxKernel> kernels;  ///< with calls expanded (PtxInstruction::callExpanded)
  std::vector<PtxKernel> functions;  ///< `.func` bodies as written (external ones absent)
  std::vector<PtxVariable> globals;      ///< module-scope variables (incl. extern .shared)
  std::map<int, std::string> files;      ///< `.file` index → path
};

/// A PTX fundamental type: `u32`, `s64`, `f16x2`, `bf16`, `e4m3x2`, `pred`…
struct PtxType {
  int bits = 32;    ///< the whole width, packed lanes included (`f16x2`: 32)
  char kind = 'b';  ///< 's', 'u', 'b', 'f' (also bf16, packed halves and fp8), 'p' (pred)
};

/// The type a modifier names, with or without its dot (`.u32`, `u32`); nullopt for anything
/// else (`.u4294967295`, `.b7`, `global`). The one width rule of the parser, the interpreter
/// and the frontend's access widths.
std::optional<PtxType> ptxType(std::string_view name);

/// Bytes one thread moves in a memory instruction: the width of its last type modifier times
/// `.v2`/`.v4` (`ld.global.v4.f32`: 16); an instruction without a type moves 4 bytes; an
/// asynchronous copy (`cp.async`) moves its cp-size operand.
int ptxAccessBytes(const PtxInstruction& inst);

}  // namespace foresight::cuda
