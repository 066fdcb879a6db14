// SPDX-License-Identifier: Apache-2.0
// CSR sparse matrix-vector product y = A x, one thread per row (SHOC's scalar kernel). The
// row bounds come from memory, so the inner loop needs a trip hint; x[cols[j]] is a
// data-dependent gather. PORPLE's spmv arrays: rowDelimiters, cols, val, vec, out.
// foresight place examples/place/spmv_scalar.cu --gpu k20c --grid 128 --block 128 --arg rows=16384 --trip spmv_scalar.cu:12=16 --array vec=65536
__global__ void spmv_scalar(const float* val, const int* cols, const int* rowDelimiters, const float* vec,
                            float* out, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    int end = rowDelimiters[row + 1];
    for (int j = rowDelimiters[row]; j < end; ++j) {
      sum += val[j] * vec[cols[j]];
    }
    out[row] = sum;
  }
}
