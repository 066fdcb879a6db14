// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: barriers. Every step does one shared-memory exchange and a __syncthreads.
#ifndef ITERS
#define ITERS 1024
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void barrier_heavy(float* out) {
  __shared__ float s[BLOCK];
  float v = threadIdx.x;
  for (int i = 0; i < ITERS; ++i) {
    s[threadIdx.x] = v;
    __syncthreads();
    v += s[(threadIdx.x + 1) % BLOCK];
    __syncthreads();
  }
  out[blockIdx.x * BLOCK + threadIdx.x] = v;
}
