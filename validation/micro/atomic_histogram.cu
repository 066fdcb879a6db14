// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: atomics. Global-memory histogram of N keys; with keys drawn from 2 bins
// every atomic collides (the histo_kernel failure SAAKE reports), with 4096 bins few do.
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void atomic_histogram(const int* keys, unsigned* bins, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) atomicAdd(&bins[keys[i]], 1u);
}
