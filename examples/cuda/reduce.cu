// SPDX-License-Identifier: Apache-2.0
// Block-wise sum reduction in shared memory with barriers (tree of halving strides), one
// partial sum per block. BLOCK must equal blockDim.x.
// foresight predict examples/cuda/reduce.cu --grid 1024 --block 256 --arg n=262144
#ifndef BLOCK
#define BLOCK 256
#endif

__global__ void reduce_sum(const float* in, float* partial, int n) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * BLOCK + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s[tid] += s[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) {
    partial[blockIdx.x] = s[0];
  }
}
