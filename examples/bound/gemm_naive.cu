// SPDX-License-Identifier: Apache-2.0
// Naive SGEMM, C = A·B (n×n, row-major): one thread per element of C, the k loop reads a row of
// A and a column of B from global memory. Two global loads per FFMA: bound by the load path.
// foresight bound examples/bound/gemm_naive.cu --kernel gemm_naive --gpu h100 \
//   --grid 64,64 --block 16,16 --arg n=1024
__global__ void gemm_naive(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}
