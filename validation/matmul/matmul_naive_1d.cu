// SPDX-License-Identifier: Apache-2.0
// SAAKE's motivating experiment (saake.md §10.4 B.2): naive SGEMM with one-dimensional blocks of
// BLOCK threads, each thread computing COARSEN consecutive columns of one row of C.
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef COARSEN
#define COARSEN 1
#endif

extern "C" __global__ void matmul_naive_1d(const float* A, const float* B, float* C, int n) {
  long t = (long)blockIdx.x * BLOCK + threadIdx.x;
  int row = (int)(t * COARSEN / n);
  int col0 = (int)(t * COARSEN % n);
  if (row >= n) return;
  float sum[COARSEN];
#pragma unroll
  for (int c = 0; c < COARSEN; ++c) sum[c] = 0.0f;
  for (int k = 0; k < n; ++k) {
    float a = A[row * n + k];
#pragma unroll
    for (int c = 0; c < COARSEN; ++c) sum[c] += a * B[k * n + col0 + c];
  }
#pragma unroll
  for (int c = 0; c < COARSEN; ++c) C[row * n + col0 + c] = sum[c];
}
