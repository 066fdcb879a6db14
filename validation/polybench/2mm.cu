// SPDX-License-Identifier: Apache-2.0
// PolyBench-like 2MM: tmp = alpha * A * B, then D = tmp * C + beta * D; two kernels in sequence.
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

extern "C" __global__ void mm2_kernel1(const float* A, const float* B, float* tmp, float alpha, int n) {
  int j = blockIdx.x * BX + threadIdx.x;
  int i = blockIdx.y * BY + threadIdx.y;
  if (i < n && j < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += A[i * n + k] * B[k * n + j];
    tmp[i * n + j] = alpha * acc;
  }
}

extern "C" __global__ void mm2_kernel2(const float* tmp, const float* C, float* D, float beta, int n) {
  int j = blockIdx.x * BX + threadIdx.x;
  int i = blockIdx.y * BY + threadIdx.y;
  if (i < n && j < n) {
    float acc = beta * D[i * n + j];
    for (int k = 0; k < n; ++k) acc += tmp[i * n + k] * C[k * n + j];
    D[i * n + j] = acc;
  }
}
