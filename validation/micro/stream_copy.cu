// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: DRAM bandwidth. Coalesced copy b = a, one float per thread.
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void stream_copy(const float* a, float* b, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) b[i] = a[i];
}
