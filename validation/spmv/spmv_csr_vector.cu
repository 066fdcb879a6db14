// SPDX-License-Identifier: Apache-2.0
// CSR SpMV y = A x, vector kernel: one warp per row, lanes stride through the row (coalesced),
// then a shuffle reduction.
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void spmv_csr_vector(const int* rowptr, const int* cols, const float* vals, const float* x,
                                           float* y, int rows) {
  int warp = (blockIdx.x * BLOCK + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;
  float sum = 0.0f;
  for (int j = rowptr[warp] + lane; j < rowptr[warp + 1]; j += 32) sum += vals[j] * x[cols[j]];
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[warp] = sum;
}
