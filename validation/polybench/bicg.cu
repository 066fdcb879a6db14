// SPDX-License-Identifier: Apache-2.0
// PolyBench-like BICG: s = A^T r (coalesced column walk) and q = A p (uncoalesced row walk).
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void bicg_kernel1(const float* A, const float* r, float* s, int nx, int ny) {
  int j = blockIdx.x * BLOCK + threadIdx.x;
  if (j < ny) {
    float acc = 0.0f;
    for (int i = 0; i < nx; ++i) acc += r[i] * A[i * ny + j];
    s[j] = acc;
  }
}

extern "C" __global__ void bicg_kernel2(const float* A, const float* p, float* q, int nx, int ny) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < nx) {
    float acc = 0.0f;
    for (int j = 0; j < ny; ++j) acc += A[i * ny + j] * p[j];
    q[i] = acc;
  }
}
