// SPDX-License-Identifier: Apache-2.0
// PolyBench-like GEMM: C = alpha * A * B + beta * C (NI x NK times NK x NJ), one thread per C
// element, no shared memory (the PolyBench/GPU structure). Block shape swept by BX, BY.
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

extern "C" __global__ void gemm(const float* A, const float* B, float* C, float alpha, float beta, int ni, int nj, int nk) {
  int j = blockIdx.x * BX + threadIdx.x;
  int i = blockIdx.y * BY + threadIdx.y;
  if (i < ni && j < nj) {
    float acc = 0.0f;
    for (int k = 0; k < nk; ++k) acc += A[i * nk + k] * B[k * nj + j];
    C[i * nj + j] = alpha * acc + beta * C[i * nj + j];
  }
}
