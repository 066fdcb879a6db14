// SPDX-License-Identifier: Apache-2.0
// PolyBench-like 2DCONV: a fixed 3x3 filter over an NI x NJ image, one thread per output pixel.
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

extern "C" __global__ void conv2d(const float* A, float* B, int ni, int nj) {
  int j = blockIdx.x * BX + threadIdx.x;
  int i = blockIdx.y * BY + threadIdx.y;
  const float c11 = 0.2f, c21 = 0.5f, c31 = -0.8f, c12 = -0.3f, c22 = 0.6f, c32 = -0.9f, c13 = 0.4f,
              c23 = 0.7f, c33 = 0.10f;
  if (i > 0 && i < ni - 1 && j > 0 && j < nj - 1) {
    B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c12 * A[i * nj + (j - 1)] + c13 * A[(i + 1) * nj + (j - 1)] +
                    c21 * A[(i - 1) * nj + j] + c22 * A[i * nj + j] + c23 * A[(i + 1) * nj + j] +
                    c31 * A[(i - 1) * nj + (j + 1)] + c32 * A[i * nj + (j + 1)] + c33 * A[(i + 1) * nj + (j + 1)];
  }
}
