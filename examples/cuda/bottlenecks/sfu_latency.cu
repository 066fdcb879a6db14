// SPDX-License-Identifier: Apache-2.0
// Bottleneck example: SFU, latency mode (expected.toml [sfu_latency]).
// One warp per scheduler runs one dependent chain x = __sinf(x). nvcc turns each step into
// FMUL.RZ (x / 2pi, FP32 pipe) + MUFU.SIN (SFU), and the next step needs the MUFU result.
//
// foresight explain examples/cuda/bottlenecks/sfu_latency.cu --gpu h100 --grid 132 --block 128 --arg iters=512
//
// Launch: 132 blocks of 128 threads = 4 warps per SM, one per scheduler.
// Per warp and iteration (`#pragma unroll 1`): 19 SASS instructions, 8 chained steps
// (8 FMUL.RZ + 8 MUFU.SIN) plus UIADD3, ISETP and BRA.
//
// Hand numbers per scheduler (gpus/h100.toml), 512 iterations x 8 steps = 4096 steps; the whole
// chain is 4096 x (23 + 4) = 111k cycles, of which:
//   SFU latency:     4096 x 23 cycles = 94k cycles                                       <- bound
//   fp32 latency:    4096 x 4 cycles (the FMUL of each step) = 16k cycles             (5.8x less)
//   SFU throughput:  4096 x gap 8 = 33k cycles                                        (2.9x less)
//   issue:           512 x 19 instructions = 9.7k cycles                              (9.7x less)
// Mode: latency. The SFU holds one MUFU of this scheduler at a time; a 10% longer MUFU latency
// adds ~8.5% to the time, a 10% longer gap nothing (a MUFU is admitted every 27 cycles against
// a gap of 8).
__global__ void sfu_latency(float* out, int iters) {
  float x = threadIdx.x * 1e-3f + blockIdx.x * 1e-5f;
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
    x = __sinf(x); x = __sinf(x); x = __sinf(x); x = __sinf(x);
    x = __sinf(x); x = __sinf(x); x = __sinf(x); x = __sinf(x);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
