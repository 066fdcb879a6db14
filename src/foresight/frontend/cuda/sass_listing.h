// SPDX-License-Identifier: Apache-2.0
/// \file
/// `SassListing`: nvdisasm's text (`nvdisasm -c -g -hex`) parsed into functions of
/// instructions with guard predicates (P/UP, negation), opcode and modifiers, operands
/// (registers with their 64/128-bit groups, uniform registers, predicates, special registers,
/// constant-bank references, memory operands, immediates, branch targets), labels, source
/// lines (`//## File "…", line N`) and the control bits of the 128-bit encoding.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace foresight::cuda {

/// One SASS operand.
struct SassOperand {
  enum class Kind { Register, Uniform, Predicate, UniformPredicate, Special, Constant, Memory, Immediate, Label };
  Kind kind = Kind::Immediate;
  std::string text;       ///< as written
  int reg = -1;           ///< R/UR/P/UP index; 255 = RZ/URZ, 7 = PT/UPT
  int width = 1;          ///< registers covered: 2 for R2.64, 4 for a 128-bit group
  bool negated = false;   ///< !P0, -R2, ~R2
  int bank = -1;          ///< constant bank of c[bank][offset]
  long long offset = 0;   ///< constant offset, memory displacement or immediate value
  bool integer = false;   ///< an integer immediate (`offset` holds it); false for 1.5, +INF, …
  std::vector<SassOperand> parts;  ///< the registers inside a memory operand [R2.64+0x10]
  int scale = 1;          ///< an address register's index scale: 4 for [R3.X4]
  bool u32 = false;       ///< R2.U32 in an address: one register even under Volta's .E
  bool descriptor = false;  ///< desc[UR4][R2.64]: a memory operand whose first part is a descriptor
};

/// The scheduling control bits of a Volta+ instruction (bits 105–125 of the 128-bit word, LSB
/// first: stall 4, yield 1, write barrier 3, read barrier 3, wait mask 6, reuse 4).
struct SassControl {
  int stall = 0;
  bool yield = false;
  int writeBarrier = 7;  ///< 7 = none
  int readBarrier = 7;   ///< 7 = none
  int waitMask = 0;      ///< bit i: wait for scoreboard i
  int reuse = 0;         ///< operand reuse cache flags
};

/// One SASS instruction.
struct SassInstruction {
  long long offset = 0;     ///< byte offset in the function
  std::string opcode;       ///< "LDG.E.128"
  std::string mnemonic;     ///< "LDG"
  std::vector<std::string> mods;  ///< {"E","128"}
  int guard = -1;           ///< predicate index, -1 = unguarded
  bool guardNegated = false;
  bool guardUniform = false;
  std::vector<SassOperand> operands;
  std::string sourceFile;   ///< from the last `//## File` comment
  int sourceLine = 0;
  std::optional<std::uint64_t> encodingLo, encodingHi;
  std::optional<SassControl> control;  ///< decoded when the encoding was printed
  std::string target;       ///< branch target label, if any
  int memoryWidthBytes = 0;  ///< per-lane bytes of a memory instruction (from .64/.128/.U8…)
  /// The subroutine this instruction was copied from when a call was expanded ("" = the
  /// kernel's own code; see SassFunction).
  std::string inlinedFrom;
  /// Copied from a subroutine without line info (a libdevice slow path): it carries the call
  /// site's line, and its branches on unknown data take a default instead of needing a hint.
  bool library = false;
  /// A conditional branch over a call of such a subroutine (ptxas's guard of the slow path of
  /// sqrtf, 1/x, a float division): on data the run does not track it skips the call.
  bool skipsSlowPath = false;

  /// Guarded by `!PT` (or `!UPT`), never true: it issues and does nothing (ptxas pads with
  /// `@!PT LDS RZ, [RZ]` before an LDGSTS), so it accesses no memory.
  [[nodiscard]] bool neverExecutes() const { return guard == 7 && guardNegated; }
  /// `LDSM`/`STSM` (ldmatrix/stmatrix): the lanes that address a 16-byte matrix row, 8 per
  /// 8 x 8 b16 matrix (`.1`, `.2`, `.4`: lanes 0–7, 0–15, all 32); 0 for other instructions.
  [[nodiscard]] int matrixRowLanes() const {
    if (mnemonic != "LDSM" && mnemonic != "STSM") return 0;
    const bool four = std::find(mods.begin(), mods.end(), "4") != mods.end();
    const bool two = std::find(mods.begin(), mods.end(), "2") != mods.end();
    return four ? 32 : two ? 16 : 8;
  }
  /// The lanes the shared-memory banks serve in one pass: 8 for LDSM/STSM (one 8 x 8 matrix,
  /// 8 rows of 16 bytes), 32 for every other access (accessUnits()' lanesPerRequest).
  [[nodiscard]] int bankPassLanes() const { return matrixRowLanes() > 0 ? 8 : 32; }
};

/// One function (kernel) of the listing. Its subroutines (`$kernel$callee:` after the
/// kernel's code) are expanded per call: a `CALL.REL.NOINC` to one becomes a BRA to a copy of
/// its code appended at the end (offsets continue past the listing's), whose `RET` becomes a
/// BRA back to the instruction after the call. Recursion is expanded kMaxSassRecursion calls
/// deep; a call below that, and an indirect `CALL.ABS` (vprintf), stays a CALL: one
/// instruction that falls through.
struct SassFunction {
  std::string name;  ///< mangled
  std::vector<SassInstruction> instructions;
  std::map<std::string, long long> labels;  ///< label → offset
  std::vector<std::string> notes;  ///< what the expansion assumed, by source line
};

/// A parsed nvdisasm listing.
struct SassListing {
  std::vector<SassFunction> functions;
  [[nodiscard]] const SassFunction* find(const std::string& mangled) const;
};

/// Decodes the control bits from the high 64-bit word of an instruction.
[[nodiscard]] SassControl decodeControl(std::uint64_t hi);

}  // namespace foresight::cuda
