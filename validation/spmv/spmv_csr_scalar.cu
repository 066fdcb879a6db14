// SPDX-License-Identifier: Apache-2.0
// CSR SpMV y = A x, scalar kernel: one thread per row, so a warp's loads of values and column
// indices are strided by the row length (uncoalesced); x is gathered.
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void spmv_csr_scalar(const int* rowptr, const int* cols, const float* vals, const float* x,
                                           float* y, int rows) {
  int r = blockIdx.x * BLOCK + threadIdx.x;
  if (r < rows) {
    float sum = 0.0f;
    for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) sum += vals[j] * x[cols[j]];
    y[r] = sum;
  }
}
