// SPDX-License-Identifier: Apache-2.0
// CSR SpMV, one warp per row: the row's loop strides by 32 (line 10) and gathers x[cols[j]]
// (a data-dependent address in x, line 11).
extern "C" __global__ void csr_gather(const int* rowptr, const int* cols, const float* vals, const float* x,
                                      float* y, int rows) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;
  float sum = 0.0f;
  for (int j = rowptr[warp] + lane; j < rowptr[warp + 1]; j += 32)
    sum += vals[j] * x[cols[j]];
  if (lane == 0) y[warp] = sum;
}
