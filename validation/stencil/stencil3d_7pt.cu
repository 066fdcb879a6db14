// SPDX-License-Identifier: Apache-2.0
// 3-D 7-point Jacobi stencil on an N^3 grid: 2-D thread blocks march along z, keeping the
// previous, current and next z values of their column in registers.
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

extern "C" __global__ void stencil3d_7pt(const float* in, float* out, int n) {
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= n - 1 || y >= n - 1) return;
  const long plane = (long)n * n;
  long i = plane + (long)y * n + x;
  float below = in[i - plane], here = in[i];
  for (int z = 1; z < n - 1; ++z, i += plane) {
    float above = in[i + plane];
    out[i] = 0.4f * here + 0.1f * (below + above + in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
    below = here;
    here = above;
  }
}
