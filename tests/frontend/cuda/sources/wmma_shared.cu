// SPDX-License-Identifier: Apache-2.0
// Test source (not an example): one warp stages a 16 x 16 half tile of A and of B in shared memory, then multiplies them with WMMA (ldmatrix from shared, HMMA).
#include <mma.h>
using namespace nvcuda;

__global__ void wmma_tile(const half* a, const half* b, float* c) {
  __shared__ __align__(32) half sa[16 * 16];
  __shared__ __align__(32) half sb[16 * 16];
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    sa[threadIdx.x + 32 * k] = a[blockIdx.x * 256 + threadIdx.x + 32 * k];
    sb[threadIdx.x + 32 * k] = b[threadIdx.x + 32 * k];
  }
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, sa, 16);
  wmma::load_matrix_sync(fb, sb, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c + blockIdx.x * 256, acc, 16, wmma::mem_row_major);
}
