// SPDX-License-Identifier: Apache-2.0
// 2-D 5-point Jacobi stencil on an N x N grid (interior points), one thread per point.
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

extern "C" __global__ void stencil2d_5pt(const float* in, float* out, int n) {
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  if (x > 0 && y > 0 && x < n - 1 && y < n - 1) {
    out[y * n + x] = 0.2f * (in[y * n + x] + in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] +
                             in[(y + 1) * n + x]);
  }
}
