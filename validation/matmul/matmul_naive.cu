// SPDX-License-Identifier: Apache-2.0
// Naive SGEMM C = A * B (N x N, row-major), one thread per C element, 2-D blocks of BX x BY.
#ifndef BX
#define BX 16
#endif
#ifndef BY
#define BY 16
#endif

extern "C" __global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
  int col = blockIdx.x * BX + threadIdx.x;
  int row = blockIdx.y * BY + threadIdx.y;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
  }
}
