// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: special-function unit (MUFU). CHAINS chains of __sinf per thread: one chain
// at one warp per scheduler is SFU-latency-bound, four chains at full occupancy SFU-throughput-bound.
#ifndef ITERS
#define ITERS 2048
#endif
#ifndef CHAINS
#define CHAINS 1
#endif

extern "C" __global__ void sfu_chain(float* out) {
  float x[CHAINS];
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) x[c] = 0.001f * (threadIdx.x + c);
  for (int i = 0; i < ITERS; ++i) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) x[c] = __sinf(x[c]);
  }
  float s = 0.0f;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) s += x[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
