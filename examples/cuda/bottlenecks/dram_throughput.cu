// SPDX-License-Identifier: Apache-2.0
// Bottleneck example: DRAM, throughput mode (expected.toml [dram_throughput]).
// A streaming triad y[i] = a*x[i] + y[i] over arrays far larger than the 50 MB L2, one wave of
// full-occupancy blocks, each thread walking the arrays with a grid stride.
//
// foresight explain examples/cuda/bottlenecks/dram_throughput.cu --gpu h100 --grid 1056 --block 256 --arg iters=256
//
// Launch: 1056 blocks = 132 SMs x 8 blocks of 256 threads = 64 warps per SM (full occupancy,
// one wave). Every thread does `iters` = 256 iterations a grid stride apart, so x and y hold
// 1056 x 256 x 256 floats = 277 MB each. The loop count is an argument rather than derived from
// an array length, so the trip count needs no division (which the SASS run cannot track).
// Per warp and iteration: 2 loads + 1 store of 32 consecutive floats = 3 x 128 B = 384 B of
// DRAM traffic (every byte touched once, no reuse). nvcc unrolls by 16: 109 SASS instructions per
// 16 iterations (48 LDG/STG + 2 LDC, 16 FFMA + 32 IMAD.WIDE, 10 integer, 1 branch).
//
// Hand numbers per SM (gpus/h100.toml): 64 warps x 256 iterations = 16384 warp iterations.
//   DRAM throughput: 16384 x 384 B = 6.29 MB / (3.35 TB/s / 132 SMs / 1.98 GHz = 12.8 B/cycle)
//                    = 491k cycles                                                     <- bound
//   L2 throughput:   the same 6.29 MB / (9.8 TB/s -> 37.5 B/cycle) = 168k cycles     (2.9x less)
//   L1 throughput:   6.29 MB / 128 B/cycle = 49k cycles                              (10x less)
//   ldst pipe:       16 warps x 16 x 50 ldst instructions x gap 4 = 51k cycles per scheduler
//   issue:           16 warps x 16 x 109 instructions = 28k cycles per scheduler     (18x less)
// Mode: throughput, not latency. Little's law: hiding the 571-cycle DRAM latency at 12.8
// B/cycle needs 571 x 12.8 = 7.3 KB in flight per SM; 64 warps with (after the unrolling) up to
// 32 independent 128-B loads each keep far more than that in flight, so DRAM is busy all the
// time and its gap (bandwidth), not its latency, sets the time: +10% gap -> ~+10% time, +10%
// latency -> ~0.
__global__ void __launch_bounds__(256, 8) dram_throughput(const float* x, float* y, int iters) {
  const float a = 1.0f + threadIdx.x * 1e-7f;
  const int stride = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; ++k, i += stride) {
    y[i] = a * x[i] + y[i];
  }
}
