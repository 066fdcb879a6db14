// SPDX-License-Identifier: Apache-2.0
// Rodinia-like LUD: the internal-block update of one elimination step (the kernel that dominates
// the run time): every TILE x TILE block below and right of the pivot block subtracts the
// product of its perimeter tiles, staged in shared memory.
#ifndef TILE
#define TILE 16
#endif

extern "C" __global__ void lud_internal(float* m, int n, int offset) {
  __shared__ float left[TILE][TILE];
  __shared__ float top[TILE][TILE];
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int gr = offset + (by + 1) * TILE;
  int gc = offset + (bx + 1) * TILE;
  top[ty][tx] = m[(offset + ty) * n + gc + tx];
  left[ty][tx] = m[(gr + ty) * n + offset + tx];
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < TILE; ++k) sum += left[ty][k] * top[k][tx];
  m[(gr + ty) * n + gc + tx] -= sum;
}
