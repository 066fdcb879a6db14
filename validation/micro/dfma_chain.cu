// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: FP64 pipeline. CHAINS independent DFMA chains per thread at full occupancy.
#ifndef ITERS
#define ITERS 2048
#endif
#ifndef CHAINS
#define CHAINS 4
#endif

extern "C" __global__ void dfma_chain(double* out, double a, double b) {
  double x[CHAINS];
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) x[c] = threadIdx.x + c;
  for (int i = 0; i < ITERS; ++i) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) x[c] = fma(x[c], a, b);
  }
  double s = 0.0;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c) s += x[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
