// SPDX-License-Identifier: Apache-2.0
// Naive transpose out = in^T (ROWS x COLS in): reads coalesced, writes strided by ROWS.
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

extern "C" __global__ void transpose_naive(const float* in, float* out, int rows, int cols) {
  int c = blockIdx.x * BX + threadIdx.x;
  int r = blockIdx.y * BY + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}
