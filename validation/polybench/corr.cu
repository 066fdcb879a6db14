// SPDX-License-Identifier: Apache-2.0
// PolyBench-like CORR: column means, column standard deviations, centring and scaling of the
// data matrix (M rows x N columns), then the N x N correlation matrix (one thread per row j1).
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void corr_mean(const float* data, float* mean, int m, int n) {
  int j = blockIdx.x * BLOCK + threadIdx.x;
  if (j < n) {
    float acc = 0.0f;
    for (int i = 0; i < m; ++i) acc += data[i * n + j];
    mean[j] = acc / (float)m;
  }
}

extern "C" __global__ void corr_std(const float* data, const float* mean, float* stddev, int m, int n) {
  int j = blockIdx.x * BLOCK + threadIdx.x;
  if (j < n) {
    float acc = 0.0f;
    for (int i = 0; i < m; ++i) {
      float d = data[i * n + j] - mean[j];
      acc += d * d;
    }
    acc = sqrtf(acc / (float)m);
    stddev[j] = acc <= 0.005f ? 1.0f : acc;
  }
}

extern "C" __global__ void corr_reduce(float* data, const float* mean, const float* stddev, int m, int n) {
  int j = blockIdx.x * 32 + threadIdx.x;
  int i = blockIdx.y * 8 + threadIdx.y;
  if (i < m && j < n) data[i * n + j] = (data[i * n + j] - mean[j]) / (sqrtf((float)m) * stddev[j]);
}

extern "C" __global__ void corr_corr(const float* data, float* symmat, int m, int n) {
  int j1 = blockIdx.x * BLOCK + threadIdx.x;
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
