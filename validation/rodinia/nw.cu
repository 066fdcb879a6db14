// SPDX-License-Identifier: Apache-2.0
// Rodinia-like NW (Needleman-Wunsch): one launch processes the TILE x TILE blocks of one
// anti-diagonal of the score matrix; inside a block, threads sweep the block's own
// anti-diagonals through shared memory with a barrier per step.
#ifndef TILE
#define TILE 16
#endif

extern "C" __global__ void nw_diagonal(const int* reference, int* score, int n, int diag, int penalty) {
  __shared__ int s[TILE + 1][TILE + 1];
  __shared__ int ref[TILE][TILE];
  int tx = threadIdx.x;
  int bx = blockIdx.x;
  int by = diag - bx;  // block coordinates on this anti-diagonal
  int base = (by * TILE) * (n + 1) + bx * TILE;  // top-left corner (the halo row/column)
  for (int r = 0; r < TILE; ++r) ref[r][tx] = reference[(by * TILE + r + 1) * (n + 1) + bx * TILE + tx + 1];
  s[0][tx + 1] = score[base + tx + 1];
  s[tx + 1][0] = score[base + (tx + 1) * (n + 1)];
  if (tx == 0) s[0][0] = score[base];
  __syncthreads();
  for (int m = 0; m < 2 * TILE - 1; ++m) {
    int r = m - tx;
    if (r >= 0 && r < TILE) {
      int v = max(s[r][tx] + ref[r][tx], max(s[r][tx + 1] - penalty, s[r + 1][tx] - penalty));
      s[r + 1][tx + 1] = v;
    }
    __syncthreads();
  }
  for (int r = 0; r < TILE; ++r) score[base + (r + 1) * (n + 1) + tx + 1] = s[r + 1][tx + 1];
}
