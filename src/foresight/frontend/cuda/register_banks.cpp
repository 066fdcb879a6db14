// SPDX-License-Identifier: Apache-2.0
/// \file
/// Register-bank conflict counting over a SASS function, with the operand reuse cache.
#include "foresight/frontend/cuda/register_banks.h"

#include <algorithm>
#include <map>
#include <set>

namespace foresight::cuda {

namespace {

bool marksReuse(const SassOperand& op) { return op.text.find(".reuse") != std::string::npos; }

/// The general-register sources of an instruction by operand slot (-1: RZ, not a register).
std::vector<int> sourceRegisters(const SassInstruction& inst) {
  std::vector<int> out;
  for (size_t i = 1; i < inst.operands.size(); ++i) {  // operand 0 is the destination
    const SassOperand& op = inst.operands[i];
    out.push_back(op.kind == SassOperand::Kind::Register && op.reg >= 0 && op.reg != 255 ? op.reg : -1);
  }
  return out;
}

}  // namespace

int registerBank(const RegisterBanks& banks, int index) {
  if (banks.function == RegisterBankFunction::Kepler) return (index % 2) * 2 + ((index % 8) >= 4 ? 1 : 0);
  return index % std::max(1, banks.count.value);
}

double RegisterBankReport::relativeThroughput() const {
  if (checked == 0) return 1;
  const double conflictFree = checked - twoWay - threeWay;
  return (conflictFree + twoWay / 2.0 + threeWay / 3.0) / checked;
}

// FFMA only: nvdisasm prints DFMA's and HMMA's register pairs and groups as single registers,
// and how those read the banks is not measured (DFMA on an H200 runs at its pipe's rate with
// sources that would all conflict as single registers).
bool checksRegisterBanks(const std::string& mnemonic) { return mnemonic == "FFMA" || mnemonic == "FFMA32I"; }

int sourceBankDegree(const SassInstruction& inst, const SassInstruction* previous, const RegisterBanks& banks,
                     int* reused) {
  const std::vector<int> sources = sourceRegisters(inst);
  std::vector<int> cached;
  if (previous) {
    const std::vector<int> before = sourceRegisters(*previous);
    cached.assign(before.size(), -1);
    for (size_t s = 0; s < before.size(); ++s) {
      if (before[s] >= 0 && marksReuse(previous->operands[s + 1])) cached[s] = before[s];
    }
  }
  std::map<int, std::set<int>> perBank;
  for (size_t s = 0; s < sources.size(); ++s) {
    if (sources[s] < 0) continue;
    if (s < cached.size() && cached[s] == sources[s]) {
      if (reused) ++*reused;
      continue;
    }
    perBank[registerBank(banks, sources[s])].insert(sources[s]);
  }
  int degree = 1;
  for (const auto& [bank, regs] : perBank) degree = std::max(degree, static_cast<int>(regs.size()));
  return degree;
}

Expected<RegisterBankReport> checkRegisterBanks(const SassFunction& fn, const Gpu& gpu) {
  if (!gpu.registerBanks) {
    return makeError("GPU '" + gpu.name + "' gives no register-bank function ([register_banks] in its description)");
  }
  RegisterBankReport report;
  for (size_t i = 0; i < fn.instructions.size(); ++i) {
    const SassInstruction& inst = fn.instructions[i];
    if (!checksRegisterBanks(inst.mnemonic)) continue;
    ++report.checked;
    const int degree = sourceBankDegree(inst, i > 0 ? &fn.instructions[i - 1] : nullptr, *gpu.registerBanks, &report.reused);
    if (degree == 2) ++report.twoWay;
    if (degree >= 3) ++report.threeWay;
    if (degree >= 2) report.sites.push_back({inst.offset, inst.opcode, inst.sourceLine, degree});
  }
  return report;
}

}  // namespace foresight::cuda
