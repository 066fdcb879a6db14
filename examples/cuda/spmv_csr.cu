// SPDX-License-Identifier: Apache-2.0
// Sparse matrix-vector product y = A x, A in CSR form, one thread per row. The inner loop's
// bounds come from memory (row_ptr), so its trip count needs a hint (--trip spmv_csr.cu:11=N),
// and x[col[j]] is a data-dependent address.
// foresight predict examples/cuda/spmv_csr.cu --grid 256 --block 128 --arg rows=32768 --trip spmv_csr.cu:11=16
__global__ void spmv_csr(const int* row_ptr, const int* col, const float* val, const float* x,
                         float* y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    for (int j = row_ptr[row]; j < row_ptr[row + 1]; ++j) {
      sum += val[j] * x[col[j]];
    }
    y[row] = sum;
  }
}
