// SPDX-License-Identifier: Apache-2.0
/// \file
/// Register-bank conflict counting over a SASS function, with the operand reuse cache.
#include "foresight/frontend/cuda/register_banks.h"

#include <algorithm>
#include <map>
#include <set>

namespace foresight::cuda {

namespace {

bool checkedOpcode(const std::string& mnemonic) {
  return mnemonic == "FFMA" || mnemonic == "DFMA" || mnemonic == "HMMA" || mnemonic == "FFMA32I";
}

bool marksReuse(const SassOperand& op) { return op.text.find(".reuse") != std::string::npos; }

/// The general-register sources of an instruction by operand slot (RZ and non-registers are -1).
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

Expected<RegisterBankReport> checkRegisterBanks(const SassFunction& fn, const Gpu& gpu) {
  if (!gpu.registerBanks) {
    return makeError("GPU '" + gpu.name + "' gives no register-bank function ([register_banks] in its description)");
  }
  const RegisterBanks& banks = *gpu.registerBanks;
  RegisterBankReport report;
  std::vector<int> cachedSlots;  // register held in the reuse cache per source slot (-1 = none)
  for (const SassInstruction& inst : fn.instructions) {
    const std::vector<int> sources = sourceRegisters(inst);
    if (checkedOpcode(inst.mnemonic)) {
      ++report.checked;
      std::map<int, std::set<int>> perBank;
      for (size_t s = 0; s < sources.size(); ++s) {
        if (sources[s] < 0) continue;
        if (s < cachedSlots.size() && cachedSlots[s] == sources[s]) {
          ++report.reused;
          continue;
        }
        perBank[registerBank(banks, sources[s])].insert(sources[s]);
      }
      int degree = 1;
      for (const auto& [bank, regs] : perBank) degree = std::max(degree, static_cast<int>(regs.size()));
      if (degree == 2) ++report.twoWay;
      if (degree >= 3) ++report.threeWay;
      if (degree >= 2) report.sites.push_back({inst.offset, inst.opcode, inst.sourceLine, degree});
    }
    // What this instruction leaves in the reuse cache for the next one.
    cachedSlots.assign(sources.size(), -1);
    for (size_t s = 0; s < sources.size(); ++s) {
      if (sources[s] >= 0 && marksReuse(inst.operands[s + 1])) cachedSlots[s] = sources[s];
    }
  }
  return report;
}

}  // namespace foresight::cuda
