// SPDX-License-Identifier: Apache-2.0
// 2-D five-point Jacobi stencil on an nx x ny grid (row-major); boundary points are skipped.
// foresight predict examples/cuda/stencil2d.cu --grid 32,32 --block 32,8 --arg nx=1024 --arg ny=256
__global__ void stencil2d(const float* in, float* out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
    int i = y * nx + x;
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
  }
}
