// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: integer pipeline. CHAINS independent integer multiply-add chains per thread.
#ifndef ITERS
#define ITERS 4096
#endif
#ifndef CHAINS
#define CHAINS 4
#endif

extern "C" __global__ void int_chain(unsigned* out, unsigned a, unsigned b) {
  unsigned x[CHAINS];
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) x[c] = threadIdx.x + c;
  for (int i = 0; i < ITERS; ++i) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) x[c] = x[c] * a + b;
  }
  unsigned s = 0;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) s ^= x[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
