// SPDX-License-Identifier: Apache-2.0
// PolyBench-like MVT: x1 += A y1 (row walk, uncoalesced) and x2 += A^T y2 (column walk, coalesced).
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void mvt_kernel1(const float* A, const float* y1, float* x1, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) {
    float acc = x1[i];
    for (int j = 0; j < n; ++j) acc += A[i * n + j] * y1[j];
    x1[i] = acc;
  }
}

extern "C" __global__ void mvt_kernel2(const float* A, const float* y2, float* x2, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) {
    float acc = x2[i];
    for (int j = 0; j < n; ++j) acc += A[j * n + i] * y2[j];
    x2[i] = acc;
  }
}
