// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: FP32 pipeline. CHAINS independent FMA chains per thread, ITERS steps each:
// CHAINS = 1 is latency-bound at low occupancy, CHAINS = 8 throughput-bound.
#ifndef ITERS
#define ITERS 4096
#endif
#ifndef CHAINS
#define CHAINS 1
#endif

extern "C" __global__ void fma_chain(float* out, float a, float b) {
  float x[CHAINS];
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) x[c] = threadIdx.x + c;
  for (int i = 0; i < ITERS; ++i) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) x[c] = fmaf(x[c], a, b);
  }
  float s = 0.0f;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) s += x[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
