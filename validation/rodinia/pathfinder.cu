// SPDX-License-Identifier: Apache-2.0
// Rodinia-like PATHFINDER: dynamic programming down a ROWS x COLS wall; one launch advances one
// row (dst[i] = wall[i] + min of the three neighbours in src), staged through shared memory.
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void pathfinder_row(const int* wall, const int* src, int* dst, int cols, int row) {
  __shared__ int prev[BLOCK + 2];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int tx = threadIdx.x + 1;
  if (i < cols) prev[tx] = src[i];
  if (threadIdx.x == 0) prev[0] = i > 0 ? src[i - 1] : 0x3fffffff;
  if (threadIdx.x == BLOCK - 1) prev[BLOCK + 1] = i + 1 < cols ? src[i + 1] : 0x3fffffff;
  __syncthreads();
  if (i < cols) {
    int best = prev[tx];
    int left = i > 0 ? prev[tx - 1] : best;
    int right = i + 1 < cols ? prev[tx + 1] : best;
    best = min(best, min(left, right));
    dst[i] = wall[row * cols + i] + best;
  }
}
