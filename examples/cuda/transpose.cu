// SPDX-License-Identifier: Apache-2.0
// Matrix transpose out = in^T of an n x n row-major matrix: a naive kernel (coalesced reads,
// strided writes) and a shared-memory kernel (both coalesced; the tile is padded by one column
// so that the column reads are free of bank conflicts). Blocks are TILE x TILE threads.
// foresight predict examples/cuda/transpose.cu --kernel transpose_shared --grid 64,64 --block 32,32 --arg n=2048
#ifndef TILE
#define TILE 32
#endif

__global__ void transpose_naive(const float* in, float* out, int n) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  out[x * n + y] = in[y * n + x];
}

__global__ void transpose_shared(const float* in, float* out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
