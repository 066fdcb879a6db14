// SPDX-License-Identifier: Apache-2.0
// The transpose roofline: a 2-D copy with the same tiling and block shape as transpose_shared,
// both sides coalesced.
#ifndef BY
#define BY 8
#endif
#define T 32

extern "C" __global__ void copy2d(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += BY) out[(y + j) * cols + x] = in[(y + j) * cols + x];
}
