// SPDX-License-Identifier: Apache-2.0
// PolyBench-like FDTD-2D: per time step three kernels update ey, ex and hz on an NX x NY grid.
// The manifest repeats the three-kernel sequence as TSTEPS separate launches of each kernel.
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

extern "C" __global__ void fdtd_step1(const float* fict, float* ey, const float* hz, int nx, int ny, int t) {
  int j = blockIdx.x * BX + threadIdx.x;
  int i = blockIdx.y * BY + threadIdx.y;
  if (i < nx && j < ny) {
    if (i == 0) ey[j] = fict[t];
    else ey[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

extern "C" __global__ void fdtd_step2(float* ex, const float* hz, int nx, int ny) {
  int j = blockIdx.x * BX + threadIdx.x;
  int i = blockIdx.y * BY + threadIdx.y;
  if (i < nx && j > 0 && j < ny) ex[i * (ny + 1) + j] -= 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

extern "C" __global__ void fdtd_step3(const float* ex, const float* ey, float* hz, int nx, int ny) {
  int j = blockIdx.x * BX + threadIdx.x;
  int i = blockIdx.y * BY + threadIdx.y;
  if (i < nx - 1 && j < ny - 1) {
    hz[i * ny + j] -= 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
  }
}
