// SPDX-License-Identifier: Apache-2.0
// Single bottleneck: shared-memory latency. One dependent chain of ITERS shared loads per thread.
#ifndef ITERS
#define ITERS 4096
#endif

extern "C" __global__ void shared_chase(const int* init, int* out) {
  __shared__ int next[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) next[i] = init[i];
  __syncthreads();
  int p = threadIdx.x & 1023;
  for (int i = 0; i < ITERS; ++i) p = next[p];
  out[blockIdx.x * blockDim.x + threadIdx.x] = p;
}
