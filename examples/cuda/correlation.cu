// SPDX-License-Identifier: Apache-2.0
// Correlation of the columns of an m x n matrix (as PolyBench CORR's last step): thread j1 owns
// row j1 of the symmetric result and walks the columns j2 > j1 (a triangular outer loop) with an
// inner loop over the m rows. Both loops advance their addresses by constant strides, so the
// inner loop folds and the outer one, whose iterations hold alike folds, folds too.
extern "C" __global__ void correlation(const float* data, float* symmat, int m, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < n - 1) {
    symmat[j1 * n + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < n; ++j2) {
      float acc = 0.0f;
      for (int i = 0; i < m; ++i) acc += data[i * n + j1] * data[i * n + j2];
      symmat[j1 * n + j2] = acc;
      symmat[j2 * n + j1] = acc;
    }
  }
}
