// SPDX-License-Identifier: Apache-2.0
/// \file
/// `CudaProgramView`: the `foresight ir` dump of an analysed CUDA kernel — inputs and tools,
/// resources (= ptxas -v), the SASS summary, loops with trip counts, and the KernelIR's blocks
/// with per-warp executions and every instruction's class, source line and memory behaviour.
/// Sample (text):
///
///     kernel vecadd (_Z6vecaddPKfS0_Pfi)  arch sm_90  isa sass (memory from ptx)
///     resources: 12 registers, 0 B stack frame, 0 B shared, 0 barriers
///     params at c[0x0][0x210], 28 B: a@+0(8 B) b@+8(8 B) c@+16(8 B) n@+24(4 B)
///     sass (hopper): 20 instructions, 20 with control bits: fp32 5 int 3 ldst 8 control 4
///       memory mapped to ptx by line: 3 paired, 0 sass and 0 ptx unpaired; spills: 0 stores (0 B), 0 loads (0 B)
///     dynamic instructions per warp: 22 (ptx, mean of 8 warps of block 0)
///     dynamic sass instructions per warp: 20
///     block 0x0000  x1
///          5  IMAD                   fp32
///     block 0x0080  x1
///          7  LDG.E                  ldst     global 4 B load: 4 sectors/request
///
/// "xN" is how often one warp executes the block (mean over the sampled warps); the first
/// column is the source line.
#pragma once

#include "foresight/frontend/cuda/cuda_frontend.h"
#include "foresight/report/view.h"

namespace foresight::cuda {

/// The view over one loaded CudaProgram (its first analysed kernel).
class CudaProgramView final : public View {
 public:
  explicit CudaProgramView(const CudaProgram& program) : program_(program) {}
  [[nodiscard]] std::string name() const override { return "ir"; }
  void printText(std::ostream& os) const override;
  [[nodiscard]] nlohmann::json toJson() const override;

 private:
  const CudaProgram& program_;
};

}  // namespace foresight::cuda
