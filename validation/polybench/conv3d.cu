// SPDX-License-Identifier: Apache-2.0
// PolyBench-like 3DCONV: a fixed 3x3x3-neighbourhood filter (11 taps) over an N^3 volume. PolyBench/GPU
// launches once per interior plane i; here the plane is blockIdx.z + 1 of one launch.
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

extern "C" __global__ void conv3d(const float* A, float* B, int n) {
  int i = blockIdx.z + 1;
  int k = blockIdx.x * BX + threadIdx.x;
  int j = blockIdx.y * BY + threadIdx.y;
  const float c11 = 2.0f, c12 = -3.0f, c13 = 4.0f, c21 = 5.0f, c22 = 6.0f, c23 = 7.0f, c31 = -8.0f,
              c32 = -9.0f, c33 = 10.0f;
  if (j > 0 && j < n - 1 && k > 0 && k < n - 1) {
    const long nn = (long)n * n;
    B[i * nn + j * n + k] =
        c11 * A[(i - 1) * nn + (j - 1) * n + (k - 1)] + c13 * A[(i + 1) * nn + (j - 1) * n + (k - 1)] +
        c21 * A[(i - 1) * nn + (j - 1) * n + (k - 1)] + c23 * A[(i + 1) * nn + (j - 1) * n + (k - 1)] +
        c31 * A[(i - 1) * nn + (j - 1) * n + (k - 1)] + c33 * A[(i + 1) * nn + (j - 1) * n + (k - 1)] +
        c12 * A[i * nn + (j - 1) * n + k] + c22 * A[i * nn + j * n + k] + c32 * A[i * nn + (j + 1) * n + k] +
        c11 * A[(i - 1) * nn + (j - 1) * n + (k + 1)] + c13 * A[(i + 1) * nn + (j - 1) * n + (k + 1)];
  }
}
