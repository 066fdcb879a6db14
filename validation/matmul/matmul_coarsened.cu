// SPDX-License-Identifier: Apache-2.0
// Register-coarsened tiled SGEMM: a TILE x TILE tile of C per block of TILE x (TILE / RY) threads;
// each thread accumulates RY rows of one column in registers, so each shared-memory B value is
// reused RY times.
#ifndef TILE
#define TILE 32
#endif
#ifndef RY
#define RY 4
#endif

extern "C" __global__ void matmul_coarsened(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x;           // column in the tile
  int ty = threadIdx.y;           // first row of this thread's strip
  int row0 = blockIdx.y * TILE;
  int col = blockIdx.x * TILE + tx;
  float acc[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) acc[r] = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      int rr = ty + r * (TILE / RY);
      As[rr][tx] = A[(row0 + rr) * n + t * TILE + tx];
      Bs[rr][tx] = B[(t * TILE + rr) * n + col];
    }
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      float b = Bs[k][tx];
#pragma unroll
      for (int r = 0; r < RY; ++r) acc[r] += As[ty + r * (TILE / RY)][k] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < RY; ++r) C[(row0 + ty + r * (TILE / RY)) * n + col] = acc[r];
}
