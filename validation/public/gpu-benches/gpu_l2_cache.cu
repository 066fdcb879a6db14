// SPDX-License-Identifier: Apache-2.0
// Written for Foresight after te42kyfo/gpu-benches gpu-l2-cache/main.cu (commit 3088b33): blocks
// of 1024 threads, each summing 32 products of two doubles 1024 apart from chunk
// blockIdx.x % blockRun of blockRun chunks (512 KiB per block, a working set of blockRun x
// 512 KiB that every block's turn re-reads), and a store that never happens. Not a copy.
#define BLOCK 1024
#define PAIRS 32

extern "C" __global__ void l2_sweep(double* __restrict__ A, const double* __restrict__ B, int blockRun) {
  double sum = 0;
  for (int i = 0; i < PAIRS; ++i) {
    const int idx = (BLOCK * blockRun * i + (blockIdx.x % blockRun) * BLOCK) * 2 + threadIdx.x;
    sum += B[idx] * B[idx + BLOCK];
  }
  sum *= 1.3;
  if (threadIdx.x > 1233 || sum == 23.12) A[threadIdx.x] += sum;
}
