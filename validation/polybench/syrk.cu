// SPDX-License-Identifier: Apache-2.0
// PolyBench-like SYRK: C = alpha * A * A^T + beta * C (N x M input A), one thread per C element.
// Both operands are read along rows of A, so one of them is uncoalesced across the warp.
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

extern "C" __global__ void syrk(const float* A, float* C, float alpha, float beta, int n, int m) {
  int j = blockIdx.x * BX + threadIdx.x;
  int i = blockIdx.y * BY + threadIdx.y;
  if (i < n && j < n) {
    float acc = beta * C[i * n + j];
    for (int k = 0; k < m; ++k) acc += alpha * A[i * m + k] * A[j * m + k];
    C[i * n + j] = acc;
  }
}
