// SPDX-License-Identifier: Apache-2.0
// PolyBench-like COVAR: column means, centring, then the N x N covariance matrix (one thread per
// row j1, triangular inner loop: later threads do less work).
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void covar_mean(const float* data, float* mean, int m, int n) {
  int j = blockIdx.x * BLOCK + threadIdx.x;
  if (j < n) {
    float acc = 0.0f;
    for (int i = 0; i < m; ++i) acc += data[i * n + j];
    mean[j] = acc / (float)m;
  }
}

extern "C" __global__ void covar_reduce(float* data, const float* mean, int m, int n) {
  int j = blockIdx.x * 32 + threadIdx.x;
  int i = blockIdx.y * 8 + threadIdx.y;
  if (i < m && j < n) data[i * n + j] -= mean[j];
}

extern "C" __global__ void covar_covar(const float* data, float* symmat, int m, int n) {
  int j1 = blockIdx.x * BLOCK + threadIdx.x;
  if (j1 < n) {
    for (int j2 = j1; j2 < n; ++j2) {
      float acc = 0.0f;
      for (int i = 0; i < m; ++i) acc += data[i * n + j1] * data[i * n + j2];
      symmat[j1 * n + j2] = acc;
      symmat[j2 * n + j1] = acc;
    }
  }
}
