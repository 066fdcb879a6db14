// SPDX-License-Identifier: Apache-2.0
// Shared-memory transpose through a 32 x 32 tile, PAD = 0 (32-way bank conflicts on the column
// read) or PAD = 1 (conflict-free); BY rows of threads each move 32 / BY elements.
#ifndef PAD
#define PAD 0
#endif
#ifndef BY
#define BY 8
#endif
#define T 32

extern "C" __global__ void transpose_shared(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[T][T + PAD];
  int x = blockIdx.x * T + threadIdx.x;
  int y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += BY) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += BY) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
