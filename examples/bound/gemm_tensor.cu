// SPDX-License-Identifier: Apache-2.0
// Tensor-core GEMM, C = A·B with FP16 inputs and FP32 accumulation (n×n, A row-major, B
// column-major, n a multiple of 64): WMMA 16×16×16 fragments (mma.sync, HMMA on Ampere and
// Hopper). A block of 4 warps computes a 64×64 tile of C, each warp 32×32 (2×2 fragments),
// loading its fragments straight from global memory (through L1/L2; no shared staging).
// foresight bound examples/bound/gemm_tensor.cu --kernel gemm_tensor --gpu h100 \
//   --grid 32,32 --block 128 --arg n=2048
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void gemm_tensor(const half* __restrict__ a, const half* __restrict__ b, float* __restrict__ c, int n) {
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * 64 + (warp / 2) * 32;
  const int col0 = blockIdx.x * 64 + (warp % 2) * 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb[2];
  for (int k = 0; k < n; k += 16) {
    for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], a + (row0 + 16 * i) * n + k, n);
    for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], b + (col0 + 16 * j) * n + k, n);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(c + (row0 + 16 * i) * n + col0 + 16 * j, acc[i][j], n, wmma::mem_row_major);
}
