// SPDX-License-Identifier: Apache-2.0
// PolyBench-like ATAX: y = A^T (A x). Kernel 1 walks rows of A per thread (uncoalesced), kernel 2
// walks columns per thread (coalesced).
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void atax_kernel1(const float* A, const float* x, float* tmp, int nx, int ny) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < nx) {
    float acc = 0.0f;
    for (int j = 0; j < ny; ++j) acc += A[i * ny + j] * x[j];
    tmp[i] = acc;
  }
}

extern "C" __global__ void atax_kernel2(const float* A, const float* tmp, float* y, int nx, int ny) {
  int j = blockIdx.x * BLOCK + threadIdx.x;
  if (j < ny) {
    float acc = 0.0f;
    for (int i = 0; i < nx; ++i) acc += A[i * ny + j] * tmp[i];
    y[j] = acc;
  }
}
