// SPDX-License-Identifier: Apache-2.0
// Rodinia-like GAUSSIAN elimination, one step t: Fan1 computes the multipliers of column t,
// Fan2 updates the trailing matrix and the right-hand side (2-D grid).
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef BXY
#define BXY 16
#endif

extern "C" __global__ void gauss_fan1(const float* a, float* m, int n, int t) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i >= n - 1 - t) return;
  m[n * (i + t + 1) + t] = a[n * (i + t + 1) + t] / a[n * t + t];
}

extern "C" __global__ void gauss_fan2(float* a, float* b, const float* m, int n, int t) {
  int x = blockIdx.x * BXY + threadIdx.x;
  int y = blockIdx.y * BXY + threadIdx.y;
  if (x >= n - 1 - t || y >= n - t) return;
  a[n * (x + 1 + t) + (y + t)] -= m[n * (x + 1 + t) + t] * a[n * t + (y + t)];
  if (y == 0) b[x + 1 + t] -= m[n * (x + 1 + t) + t] * b[t];
}
