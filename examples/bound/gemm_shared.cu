// SPDX-License-Identifier: Apache-2.0
// Shared-tiled SGEMM, C = A·B (n×n, row-major, n a multiple of 16): each 16×16 block stages a
// 16×16 tile of A and of B in shared memory per k-step; one C element per thread, so every
// FFMA needs two shared loads (one a broadcast). Bound by the shared loads and issue.
// foresight bound examples/bound/gemm_shared.cu --kernel gemm_shared --gpu h100 \
//   --grid 64,64 --block 16,16 --arg n=1024
#define TILE 16

__global__ void gemm_shared(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                            int n) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    as[ty][tx] = a[row * n + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * n + col] = sum;
}
