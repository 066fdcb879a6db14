// SPDX-License-Identifier: Apache-2.0
/// \file
/// Matrix instructions (tensor-core MMA, FP64 DMMA): the multiply-adds one warp instruction
/// performs, read from its shape, and how long it holds its pipe in units of the pipe's gap.
///
/// The GPU description's tensor-pipe gap is per kTensorGapFmas FP16 multiply-adds, other input
/// types cost tensorInputWork() of that each (gpu/gpu.h). DMMA (FP64) runs on the FP64 datapath
/// at kDmmaPerFp64Fma times the FP64 FMA rate, so its work is counted in FP64 warp
/// instructions: FMAs / 32 / 2.
#pragma once

#include <optional>
#include <string_view>

#include "foresight/gpu/gpu.h"

namespace foresight::cuda {

/// One matrix instruction of one warp.
struct MmaShape {
  long long fmasPerWarp = 0;  ///< multiply-adds this warp's instruction performs
  InstrClass cls = InstrClass::Tensor;  ///< Tensor, or Fp64 for DMMA
  double pipeWork = 1;        ///< pipe occupancy in units of the class's gap
  /// Floating-point operations per lane (2 per multiply-add; 0 for integer MMA).
  [[nodiscard]] double flopsPerLane() const;
};

/// A SASS matrix opcode: "HMMA.16816.F32.BF16", "HMMA.1688.F32.TF32", "IMMA.16832.S8.S8",
/// "DMMA.884", "HGMMA.64x128x16.F32.BF16" (per warpgroup: a quarter per warp), "QGMMA…".
/// nullopt for anything else, including shapes not listed (Volta's HMMA.884 steps).
[[nodiscard]] std::optional<MmaShape> sassMmaShape(std::string_view opcode);

/// A PTX matrix opcode: "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
/// "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16".
/// Input types come from the opcode where it names them; the wmma form names only the
/// accumulator types, so it counts as FP16 (the fastest rate: a floor never over-counts).
[[nodiscard]] std::optional<MmaShape> ptxMmaShape(std::string_view opcode);

}  // namespace foresight::cuda
