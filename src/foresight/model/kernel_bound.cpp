// SPDX-License-Identifier: Apache-2.0
/// \file
/// The bound of one launch and its inner loop's mix.
#include "foresight/model/kernel_bound.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "foresight/memory/summarize.h"

namespace foresight {

namespace {

bool isFma(const Instruction& in) {
  return !in.memory && in.pipeWork == 1 && in.flops >= 2 && (in.cls == InstrClass::Fp32 || in.cls == InstrClass::Fp64);
}

bool isMatrix(const Instruction& in) { return !in.memory && in.pipeWork != 1; }

InnerLoopMix mixOf(const BasicBlock& b) {
  InnerLoopMix m;
  m.label = b.label;
  m.iterationsPerWarp = b.executionsPerWarp;
  m.instructions = static_cast<int>(b.instructions.size());
  std::set<int> fmaResults;  // registers an earlier FMA of this iteration wrote
  for (const Instruction& in : b.instructions) {
    if (m.sourceLine == 0 && in.sourceLine > 0) {
      m.sourceFile = in.sourceFile;
      m.sourceLine = in.sourceLine;
    }
    if (in.barrier) {
      ++m.barriers;
    } else if (in.memory) {
      if (in.memory->space != MemorySpace::Shared) {
        ++m.globalAccesses;
      } else if (in.memory->isStore) {
        ++m.sharedStores;
      } else {
        ++m.sharedLoadsByBits[in.memory->widthBytes * 8];
      }
    } else if (isMatrix(in)) {
      ++m.matrixInstructions;
    } else if (isFma(in)) {
      ++m.fmas;
      // An accumulator chain starts at an FMA whose addend (FFMA Rd, Ra, Rb, Rc: Rc) no earlier
      // FMA of the iteration produced: it comes from the previous iteration. ptxas renames the
      // registers of a chain, so counting chain heads, not registers, gives the C tile.
      if (in.src.size() >= 3 && !fmaResults.count(in.src[2])) ++m.accumulators;
      for (int d : in.dst) fmaResults.insert(d);
    } else {
      ++m.other;
    }
  }
  return m;
}

}  // namespace

double InnerLoopMix::sharedElementsPerFma() const {
  if (fmas == 0) return 0;
  double elements = 0;
  for (const auto& [bits, n] : sharedLoadsByBits) elements += static_cast<double>(n) * bits / 32.0;
  return elements / fmas;
}

std::optional<InnerLoopMix> innerLoopMix(const KernelIR& ir) {
  if (ir.blocks.empty()) return std::nullopt;
  const BasicBlock* best = nullptr;
  double bestWork = -1;
  bool bestHasFma = false;
  for (const BasicBlock& b : ir.blocks) {
    double fmas = 0;
    for (const Instruction& in : b.instructions) fmas += isFma(in) || isMatrix(in) ? 1 : 0;
    const bool hasFma = fmas > 0;
    const double work = b.executionsPerWarp * (hasFma ? fmas : static_cast<double>(b.instructions.size()));
    if ((hasFma && !bestHasFma) || (hasFma == bestHasFma && work > bestWork)) {
      best = &b;
      bestWork = work;
      bestHasFma = hasFma;
    }
  }
  return mixOf(*best);
}

Expected<double> launchFlops(const KernelInput& kernel, const Launch& launch, const Gpu& gpu) {
  double flopsPerThread = 0;
  if (kernel.summary) {
    flopsPerThread = kernel.summary->flopsPerThread;
  } else {
    Expected<WorkloadSummary> summary = summarize(kernel.ir, gpu);
    if (!summary) return std::move(summary).takeError();
    flopsPerThread = summary->flopsPerThread;
  }
  return flopsPerThread * static_cast<double>(launch.blocks()) * launch.threadsPerBlock();
}

Expected<KernelBound> kernelBound(const KernelInput& kernel, const Launch& launch, const Gpu& gpu,
                                  const MemoryTraffic* known) {
  Expected<PhysicalFloors> floors = launchFloors(kernel, launch, gpu, known);
  if (!floors) return std::move(floors).takeError();
  KernelBound b;
  b.floors = std::move(*floors);
  std::tie(b.binding, b.seconds) = b.floors.largest();
  Expected<double> flops = launchFlops(kernel, launch, gpu);
  if (!flops) return std::move(flops).takeError();
  b.flops = *flops;
  if (std::optional<InnerLoopMix> mix = innerLoopMix(kernel.ir)) {
    b.loop = std::move(*mix);
    b.hasLoop = true;
  }
  return b;
}

}  // namespace foresight
