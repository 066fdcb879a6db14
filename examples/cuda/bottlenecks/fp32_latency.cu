// SPDX-License-Identifier: Apache-2.0
// Bottleneck example: FP32, latency mode (expected.toml [fp32_latency]).
// One warp per scheduler runs a single dependent FFMA chain: each FFMA needs the previous
// result, so the pipe sees one instruction every 4 cycles (its latency) instead of every cycle.
//
// foresight explain examples/cuda/bottlenecks/fp32_latency.cu --gpu h100 --grid 132 --block 128 --arg iters=1024
//
// Launch: 132 blocks of 128 threads = 4 warps per SM, one per scheduler.
// Per warp and iteration (`#pragma unroll 1`): 19 SASS instructions, 16 dependent FFMA plus
// UIADD3, ISETP and BRA, which issue in the FFMA stalls.
//
// Hand numbers per scheduler (gpus/h100.toml), 1024 iterations:
//   fp32 latency:    1024 x 16 x 4 cycles = 65.5k cycles                                 <- bound
//   issue:           1024 x 19 instructions = 19.5k cycles                           (3.4x less)
//   fp32 throughput: 1024 x 16 x gap 1 = 16.4k cycles                                (4x less)
// Mode: latency. Only one FFMA of the warp is ever in the pipe; more warps (or independent
// chains) would fill it. A 10% longer latency adds 10% to the chain, a 10% longer gap nothing.
__global__ void fp32_latency(float* out, int iters) {
  const float a = 0.999f + threadIdx.x * 1e-7f;
  const float b = 1e-3f * blockIdx.x;
  float x = threadIdx.x * 1e-3f;
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
    x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b);
    x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b);
    x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b);
    x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
