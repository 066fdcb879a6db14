// SPDX-License-Identifier: Apache-2.0
/// \file
/// Register-bank conflicts of SASS FFMA instructions (Lai, thesis §4.3.1 and §4.5.3; digest
/// lai-teg-and-bound.md §5.3, §5.6, §8.5): an FFMA whose distinct source
/// registers fall into one bank reads them one after another, so two in a bank halve its
/// throughput and three cut it to a third (Table 4.1). A source the previous instruction marked
/// `.reuse` in the same operand slot comes from the operand reuse cache and reads no bank.
/// Only FFMA is checked: nvdisasm prints DFMA's and HMMA's register pairs and groups as single
/// registers, and how those read the banks is not measured.
///
/// The bank function is GPU data (`[register_banks]`, docs/gpu-format.md): "kepler" is the
/// thesis' GK104 map of 4 banks (even0: index % 8 < 4 and even; even1: ≥ 4 and even; odd0,
/// odd1 likewise for odd indices), "modulo" is index % count.
#pragma once

#include <string>
#include <vector>

#include "foresight/frontend/cuda/sass_listing.h"
#include "foresight/gpu/gpu.h"
#include "foresight/support/error.h"

namespace foresight::cuda {

/// The bank of register `index` under `banks`.
[[nodiscard]] int registerBank(const RegisterBanks& banks, int index);

/// True for the instructions the checker counts: FFMA (Lai's SGEMM mix).
[[nodiscard]] bool checksRegisterBanks(const std::string& mnemonic);

/// Most distinct source registers of `inst` in one bank (1 = conflict-free), not counting a
/// source that `previous` (the instruction before it, nullptr = none) left in the reuse cache
/// in the same operand slot; `reused` counts those.
[[nodiscard]] int sourceBankDegree(const SassInstruction& inst, const SassInstruction* previous,
                                   const RegisterBanks& banks, int* reused = nullptr);

/// One conflicting instruction.
struct BankConflictSite {
  long long offset = 0;  ///< instruction offset in the function
  std::string opcode;
  int sourceLine = 0;
  int degree = 1;        ///< most distinct source registers read from one bank (2 or 3)
};

/// The conflicts of one function's floating-point instructions.
struct RegisterBankReport {
  int checked = 0;   ///< FFMA instructions (static count)
  int twoWay = 0;    ///< with a 2-way conflict
  int threeWay = 0;  ///< with a 3-way (or worse) conflict
  int reused = 0;    ///< source reads served by the reuse cache
  std::vector<BankConflictSite> sites;
  /// Mean relative throughput of the checked instructions, 1 / degree each (1 = no conflict).
  [[nodiscard]] double relativeThroughput() const;
};

/// Checks every FFMA of `fn`; an Error when `gpu` gives no `[register_banks]`.
[[nodiscard]] Expected<RegisterBankReport> checkRegisterBanks(const SassFunction& fn, const Gpu& gpu);

}  // namespace foresight::cuda
