// SPDX-License-Identifier: Apache-2.0
// PolyBench-like GESUMMV: y = alpha A x + beta B x, one thread per row (two uncoalesced row walks).
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void gesummv(const float* A, const float* B, const float* x, float* y, float alpha,
                                   float beta, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) {
    float ta = 0.0f, tb = 0.0f;
    for (int j = 0; j < n; ++j) {
      ta += A[i * n + j] * x[j];
      tb += B[i * n + j] * x[j];
    }
    y[i] = alpha * ta + beta * tb;
  }
}
