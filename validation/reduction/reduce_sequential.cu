// SPDX-License-Identifier: Apache-2.0
// Tree reduction with sequential addressing (stride halves, threads tid < s active): no
// divergence inside active warps, no bank conflicts; each thread first adds ITEMS elements.
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 1
#endif

extern "C" __global__ void reduce_sequential(const float* in, float* partial, int n) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned base = blockIdx.x * BLOCK * ITEMS + tid;
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    unsigned i = base + k * BLOCK;
    if (i < (unsigned)n) acc += in[i];
  }
  s[tid] = acc;
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = s[0];
}
