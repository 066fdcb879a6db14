// SPDX-License-Identifier: Apache-2.0
// Tree reduction in shared memory with interleaved addressing (tid % (2s) == 0): divergent warps
// and 2-way and worse bank conflicts. One partial sum per block.
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void reduce_interleaved(const float* in, float* partial, int n) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + tid;
  s[tid] = i < (unsigned)n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = 1; stride < BLOCK; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = s[0];
}
