// SPDX-License-Identifier: Apache-2.0
// Bottleneck example: FP64, throughput mode (expected.toml [fp64_throughput]).
// Every thread updates 8 independent double accumulators with DFMA, at full occupancy.
//
// foresight explain examples/cuda/bottlenecks/fp64_throughput.cu --gpu h100 --grid 1056 --block 256 --arg iters=256
//
// Launch: 1056 blocks = 132 SMs x 8 blocks of 256 threads = 64 warps per SM (16 per scheduler).
// nvcc unrolls the loop by 4: 35 SASS instructions per 4 iterations (32 DFMA, IADD3, ISETP, BRA).
//
// Hand numbers per scheduler (gpus/h100.toml): 16 warps x 64 trips x 32 = 32768 DFMA.
//   fp64 throughput: 32768 x gap 2 = 65.5k cycles                                        <- bound
//   issue:           16 warps x 64 trips x 35 = 35.8k cycles                        (1.83x less)
//   int pipe:        16 x 64 x 2 x gap 2 = 4.1k cycles
//   fp64 latency:    per warp 256 x 8 cycles = 2k cycles of chain, hidden by 128 independent
//                    DFMA per scheduler (16 warps x 8 chains) against the 8/2 = 4 needed
// Mode: throughput. The FP64 pipe accepts a warp DFMA every 2 cycles and always has one waiting.
// The margin over issue cannot reach 2x: a DFMA takes one issue slot and two FP64-pipe cycles,
// so even a kernel of nothing but DFMA is only 2x more FP64-bound than issue-bound.
__global__ void __launch_bounds__(256, 8) fp64_throughput(double* out, int iters) {
  const double a = 0.999 + threadIdx.x * 1e-9;
  const double b = 1e-6 * blockIdx.x;
  double x0 = threadIdx.x, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
  double x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7;
  for (int k = 0; k < iters; ++k) {
    x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);
    x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
